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
 *       zeros; a table keeps only the tag ({@link PrefixRecords}, 4 bytes). The tag filters a
 *       bucket as the wide record's top 32 bits do (a random entry passes at k = 3 with probability
 *       1.3 * 10^-6), and key plus tag fix the fingerprint's top {@link #prefixBits} bits (at least
 *       32), so a candidate is found in table 0 by a binary search on that prefix, which yields its
 *       fingerprint and docId. For 4:1 this is 6 + 4 + 3 * 4 = 22 bytes per entry with 4-byte
 *       docIds (see {@link DocIds}), against 16 + 3 * 6 = 34 for wide records. A bucket is scanned
 *       by the tags' high 16 bits, packed two per int so that the scan runs as one vectorised pass
 *       ({@code IndexSearch#anyHighInRange}), and a tag's low 16 bits are read only where its high
 *       half passes.
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
  // Per table (prefix layout): bounds on a reportable entry's high tag half (see highBounds), and
  // whether the table keeps its tags split into halves.
  private final int[] highLower;
  private final int[] highCut;
  private final boolean[] split;

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
    highLower = new int[tables];
    highCut = new int[tables];
    split = new boolean[tables];
    if (prefix) {
      for (int t = 1; t < tables; t++) {
        highBounds(t);
        split[t] = highPassRate(t, scheme.exactUpTo()) <= MAX_SPLIT_PASS_RATE;
      }
    }
  }

  /**
   * The largest share of random entries whose high tag half may pass (at k = exactUpTo) for which a
   * table keeps its tags split: each passing entry costs a read of its low half (a cache miss after
   * the scan's) and a scalar walk of the bucket to find it, so a table whose high halves pass too
   * often keeps whole int tags. 4:1: table 1's high halves pass at 1.1% (1.6 of 153 entries at
   * 10M), tables 2 and 3's at 0.21% and 0.024%.
   */
  static final double MAX_SPLIT_PASS_RATE = 1.0 / 256;

  /**
   * With e = 0 an entry of table t's bucket equals the query on t's key, and it is reported from t
   * only when it differs from the query in at least one bit of every earlier table u's key, and so
   * in u's bits outside t's key, r(u). Where r(u) lies inside the tag's high half H, the entry's H
   * differs in at least one bit there; where r(u) lies outside H, it spends one bit of the budget
   * there, leaving one less for H. Counting pairwise disjoint r(u) of each kind gives {@link
   * #highLower} and {@link #highCut}: a reportable entry's H is at least highLower and at most
   * budget - highCut bits from the query's. For 4:1, where H is table 0's key in every table t >=
   * 1: [1, k], [1, k - 1], [1, k - 2] for tables 1, 2, 3.
   */
  private void highBounds(int t) {
    long key = scheme.keyMask(t);
    long inside = 0;
    long outside = 0;
    for (int u = 0; u < t; u++) {
      long r = scheme.keyMask(u) & ~key;
      if (r == 0) {
        continue;
      }
      int rTag = tag(t, r & tagMask[t]);
      boolean inH = (r & ~tagMask[t]) == 0 && (rTag & 0xFFFF) == 0;
      boolean offH = (rTag & 0xFFFF_0000) == 0;
      if (inH && (r & inside) == 0) {
        highLower[t]++;
        inside |= r;
      } else if (offH && (r & outside) == 0) {
        highCut[t]++;
        outside |= r;
      }
    }
  }

  /** The share of uniformly random high halves within [highLower, k - highCut] bits of a query. */
  double highPassRate(int t, int k) {
    double pass = 0;
    for (int c = highLower[t]; c <= Math.min(16, k - highCut[t]); c++) {
      pass += BlockScheme.binomial(16, c);
    }
    return pass / 65536;
  }

  /** The least distance of a reportable entry's high tag half to the query's, at e = 0. */
  int highLower(int t) {
    return highLower[t];
  }

  /**
   * How many bits fewer than the budget a reportable entry's high tag half may differ in, e = 0.
   */
  int highCut(int t) {
    return highCut[t];
  }

  /** Whether table t keeps its tags as {@link SplitPrefixRecords} (else {@link PrefixRecords}). */
  boolean split(int t) {
    return split[t];
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
