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
