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
import java.util.Set;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.cli.Main;

/**
 * A new batch against an earlier run's saved fingerprints gives, for the new documents, exactly the
 * lines {@code neardup dedup} writes for them when it reads the old and the new input in one run;
 * and no line about an old document.
 */
class IncrementalTest {
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

  @Test
  void newBatchAgainstSavedFingerprintsMatchesOneFullRun() throws IOException {
    List<String> all = DedupEquivalenceTest.generated(13);
    int cut = 520;
    Path day1 = tmp.resolve("day1.jsonl");
    Path day2 = tmp.resolve("day2.jsonl");
    Files.write(day1, all.subList(0, cut), StandardCharsets.UTF_8);
    Files.write(day2, all.subList(cut, all.size()), StandardCharsets.UTF_8);
    Set<String> newIds = new HashSet<>();
    for (String l : all.subList(cut, all.size())) {
      try {
        JsonNode n = JSON.readTree(l);
        if (n != null && n.isObject() && n.has("id")) {
          newIds.add(n.get("id").toString());
        }
      } catch (IOException e) {
        // a malformed line: no id
      }
    }

    Path full = tmp.resolve("full");
    assertThat(Main.run("dedup", "-q", "--out", full.toString(), day1.toString(), day2.toString()))
        .isZero();

    DedupSettings s = new DedupSettings();
    s.saveFingerprints = true;
    s.shufflePartitions = 3;
    Path run1 = tmp.resolve("run1");
    SparkDedupJob.run(spark, s, List.of(day1.toString()), run1.toString(), true, null);
    DedupSettings s2 = new DedupSettings();
    s2.saveFingerprints = true;
    s2.shufflePartitions = 5;
    s2.groupLimit = 32;
    Path run2 = tmp.resolve("run2");
    JsonNode summary =
        SparkDedupJob.run(
            spark, s2, List.of(day2.toString()), run2.toString(), true, run1.toString());

    List<String> clusters = RunOutput.lines(run2, "clusters");
    assertThat(clusters).isEqualTo(RunOutput.only(RunOutput.lines(full, "clusters"), "id", newIds));
    assertThat(clusters.size())
        .isEqualTo(summary.get("unique").asInt() + summary.get("duplicates").asInt());
    assertThat(RunOutput.lines(run2, "pairs"))
        .isEqualTo(RunOutput.only(RunOutput.lines(full, "pairs"), "b", newIds));
    assertThat(RunOutput.lines(run2, "unique"))
        .isEqualTo(RunOutput.only(RunOutput.lines(full, "unique"), "id", newIds));
    assertThat(RunOutput.lines(run2, "duplicates"))
        .isEqualTo(RunOutput.only(RunOutput.lines(full, "duplicates"), "id", newIds));
    List<String> fullErrors = new ArrayList<>();
    for (String l : RunOutput.lines(full, "errors")) {
      if (JSON.readTree(l).get("location").asText().startsWith(day2.toString())) {
        fullErrors.add(l);
      }
    }
    assertThat(RunOutput.lines(run2, "errors")).isEqualTo(fullErrors);
    // Some new documents joined old clusters, so the test means something.
    assertThat(clusters.stream().filter(l -> l.contains("\"representative\":false")).count())
        .isPositive();

    // Fingerprints made with other settings are refused.
    DedupSettings other = new DedupSettings();
    other.threshold = 0.7;
    assertThatThrownBy(
            () ->
                SparkDedupJob.run(
                    spark,
                    other,
                    List.of(day2.toString()),
                    tmp.resolve("run3").toString(),
                    true,
                    run1.toString()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("other settings");
  }
}
