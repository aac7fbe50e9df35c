// SPDX-License-Identifier: Apache-2.0
package org.neardup.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class HeadFilterTest {
  /** Two sets over random 32-bit values with `shared` common members and `onlyA`, `onlyB` more. */
  private static ShingleSketch[] pair(
      SplittableRandom r, int shared, int onlyA, int onlyB, int capacity) {
    Set<Integer> used = new HashSet<>();
    List<Integer> a = new ArrayList<>();
    List<Integer> b = new ArrayList<>();
    while (a.size() < shared) {
      int v = r.nextInt();
      if (used.add(v)) {
        a.add(v);
        b.add(v);
      }
    }
    while (a.size() < shared + onlyA) {
      int v = r.nextInt();
      if (used.add(v)) {
        a.add(v);
      }
    }
    while (b.size() < shared + onlyB) {
      int v = r.nextInt();
      if (used.add(v)) {
        b.add(v);
      }
    }
    return new ShingleSketch[] {sketch(a, capacity), sketch(b, capacity)};
  }

  private static ShingleSketch sketch(List<Integer> values, int capacity) {
    int[] h =
        values.stream()
            .sorted(Integer::compareUnsigned)
            .limit(capacity)
            .mapToInt(Integer::intValue)
            .toArray();
    return ShingleSketch.of(ShingleSketch.Mode.WORDS, h, values.size() <= capacity);
  }

  /** The three forms of the test (heads, encoded, the sketches themselves), which must agree. */
  private static boolean mayReach(HeadFilter f, ShingleSketch a, ShingleSketch b) {
    int[] heads = new int[2 * HeadFilter.HEAD];
    int ca = HeadFilter.head(a, heads, 0);
    int cb = HeadFilter.head(b, heads, HeadFilter.HEAD);
    boolean fromHeads = f.mayReach(heads, 0, ca, HeadFilter.HEAD, cb);
    byte[] e = b.encode();
    boolean fromEncoded = f.mayReach(a, e, 0, e.length);
    assertThat(fromEncoded).as("heads and encoded forms agree").isEqualTo(fromHeads);
    byte[] e2 = a.encode();
    assertThat(f.mayReach(b, e2, 0, e2.length)).as("symmetric").isEqualTo(fromHeads);
    assertThat(f.mayReach(a, b)).as("heads and sketches agree").isEqualTo(fromHeads);
    assertThat(f.mayReach(b, a)).as("symmetric on sketches").isEqualTo(fromHeads);
    return fromHeads;
  }

  /**
   * The merge stops as soon as its answer is settled (the count at the need, or too low to reach
   * it): the same answers as a merge of all m steps, on heads from 1 to 40 hashes that share from
   * none to all of them, at thresholds whose needs run from 0 to m.
   */
  @Test
  void mayReach_stoppingEarly_answersAsTheWholeMerge() {
    SplittableRandom r = new SplittableRandom(20);
    for (double t : new double[] {0.1, 0.3, 0.5, 0.8, 0.9, 1.0}) {
      HeadFilter f = new HeadFilter(t);
      for (int trial = 0; trial < 20_000; trial++) {
        int sizeA = 1 + r.nextInt(40);
        int sizeB = 1 + r.nextInt(40);
        int shared = r.nextInt(Math.min(sizeA, sizeB) + 1);
        ShingleSketch[] p = pair(r, shared, sizeA - shared, sizeB - shared, 512);
        int[] heads = new int[2 * HeadFilter.HEAD];
        int ca = HeadFilter.head(p[0], heads, 0);
        int cb = HeadFilter.head(p[1], heads, HeadFilter.HEAD);
        assertThat(f.mayReach(heads, 0, ca, HeadFilter.HEAD, cb))
            .as("t=%s sizes %s, %s sharing %s", t, sizeA, sizeB, shared)
            .isEqualTo(wholeMerge(f, heads, 0, ca, HeadFilter.HEAD, cb))
            .isEqualTo(f.mayReach(p[0], p[1]));
      }
    }
  }

  /** The shared hashes among the m smallest of the union, counted over all m merge steps. */
  private static boolean wholeMerge(HeadFilter f, int[] heads, int a, int ca, int b, int cb) {
    int m = Math.min(HeadFilter.HEAD, Math.min(ca & 0xFFFFFF, cb & 0xFFFFFF));
    int shared = 0;
    for (int taken = 0; taken < m; taken++) {
      int c = Integer.compareUnsigned(heads[a], heads[b]);
      if (c == 0) {
        shared++;
        a++;
        b++;
      } else if (c < 0) {
        a++;
      } else {
        b++;
      }
    }
    return shared >= f.need(m);
  }

  @Test
  void need_isTheBinomialQuantileAtTheMissProbability() {
    for (double t : new double[] {0.3, 0.5, 0.8, 0.9, 1.0}) {
      for (int m = 0; m <= HeadFilter.HEAD; m++) {
        int c = HeadFilter.need(m, t);
        double below = 0; // P(X < c)
        for (int x = 0; x < c; x++) {
          below += choose(m, x) * Math.pow(t, x) * Math.pow(1 - t, m - x);
        }
        double atOrBelow = below + choose(m, c) * Math.pow(t, c) * Math.pow(1 - t, m - c);
        assertThat(below).as("t=%s m=%s", t, m).isLessThanOrEqualTo(HeadFilter.MISS);
        if (c < m) {
          assertThat(atOrBelow).as("t=%s m=%s", t, m).isGreaterThan(HeadFilter.MISS);
        }
      }
    }
    assertThat(HeadFilter.need(16, 0.8)).isEqualTo(4);
    assertThat(HeadFilter.need(16, 1.0)).isEqualTo(16);
    assertThat(HeadFilter.need(3, 0.8)).isZero(); // too few hashes to judge: lets all through
  }

  private static double choose(int n, int k) {
    double b = 1;
    for (int i = 1; i <= k; i++) {
      b = b * (n - k + i) / i;
    }
    return b;
  }

  @Test
  void pairsAtTheThreshold_areAlmostNeverRejected() {
    SplittableRandom r = new SplittableRandom(3);
    HeadFilter f = new HeadFilter(0.8);
    int rejected = 0;
    int trials = 20_000;
    for (int i = 0; i < trials; i++) {
      // J = 80 / (80 + 10 + 10) = 0.8 exactly, complete sketches
      ShingleSketch[] p = pair(r, 80, 10, 10, 512);
      assertThat(ShingleSketch.jaccard(p[0], p[1])).isEqualTo(0.8);
      if (!mayReach(f, p[0], p[1])) {
        rejected++;
      }
    }
    // MISS is 1e-6 per pair; 20,000 trials expect 0.02 rejections.
    assertThat(rejected).isLessThanOrEqualTo(1);
  }

  @Test
  void bottomKSketches_atTheThreshold_pass() {
    SplittableRandom r = new SplittableRandom(4);
    HeadFilter f = new HeadFilter(0.8);
    for (int i = 0; i < 500; i++) {
      ShingleSketch[] p = pair(r, 1800, 200, 250, 512); // truncated to the 512 smallest
      assertThat(p[0].complete()).isFalse();
      if (ShingleSketch.jaccard(p[0], p[1]) >= 0.8) {
        assertThat(mayReach(f, p[0], p[1])).isTrue();
      }
    }
  }

  @Test
  void unrelatedPairs_areRejected() {
    SplittableRandom r = new SplittableRandom(5);
    HeadFilter f = new HeadFilter(0.8);
    int passed = 0;
    for (int i = 0; i < 2_000; i++) {
      ShingleSketch[] p = pair(r, r.nextInt(5), 100 + r.nextInt(300), 100 + r.nextInt(300), 512);
      if (mayReach(f, p[0], p[1])) {
        passed++;
      }
    }
    assertThat(passed).isZero();
  }

  @Test
  void rejection_neverHidesAPairThatWouldVerify_onManyRandomPairs() {
    // The filter only rejects: whenever it rejects, the full similarity is below the threshold,
    // apart from the MISS-probability tail, which these sizes make unobservable.
    SplittableRandom r = new SplittableRandom(6);
    for (double t : new double[] {0.5, 0.8, 0.95}) {
      HeadFilter f = new HeadFilter(t);
      for (int i = 0; i < 3_000; i++) {
        int shared = r.nextInt(300);
        ShingleSketch[] p = pair(r, shared, r.nextInt(40), r.nextInt(40), 512);
        double j = ShingleSketch.jaccard(p[0], p[1]);
        if (!mayReach(f, p[0], p[1])) {
          assertThat(j).as("t=%s rejected a pair of similarity %s", t, j).isLessThan(t);
        }
      }
    }
  }

  @Test
  void shortSketches_andModes() {
    HeadFilter f = new HeadFilter(0.8);
    ShingleSketch a = ShingleSketch.of(ShingleSketch.Mode.CHARS, new int[] {1, 2, 3}, true);
    ShingleSketch b = ShingleSketch.of(ShingleSketch.Mode.CHARS, new int[] {7, 8, 9}, true);
    assertThat(mayReach(f, a, b)).as("3 hashes are too few to judge").isTrue();
    ShingleSketch w = ShingleSketch.of(ShingleSketch.Mode.WORDS, new int[] {1, 2, 3}, true);
    assertThat(mayReach(f, a, w)).as("different modes never match").isFalse();
    assertThat(mayReach(f, ShingleSketch.empty(), ShingleSketch.empty())).isFalse();
    assertThat(mayReach(f, a, a)).isTrue();
  }

  @Test
  void threshold_outOfRange_rejected() {
    assertThatThrownBy(() -> new HeadFilter(0)).hasMessageContaining("threshold");
    assertThatThrownBy(() -> new HeadFilter(1.5)).hasMessageContaining("threshold");
  }
}
