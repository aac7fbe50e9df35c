// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RadixSortTest {

  @Test
  void sortUnsigned_randomAndShapedKeys_matchesReferenceOrderAndCarriesPayload() {
    SplittableRandom random = new SplittableRandom(11);
    for (int n : new int[] {0, 1, 2, 63, 64, 65, 1000, 100_000}) {
      for (int shape = 0; shape < 3; shape++) {
        long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
          // uniform; few distinct values; only a middle digit varies
          keys[i] =
              shape == 0
                  ? random.nextLong()
                  : shape == 1
                      ? random.nextInt(5) * 0x9E37_79B9_7F4A_7C15L
                      : (long) random.nextInt(300) << 22;
        }
        long[] payload = new long[n];
        for (int i = 0; i < n; i++) {
          payload[i] = keys[i] * 31 + 7;
        }
        long[] expected = keys.clone();
        Arrays.sort(expected);
        // unsigned order: negative values after positive ones
        long[] unsigned = Arrays.stream(expected).filter(v -> v >= 0).toArray();
        long[] neg = Arrays.stream(expected).filter(v -> v < 0).toArray();
        long[] want = new long[n];
        System.arraycopy(unsigned, 0, want, 0, unsigned.length);
        System.arraycopy(neg, 0, want, unsigned.length, neg.length);
        RadixSort.sortUnsigned(keys, payload, n, new long[n], new long[n]);
        assertThat(keys).as("n=%s shape=%s", n, shape).containsExactly(want);
        long[] wantPayload = Arrays.stream(keys).map(k -> k * 31 + 7).toArray();
        assertThat(Arrays.equals(payload, wantPayload)).isTrue();
      }
    }
  }

  @Test
  void sort_bySelectedBits_isStable() {
    SplittableRandom random = new SplittableRandom(12);
    int n = 5000;
    long[] keys = new long[n];
    long[] order = new long[n];
    for (int i = 0; i < n; i++) {
      keys[i] = random.nextLong();
      order[i] = i;
    }
    // Sort by bits [40, 44) then [4, 8) as the more significant part.
    int[][] digits = RadixSort.digitsFor(new int[] {40, 4}, new int[] {4, 4});
    RadixSort.sort(keys, order, n, new long[n], new long[n], digits);
    for (int i = 1; i < n; i++) {
      long a = (((keys[i - 1] >>> 4) & 15) << 4) | ((keys[i - 1] >>> 40) & 15);
      long b = (((keys[i] >>> 4) & 15) << 4) | ((keys[i] >>> 40) & 15);
      assertThat(a).isLessThanOrEqualTo(b);
      if (a == b) {
        assertThat(order[i - 1]).isLessThan(order[i]);
      }
    }
  }
}
