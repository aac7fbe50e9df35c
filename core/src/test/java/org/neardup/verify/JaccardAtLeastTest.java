// SPDX-License-Identifier: Apache-2.0
package org.neardup.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@link ShingleSketch#jaccardAtLeast} against {@link ShingleSketch#jaccard}: the same pairs reach
 * the threshold, with the same value to the last bit, and the rest come out below it.
 */
class JaccardAtLeastTest {
  /** A sorted set of hashes from a small universe, so that two draws overlap a lot or a little. */
  private static int[] draw(SplittableRandom r, int n, int universe) {
    TreeSet<Long> s = new TreeSet<>();
    while (s.size() < n) {
      // Spread over the whole unsigned range, so the unsigned order is tested too.
      s.add((r.nextInt(universe) * 0x9E3779B1L) & 0xFFFFFFFFL);
    }
    return s.stream().mapToInt(Long::intValue).toArray();
  }

  private static ShingleSketch sketch(SplittableRandom r, int[] base, int keepPercent) {
    // A copy of base with some hashes dropped and some added, in the same mode.
    TreeSet<Long> s = new TreeSet<>();
    for (int h : base) {
      if (r.nextInt(100) < keepPercent) {
        s.add(h & 0xFFFFFFFFL);
      }
    }
    int extra = r.nextInt(1 + base.length / 3);
    for (int i = 0; i < extra; i++) {
      s.add(r.nextLong(1L << 32));
    }
    return ShingleSketch.of(
        ShingleSketch.Mode.CHARS, s.stream().mapToInt(Long::intValue).toArray(), r.nextInt(4) > 0);
  }

  @Test
  void agreesWithJaccardOnEveryPairAndThreshold() {
    SplittableRandom r = new SplittableRandom(20261124);
    double[] fixed = {0.8, 0.5, 0.9, 1.0, 0.75, 1.0 / 3, 0.6667};
    int reached = 0;
    int stoppedEarly = 0;
    for (int round = 0; round < 200_000; round++) {
      int[] base = draw(r, r.nextInt(60), 200);
      ShingleSketch a = sketch(r, base, 60 + r.nextInt(41));
      ShingleSketch b = sketch(r, base, 60 + r.nextInt(41));
      double exact = ShingleSketch.jaccard(a, b);
      // jaccard is jaccardAtLeast with nothing to reach: check it against a walk of its own.
      // Double.compare: two empty complete sketches give NaN on both sides.
      assertThat(Double.compare(exact, reference(a, b))).as("round %s", round).isZero();
      // Thresholds at random, at common settings, and exactly at the pair's own value.
      double t =
          switch (r.nextInt(3)) {
            case 0 -> r.nextDouble();
            case 1 -> fixed[r.nextInt(fixed.length)];
            default -> Double.isNaN(exact) ? 0.5 : exact;
          };
      double got = ShingleSketch.jaccardAtLeast(a, b, t);
      if (exact >= t) {
        reached++;
        assertThat(got).as("round %s, threshold %s", round, t).isEqualTo(exact);
      } else {
        assertThat(got >= t).as("round %s, threshold %s: %s vs %s", round, t, got, exact).isFalse();
        if (got != exact) {
          stoppedEarly++;
        }
      }
    }
    // The draws must exercise both sides, and the early stop must actually happen.
    assertThat(reached).isGreaterThan(20_000);
    assertThat(stoppedEarly).isGreaterThan(20_000);
  }

  @Test
  void needs_lookedUp_sameValuesAndBoundsAsComputed() {
    // Needs replaces the counts computed per call by a table: every answer must stay the same to
    // the last bit, below the threshold too, for jaccardAtLeast and for BucketBound.
    SplittableRandom r = new SplittableRandom(20261125);
    double[] fixed = {0.8, 0.5, 0.9, 1.0, 0.75, 1.0 / 3, 0.6667, 0.0};
    ShingleSketch.Needs[] needs = new ShingleSketch.Needs[fixed.length];
    for (int t = 0; t < fixed.length; t++) {
      needs[t] = new ShingleSketch.Needs(fixed[t]);
    }
    long[] ac = new long[BucketBound.WORDS];
    long[] bc = new long[BucketBound.WORDS];
    int bounded = 0;
    for (int round = 0; round < 50_000; round++) {
      int[] base = draw(r, r.nextInt(300), 1000);
      ShingleSketch a = sketch(r, base, 60 + r.nextInt(41));
      ShingleSketch b = sketch(r, base, 60 + r.nextInt(41));
      int t = r.nextInt(fixed.length);
      double computed = ShingleSketch.jaccardAtLeast(a, b, fixed[t]);
      double looked = ShingleSketch.jaccardAtLeast(a, b, needs[t]);
      assertThat(Double.compare(looked, computed)).as("round %s, t %s", round, fixed[t]).isZero();
      if (BucketBound.counts(a, ac, 0) && BucketBound.counts(b, bc, 0)) {
        boolean may = BucketBound.mayReach(a, ac, 0, b, bc, 0, fixed[t]);
        assertThat(BucketBound.mayReach(a, ac, 0, b, bc, 0, needs[t])).isEqualTo(may);
        bounded += may ? 0 : 1;
      }
    }
    assertThat(bounded).isGreaterThan(1_000);
  }

  @Test
  void needs_tableMatchesTheComputedCounts() {
    SplittableRandom r = new SplittableRandom(7);
    for (int round = 0; round < 20; round++) {
      double t = round == 0 ? 0.8 : round == 1 ? 1.0 : r.nextDouble();
      ShingleSketch.Needs needs = new ShingleSketch.Needs(t);
      for (int n = 0; n <= ShingleSketch.Needs.LIMIT + 50; n++) {
        assertThat(needs.complete(n))
            .as("t %s, total %s", t, n)
            .isEqualTo(ShingleSketch.completeNeed(n, t));
        assertThat(needs.bottom(n))
            .as("t %s, k %s", t, n)
            .isEqualTo(ShingleSketch.bottomNeed(n, t));
      }
    }
  }

  /** Jaccard (complete) or the bottom-k estimate, by sets, with no early stop. */
  private static double reference(ShingleSketch a, ShingleSketch b) {
    TreeSet<Long> x = new TreeSet<>();
    TreeSet<Long> y = new TreeSet<>();
    for (int h : a.hashes()) {
      x.add(h & 0xFFFFFFFFL);
    }
    for (int h : b.hashes()) {
      y.add(h & 0xFFFFFFFFL);
    }
    TreeSet<Long> union = new TreeSet<>(x);
    union.addAll(y);
    if (a.complete() && b.complete()) {
      int inter = x.size() + y.size() - union.size();
      return (double) inter / union.size();
    }
    int k = Math.min(x.size(), y.size());
    int both = 0;
    int taken = 0;
    for (long h : union) {
      if (taken == k) {
        break;
      }
      if (x.contains(h) && y.contains(h)) {
        both++;
      }
      taken++;
    }
    return taken == 0 ? 0 : (double) both / taken;
  }

  @Test
  void sameAsJaccardForEmptyAndMismatchedSketches() {
    ShingleSketch empty = ShingleSketch.of(ShingleSketch.Mode.CHARS, new int[0], true);
    ShingleSketch one = ShingleSketch.of(ShingleSketch.Mode.CHARS, new int[] {7}, true);
    ShingleSketch words = ShingleSketch.of(ShingleSketch.Mode.WORDS, new int[] {7}, true);
    for (double t : new double[] {0, 0.5, 0.8, 1}) {
      assertThat(ShingleSketch.jaccardAtLeast(one, one, t)).isEqualTo(1.0);
      assertThat(ShingleSketch.jaccardAtLeast(one, words, t) >= t)
          .isEqualTo(ShingleSketch.jaccard(one, words) >= t);
      assertThat(ShingleSketch.jaccardAtLeast(empty, one, t) >= t)
          .isEqualTo(ShingleSketch.jaccard(empty, one) >= t);
    }
  }
}
