// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.Document;
import org.neardup.store.Outcome;
import org.neardup.testkit.ManualClock;

/**
 * A jieba collection written before jieba's mixed blocks (segmenter id {@code
 * jieba-0.42.1/dag+hmm/...}, {@link LegacyFixtureWriter}) refused to open once the segmenter's id
 * became {@code dag+hmm+mixed}: its fingerprints were made with only Han runs reaching jieba. The
 * store now opens it with jieba's legacy form (the same dictionary, Han runs only), which gives the
 * fingerprints that release stored; new collections get today's analyzer.
 */
class LegacyAnalyzerTest {
  private static final String[] FILES = {
    "snapshot-00000000000000000000.ndsnap", "log-00000000000000000001.ndlog"
  };

  /** What the release before mixed blocks stored for LegacyFixtureWriter.TEXTS. */
  private static final long[] STORED = {0xdb93c66e07ce55c5L, 0xba144af833216a52L};

  @TempDir Path dir;

  @Test
  void open_dagHmmCollection_opensWithTheFingerprintsItWasWrittenWith() throws IOException {
    for (String f : FILES) {
      try (InputStream in = getClass().getResourceAsStream("fixture-jieba-dag-hmm/" + f)) {
        assertThat(in).as("fixture file %s", f).isNotNull();
        Files.copy(in, dir.resolve(f));
      }
    }
    try (EmbeddedStore s =
        EmbeddedStore.builder(dir).clock(new ManualClock()).background(false).open()) {
      Collection zh = s.collection("zh");
      assertThat(zh).isNotNull();
      assertThat(zh.analyzer().id()).contains(";seg=jieba-0.42.1/dag+hmm/sha1:");
      for (int i = 0; i < STORED.length; i++) {
        assertThat(zh.get("d" + i).orElseThrow().fingerprint()).isEqualTo(STORED[i]);
        assertThat(zh.analyzer().analyze(LegacyFixtureWriter.TEXTS[i]).fingerprint())
            .as("text %s analysed as the writing release did", i)
            .isEqualTo(STORED[i]);
      }
      // The mixed text is why the legacy form is needed: today's analyzer keeps 江南style, 4s店
      // and c++ whole, which moves its fingerprint.
      Collection fresh = s.create("fresh", CollectionSettings.defaults());
      assertThat(fresh.analyzer().id()).contains("/dag+hmm+mixed/");
      assertThat(fresh.analyzer().analyze(LegacyFixtureWriter.TEXTS[0]).fingerprint())
          .isNotEqualTo(STORED[0]);
      // The old collection still finds its own documents.
      Outcome again =
          zh.checkAndInsert(
              new Document("again", zh.analyzer().analyze(LegacyFixtureWriter.TEXTS[1])));
      assertThat(again.isNew()).isFalse();
      assertThat(again.cluster()).isEqualTo("d1");
    }
  }
}
