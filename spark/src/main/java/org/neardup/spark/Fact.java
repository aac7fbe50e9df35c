// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import java.io.Serializable;
import org.jspecify.annotations.Nullable;

/**
 * What the job decided about one document, gathered from several places (its cluster, whether a
 * pair made it a duplicate on arrival, a repeated id) and merged by ordinal before the document's
 * lines are written. The defaults are those of a document alone in its cluster.
 */
public final class Fact implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The representative's ordinal, or -1 for the document itself. */
  public int rep = -1;

  /** The representative's id as JSON (for a member). */
  public @Nullable String repId;

  /** Its cluster's size. */
  public int size = 1;

  /** Hamming distance and similarity to the representative (for a member). */
  public int distance;

  public double similarity = 1.0;

  /** False once a pair made it the later one of a pair. */
  public boolean isNew = true;

  /** The first document with the same id (it is then an error), or -1. */
  public int repeatOf = -1;

  public Fact() {}

  static Fact member(int rep, String repId, int size, int distance, double similarity) {
    Fact f = new Fact();
    f.rep = rep;
    f.repId = repId;
    f.size = size;
    f.distance = distance;
    f.similarity = similarity;
    return f;
  }

  static Fact representative(int size) {
    Fact f = new Fact();
    f.size = size;
    return f;
  }

  static Fact notNew() {
    Fact f = new Fact();
    f.isNew = false;
    return f;
  }

  static Fact repeatOf(int first) {
    Fact f = new Fact();
    f.repeatOf = first;
    return f;
  }

  /** Adds what {@code o} knows to this one. */
  void merge(Fact o) {
    if (o.rep >= 0) {
      rep = o.rep;
      repId = o.repId;
      distance = o.distance;
      similarity = o.similarity;
    }
    if (o.size > 1) {
      size = o.size;
    }
    isNew &= o.isNew;
    if (o.repeatOf >= 0) {
      repeatOf = o.repeatOf;
    }
  }
}
