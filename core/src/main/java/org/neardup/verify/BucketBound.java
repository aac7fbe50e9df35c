// SPDX-License-Identifier: Apache-2.0
package org.neardup.verify;

/**
 * An exact test that turns away a pair of sketches whose similarity cannot reach the threshold,
 * from {@link #BUCKETS} counts per sketch instead of a walk over both sketches.
 *
 * <p>Each hash falls into the bucket of its low 8 bits. A hash held by both sketches is counted in
 * the same bucket of both, so the sum over the buckets of the smaller of the two counts is at least
 * the number of hashes the two hold in common, and that number bounds what {@link
 * ShingleSketch#jaccardAtLeast} counts (the shared hashes of two complete sketches, or the shared
 * ones among the k smallest of the union for bottom-k). When the bound is below the count the
 * threshold needs, {@code jaccardAtLeast} returns a value below the threshold: the pair can be
 * skipped without changing any result. Nothing is estimated; the test only saves work.
 *
 * <p>Where it matters: copies of one text with independent light edits (a few percent of characters
 * each) mostly share 50-75% of their shingles, so most pairs that share a band key fail the
 * threshold of 0.8, and each failure walked a good part of both sketches (about 1 µs for sketches
 * of a few hundred hashes). Such pairs differ in dozens of hashes, spread over the buckets, so the
 * bucket counts differ enough to prove the failure in 32 word operations.
 *
 * <p>Counts are packed 8 to a {@code long} (7 bits each) and compared lane by lane without
 * branches. A sketch with more than 127 hashes in one bucket (not seen for random hashes below many
 * thousands) gets no counts, and its pairs are always walked. Stateless and thread-safe.
 */
public final class BucketBound {
  /** Buckets per sketch: 256 counts in {@link #WORDS} longs. */
  public static final int BUCKETS = 256;

  /** Longs per sketch's counts. */
  public static final int WORDS = BUCKETS / 8;

  private static final long HIGH = 0x8080808080808080L;
  private static final long EVEN_BYTES = 0x00FF00FF00FF00FFL;

  private BucketBound() {}

  /**
   * Writes the bucket counts of {@code s} to {@code out[off, off + WORDS)}.
   *
   * @return false, leaving {@code out} undefined, when a bucket holds more than 127 hashes: the
   *     counts cannot be used
   */
  public static boolean counts(ShingleSketch s, long[] out, int off) {
    int[] hashes = s.hashesView();
    java.util.Arrays.fill(out, off, off + WORDS, 0L);
    // Added in place, 8 bits a lane, 128 hashes at a time: lanes at most 127 before a chunk are at
    // most 255 after it, so none wraps, and a lane past 127 shows its top bit. The pairs phase of
    // the 1M realistic dedup counts 3.5M sketches of up to 512 hashes; counting the longer ones in
    // a new int[256] first and packing it after allocated 1 KB per sketch.
    for (int from = 0; from < hashes.length; from += 128) {
      int to = Math.min(hashes.length, from + 128);
      for (int i = from; i < to; i++) {
        int b = hashes[i] & (BUCKETS - 1);
        out[off + (b >>> 3)] += 1L << ((b & 7) << 3);
      }
      if (to - from == 128 || from > 0) { // fewer than 128 hashes in all cannot pass 127
        long high = 0;
        for (int w = 0; w < WORDS; w++) {
          high |= out[off + w];
        }
        if ((high & HIGH) != 0) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * Whether {@code ShingleSketch.jaccardAtLeast(a, b, threshold)} may reach the threshold, given
   * the two sketches' counts from {@link #counts}. False only when it cannot. Builds the
   * threshold's {@link ShingleSketch.Needs} on every call: a caller testing many pairs passes one.
   */
  public static boolean mayReach(
      ShingleSketch a,
      long[] ac,
      int aOff,
      ShingleSketch b,
      long[] bc,
      int bOff,
      double threshold) {
    return mayReach(a, ac, aOff, b, bc, bOff, new ShingleSketch.Needs(threshold));
  }

  /**
   * {@link #mayReach(ShingleSketch, long[], int, ShingleSketch, long[], int, double)} at {@code
   * needs}' threshold, with the count the threshold needs looked up: the same answer.
   */
  public static boolean mayReach(
      ShingleSketch a,
      long[] ac,
      int aOff,
      ShingleSketch b,
      long[] bc,
      int bOff,
      ShingleSketch.Needs needs) {
    if (needs.threshold() <= 0) {
      return true;
    }
    if (a.mode() != b.mode() || a.mode() == ShingleSketch.Mode.NONE) {
      return false; // jaccardAtLeast answers 0
    }
    int need =
        a.complete() && b.complete()
            ? needs.complete(a.size() + b.size())
            : needs.bottom(Math.min(a.size(), b.size()));
    return sharedAtMost(ac, aOff, bc, bOff) >= need;
  }

  /**
   * Longs per sketch's counts in the packed form ({@link #packedCounts}): the same 256 counts at 4
   * bits each, 128 bytes, for a caller that keeps every document's counts beside its band keys.
   */
  public static final int PACKED_WORDS = WORDS / 2;

  private static final long LOW_NIBBLES = 0x0F0F0F0F0F0F0F0FL;
  private static final long HIGH_NIBBLES = 0xF0F0F0F0F0F0F0F0L;

  /** The {@link #shape} bit of a sketch whose packed counts are usable. */
  private static final int COUNTED = 1 << 30;

  private static final int COMPLETE = 1 << 27;
  private static final int SIZE = COMPLETE - 1;

  /**
   * Writes the bucket counts of {@code s} to {@code out[off, off + PACKED_WORDS)} at 4 bits each
   * ({@code scratch}: {@link #WORDS} longs of the caller's, overwritten) and returns its {@link
   * #shape}; a sketch with more than 15 hashes in a bucket (for 512 random hashes in 256 buckets, a
   * Poisson(2) tail past 15: about 1e-8 of sketches) gets a shape without counts, and its pairs are
   * never turned away by {@link #mayReach(long[], int, int, long[], int, int,
   * ShingleSketch.Needs)}.
   */
  public static int packedCounts(ShingleSketch s, long[] scratch, long[] out, int off) {
    int shape =
        (s.mode().ordinal() << 28) | (s.complete() ? COMPLETE : 0) | Math.min(s.size(), SIZE);
    boolean counted = counts(s, scratch, 0);
    long high = 0;
    for (int w = 0; w < WORDS; w++) {
      high |= scratch[w];
    }
    if (!counted || (high & HIGH_NIBBLES) != 0 || s.size() > SIZE) {
      java.util.Arrays.fill(out, off, off + PACKED_WORDS, 0L);
      return shape;
    }
    // Word w holds the 8 counts of scratch[2w] in its low nibbles and those of scratch[2w + 1] in
    // its high ones: the two sides of a pair are packed alike, so each bucket meets its own.
    for (int w = 0; w < PACKED_WORDS; w++) {
      out[off + w] = scratch[2 * w] | (scratch[2 * w + 1] << 4);
    }
    return shape | COUNTED;
  }

  /**
   * The same answer as {@link #mayReach(ShingleSketch, long[], int, ShingleSketch, long[], int,
   * ShingleSketch.Needs)} on the two sketches' counts, from their packed counts and {@link
   * #packedCounts}' shapes alone, without the sketches: true when either has no counts.
   */
  public static boolean mayReach(
      long[] ac, int aOff, int aShape, long[] bc, int bOff, int bShape, ShingleSketch.Needs needs) {
    if (needs.threshold() <= 0 || (aShape & bShape & COUNTED) == 0) {
      return true;
    }
    int mode = aShape >>> 28 & 3;
    if (mode != (bShape >>> 28 & 3) || mode == ShingleSketch.Mode.NONE.ordinal()) {
      return false; // jaccardAtLeast answers 0
    }
    int as = aShape & SIZE;
    int bs = bShape & SIZE;
    int need =
        (aShape & bShape & COMPLETE) != 0
            ? needs.complete(as + bs)
            : needs.bottom(Math.min(as, bs));
    return sharedAtMostPacked(ac, aOff, bc, bOff) >= need;
  }

  /** {@link #sharedAtMost} of packed counts: the same sum. */
  static int sharedAtMostPacked(long[] ac, int aOff, long[] bc, int bOff) {
    long acc = 0; // four 16-bit lanes; each adds at most 2 * 30 per word, 16 words
    for (int w = 0; w < PACKED_WORDS; w++) {
      long x = ac[aOff + w];
      long y = bc[bOff + w];
      // Each nibble lane moved to a byte lane of its own (0..15): the byte-lane minimum below,
      // twice, and the two minima added byte by byte (at most 30, no carry between lanes).
      long xl = x & LOW_NIBBLES;
      long yl = y & LOW_NIBBLES;
      long xh = (x >>> 4) & LOW_NIBBLES;
      long yh = (y >>> 4) & LOW_NIBBLES;
      long gl = (((xl | HIGH) - yl) & HIGH) >>> 7;
      long gh = (((xh | HIGH) - yh) & HIGH) >>> 7;
      long ml = gl * 0xFF;
      long mh = gh * 0xFF;
      long min = (yl & ml) | (xl & ~ml);
      min += (yh & mh) | (xh & ~mh);
      acc += (min & EVEN_BYTES) + ((min >>> 8) & EVEN_BYTES);
    }
    return (int) ((acc * 0x0001000100010001L) >>> 48);
  }

  /** The sum over buckets of the smaller count: at least the number of hashes held by both. */
  static int sharedAtMost(long[] ac, int aOff, long[] bc, int bOff) {
    long acc = 0; // four 16-bit lanes; each adds at most 2 * 127 per word, 32 words
    for (int w = 0; w < WORDS; w++) {
      long x = ac[aOff + w];
      long y = bc[bOff + w];
      // Lanes hold 0..127, so (x | 0x80) - y stays within its lane and keeps the top bit exactly
      // where x >= y.
      long ge = ((x | HIGH) - y) & HIGH;
      long mask = (ge >>> 7) * 0xFF;
      long min = (y & mask) | (x & ~mask);
      acc += (min & EVEN_BYTES) + ((min >>> 8) & EVEN_BYTES);
    }
    return (int) ((acc * 0x0001000100010001L) >>> 48);
  }
}
