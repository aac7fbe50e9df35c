// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

import org.jspecify.annotations.Nullable;

/**
 * Stable LSD radix sorts of {@code long[]} in unsigned order, optionally carrying a parallel
 * payload array. One counting pass computes every digit's histogram; passes whose digit is the same
 * for all keys are skipped.
 *
 * <p>8-bit digits (8 passes over 64 bits): on this project's 2-core reference box, sorting 10M
 * random longs took 0.22-0.37 s with 8-bit digits, 0.34-0.47 s with 11-bit, 0.36-0.54 s with 13-bit
 * and 0.34-0.58 s with 16-bit digits (a wide scatter misses the TLB and the write-combining buffers
 * more than the extra passes cost).
 */
final class RadixSort {
  private RadixSort() {}

  static final int DIGIT_BITS = 8;

  /** Sorts {@code a[0, n)} unsigned; {@code scratch} must hold n longs. */
  static void sortUnsigned(long[] a, int n, long[] scratch) {
    sort(a, null, n, scratch, null, fullDigits());
  }

  /** Sorts {@code keys[0, n)} unsigned, permuting {@code payload} alike. */
  static void sortUnsigned(long[] keys, long[] payload, int n, long[] scratchK, long[] scratchP) {
    sort(keys, payload, n, scratchK, scratchP, fullDigits());
  }

  private static int[][] fullDigits() {
    int passes = (64 + DIGIT_BITS - 1) / DIGIT_BITS;
    int[][] digits = new int[passes][];
    for (int p = 0; p < passes; p++) {
      int shift = p * DIGIT_BITS;
      digits[p] = new int[] {shift, Math.min(DIGIT_BITS, 64 - shift)};
    }
    return digits;
  }

  /**
   * Digits {@code {shift, bits}} for sorting by the bit ranges {@code [shift, shift + bits)} given
   * least significant first, each cut into digits of at most {@link #DIGIT_BITS} bits.
   */
  static int[][] digitsFor(int[] shifts, int[] widths) {
    return digitsFor(shifts, widths, DIGIT_BITS);
  }

  /** As {@link #digitsFor(int[], int[])} with digits of at most {@code maxDigitBits} bits. */
  static int[][] digitsFor(int[] shifts, int[] widths, int maxDigitBits) {
    int count = 0;
    for (int w : widths) {
      count += (w + maxDigitBits - 1) / maxDigitBits;
    }
    int[][] digits = new int[count][];
    int d = 0;
    for (int i = 0; i < shifts.length; i++) {
      int pieces = (widths[i] + maxDigitBits - 1) / maxDigitBits;
      int base = widths[i] / pieces;
      int extra = widths[i] % pieces;
      int shift = shifts[i];
      for (int p = 0; p < pieces; p++) {
        int bits = base + (p < extra ? 1 : 0);
        digits[d++] = new int[] {shift, bits};
        shift += bits;
      }
    }
    return digits;
  }

  /**
   * Sorts {@code keys[0, n)} stably by the given digits (least significant first), permuting {@code
   * payload} (may be null) alike. The result is left in {@code keys} and {@code payload}.
   */
  static void sort(
      long[] keys,
      long @Nullable [] payload,
      int n,
      long[] scratchK,
      long @Nullable [] scratchP,
      int[][] digits) {
    if (n < 2) {
      return;
    }
    if (n < 64) {
      insertionSort(keys, payload, n, digits);
      return;
    }
    int passes = digits.length;
    int[][] counts = new int[passes][];
    long[] masks = new long[passes];
    int[] shifts = new int[passes];
    for (int p = 0; p < passes; p++) {
      shifts[p] = digits[p][0];
      masks[p] = BlockScheme.mask(digits[p][1]);
      counts[p] = new int[1 << digits[p][1]];
    }
    for (int i = 0; i < n; i++) {
      long k = keys[i];
      for (int p = 0; p < passes; p++) {
        counts[p][(int) ((k >>> shifts[p]) & masks[p])]++;
      }
    }
    long[] srcK = keys;
    long[] srcP = payload;
    long[] dstK = scratchK;
    long[] dstP = scratchP;
    for (int p = 0; p < passes; p++) {
      int[] c = counts[p];
      int first = (int) ((keys[0] >>> shifts[p]) & masks[p]);
      if (c[first] == n) {
        continue; // every key has this digit
      }
      int sum = 0;
      for (int b = 0; b < c.length; b++) {
        int v = c[b];
        c[b] = sum;
        sum += v;
      }
      int shift = shifts[p];
      long mask = masks[p];
      if (srcP == null) {
        for (int i = 0; i < n; i++) {
          long k = srcK[i];
          dstK[c[(int) ((k >>> shift) & mask)]++] = k;
        }
      } else {
        for (int i = 0; i < n; i++) {
          long k = srcK[i];
          int at = c[(int) ((k >>> shift) & mask)]++;
          dstK[at] = k;
          dstP[at] = srcP[i];
        }
      }
      long[] t = srcK;
      srcK = dstK;
      dstK = t;
      t = srcP;
      srcP = dstP;
      dstP = t;
    }
    if (srcK != keys) {
      System.arraycopy(srcK, 0, keys, 0, n);
      if (payload != null) {
        System.arraycopy(srcP, 0, payload, 0, n);
      }
    }
  }

  private static void insertionSort(long[] keys, long @Nullable [] payload, int n, int[][] digits) {
    long[] m = new long[digits.length];
    for (int p = 0; p < digits.length; p++) {
      m[p] = BlockScheme.mask(digits[p][1]) << digits[p][0];
    }
    for (int i = 1; i < n; i++) {
      long k = keys[i];
      long v = payload == null ? 0 : payload[i];
      int j = i - 1;
      while (j >= 0 && compare(keys[j], k, digits, m) > 0) {
        keys[j + 1] = keys[j];
        if (payload != null) {
          payload[j + 1] = payload[j];
        }
        j--;
      }
      keys[j + 1] = k;
      if (payload != null) {
        payload[j + 1] = v;
      }
    }
  }

  private static int compare(long a, long b, int[][] digits, long[] m) {
    for (int p = digits.length - 1; p >= 0; p--) {
      long x = a & m[p];
      long y = b & m[p];
      if (x != y) {
        return Long.compareUnsigned(x, y);
      }
    }
    return 0;
  }
}
