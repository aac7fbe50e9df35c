// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import org.neardup.decide.CandidateKeys;

/**
 * The entries of a block key: a Redis string of fixed-width entries, a 5-byte ordinal (big-endian)
 * then a key of the fingerprint's bits outside the block key's bits ({@link #restBytes} bytes: the
 * low 32 of the 48 bits outside a 16-bit block of k <= 3), in ascending ordinal order. The key's
 * bits (the block's, or its top {@link Layout#blockBits}) name the key, so an entry keeps only part
 * of the rest; the popcount of two rest keys' XOR counts their differences in those 32 bits, a
 * lower bound of the distance, so the node drops every candidate farther than k without reading any
 * record and verifies the few left on their full fingerprints. Immutable.
 */
final class BlockEntries {
  /*
   * Why a string and not a set of ordinals (the seeds' layout): with a set, filtering candidates by
   * distance needs every member's fingerprint, one HGET per member inside Redis (at 10M documents,
   * ~150 members per block key, 600 per check). Here one GET per block key returns what the filter
   * needs. Ordinals ascend: an insert appends the next ordinal, a removal cuts its entry out, so
   * the entries a commit's conflict check needs (those above the probe's sequence number) are the
   * last ones. 5-byte ordinals: 2^40 inserts.
   * Why 32 bits of the rest and not all 48 (issue 15, memory): 9 bytes per entry instead of 11,
   * 8 bytes per document over its 4 block keys (measured at 1M: the block keys' MEMORY USAGE went
   * from 67.2 to 59.7 B per document, 256 to 228 B per key). The filter only gets
   * weaker: a random fingerprint under the same block key passes it with probability
   * sum_{i<=3} C(32,i) / 2^32 = 1.3e-6 (against 1.7e-8 with 48 bits), i.e. one extra record fetched
   * per ~1,300 checks at 10M documents (600 entries per check). A commit's conflict check compares
   * the same 32 bits, so a candidate that is not one makes it retry, never store wrongly.
   */
  static final int ORDINAL_BYTES = 5;

  /** The most bytes of rest an entry keeps (32 bits). */
  static final int MAX_REST_BYTES = 4;

  private final long[] masks;
  private final int[] shifts;
  private final int[] widths;
  final int restBytes;
  private final long restMask;
  final int width;

  /** Entries under keys of all 16 bits of each block (the default layout). */
  BlockEntries(CandidateKeys keys) {
    this(keys, Layout.MAX_BLOCK_BITS);
  }

  /**
   * Entries under keys of the top {@code keyBits} bits of each block ({@link Layout#blockBits}): a
   * block key then stands for 2^(16 - keyBits) block values, and the block's low bits go into the
   * entries' rest like any bit outside the key.
   */
  BlockEntries(CandidateKeys keys, int keyBits) {
    int n = keys.blockCount();
    masks = new long[n];
    shifts = new int[n];
    widths = new int[n];
    int minBits = 64;
    for (int t = 0; t < n; t++) {
      // A bit belongs to block t when it changes block key t's value.
      long mask = 0;
      for (int bit = 0; bit < 64; bit++) {
        if ((keys.blockKey(t, 1L << bit) & 0xffff) != 0) {
          mask |= 1L << bit;
        }
      }
      int blockWidth = Long.bitCount(mask);
      assert mask == (-1L >>> (64 - blockWidth)) << Long.numberOfTrailingZeros(mask)
          : "block bits are contiguous";
      if (blockWidth > keyBits) {
        // The key keeps the block's top keyBits bits.
        mask &= -1L << (Long.numberOfTrailingZeros(mask) + blockWidth - keyBits);
      }
      masks[t] = mask;
      shifts[t] = Long.numberOfTrailingZeros(mask);
      widths[t] = Long.bitCount(mask);
      minBits = Math.min(minBits, widths[t]);
    }
    restBytes = Math.min(MAX_REST_BYTES, (64 - minBits + 7) / 8);
    restMask = restBytes == 8 ? -1L : (1L << (8 * restBytes)) - 1;
    width = ORDINAL_BYTES + restBytes;
  }

  /**
   * The block key {@code t} a fingerprint is filed under, {@code t << 16 | value} (the value of the
   * key's bits of block t): {@link CandidateKeys#blockKey} when keys have all the block's bits.
   * Fingerprints within k bits share at least one (pigeonhole: they share a whole block).
   */
  int key(int t, long fingerprint) {
    return t << 16 | (int) ((fingerprint & masks[t]) >>> shifts[t]);
  }

  /** Every block key of a fingerprint, in block order. */
  int[] keys(long fingerprint) {
    int[] out = new int[masks.length];
    for (int t = 0; t < out.length; t++) {
      out[t] = key(t, fingerprint);
    }
    return out;
  }

  /** The number of block keys per fingerprint. */
  int count() {
    return masks.length;
  }

  /** The fingerprint's bits outside block key {@code t}'s bits, packed to the right. */
  long rest(int t, long fingerprint) {
    long low = fingerprint & ((1L << shifts[t]) - 1);
    int top = shifts[t] + widths[t];
    long high = top >= 64 ? 0 : fingerprint >>> top;
    return high << shifts[t] | low;
  }

  /**
   * The part of {@code rest(t, fingerprint)} an entry keeps: its low {@link #restBytes} bytes. The
   * popcount of two rest keys' XOR is at most the two fingerprints' distance.
   */
  long restKey(int t, long fingerprint) {
    return rest(t, fingerprint) & restMask;
  }

  /**
   * Writes {@code restKey(t, fingerprint)} as {@link #restBytes} big-endian bytes at {@code off}.
   */
  void putRest(int t, long fingerprint, byte[] out, int off) {
    long r = restKey(t, fingerprint);
    for (int i = restBytes - 1; i >= 0; i--) {
      out[off + i] = (byte) r;
      r >>>= 8;
    }
  }

  /**
   * Writes the entry of ordinal {@code ordinal} under block {@code t} ({@link #width} bytes: the
   * ordinal, then {@code restKey(t, fingerprint)}) at {@code off}, as the commit script appends it.
   */
  void putEntry(int t, long ordinal, long fingerprint, byte[] out, int off) {
    long o = ordinal;
    for (int i = ORDINAL_BYTES - 1; i >= 0; i--) {
      out[off + i] = (byte) o;
      o >>>= 8;
    }
    putRest(t, fingerprint, out, off + ORDINAL_BYTES);
  }

  /** The ordinal of the entry at {@code off}. */
  static long ordinal(byte[] entries, int off) {
    long o = 0;
    for (int i = 0; i < ORDINAL_BYTES; i++) {
      o = o << 8 | (entries[off + i] & 0xff);
    }
    return o;
  }

  /** The rest key of the entry at {@code off}. */
  long rest(byte[] entries, int off) {
    long r = 0;
    for (int i = ORDINAL_BYTES; i < width; i++) {
      r = r << 8 | (entries[off + i] & 0xff);
    }
    return r;
  }
}
