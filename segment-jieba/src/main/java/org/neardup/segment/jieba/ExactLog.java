// SPDX-License-Identifier: Apache-2.0
package org.neardup.segment.jieba;

/**
 * The natural logarithm of a positive integer, correctly rounded to the nearest double.
 *
 * <p>jieba weighs a word by {@code math.log(freq) - math.log(total)}; which of two routes wins can
 * depend on the last bit of those doubles. {@link Math#log} may differ by an ulp between JVMs and
 * CPUs, and {@link StrictMath#log} (fdlibm) differs from glibc's {@code log}, which CPython calls,
 * on 8,659 of the integers 1..883,634. This method is the same on every JVM and equals glibc's on
 * all of them but 23, where glibc itself is not correctly rounded (for example ln 9170, which glibc
 * rounds up from 0.50003 ulp); no frequency in jieba's dictionary is among those 23.
 *
 * <p>Stateless; about 1 µs per call, for load time only.
 */
final class ExactLog {
  /*
   * ln x = k ln 2 + ln m with x = 2^k m, m in [sqrt(1/2), sqrt(2)), and
   * ln m = 2 atanh(s) = 2 (s + s^3/3 + s^5/5 + ...) with s = (m - 1) / (m + 1), |s| <= 0.172,
   * all in double-double arithmetic (about 104 bits; FMA for exact products). 31 series terms
   * leave a truncation error below s^62 < 1e-47. The double nearest the double-double result is
   * hi + lo, which is the correctly rounded logarithm unless ln x lies within about 2^-100 of the
   * midpoint between two doubles.
   */
  private static final double LN2_HI = Double.longBitsToDouble(0x3FE62E42FEFA39EFL);
  private static final double LN2_LO = Double.longBitsToDouble(0x3C7ABC9E3B39803FL);
  private static final double SQRT2 = 1.4142135623730951;
  private static final int TERMS = 31;

  private ExactLog() {}

  /** Returns ln(x) correctly rounded, for 1 <= x < 2^53. */
  static double ln(long x) {
    if (x < 1 || x >= 1L << 53) {
      throw new IllegalArgumentException("x must be in [1, 2^53), got " + x);
    }
    double v = x;
    int k = Math.getExponent(v);
    double m = Math.scalb(v, -k);
    if (m > SQRT2) {
      m *= 0.5;
      k++;
    }
    // s = (m - 1) / (m + 1): the numerator is exact (Sterbenz), the denominator a two-sum.
    double num = m - 1;
    double denHi = m + 1;
    double bb = denHi - m;
    double denLo = (m - (denHi - bb)) + (1 - bb);
    double q1 = num / denHi;
    double p = q1 * denHi;
    double r = ((num - p) - Math.fma(q1, denHi, -p)) - q1 * denLo;
    double q2 = r / denHi;
    double sHi = q1 + q2;
    double sLo = q2 - (sHi - q1);
    // s2 = s * s
    double p2 = sHi * sHi;
    double e2 = Math.fma(sHi, sHi, -p2) + 2 * sHi * sLo;
    double s2Hi = p2 + e2;
    double s2Lo = e2 - (s2Hi - p2);
    // Horner: t = sum_{i=0}^{TERMS} s2^i / (2i + 1)
    double tHi = 0;
    double tLo = 0;
    for (int i = TERMS; i >= 0; i--) {
      // t = t * s2
      double pp = tHi * s2Hi;
      double pe = Math.fma(tHi, s2Hi, -pp) + (tHi * s2Lo + tLo * s2Hi);
      double mHi = pp + pe;
      double mLo = pe - (mHi - pp);
      // c = 1 / (2i + 1) as a double-double
      int d = 2 * i + 1;
      double cHi = 1.0 / d;
      double cLo = -Math.fma(cHi, d, -1.0) / d;
      // t = t + c
      double sum = mHi + cHi;
      double bv = sum - mHi;
      double err = (mHi - (sum - bv)) + (cHi - bv) + (mLo + cLo);
      tHi = sum + err;
      tLo = err - (tHi - sum);
    }
    // ln m = 2 s t
    double lp = tHi * sHi;
    double le = Math.fma(tHi, sHi, -lp) + (tHi * sLo + tLo * sHi);
    double lnmHi = 2 * (lp + le);
    double lnmLo = 2 * (le - ((lp + le) - lp));
    // k ln 2
    double kHi = k * LN2_HI;
    double kLo = Math.fma(k, LN2_HI, -kHi) + k * LN2_LO;
    // sum
    double sum = kHi + lnmHi;
    double bv = sum - kHi;
    double err = (kHi - (sum - bv)) + (lnmHi - bv) + (kLo + lnmLo);
    return sum + err;
  }
}
