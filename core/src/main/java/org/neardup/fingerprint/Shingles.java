// SPDX-License-Identifier: Apache-2.0
package org.neardup.fingerprint;

/** Hashes of word n-grams built from the words' hashes. Part of the fingerprint format. */
final class Shingles {
  private Shingles() {}

  /**
   * Folds the next word's hash into an n-gram hash (start from 0): {@code fmix64(rotl(acc, 21) ^
   * word) }, MurmurHash3's finaliser, so the order of words matters.
   */
  static long combine(long acc, long word) {
    long h = Long.rotateLeft(acc, 21) ^ word;
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb93fe53e63bL;
    h ^= h >>> 33;
    return h;
  }
}
