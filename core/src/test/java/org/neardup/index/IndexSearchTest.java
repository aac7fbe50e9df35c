// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The branch-free bucket filters against the plain loops they stand for. */
class IndexSearchTest {

  @Test
  void anyWithinUncovered_randomBuckets_equalsThePlainRule() {
    SplittableRandom random = new SplittableRandom(2026);
    int[] masks = {0xFFFF_0000, 0x0000_FFFF, 0xFF00_FF00, 0x8000_0001, -1};
    for (int round = 0; round < 20_000; round++) {
      int n = random.nextInt(40);
      int x = random.nextInt();
      int[] a = new int[n + 3];
      for (int i = 0; i < a.length; i++) {
        // near x (0-5 bits off, often only inside or only outside a mask) or random
        a[i] = random.nextBoolean() ? x ^ bits(random, random.nextInt(6)) : random.nextInt();
        if (random.nextInt(8) == 0) {
          a[i] = x ^ (bits(random, 1 + random.nextInt(3)) & masks[random.nextInt(masks.length)]);
        }
      }
      int from = random.nextInt(3);
      int to = from + n;
      int budget = random.nextInt(4);
      int m1 = masks[random.nextInt(masks.length)];
      int m2 = random.nextBoolean() ? m1 : masks[random.nextInt(masks.length)];
      boolean expected = false;
      boolean within = false;
      for (int i = from; i < to; i++) {
        int v = a[i] ^ x;
        within |= Integer.bitCount(v) <= budget;
        expected |= Integer.bitCount(v) <= budget && (v & m1) != 0 && (v & m2) != 0;
      }
      assertThat(IndexSearch.anyWithinUncovered(a, from, to, x, budget, m1, m2))
          .as("round %s", round)
          .isEqualTo(expected);
      assertThat(IndexSearch.anyWithin(a, from, to, x, budget)).isEqualTo(within);
    }
  }

  private static int bits(SplittableRandom random, int count) {
    int v = 0;
    while (Integer.bitCount(v) < count) {
      v |= 1 << random.nextInt(32);
    }
    return v;
  }
}
