// SPDX-License-Identifier: Apache-2.0
package org.neardup;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.neardup.fingerprint.FingerprintSettings;

/**
 * A probe's {@link Deduplicator.Probe#encodedAnalysis()} is built from the shingles it encoded for
 * the insert; it must be {@link Analysis#encode()} byte for byte, verified or not, since stores log
 * it in place of their own encoding.
 */
class ProbeEncodedAnalysisTest {
  private static final String[] TEXTS = {
    "Heavy rain closed the coastal road north of the harbour on Monday morning.",
    "暴雨导致港口以北的沿海公路周一上午封闭，渡轮公司将首两班推迟到下午。",
    "Heavy rain closed the coastal road north of the harbour on Monday morning!",
  };

  @Test
  void encodedAnalysis_verifiedAndNot_isEncodeByteForByte() {
    for (boolean verify : new boolean[] {true, false}) {
      Deduplicator d =
          Deduplicator.builder()
              .fingerprintSettings(FingerprintSettings.builder().build())
              .verify(verify)
              .build();
      Analysis[] analyses = new Analysis[TEXTS.length];
      for (int i = 0; i < analyses.length; i++) {
        analyses[i] = d.analyzer().analyze(TEXTS[i]);
      }
      Deduplicator.Probe[] probes = new Deduplicator.Probe[analyses.length];
      d.probeAll(analyses, 0, analyses.length, probes);
      for (int i = 0; i < analyses.length; i++) {
        assertThat(probes[i].encodedAnalysis())
            .as("verify %s, text %s", verify, i)
            .isEqualTo(analyses[i].encode());
        d.checkAndInsert(i, analyses[i], probes[i]);
      }
    }
  }
}
