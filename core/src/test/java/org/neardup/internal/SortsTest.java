// SPDX-License-Identifier: Apache-2.0
package org.neardup.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SortsTest {
  /** Keys of one kind: random over all longs, few distinct ones, a narrow range, the extremes. */
  private static long[] keys(SplittableRandom r, int kind, int n) {
    long[] k = new long[n];
    for (int i = 0; i < n; i++) {
      k[i] =
          switch (kind) {
            case 0 -> r.nextLong();
            case 1 -> r.nextInt(7) - 3L;
            case 2 -> 1_000_000L + r.nextInt(5_000);
            case 3 ->
                r.nextBoolean() ? Long.MIN_VALUE + r.nextInt(3) : Long.MAX_VALUE - r.nextInt(3);
            default -> (long) r.nextInt(1 << 20) << 32 | r.nextInt(1 << 20); // pairs (i, j)
          };
    }
    return k;
  }

  /**
   * Both sorts leave the keys ascending, each value still beside its own key (the values are the
   * keys' first positions, so a pair (key, value) is checked against the input), and
   * sortByKeySpread leaves the same keys as sortByKey; sizes on both sides of the spread sort's
   * cut-over to the quicksort.
   */
  @Test
  void sortByKeySpread_sortsAsSortByKey_valuesFollowTheirKeys() {
    SplittableRandom r = new SplittableRandom(13);
    for (int kind = 0; kind <= 4; kind++) {
      for (int n : new int[] {0, 1, 17, 4095, 4096, 5000, 70_000, 300_000}) {
        long[] input = keys(r, kind, n + 3); // n of them sorted, the 3 after left alone
        long[] a = input.clone();
        long[] b = input.clone();
        int[] va = new int[input.length];
        int[] vb = new int[input.length];
        for (int i = 0; i < input.length; i++) {
          va[i] = i;
          vb[i] = i;
        }
        Sorts.sortByKey(a, va, n);
        Sorts.sortByKeySpread(b, vb, n);
        assertThat(b).as("kind %s, n %s", kind, n).isEqualTo(a);
        long[] expected = Arrays.copyOf(input, n);
        Arrays.sort(expected);
        assertThat(Arrays.copyOf(b, n)).isEqualTo(expected);
        boolean[] seen = new boolean[input.length];
        for (int i = 0; i < n; i++) {
          assertThat(b[i]).isEqualTo(input[vb[i]]);
          assertThat(seen[vb[i]]).as("each value once").isFalse();
          seen[vb[i]] = true;
        }
        for (int i = n; i < input.length; i++) {
          assertThat(vb[i]).as("past n untouched").isEqualTo(i);
        }
      }
    }
  }
}
