// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

/**
 * What a segment's tables other than table 0 store per entry, for one scheme.
 *
 * <p>Every table t sorts its entries by a 64-bit <em>value</em> whose top 16 bits are the directory
 * bucket. Two layouts:
 *
 * <ul>
 *   <li><b>wide</b>: the value is {@link BlockScheme#permute permute(t, fp)}, and a table keeps its
 *       low 48 bits ({@link WideRecords}, 6 bytes): the whole fingerprint is recovered from the
 *       record. Used when a key is wider or narrower than 16 bits (5:2, 6:3), where lookups
 *       binary-search the key's bits below the bucket.
 *   <li><b>prefix</b>: when every key is exactly 16 bits (4:1), the value is the key on top, then
 *       the top 32 bits of the fingerprint with the key's bits taken out (the <em>tag</em>), then
 *       zeros; a table keeps only the tag ({@link PrefixRecords}, one int). The tag filters a
 *       bucket as the wide record's top 32 bits do (a random entry passes at k = 3 with probability
 *       1.3 * 10^-6), and key plus tag fix the fingerprint's top {@link #prefixBits} bits (at least
 *       32), so a candidate is found in table 0 by a binary search on that prefix, which yields its
 *       fingerprint and docId. For 4:1 this is 6 + 4 + 3 * 4 = 22 bytes per entry with 4-byte
 *       docIds (see {@link DocIds}), against 16 + 3 * 6 = 34 for wide records. Tags are 4 bytes
 *       rather than 3 so that a bucket is scanned as an int[]: the scan of 153 entries (10M stored)
 *       runs as one vectorised pass ({@code IndexSearch#anyWithin}).
 * </ul>
 *
 * Immutable.
 */
final class RecordLayout {
  static final int TAG_BITS = 32;

  private final BlockScheme scheme;
  private final boolean prefix;
  // Per table, the runs of non-key bits that make the tag: source shift, width, shift in the tag.
  private final int[][] runSrc;
  private final int[][] runWidth;
  private final int[][] runDst;
  private final long[] tagMask; // the tag's bits in place in the fingerprint
  private final long[] knownMask; // key and tag bits in place
  private final int[] prefixBits; // leading bits of knownMask

  RecordLayout(BlockScheme scheme) {
    this.scheme = scheme;
    int tables = scheme.tables();
    boolean all16 = true;
    for (int t = 0; t < tables; t++) {
      all16 &= scheme.keyBits(t) == Segment.DIR_BITS;
    }
    runSrc = new int[tables][];
    runWidth = new int[tables][];
    runDst = new int[tables][];
    tagMask = new long[tables];
    knownMask = new long[tables];
    prefixBits = new int[tables];
    boolean ok = all16;
    for (int t = 1; t < tables && all16; t++) {
      initTable(t);
      ok &= prefixBits[t] >= Segment.DIR_BITS;
    }
    prefix = ok;
  }

  private void initTable(int t) {
    long key = scheme.keyMask(t);
    int[] src = new int[64];
    int[] width = new int[64];
    int[] dst = new int[64];
    int runs = 0;
    int left = TAG_BITS;
    int bit = 63;
    while (left > 0 && bit >= 0) {
      if ((key & (1L << bit)) != 0) {
        bit--;
        continue;
      }
      int top = bit;
      while (bit >= 0 && (key & (1L << bit)) == 0 && top - bit < left) {
        bit--;
      }
      int w = top - bit;
      left -= w;
      src[runs] = bit + 1;
      width[runs] = w;
      dst[runs] = left;
      tagMask[t] |= BlockScheme.mask(w) << (bit + 1);
      runs++;
    }
    runSrc[t] = java.util.Arrays.copyOf(src, runs);
    runWidth[t] = java.util.Arrays.copyOf(width, runs);
    runDst[t] = java.util.Arrays.copyOf(dst, runs);
    knownMask[t] = key | tagMask[t];
    prefixBits[t] = Long.numberOfLeadingZeros(~knownMask[t]);
  }

  BlockScheme scheme() {
    return scheme;
  }

  /** Whether tables 1.. use the prefix layout. */
  boolean prefix() {
    return prefix;
  }

  /** The value table t sorts fingerprint fp by. */
  long value(int t, long fp) {
    long permuted = scheme.permute(t, fp);
    if (!prefix || t == 0) {
      return permuted;
    }
    return (permuted & (-1L << 48)) | ((tag(t, fp) & 0xFFFF_FFFFL) << (48 - TAG_BITS));
  }

  /** The tag of fp in table t (prefix layout). */
  int tag(int t, long fp) {
    int[] src = runSrc[t];
    int[] width = runWidth[t];
    int[] dst = runDst[t];
    long tag = 0;
    for (int i = 0; i < src.length; i++) {
      tag |= ((fp >>> src[i]) & BlockScheme.mask(width[i])) << dst[i];
    }
    return (int) tag;
  }

  /** The key and tag bits of table t's entry (bucket, tag), in place in the fingerprint. */
  long known(int t, int bucket, int tag) {
    long fp = scheme.unpermute(t, (long) bucket << 48) & scheme.keyMask(t);
    int[] src = runSrc[t];
    int[] width = runWidth[t];
    int[] dst = runDst[t];
    for (int i = 0; i < src.length; i++) {
      fp |= ((long) (tag >>> dst[i]) & BlockScheme.mask(width[i])) << src[i];
    }
    return fp;
  }

  /** The bits {@link #known} sets, in place. */
  long knownMask(int t) {
    return knownMask[t];
  }

  /** How many leading bits of a fingerprint {@link #known} fixes; at least 16. */
  int prefixBits(int t) {
    return prefixBits[t];
  }
}
