// SPDX-License-Identifier: Apache-2.0
package org.neardup.segment.jieba;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

class ExactLogTest {

  /**
   * jieba's weights are CPython's math.log (glibc's log) of each frequency; data/make_ln.py wrote
   * them for all 5,087 distinct frequencies of the dictionary and for its total.
   */
  @Test
  void ln_everyDictionaryFrequency_equalsCPython() throws IOException {
    int n = 0;
    try (BufferedReader r =
        new BufferedReader(
            new InputStreamReader(
                new GZIPInputStream(
                    Objects.requireNonNull(getClass().getResourceAsStream("ln-cpython.txt.gz"))),
                StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        int sp = line.indexOf(' ');
        long x = Long.parseLong(line.substring(0, sp));
        double expected = Double.parseDouble(line.substring(sp + 1));
        assertThat(ExactLog.ln(x)).as("ln(%s)", x).isEqualTo(expected);
        n++;
      }
    }
    assertThat(n).isEqualTo(5_088);
  }

  @Test
  void ln_whereGlibcMisrounds_correctlyRounded() {
    // glibc 2.36 gives 9.123692565250511 for ln 9170, 0.50003 ulp above the true value
    // 9.12369256525051011... (Python decimal, 60 digits); the nearest double is one ulp lower.
    assertThat(ExactLog.ln(9170)).isEqualTo(Math.nextDown(9.123692565250511));
  }

  @Test
  void ln_exactCases() {
    assertThat(ExactLog.ln(1)).isEqualTo(0.0);
    assertThat(ExactLog.ln(2)).isEqualTo(0.6931471805599453);
    assertThat(ExactLog.ln(1L << 52)).isEqualTo(36.04365338911715); // CPython's math.log(2**52)
  }

  @Test
  void ln_randomIntegers_withinOneUlpOfMathLog() {
    java.util.SplittableRandom r = new java.util.SplittableRandom(2000);
    for (int i = 0; i < 2000; i++) {
      // Log-uniform over [1, 2^52] so small and large values are both well covered.
      long x = Math.max(1, (long) Math.pow(2, r.nextDouble() * 52));
      double v = ExactLog.ln(x);
      assertThat(Math.abs(v - Math.log(x))).as("x = %s", x).isLessThanOrEqualTo(Math.ulp(v));
    }
  }

  @Test
  void ln_outOfRange_throws() {
    assertThatThrownBy(() -> ExactLog.ln(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ExactLog.ln(1L << 53)).isInstanceOf(IllegalArgumentException.class);
  }
}
