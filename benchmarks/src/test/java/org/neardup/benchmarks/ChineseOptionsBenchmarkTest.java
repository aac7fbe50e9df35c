// SPDX-License-Identifier: Apache-2.0
package org.neardup.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** ChineseOptionsBenchmark computes real fingerprints with each option, and the options act. */
class ChineseOptionsBenchmarkTest {
  @Test
  void fingerprint_eachVariant_foldsTheFingerprintsOfEveryText() throws IOException {
    String[] variants = {"keep", "fold", "fold-userdict10k", "keep-hanruns"};
    long[] answers = new long[variants.length];
    for (int i = 0; i < variants.length; i++) {
      ChineseOptionsBenchmark b = new ChineseOptionsBenchmark();
      b.corpus = "../examples/sample.jsonl";
      b.lang = "zh";
      b.variant = variants[i];
      b.setUp();
      long expected = 0;
      for (String t : b.texts) {
        expected ^= b.fingerprinter.fingerprint(t);
      }
      answers[i] = b.fingerprint();
      assertThat(answers[i]).isEqualTo(expected).isNotZero();
    }
    // The sample's poems are traditional and the user words come from them: both change answers.
    assertThat(answers[1]).isNotEqualTo(answers[0]);
    assertThat(answers[2]).isNotEqualTo(answers[1]);
  }

  @Test
  void userDictionary_distinctWordsOfTheCorpus() throws IOException {
    String text =
        new String(
            ChineseOptionsBenchmark.userDictionary(Path.of("../examples/sample.jsonl"), 500)
                .content(),
            java.nio.charset.StandardCharsets.UTF_8);
    assertThat(text.lines().count()).isEqualTo(500);
    assertThat(text.lines().map(l -> l.split(" ")[0]).distinct().count()).isEqualTo(500);
  }
}
