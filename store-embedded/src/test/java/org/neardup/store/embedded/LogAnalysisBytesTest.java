// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.Analysis;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.Document;
import org.neardup.testkit.Texts;

/**
 * The analysis an Insert record logs is made from the bytes the probe encoded for the insert (the
 * sketch encoded once): it must stay {@link Analysis#encode()} byte for byte, for singles and
 * batches, with verification on and off, or a replay would rebuild other documents.
 */
class LogAnalysisBytesTest {
  @TempDir Path dir;

  @Test
  void insertRecords_verified_logAnalysisEncodeByteForByte() throws IOException {
    assertLoggedAsEncoded(StoreTesting.SETTINGS);
  }

  @Test
  void insertRecords_fingerprintsOnly_logAnalysisEncodeByteForByte() throws IOException {
    assertLoggedAsEncoded(StoreTesting.SETTINGS.withVerify(false));
  }

  private void assertLoggedAsEncoded(CollectionSettings settings) throws IOException {
    SplittableRandom random = new SplittableRandom(7);
    Map<String, byte[]> expected = new HashMap<>();
    try (EmbeddedStore s =
        EmbeddedStore.builder(dir).background(false).snapshotOnClose(false).open()) {
      Collection c = s.create("news", settings);
      for (int i = 0; i < 30; i++) {
        Document d = StoreTesting.doc(c, "single" + i, Texts.text(random, 40));
        expected.put(d.id(), d.analysis().encode());
        c.checkAndInsert(d);
      }
      List<Document> batch = new ArrayList<>();
      for (int i = 0; i < 70; i++) {
        // Every fifth a repeat of an earlier text: a duplicate logs its analysis too.
        String text = i % 5 == 0 ? Texts.text(new SplittableRandom(i), 40) : Texts.text(random, 40);
        Document d = StoreTesting.doc(c, "batch" + i, text);
        expected.put(d.id(), d.analysis().encode());
        batch.add(d);
      }
      c.checkAndInsertAll(batch);
      c.checkAndInsertAll(batch.subList(0, 5)); // already stored: no records
    }
    int inserts = 0;
    try (SegmentReader r =
        SegmentReader.open(
            StoreTesting.onlyFile(dir, ".ndlog"),
            LogFormat.segmentOf(StoreTesting.onlyFile(dir, ".ndlog")))) {
      while (r.next()) {
        byte[] b = r.body();
        if (!LogFormat.isInsert(b[0])) {
          continue;
        }
        inserts++;
        int idLength = LogFormat.idLength(b);
        String id = new String(b, LogFormat.ID, idLength, java.nio.charset.StandardCharsets.UTF_8);
        int at = LogFormat.analysisOffset(b, r.length());
        byte[] logged = Arrays.copyOfRange(b, at, r.length());
        assertThat(logged).as("the analysis logged for %s", id).isEqualTo(expected.get(id));
      }
      assertThat(r.problem()).isNull();
    }
    assertThat(inserts).isEqualTo(100);
  }
}
