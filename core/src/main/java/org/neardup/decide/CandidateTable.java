// SPDX-License-Identifier: Apache-2.0
package org.neardup.decide;

import java.util.Arrays;
import org.jspecify.annotations.Nullable;
import org.neardup.verify.SketchStore;

/**
 * Stored documents fetched as candidates for one query, in any order and with repeats: what a store
 * that keeps its index outside the engine hands to {@link Decision#verify}. Each candidate carries
 * what the decision needs: its ordinal (insertion order), its fingerprint, the root of its cluster,
 * its encoded sketch, and whether it was found under a band key (else under a block key only).
 *
 * <p>Not thread-safe: one per thread, reused with {@link #clear()}.
 */
public final class CandidateTable implements Candidates {
  private static final byte[] NO_BYTES = new byte[0];

  long[] ordinals = new long[16];
  long[] fingerprints = new long[16];
  long[] roots = new long[16];
  boolean[] viaBand = new boolean[16];
  byte[][] sketches = new byte[16][];
  int size;
  private Integer[] order = new Integer[0];

  /** After {@link #sortUnique()}: the positions of the distinct candidates, by ordinal. */
  private int[] unique = new int[0];

  @Override
  public int sortUnique() {
    unique = sortedUnique();
    return unique.length;
  }

  @Override
  public long ordinal(int i) {
    return ordinals[unique[i]];
  }

  /** Never: a fetch leaves out the candidates removed since they were found. */
  @Override
  public boolean removed(int i) {
    return false;
  }

  @Override
  public long fingerprint(int i) {
    return fingerprints[unique[i]];
  }

  @Override
  public boolean anyDistance(int i) {
    return viaBand[unique[i]];
  }

  @Override
  public long root(int i) {
    return roots[unique[i]];
  }

  @Override
  public void sketch(int i, SketchStore.Slice into) {
    byte[] s = sketches[unique[i]];
    into.view(s, 0, s.length);
  }

  public void clear() {
    size = 0;
  }

  public int size() {
    return size;
  }

  /**
   * Adds a candidate.
   *
   * @param ordinal its insertion order among the stored documents
   * @param fingerprint its fingerprint
   * @param root the ordinal of its cluster's earliest member
   * @param sketch its encoded shingle sketch ({@link org.neardup.verify.ShingleSketch#encode()}),
   *     or null without verification
   * @param viaBand whether it shares a band key with the query
   */
  public void add(
      long ordinal, long fingerprint, long root, byte @Nullable [] sketch, boolean viaBand) {
    if (size == ordinals.length) {
      int n = size * 2;
      ordinals = Arrays.copyOf(ordinals, n);
      fingerprints = Arrays.copyOf(fingerprints, n);
      roots = Arrays.copyOf(roots, n);
      this.viaBand = Arrays.copyOf(this.viaBand, n);
      sketches = Arrays.copyOf(sketches, n);
    }
    ordinals[size] = ordinal;
    fingerprints[size] = fingerprint;
    roots[size] = root;
    this.viaBand[size] = viaBand;
    sketches[size++] = sketch == null ? NO_BYTES : sketch;
  }

  /**
   * The candidates' positions in increasing ordinal order, each ordinal once (a repeat found under
   * a band key marks the kept one as found under a band key).
   */
  int[] sortedUnique() {
    if (order.length < size) {
      order = new Integer[Math.max(size, order.length * 2)];
    }
    for (int i = 0; i < size; i++) {
      order[i] = i;
    }
    Arrays.sort(order, 0, size, (a, b) -> Long.compare(ordinals[a], ordinals[b]));
    int[] out = new int[size];
    int m = 0;
    for (int j = 0; j < size; j++) {
      int i = order[j];
      if (m > 0 && ordinals[out[m - 1]] == ordinals[i]) {
        viaBand[out[m - 1]] |= viaBand[i];
        continue;
      }
      out[m++] = i;
    }
    return Arrays.copyOf(out, m);
  }
}
