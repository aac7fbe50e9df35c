// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import org.neardup.decide.CandidateKeys;

/**
 * The entries of a block key: a Redis string of fixed-width entries, a 5-byte ordinal (big-endian)
 * then the fingerprint's bits outside the block ({@link #restBytes} bytes: 6 for the 4 blocks of 16
 * bits of k <= 3), in ascending ordinal order. The block's own bits are the key, so an entry keeps
 * only the rest; two fingerprints under one block key differ only in their rests, so the distance
 * is the popcount of the rests' XOR, computed by the node without reading any record. Immutable.
 */
final class BlockEntries {
  /*
   * Why a string and not a set of ordinals (the seeds' layout): with a set, filtering candidates by
   * distance needs every member's fingerprint, one HGET per member inside Redis (at 10M documents,
   * ~150 members per block key, 600 per check). Here one GET per block key returns what the filter
   * needs. Memory: 11 bytes per entry and 4 entries per document (44 B), against 4-byte intset
   * members plus the fingerprint once in the record. Ordinals ascend: an insert appends the next
   * ordinal, a removal cuts its entry out, so the entries a commit's conflict check needs (those
   * above the probe's sequence number) are the last ones. 5-byte ordinals: 2^40 inserts.
   */
  static final int ORDINAL_BYTES = 5;

  private final long[] masks;
  private final int[] shifts;
  private final int[] widths;
  final int restBytes;
  final int width;

  BlockEntries(CandidateKeys keys) {
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
      masks[t] = mask;
      shifts[t] = Long.numberOfTrailingZeros(mask);
      widths[t] = Long.bitCount(mask);
      assert mask == (-1L >>> (64 - widths[t])) << shifts[t] : "block bits are contiguous";
      minBits = Math.min(minBits, widths[t]);
    }
    restBytes = (64 - minBits + 7) / 8;
    width = ORDINAL_BYTES + restBytes;
  }

  /** The fingerprint's bits outside block {@code t}, packed to the right. */
  long rest(int t, long fingerprint) {
    long low = fingerprint & ((1L << shifts[t]) - 1);
    int top = shifts[t] + widths[t];
    long high = top >= 64 ? 0 : fingerprint >>> top;
    return high << shifts[t] | low;
  }

  /** Writes {@code rest(t, fingerprint)} as {@link #restBytes} big-endian bytes at {@code off}. */
  void putRest(int t, long fingerprint, byte[] out, int off) {
    long r = rest(t, fingerprint);
    for (int i = restBytes - 1; i >= 0; i--) {
      out[off + i] = (byte) r;
      r >>>= 8;
    }
  }

  /**
   * Writes the entry of ordinal {@code ordinal} under block {@code t} ({@link #width} bytes: the
   * ordinal, then {@code rest(t, fingerprint)}) at {@code off}, as the commit script appends it.
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

  /** The rest of the entry at {@code off}. */
  long rest(byte[] entries, int off) {
    long r = 0;
    for (int i = ORDINAL_BYTES; i < width; i++) {
      r = r << 8 | (entries[off + i] & 0xff);
    }
    return r;
  }
}
