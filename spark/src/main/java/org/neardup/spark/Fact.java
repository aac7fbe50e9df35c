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

  /**
   * The representative's fingerprint and encoded sketch (for a member): its distance and similarity
   * to the representative are worked out where the member is, when its lines are made.
   */
  public long repFingerprint;

  public byte[] repSketch = new byte[0];

  /** False once a pair made it the later one of a pair. */
  public boolean isNew = true;

  /** The first document with the same id (it is then an error), or -1. */
  public int repeatOf = -1;

  public Fact() {}

  static Fact member(int size, Doc rep) {
    Fact f = new Fact();
    f.rep = rep.ordinal;
    f.repId = rep.idJson;
    f.size = size;
    f.repFingerprint = rep.fingerprint;
    f.repSketch = rep.sketch;
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
      repFingerprint = o.repFingerprint;
      repSketch = o.repSketch;
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
