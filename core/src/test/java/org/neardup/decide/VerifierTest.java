// SPDX-License-Identifier: Apache-2.0
package org.neardup.decide;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.neardup.verify.HeadFilter;
import org.neardup.verify.ShingleSketch;

/**
 * {@link Verifier#similarity} stops walking a candidate's sketch once it cannot reach the
 * threshold; its verdicts and values must stay those of the whole walk: the head filter, then
 * {@link ShingleSketch#jaccard} of the decoded sketch against the threshold.
 */
class VerifierTest {
  private static ShingleSketch sketch(SplittableRandom r, int[] base, int keepPercent) {
    TreeSet<Long> s = new TreeSet<>();
    for (int h : base) {
      if (r.nextInt(100) < keepPercent) {
        s.add(h & 0xFFFFFFFFL);
      }
    }
    int extra = r.nextInt(1 + base.length / 4);
    for (int i = 0; i < extra; i++) {
      s.add(r.nextLong(1L << 32));
    }
    ShingleSketch.Mode mode =
        r.nextInt(50) == 0 ? ShingleSketch.Mode.WORDS : ShingleSketch.Mode.CHARS;
    return ShingleSketch.of(mode, s.stream().mapToInt(Long::intValue).toArray(), r.nextInt(3) > 0);
  }

  @Test
  void sameVerdictsAndValuesAsTheWholeWalk() {
    SplittableRandom r = new SplittableRandom(20261125);
    double[] thresholds = {0.8, 0.5, 0.9, 0.7, 1.0 / 3};
    int accepted = 0;
    int rejected = 0;
    for (int round = 0; round < 20_000; round++) {
      TreeSet<Long> b = new TreeSet<>();
      int n = 1 + r.nextInt(300);
      while (b.size() < n) {
        b.add((r.nextInt(4 * n) * 0x9E3779B1L) & 0xFFFFFFFFL);
      }
      int[] base = b.stream().mapToInt(Long::intValue).toArray();
      ShingleSketch mine = sketch(r, base, 70 + r.nextInt(31));
      ShingleSketch theirs = sketch(r, base, 70 + r.nextInt(31));
      double t = thresholds[r.nextInt(thresholds.length)];
      Verifier v = new Verifier(3, t, true);
      // The candidate's bytes at an offset inside a larger array, as a store hands them over.
      byte[] enc = theirs.encode();
      byte[] in = new byte[enc.length + 7];
      System.arraycopy(enc, 0, in, 5, enc.length);
      double got = v.similarity(r.nextInt(10), mine, in, 5, enc.length);
      double whole = ShingleSketch.jaccard(mine, ShingleSketch.decode(in, 5, enc.length));
      double expected =
          !new HeadFilter(t).mayReach(mine, in, 5, enc.length) || whole < t
              ? Verifier.REJECTED
              : whole;
      assertThat(Double.compare(got, expected)).as("round %s, threshold %s", round, t).isZero();
      if (expected == Verifier.REJECTED) {
        rejected++;
      } else {
        accepted++;
      }
    }
    // Both verdicts must be exercised often.
    assertThat(accepted).isGreaterThan(2_000);
    assertThat(rejected).isGreaterThan(2_000);
  }
}
