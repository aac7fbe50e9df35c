// SPDX-License-Identifier: Apache-2.0
package org.neardup.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@link BucketBound} never turns away a pair that {@link ShingleSketch#jaccardAtLeast} lets
 * through, its bound is never below the true number of shared hashes, and it does turn away most
 * pairs of copies that share 50-70% of their hashes (the work it exists to save).
 */
class BucketBoundTest {
  private static int[] sorted(TreeSet<Long> s) {
    return s.stream().mapToInt(Long::intValue).toArray();
  }

  /** A copy of {@code base} keeping about keepPercent of it, plus new hashes up to its size. */
  private static TreeSet<Long> copy(SplittableRandom r, TreeSet<Long> base, int keepPercent) {
    TreeSet<Long> s = new TreeSet<>();
    for (long h : base) {
      if (r.nextInt(100) < keepPercent) {
        s.add(h);
      }
    }
    while (s.size() < base.size()) {
      s.add(r.nextLong(1L << 32));
    }
    return s;
  }

  private static TreeSet<Long> draw(SplittableRandom r, int n) {
    TreeSet<Long> s = new TreeSet<>();
    while (s.size() < n) {
      s.add(r.nextLong(1L << 32));
    }
    return s;
  }

  @Test
  void mayReach_neverFalseWhenJaccardReachesTheThreshold() {
    SplittableRandom r = new SplittableRandom(20261125);
    double[] fixed = {0.8, 0.5, 0.9, 1.0, 0.75, 0.6667};
    long[] ac = new long[BucketBound.WORDS];
    long[] bc = new long[3 * BucketBound.WORDS];
    int turnedAway = 0;
    int reached = 0;
    for (int round = 0; round < 10_000; round++) {
      TreeSet<Long> base = draw(r, r.nextInt(700));
      TreeSet<Long> x = copy(r, base, 40 + r.nextInt(61));
      TreeSet<Long> y = copy(r, base, 40 + r.nextInt(61));
      // Complete sketches up to 512 hashes, bottom-k above, as the shingler makes them; a few
      // bottom-k ones below, and a mode mismatch now and then.
      ShingleSketch a =
          ShingleSketch.of(
              ShingleSketch.Mode.CHARS, sorted(x), x.size() <= 512 && r.nextInt(8) > 0);
      ShingleSketch b =
          ShingleSketch.of(
              r.nextInt(50) == 0 ? ShingleSketch.Mode.WORDS : ShingleSketch.Mode.CHARS,
              sorted(y),
              y.size() <= 512 && r.nextInt(8) > 0);
      double exact = ShingleSketch.jaccard(a, b);
      double t =
          switch (r.nextInt(3)) {
            case 0 -> r.nextDouble();
            case 1 -> fixed[r.nextInt(fixed.length)];
            default -> Double.isNaN(exact) ? 0.5 : exact;
          };
      int off = r.nextInt(3) * BucketBound.WORDS; // counts anywhere in a shared array
      assertThat(BucketBound.counts(a, ac, 0)).isTrue();
      assertThat(BucketBound.counts(b, bc, off)).isTrue();
      TreeSet<Long> both = new TreeSet<>(x);
      both.retainAll(y);
      assertThat(BucketBound.sharedAtMost(ac, 0, bc, off))
          .as("round %s", round)
          .isGreaterThanOrEqualTo(both.size());
      boolean may = BucketBound.mayReach(a, ac, 0, b, bc, off, t);
      boolean reaches = ShingleSketch.jaccardAtLeast(a, b, t) >= t;
      if (reaches) {
        reached++;
        assertThat(may).as("round %s, threshold %s, jaccard %s", round, t, exact).isTrue();
      } else if (!may) {
        turnedAway++;
      }
    }
    assertThat(reached).isGreaterThan(1_000);
    assertThat(turnedAway).isGreaterThan(1_000);
  }

  /**
   * Copies with independent edits, as a band group of reposts holds them: pairs sharing 60% of
   * their hashes, far below 0.8, are turned away without a walk.
   */
  @Test
  void mayReach_copiesFarBelowTheThreshold_mostlyTurnedAway() {
    SplittableRandom r = new SplittableRandom(7);
    long[] ac = new long[BucketBound.WORDS];
    long[] bc = new long[BucketBound.WORDS];
    int away = 0;
    for (int round = 0; round < 1000; round++) {
      TreeSet<Long> base = draw(r, 200 + r.nextInt(313));
      ShingleSketch a = ShingleSketch.of(ShingleSketch.Mode.CHARS, sorted(copy(r, base, 75)), true);
      ShingleSketch b = ShingleSketch.of(ShingleSketch.Mode.CHARS, sorted(copy(r, base, 75)), true);
      BucketBound.counts(a, ac, 0);
      BucketBound.counts(b, bc, 0);
      assertThat(ShingleSketch.jaccard(a, b)).isLessThan(0.8);
      if (!BucketBound.mayReach(a, ac, 0, b, bc, 0, 0.8)) {
        away++;
      }
    }
    assertThat(away).isGreaterThan(900);
  }

  @Test
  void counts_bucketOverflowing_refusesCounts() {
    // 200 hashes, all with the same low 8 bits: one bucket of 200 cannot be packed in 7 bits.
    int[] h = new int[200];
    for (int i = 0; i < h.length; i++) {
      h[i] = (i + 1) << 8;
    }
    ShingleSketch s = ShingleSketch.of(ShingleSketch.Mode.CHARS, h, true);
    assertThat(BucketBound.counts(s, new long[BucketBound.WORDS], 0)).isFalse();
    // 127 in one bucket still packs, and the bound sees all of them.
    int[] k = java.util.Arrays.copyOf(h, 127);
    ShingleSketch t = ShingleSketch.of(ShingleSketch.Mode.CHARS, k, true);
    long[] c = new long[BucketBound.WORDS];
    assertThat(BucketBound.counts(t, c, 0)).isTrue();
    assertThat(BucketBound.sharedAtMost(c, 0, c, 0)).isEqualTo(127);
  }

  /**
   * Counts as a plain count per bucket gives them, or none exactly when a bucket holds more than
   * 127: sketches of 0 to 700 hashes drawn from 1 to 256 buckets, so that some buckets reach 127,
   * 128 and more, within one chunk of 128 hashes or across several.
   */
  @Test
  void counts_sameAsAPlainCountPerBucket() {
    java.util.SplittableRandom r = new java.util.SplittableRandom(31);
    for (int trial = 0; trial < 3_000; trial++) {
      int n = r.nextInt(701);
      int spread = 1 + r.nextInt(256);
      java.util.TreeSet<Long> values = new java.util.TreeSet<>();
      while (values.size() < n) {
        values.add(((long) r.nextInt(1 << 24) << 8) | r.nextInt(spread));
      }
      int[] h = new int[n];
      int i = 0;
      for (long v : values) {
        h[i++] = (int) v;
      }
      int[] plain = new int[BucketBound.BUCKETS];
      for (int x : h) {
        plain[x & (BucketBound.BUCKETS - 1)]++;
      }
      boolean fits = java.util.Arrays.stream(plain).allMatch(c -> c <= 127);
      long[] out = new long[BucketBound.WORDS + 2];
      java.util.Arrays.fill(out, -1L); // counts overwrite what was there
      boolean counted =
          BucketBound.counts(ShingleSketch.of(ShingleSketch.Mode.CHARS, h, true), out, 1);
      assertThat(counted)
          .as("trial %s: %s hashes over %s buckets", trial, n, spread)
          .isEqualTo(fits);
      if (fits) {
        long[] packed = new long[BucketBound.WORDS + 2];
        packed[0] = -1L;
        packed[BucketBound.WORDS + 1] = -1L;
        for (int b = 0; b < BucketBound.BUCKETS; b++) {
          packed[1 + (b >>> 3)] |= (long) plain[b] << ((b & 7) << 3);
        }
        assertThat(out).as("trial %s", trial).isEqualTo(packed);
      }
      assertThat(out[0]).isEqualTo(-1L);
      assertThat(out[BucketBound.WORDS + 1]).isEqualTo(-1L);
    }
  }
}
