// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.neardup.Analysis;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.Document;
import org.neardup.testkit.ManualClock;

/**
 * Writes the format fixture read by {@link FormatFixtureTest}: run it once per format version and
 * commit the directory ({@code java -cp ... FixtureWriter DIR}).
 */
final class FixtureWriter {
  private FixtureWriter() {}

  static final String A = "the quick brown fox jumps over the lazy dog near the river bank today";
  static final String C = "markets rose sharply on tuesday as investors welcomed the new figures";

  public static void main(String[] args) throws IOException {
    ManualClock clock = new ManualClock();
    Path dir = Path.of(args[0]);
    try (EmbeddedStore s =
        EmbeddedStore.builder(dir).clock(clock).background(false).snapshotOnClose(false).open()) {
      Collection news =
          s.create(
              "news", CollectionSettings.defaults().withLexicon(CollectionSettings.NO_LEXICON));
      Collection fps =
          s.create(
              "fps",
              CollectionSettings.defaults()
                  .withLexicon(CollectionSettings.NO_LEXICON)
                  .withVerify(false)
                  .withMaxDistance(2)
                  .withRetention(Duration.ofDays(3650)));
      news.checkAndInsert(new Document("a", news.analyzer().analyze(A), 1_700_000_000_000L));
      news.checkAndInsert(new Document("b", news.analyzer().analyze(A + " again")));
      news.checkAndInsert(new Document("c", news.analyzer().analyze(C)));
      fps.checkAndInsert(new Document("x", Analysis.ofFingerprint(0x0123_4567_89ab_cdefL, 1)));
      s.checkpoint(); // snapshot 1: a, b, c, x
      news.checkAndInsert(new Document("d", news.analyzer().analyze(C + " indeed")));
      news.delete("b");
      fps.checkAndInsert(new Document("y", Analysis.ofFingerprint(0x0123_4567_89ab_cdecL, 1)));
    } // no snapshot at close: d, the delete and y stay in the log
  }
}
