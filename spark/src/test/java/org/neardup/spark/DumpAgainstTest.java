// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.cli.Main;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.Document;
import org.neardup.store.FingerprintStore;
import org.neardup.store.StoreConfig;
import org.neardup.testkit.Texts;

/**
 * One test, two incremental runs and two refused ones on one session (each run is some 70 Spark
 * stages, which is what costs here, not the documents). A service collection, exported with {@code
 * neardup store export} from a real embedded store, serves as the earlier corpus of an incremental
 * run ({@code --against DUMP}) with nothing recomputed: the new batch's lines are those {@code
 * neardup dedup OLD NEW} writes for the new documents in one full run, and no line is about a
 * stored document.
 */
class DumpAgainstTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  static SparkSession spark;
  @TempDir static Path tmp;

  @BeforeAll
  static void start() {
    spark = LocalSpark.start();
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  private static String line(String id, String text) throws IOException {
    return JSON.writeValueAsString(Map.of("id", id, "text", text));
  }

  @Test
  void newBatchAgainstAStoreExportMatchesOneFullRun() throws IOException {
    SplittableRandom r = new SplittableRandom(17);
    String deletedBase = Texts.text(r, 60);
    // The stored corpus: groups of near-copies, inserted in order. (Small: what costs is the number
    // of Spark jobs, not the documents.)
    List<String> bases = new ArrayList<>();
    List<String> day1 = new ArrayList<>();
    List<Document> stored = new ArrayList<>();
    String edited;
    Path data = tmp.resolve("store");
    try (FingerprintStore store =
        FingerprintStore.open("embedded", StoreConfig.of(Map.of("data", data.toString())))) {
      Collection c = store.create("news", CollectionSettings.defaults());
      for (int g = 0; g < 24; g++) {
        String base = Texts.text(r, 40 + r.nextInt(40));
        bases.add(base);
        int copies = 1 + r.nextInt(3);
        for (int i = 0; i < copies; i++) {
          String text = i == 0 ? base : Texts.edit(r, base);
          String id = "old-" + g + "-" + i;
          day1.add(line(id, text));
          stored.add(new Document(id, c.analyzer().analyze(text), Document.NO_TIMESTAMP));
        }
      }
      // A cluster whose root is deleted before the export: its earliest stored member stands in,
      // as in a full run without the deleted document (d1 and d2 are copies, so they stay one
      // cluster there too).
      edited = Texts.edit(r, deletedBase);
      for (int i = 0; i < 3; i++) {
        String text = i == 0 ? deletedBase : edited;
        if (i > 0) {
          day1.add(line("d" + i, text));
        }
        stored.add(new Document("d" + i, c.analyzer().analyze(text), Document.NO_TIMESTAMP));
      }
      c.checkAndInsertAll(stored);
      c.delete("d0");
    }
    Path dump = tmp.resolve("news.ndump");
    assertThat(
            Main.run(
                "store",
                "export",
                "--quiet",
                "--data",
                data.toString(),
                "news",
                "--out",
                dump.toString()))
        .isZero();

    // The new batch: edits of stored texts, copies among themselves, and unrelated texts.
    List<String> day2 = new ArrayList<>();
    Set<String> newIds = new HashSet<>();
    for (int i = 0; i < 48; i++) {
      String id = "new-" + i;
      String text =
          i % 3 == 0
              ? Texts.edit(r, bases.get(r.nextInt(bases.size())))
              : i % 3 == 1 && i > 10 ? Texts.edit(r, bases.get(0)) : Texts.text(r, 50);
      day2.add(line(id, text));
      newIds.add(RunOutput.json(id));
    }
    day2.add(line("old-0-0", "a repeated id of a stored document, with words"));
    day2.add(line("n0", Texts.edit(r, edited)));
    newIds.add(RunOutput.json("n0"));
    Path old = tmp.resolve("day1.jsonl");
    Path fresh = tmp.resolve("day2.jsonl");
    Files.write(old, day1, StandardCharsets.UTF_8);
    Files.write(fresh, day2, StandardCharsets.UTF_8);

    Path full = tmp.resolve("full");
    assertThat(Main.run("dedup", "-q", "--out", full.toString(), old.toString(), fresh.toString()))
        .isZero();

    DedupSettings s = new DedupSettings();
    s.shufflePartitions = 3;
    s.groupLimit = 32;
    s.saveFingerprints = true;
    Path run = tmp.resolve("run");
    JsonNode summary =
        SparkDedupJob.run(
            spark, s, List.of(fresh.toString()), run.toString(), true, dump.toString());

    List<String> clusters = RunOutput.lines(run, "clusters");
    assertThat(clusters).isEqualTo(RunOutput.only(RunOutput.lines(full, "clusters"), "id", newIds));
    assertThat(RunOutput.lines(run, "pairs"))
        .isEqualTo(RunOutput.only(RunOutput.lines(full, "pairs"), "b", newIds));
    assertThat(RunOutput.lines(run, "unique"))
        .isEqualTo(RunOutput.only(RunOutput.lines(full, "unique"), "id", newIds));
    assertThat(RunOutput.lines(run, "duplicates"))
        .isEqualTo(RunOutput.only(RunOutput.lines(full, "duplicates"), "id", newIds));
    assertThat(RunOutput.lines(run, "errors")).hasSize(1).allMatch(l -> l.contains("repeated id"));
    assertThat(summary.get("documents").asInt()).isEqualTo(day2.size());
    JsonNode n0 =
        JSON.readTree(
            clusters.stream().filter(l -> l.contains("\"n0\"")).findFirst().orElseThrow());
    assertThat(n0.get("representative").asBoolean()).isFalse();
    assertThat(n0.get("cluster").asText()).isEqualTo("d1");
    assertThat(n0.get("size").asInt()).isEqualTo(3);
    // New documents joined stored clusters, so the test means something.
    assertThat(
            clusters.stream()
                .filter(l -> l.contains("\"representative\":false") && l.contains("old-"))
                .count())
        .isPositive();

    // The run's saved fingerprints hold the stored documents and the new ones: a next day can run
    // against them.
    Path day3 = tmp.resolve("day3.jsonl");
    Files.write(day3, List.of(line("day3-0", Texts.edit(r, bases.get(1)))), StandardCharsets.UTF_8);
    DedupSettings s3 = new DedupSettings();
    Path run3 = tmp.resolve("run3");
    SparkDedupJob.run(spark, s3, List.of(day3.toString()), run3.toString(), true, run.toString());
    assertThat(RunOutput.lines(run3, "clusters"))
        .singleElement()
        .asString()
        .contains("\"old-1-0\"");

    // A collection made with other settings is refused, naming both.
    DedupSettings other = new DedupSettings();
    other.threshold = 0.7;
    assertThatThrownBy(
            () ->
                SparkDedupJob.run(
                    spark,
                    other,
                    List.of(fresh.toString()),
                    tmp.resolve("other").toString(),
                    true,
                    dump.toString()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("other settings")
        .hasMessageContaining("threshold=0.7");
    // A file that is not a dump is refused, naming it.
    assertThatThrownBy(
            () ->
                SparkDedupJob.run(
                    spark,
                    s3,
                    List.of(fresh.toString()),
                    tmp.resolve("bad").toString(),
                    true,
                    old.toString()))
        .isInstanceOf(IOException.class)
        .hasMessageContaining(old.toString())
        .hasMessageContaining("not a valid neardup dump");
  }
}
