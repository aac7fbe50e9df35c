// SPDX-License-Identifier: Apache-2.0
package org.neardup.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.neardup.Analyzer;
import org.neardup.fingerprint.FingerprintSettings;
import org.neardup.index.BlockScheme;
import org.neardup.text.UserDictionary;

/** The text form that every store persists: new options round-trip, old texts read as before. */
class CollectionSettingsTest {
  /** Property: random settings, lexicon none so no dictionary is loaded, read back equal. */
  @Test
  void toText_parse_roundTrips() {
    long seed = 18_2L;
    Random r = new Random(seed);
    String[] schemes = {"4:1", "5:2", "6:3"};
    for (int i = 0; i < 500; i++) {
      AnalysisOptions a =
          new AnalysisOptions(
              r.nextBoolean(),
              FingerprintSettings.Html.values()[r.nextInt(3)],
              FingerprintSettings.Volatile.values()[r.nextInt(2)],
              r.nextInt(5) == 0 ? 0 : 1 + r.nextInt(200),
              16 + r.nextInt(4000),
              BlockScheme.parse(schemes[r.nextInt(3)]),
              null);
      CollectionSettings s =
          CollectionSettings.defaults()
              .withLexicon(CollectionSettings.NO_LEXICON)
              .withMaxDistance(r.nextInt(9))
              .withThreshold(0.5 + r.nextInt(50) / 100.0)
              .withRetention(Duration.ofHours(r.nextInt(100)))
              .withAnalysis(a);
      CollectionSettings back = CollectionSettings.parse(s.toText());
      assertThat(back).as("seed %s, %s", seed, s.toText()).isEqualTo(s);
    }
  }

  @Test
  void parse_textWrittenBeforeTheOptions_readsAsTheDefaults() {
    // What a store written before these options holds.
    String old = "k=3;threshold=0.8;verify=true;retention=PT48H;basis=timestamp;lexicon=none";
    CollectionSettings s = CollectionSettings.parse(old);
    assertThat(s.analysis()).isEqualTo(AnalysisOptions.DEFAULT);
    assertThat(s.toText()).isEqualTo(old);
  }

  @Test
  void toText_namesOnlyWhatDiffersFromTheDefaults() {
    CollectionSettings s =
        CollectionSettings.defaults()
            .withLexicon(CollectionSettings.NO_LEXICON)
            .withAnalysis(AnalysisOptions.of(Preset.WEB).withScheme(BlockScheme.parse("5:2")));
    assertThat(s.toText()).endsWith(";han=fold;numbers=fold;html=main;volatile=drop;scheme=5:2");
  }

  @Test
  void deduplicator_carriesEveryOption() {
    CollectionSettings s =
        CollectionSettings.defaults()
            .withLexicon(CollectionSettings.NO_LEXICON)
            .withAnalysis(AnalysisOptions.of(Preset.WEB).withTopN(32).withSketchCapacity(1024));
    Analyzer a = s.deduplicator().analyzer();
    assertThat(a.id())
        .contains(";top=32;")
        .contains(";html=main")
        .contains(";volatile=drop")
        .contains("cap=1024")
        .contains("numbers=fold");
  }

  @Test
  void idf_namedByHash_readBackThroughTheStoresFiles() {
    UserDictionary table =
        UserDictionary.of("idf.txt", "budget 9.5\ncouncil 8.25\n".getBytes(StandardCharsets.UTF_8));
    CollectionSettings s =
        CollectionSettings.defaults()
            .withLexicon(CollectionSettings.NO_LEXICON)
            .withAnalysis(AnalysisOptions.DEFAULT.withIdf(table));
    assertThat(s.toText()).endsWith(";idf=sha256:" + table.sha256());
    Map<String, UserDictionary> files = Map.of(table.sha256(), table);
    assertThat(CollectionSettings.parse(s.toText(), files::get)).isEqualTo(s);
    assertThat(s.deduplicator().analyzer().id())
        .contains(";idf=idf-sha256:" + table.sha256().substring(0, 16));
    // A store without the file cannot make the same fingerprints: it says so.
    assertThatThrownBy(() -> CollectionSettings.parse(s.toText()))
        .hasMessageContaining("not at hand");
    UserDictionary bad = UserDictionary.of("bad", "budget nine\n".getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> AnalysisOptions.DEFAULT.withIdf(bad).idfTable())
        .hasMessageContaining("line 1: idf is not a number");
  }

  @Test
  void parse_badValues_nameTheSetting() {
    assertThatThrownBy(() -> CollectionSettings.parse("numbers=maybe"))
        .hasMessageContaining("numbers must be 'keep' or 'fold'");
    assertThatThrownBy(() -> CollectionSettings.parse("top=x"))
        .hasMessageContaining("setting top must be a number");
    assertThatThrownBy(() -> CollectionSettings.parse("capacity=3"))
        .hasMessageContaining("sketchCapacity must be in [16, 1048576]");
    assertThatThrownBy(() -> CollectionSettings.parse("scheme=3:9"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> CollectionSettings.parse("colour=blue"))
        .hasMessageContaining("known: k, threshold")
        .hasMessageContaining("scheme");
  }
}
