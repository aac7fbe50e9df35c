// SPDX-License-Identifier: Apache-2.0
package org.neardup.fingerprint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SimhashTest {
  /** The textbook definition: the sign of sum(+w for 1-bits, -w for 0-bits), per bit. */
  private static long textbook(long[] h, float[] w, int n) {
    long fp = 0;
    for (int b = 0; b < 64; b++) {
      double s = 0;
      for (int i = 0; i < n; i++) {
        s += ((h[i] >>> b) & 1) != 0 ? w[i] : -w[i];
      }
      if (s > 0) {
        fp |= 1L << b;
      }
    }
    return fp;
  }

  @Test
  void of_randomFeatures_agreesWithTextbookDefinition() {
    SplittableRandom r = new SplittableRandom(3);
    double[] sums = new double[64];
    for (int round = 0; round < 2000; round++) {
      int n = r.nextInt(1, 80);
      long[] h = new long[n];
      float[] w = new float[n];
      for (int i = 0; i < n; i++) {
        h[i] = r.nextLong();
        // Weights with few significant bits, so no sum is within rounding of zero.
        w[i] = r.nextInt(1, 64) / 4f;
      }
      assertThat(Simhash.of(h, w, n, sums)).isEqualTo(textbook(h, w, n));
    }
  }

  /** Simhash.of before it skipped clear bits: +0.0 added for each, every sum in feature order. */
  private static long allBits(long[] hashes, float[] weights, int n) {
    double[] sums = new double[64];
    double total = 0;
    for (int i = 0; i < n; i++) {
      long wBits = Double.doubleToRawLongBits(weights[i]);
      total += weights[i];
      for (int b = 0; b < 64; b++) {
        sums[b] += Double.longBitsToDouble(wBits & -((hashes[i] >>> b) & 1L));
      }
    }
    long fp = 0;
    for (int b = 0; b < 64; b++) {
      if (2 * sums[b] > total) {
        fp |= 1L << b;
      }
    }
    return fp;
  }

  @Test
  void of_fullPrecisionWeights_sameBitsAsAddingEveryBit() {
    // Weights with full mantissas over a wide range, zeros of both signs and ties near the
    // threshold, where a different order of additions would round differently.
    SplittableRandom r = new SplittableRandom(25);
    double[] sums = new double[64];
    for (int round = 0; round < 20_000; round++) {
      int n = r.nextInt(0, 41);
      long[] h = new long[n];
      float[] w = new float[n];
      for (int i = 0; i < n; i++) {
        h[i] = r.nextInt(8) == 0 ? r.nextLong() & r.nextLong() : r.nextLong();
        int kind = r.nextInt(10);
        w[i] =
            kind == 0
                ? 0f
                : kind == 1 ? -0f : (float) (r.nextDouble() * Math.pow(2, r.nextInt(-20, 20)));
      }
      assertThat(Simhash.of(h, w, n, sums)).isEqualTo(allBits(h, w, n));
    }
  }

  @Test
  void of_singleFeature_isItsHash() {
    assertThat(Simhash.of(new long[] {0xDEADBEEFL}, new float[] {2f}, 1, new double[64]))
        .isEqualTo(0xDEADBEEFL);
  }

  @Test
  void of_noFeatures_isZero() {
    assertThat(Simhash.of(new long[0], new float[0], 0, new double[64])).isZero();
  }

  @Test
  void of_heavyFeature_dominates() {
    long heavy = 0x0123456789ABCDEFL;
    assertThat(
            Simhash.of(new long[] {heavy, ~heavy, 42}, new float[] {10, 3, 3}, 3, new double[64]))
        .isEqualTo(heavy);
  }

  @Test
  void hex_roundTrips_andRejectsGarbage() {
    assertThat(Simhash.toHex(0x00ABCDEFL)).isEqualTo("0000000000abcdef");
    assertThat(Simhash.parseHex("ffffffffffffffff")).isEqualTo(-1L);
    assertThat(Simhash.parseHex("0xAB")).isEqualTo(0xABL);
    assertThatThrownBy(() -> Simhash.parseHex("xyz")).hasMessageContaining("16 hex digits");
    assertThatThrownBy(() -> Simhash.parseHex("00000000000000000"))
        .hasMessageContaining("16 hex digits");
  }

  @Test
  void toHex_randomValues_matchesZeroPaddedFormat() {
    // toHex writes its digits by hand (no string concatenation on the output path): it must agree
    // with the JDK's formatting for every value, including the extremes.
    SplittableRandom random = new SplittableRandom(20);
    for (int i = 0; i < 10_000; i++) {
      long v = i < 4 ? new long[] {0, -1, Long.MIN_VALUE, Long.MAX_VALUE}[i] : random.nextLong();
      assertThat(Simhash.toHex(v)).isEqualTo(String.format(java.util.Locale.ROOT, "%016x", v));
      assertThat(Simhash.parseHex(Simhash.toHex(v))).isEqualTo(v);
    }
  }

  @Test
  void distance_isPopcountOfXor() {
    assertThat(Simhash.distance(0b1011, 0b0001)).isEqualTo(2);
    assertThat(Simhash.distance(0, -1)).isEqualTo(64);
  }
}
