// SPDX-License-Identifier: Apache-2.0
package org.neardup.fingerprint;

import java.util.Arrays;

/**
 * Counts the distinct terms of one text by hash: open addressing, cleared in time proportional to
 * the terms it held, so a short text after a long one costs nothing extra. Not thread-safe.
 */
final class TermTable {
  private long[] keys = new long[1024];
  private int[] slotToIndex = new int[1024];
  private int mask = 1023;
  long[] hashOfIndex = new long[512];
  int[] counts = new int[512];
  float[] idfs = new float[512];
  float[] weights = new float[512];
  int size;

  void clear() {
    for (int i = 0; i < size; i++) {
      long key = hashOfIndex[i] == 0 ? 1 : hashOfIndex[i];
      int slot = (int) (key ^ (key >>> 32)) & mask;
      while (keys[slot] != 0) {
        keys[slot] = 0;
        slot = (slot + 1) & mask;
      }
    }
    size = 0;
  }

  /**
   * Counts one more occurrence of a term the table holds and returns its index; for a term it does
   * not hold, changes nothing and returns {@code -(slot + 1)}, the empty slot where {@link #addAt}
   * puts it. One probe sequence for the word's two outcomes, where a lookup and then {@link
   * #increment} walked it twice for every new term.
   */
  int countOrFreeSlot(long hash) {
    long key = hash == 0 ? 1 : hash;
    int slot = (int) (key ^ (key >>> 32)) & mask;
    while (true) {
      long k = keys[slot];
      if (k == key) {
        int index = slotToIndex[slot];
        counts[index]++;
        return index;
      }
      if (k == 0) {
        return -(slot + 1);
      }
      slot = (slot + 1) & mask;
    }
  }

  /** Counts one occurrence of the term; returns its index (new terms get the next index). */
  int increment(long hash, float idf) {
    int found = countOrFreeSlot(hash);
    return found >= 0 ? found : addAt(-found - 1, hash, idf);
  }

  /**
   * Adds a term the table does not hold, counted once, at {@code freeSlot}, the empty slot {@link
   * #countOrFreeSlot} returned for it with no change to the table since; returns its index.
   */
  int addAt(int freeSlot, long hash, float idf) {
    if (size == hashOfIndex.length) {
      int cap = size * 2;
      hashOfIndex = Arrays.copyOf(hashOfIndex, cap);
      counts = Arrays.copyOf(counts, cap);
      idfs = Arrays.copyOf(idfs, cap);
      weights = Arrays.copyOf(weights, cap);
    }
    int index = size++;
    keys[freeSlot] = hash == 0 ? 1 : hash;
    slotToIndex[freeSlot] = index;
    hashOfIndex[index] = hash;
    counts[index] = 1;
    idfs[index] = idf;
    if (size * 2 > keys.length) {
      rehash();
    }
    return index;
  }

  private void rehash() {
    keys = new long[keys.length * 2];
    slotToIndex = new int[keys.length];
    mask = keys.length - 1;
    for (int i = 0; i < size; i++) {
      long key = hashOfIndex[i] == 0 ? 1 : hashOfIndex[i];
      int slot = (int) (key ^ (key >>> 32)) & mask;
      while (keys[slot] != 0) {
        slot = (slot + 1) & mask;
      }
      keys[slot] = key;
      slotToIndex[slot] = i;
    }
  }

  /** The IDF of a term whose lookup is left to the weighing: not a number until it is set. */
  static final float IDF_PENDING = Float.NaN;

  /** The weight of every term, by index. */
  float[] weights(FingerprintSettings.TfScaling tf) {
    for (int i = 0; i < size; i++) {
      weights[i] = scale(tf, counts[i]) * idfs[i];
    }
    return weights;
  }

  /** A term's weight is this times its IDF: non-decreasing in the count. */
  static float scale(FingerprintSettings.TfScaling tf, int count) {
    switch (tf) {
      case RAW:
        return count;
      case LOG:
        return 1f + (float) Math.log(count);
      default:
        return 1f;
    }
  }
}
