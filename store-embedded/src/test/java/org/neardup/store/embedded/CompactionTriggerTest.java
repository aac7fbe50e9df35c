// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.store.Collection;
import org.neardup.store.Document;
import org.neardup.store.FingerprintStore;
import org.neardup.store.StoreConfig;
import org.neardup.testkit.Texts;

/**
 * The log grew as large as the whole snapshot, kept sketch files included, before a compaction: at
 * 10M news articles ~17.8 GB of log, the disk doubled, while a compaction would have rewritten only
 * the 1.3 GB of heads. The trigger now weighs the log against the last snapshot's heads (what a
 * compaction writes again whatever happened), within [snapshotBytes, maxLogBytes].
 */
class CompactionTriggerTest {
  @TempDir Path dir;

  /**
   * The directory's bytes, the log counted by what it holds (a segment is preallocated 16 MiB at a
   * time, a constant), the scratch sketch files included.
   */
  private long directoryBytes(EmbeddedStore store) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      long n = store.metrics().get("log_bytes_since_snapshot").longValue();
      for (Path p : (Iterable<Path>) s::iterator) {
        n += p.getFileName().toString().endsWith(".ndlog") ? 0 : Files.size(p);
      }
      return n;
    }
  }

  /**
   * Continuous inserts of long texts (sketches ~15 times their heads): the log peaks near the
   * heads' size, not the snapshot's, compactions keep coming, and the directory (scratch sketch
   * files included: a compaction rebuilds a collection whose scratch file has grown to half the
   * snapshot's sketches) stays under twice its live part.
   */
  @Test
  void continuousIngest_logPeaksAtTheHeads_notTheWholeSnapshot() throws IOException {
    SplittableRandom r = new SplittableRandom(5);
    long peakLog = 0;
    long peakDisk = 0;
    long heads;
    long snapshot;
    try (EmbeddedStore s =
        EmbeddedStore.builder(dir).background(false).snapshotBytes(4096).open()) {
      Collection c = s.create("news", StoreTesting.SETTINGS);
      List<Document> batch = new ArrayList<>();
      for (int i = 0; i < 600; i++) {
        batch.add(new Document("a" + i, c.analyzer().analyze(Texts.text(r, 300 + i % 100))));
      }
      c.checkAndInsertAll(batch);
      s.checkpoint();
      heads = s.metrics().get("snapshot_head_bytes").longValue();
      snapshot = s.metrics().get("snapshot_bytes").longValue();
      assertThat(snapshot).as("sketches dominate").isGreaterThan(8 * heads);
      assertThat(s.metrics().get("log_bytes_due").longValue()).isEqualTo(heads);
      long compactions = s.metrics().get("compactions_total").longValue();
      // As many more documents: under the old trigger the log would grow to the snapshot's size
      // and no compaction would run.
      for (int round = 0; round < 60; round++) {
        batch.clear();
        for (int i = 0; i < 10; i++) {
          batch.add(
              new Document(
                  "b" + round + "-" + i, c.analyzer().analyze(Texts.text(r, 300 + i * 10))));
        }
        c.checkAndInsertAll(batch);
        peakLog = Math.max(peakLog, s.metrics().get("log_bytes_since_snapshot").longValue());
        peakDisk = Math.max(peakDisk, directoryBytes(s));
        s.maintain();
      }
      assertThat(s.metrics().get("compactions_total").longValue() - compactions)
          .as("compactions during the ingest")
          .isGreaterThanOrEqualTo(3);
      // One batch's log (10 documents of ~3 KB) past the heads, at the most.
      long due = s.metrics().get("log_bytes_due").longValue();
      assertThat(peakLog).isLessThan(Math.max(due, heads) + 64_000).isLessThan(snapshot / 4);
      s.checkpoint();
      long live = s.metrics().get("snapshot_bytes").longValue();
      assertThat(peakDisk).as("directory peak against the live snapshot").isLessThan(2 * live);
      assertThat(c.stats().documents()).isEqualTo(1200);
    }
  }

  /** The cap bounds the log whatever the heads' size; the floor holds below it. */
  @Test
  void logBytesDue_isTheHeads_withinFloorAndCap() throws IOException {
    SplittableRandom r = new SplittableRandom(6);
    try (EmbeddedStore s =
        EmbeddedStore.builder(dir)
            .background(false)
            .snapshotBytes(1000)
            .maxLogBytes(20_000)
            .open()) {
      Collection c = s.create("news", StoreTesting.SETTINGS);
      assertThat(s.metrics().get("log_bytes_due").longValue()).isEqualTo(1000); // no snapshot
      List<Document> batch = new ArrayList<>();
      for (int i = 0; i < 400; i++) {
        batch.add(new Document("a" + i, c.analyzer().analyze(Texts.text(r, 40))));
      }
      c.checkAndInsertAll(batch);
      s.checkpoint();
      assertThat(s.metrics().get("snapshot_head_bytes").longValue()).isGreaterThan(20_000);
      assertThat(s.metrics().get("log_bytes_due").longValue()).isEqualTo(20_000);
    }
    try (EmbeddedStore s =
        EmbeddedStore.builder(dir).background(false).snapshotBytes(1L << 30).open()) {
      // Read back at open; the floor wins over smaller heads.
      assertThat(s.metrics().get("snapshot_head_bytes").longValue()).isGreaterThan(20_000);
      assertThat(s.metrics().get("log_bytes_due").longValue()).isEqualTo(1L << 30);
    }
    // The service's store option.
    try (FingerprintStore s =
        new EmbeddedStoreProvider()
            .open(
                StoreConfig.of(
                    Map.of(
                        "data",
                        dir.toString(),
                        "snapshot-bytes",
                        "1000",
                        "max-log-bytes",
                        "5000")))) {
      assertThat(s.metrics().get("log_bytes_due").longValue()).isEqualTo(5000);
    }
  }
}
