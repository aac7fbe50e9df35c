// SPDX-License-Identifier: Apache-2.0
package org.neardup.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** FingerprintBenchmark reads real text and computes the real fingerprints. */
class FingerprintBenchmarkTest {
  @Test
  void run_bothLanguagesBothPaths_foldTheFingerprintsOfEveryText() throws IOException {
    for (String lang : new String[] {"zh", "en"}) {
      FingerprintBenchmark fp = bench(lang, "fingerprint");
      FingerprintBenchmark an = bench(lang, "analyze");
      assertThat(fp.texts.length).as("%s texts in the sample", lang).isGreaterThan(100);
      assertThat(fp.megabytes).isGreaterThan(0.05);
      long expected = 0;
      for (String t : fp.texts) {
        expected ^= fp.fingerprinter.fingerprint(t);
      }
      assertThat(fp.run()).isEqualTo(expected).isNotZero();
      // Analysis computes the same fingerprint, plus the sketch.
      assertThat(an.run()).isEqualTo(expected);
    }
  }

  private static FingerprintBenchmark bench(String lang, String what) throws IOException {
    FingerprintBenchmark b = new FingerprintBenchmark();
    b.corpus = "../examples/sample.jsonl";
    b.lang = lang;
    b.what = what;
    b.setUp();
    return b;
  }
}
