// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

import java.util.Arrays;
import org.neardup.internal.Checks;

/**
 * The brute-force reference: compares the query with every stored fingerprint. Every other {@link
 * HammingIndex} must return exactly what this one returns.
 *
 * <p>Not thread-safe. A search costs one XOR and one popcount per entry (about 0.5 ns each, so some
 * 5 ms at 10M entries); {@link #add} is amortised O(1); {@link #remove} is O(n) to find the entry
 * and O(1) to drop it (the last entry takes its place). 16 bytes per entry.
 */
public final class LinearScanIndex implements HammingIndex {
  /*
   * Invariants: fingerprints[i] and docIds[i] form entry i for 0 <= i < size; no other slot is
   * meaningful. Order is insertion order up to swap-removes.
   */
  private long[] fingerprints;
  private long[] docIds;
  private int size;

  /** An empty index. */
  public LinearScanIndex() {
    fingerprints = new long[16];
    docIds = new long[16];
  }

  @Override
  public void add(long fingerprint, long docId) {
    if (size == fingerprints.length) {
      Checks.checkState(size < Integer.MAX_VALUE - 16, "LinearScanIndex is full: %s", size);
      int capacity = (int) Math.min(Integer.MAX_VALUE - 8, size * 2L);
      fingerprints = Arrays.copyOf(fingerprints, capacity);
      docIds = Arrays.copyOf(docIds, capacity);
    }
    fingerprints[size] = fingerprint;
    docIds[size] = docId;
    size++;
  }

  /**
   * Adds {@code fingerprints[i], docIds[i]} for {@code from <= i < to}.
   *
   * @throws IllegalArgumentException if the arrays' lengths differ or the range is out of bounds
   */
  @Override
  public void addAll(long[] fingerprints, long[] docIds, int from, int to) {
    BlockPermutedIndex.checkBulk(fingerprints, docIds, from, to);
    for (int i = from; i < to; i++) {
      add(fingerprints[i], docIds[i]);
    }
  }

  @Override
  public boolean remove(long fingerprint, long docId) {
    for (int i = 0; i < size; i++) {
      if (fingerprints[i] == fingerprint && docIds[i] == docId) {
        size--;
        fingerprints[i] = fingerprints[size];
        docIds[i] = docIds[size];
        return true;
      }
    }
    return false;
  }

  @Override
  public int search(long query, int maxDistance, MatchConsumer out) {
    Checks.checkMaxDistance(maxDistance, 64);
    Checks.checkArgument(out != null, "out must not be null");
    int count = 0;
    for (int i = 0; i < size; i++) {
      int d = Long.bitCount(fingerprints[i] ^ query);
      if (d <= maxDistance) {
        out.accept(docIds[i], fingerprints[i], d);
        count++;
      }
    }
    return count;
  }

  @Override
  public int nearest(long query, int maxDistance, MatchConsumer out) {
    Checks.checkMaxDistance(maxDistance, 64);
    Checks.checkArgument(out != null, "out must not be null");
    int best = -1;
    int bestDistance = -1;
    for (int i = 0; i < size; i++) {
      int d = Long.bitCount(fingerprints[i] ^ query);
      if (d <= maxDistance
          && (best < 0
              || d < bestDistance
              || (d == bestDistance
                  && (docIds[i] < docIds[best]
                      || (docIds[i] == docIds[best]
                          && Long.compareUnsigned(fingerprints[i], fingerprints[best]) < 0))))) {
        best = i;
        bestDistance = d;
      }
    }
    if (best < 0) {
      return -1;
    }
    int d = bestDistance;
    out.accept(docIds[best], fingerprints[best], d);
    return d;
  }

  @Override
  public boolean any(long query, int maxDistance) {
    Checks.checkMaxDistance(maxDistance, 64);
    for (int i = 0; i < size; i++) {
      if (Long.bitCount(fingerprints[i] ^ query) <= maxDistance) {
        return true;
      }
    }
    return false;
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public long ramBytesUsed() {
    return 16L * fingerprints.length + 2 * 16 + 24;
  }

  @Override
  public int maxSupportedDistance() {
    return 64;
  }
}
