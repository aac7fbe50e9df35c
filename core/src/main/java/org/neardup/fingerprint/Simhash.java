// SPDX-License-Identifier: Apache-2.0
package org.neardup.fingerprint;

import java.nio.charset.StandardCharsets;

/**
 * The weighted sign vector of 64-bit feature hashes: bit b of the result is 1 when the weights of
 * the features whose hash has bit b set outweigh those whose hash has it clear.
 */
public final class Simhash {
  private Simhash() {}

  /**
   * Computes the simhash of {@code n} features: bit b is 1 when {@code 2 * S1[b] > W}, where {@code
   * S1[b]} sums (in double precision, in feature order) the weights of the features whose hash has
   * bit b set and {@code W} sums all weights. This is the sign of {@code sum(+w or -w)}, computed
   * with half the additions.
   *
   * @param sums scratch space of at least 64 doubles, overwritten
   */
  public static long of(long[] hashes, float[] weights, int n, double[] sums) {
    java.util.Arrays.fill(sums, 0, 64, 0.0);
    double total = 0;
    for (int i = 0; i < n; i++) {
      double w = weights[i];
      total += w;
      // Only the set bits: adding +0.0 for a clear bit changed nothing (a sum that starts at +0.0
      // never becomes -0.0), so each sum gets the same additions in the same order as a loop over
      // all 64 bits, in about half the steps.
      for (long h = hashes[i]; h != 0; h &= h - 1) {
        sums[Long.numberOfTrailingZeros(h)] += w;
      }
    }
    long fingerprint = 0;
    for (int b = 0; b < 64; b++) {
      if (2 * sums[b] > total) {
        fingerprint |= 1L << b;
      }
    }
    return fingerprint;
  }

  /** Hamming distance: the number of bits in which a and b differ. */
  public static int distance(long a, long b) {
    return Long.bitCount(a ^ b);
  }

  /** The fingerprint as 16 lower-case hex digits, the form used in JSON and files. */
  public static String toHex(long fingerprint) {
    byte[] digits = new byte[16];
    for (int i = 15; i >= 0; i--) {
      digits[i] = HEX_DIGITS[(int) fingerprint & 15];
      fingerprint >>>= 4;
    }
    return new String(digits, StandardCharsets.ISO_8859_1);
  }

  private static final byte[] HEX_DIGITS = {
    '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'
  };

  /**
   * Parses 16 hex digits (an optional {@code 0x} prefix is allowed).
   *
   * @throws IllegalArgumentException naming the value when it is not 1-16 hex digits
   */
  public static long parseHex(String hex) {
    String s = hex.startsWith("0x") || hex.startsWith("0X") ? hex.substring(2) : hex;
    if (s.isEmpty() || s.length() > 16) {
      throw new IllegalArgumentException("a fingerprint is 1 to 16 hex digits, got '" + hex + "'");
    }
    try {
      return Long.parseUnsignedLong(s, 16);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "a fingerprint is 1 to 16 hex digits, got '" + hex + "'", e);
    }
  }
}
