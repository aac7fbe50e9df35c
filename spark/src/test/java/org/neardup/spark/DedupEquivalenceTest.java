// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.cli.Main;

/**
 * The Spark job and {@code neardup dedup} (run in this JVM) write the same lines, for several input
 * splits and shuffle partitions, with adaptive query execution on and off.
 */
class DedupEquivalenceTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> FILES =
      List.of("clusters", "pairs", "unique", "duplicates", "errors");

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

  /** Runs {@code neardup dedup} and returns its summary. */
  private static JsonNode engine(Path out, String... args) throws IOException {
    List<String> a = new ArrayList<>(List.of("dedup", "-q", "--out", out.toString()));
    a.addAll(List.of(args));
    assertThat(Main.run(a.toArray(new String[0]))).as("neardup dedup exit status").isZero();
    return JSON.readTree(out.resolve("summary.json").toFile());
  }

  private static JsonNode spark(
      Path out, boolean aqe, int inputParts, int shuffleParts, int groupLimit, String... args)
      throws IOException {
    spark.conf().set("spark.sql.adaptive.enabled", Boolean.toString(aqe));
    DedupSettings s = new DedupSettings();
    s.inputPartitions = inputParts;
    s.shufflePartitions = shuffleParts;
    s.groupLimit = groupLimit;
    List<String> inputs = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--threshold":
          s.threshold = Double.parseDouble(args[++i]);
          break;
        case "-k":
          s.maxDistance = Integer.parseInt(args[++i]);
          break;
        case "--no-verify":
          s.verify = false;
          break;
        case "--numbers":
          s.numbers = args[++i];
          break;
        case "--preset":
          s.preset = args[++i];
          break;
        case "--volatile-lines":
          s.volatileLines = args[++i];
          break;
        default:
          inputs.add(args[i]);
      }
    }
    ObjectNode summary = SparkDedupJob.run(spark, s, inputs, out.toString(), true);
    return summary;
  }

  private static void assertSame(Path engineOut, JsonNode e, Path sparkOut, JsonNode s)
      throws IOException {
    for (String name : FILES) {
      List<String> want = RunOutput.lines(engineOut, name);
      List<String> got = RunOutput.lines(sparkOut, name);
      List<String> missing = new ArrayList<>(want);
      missing.removeAll(got);
      List<String> extra = new ArrayList<>(got);
      extra.removeAll(want);
      assertThat(extra.subList(0, Math.min(5, extra.size())))
          .as(
              name
                  + ": lines only Spark wrote; missing "
                  + missing.subList(0, Math.min(5, missing.size())))
          .isEmpty();
      assertThat(got).as(name).isEqualTo(want);
    }
    for (String f :
        List.of(
            "documents", "errors", "unique", "new_on_arrival", "duplicates", "clusters", "pairs")) {
      assertThat(s.get(f).asLong()).as("summary " + f).isEqualTo(e.get(f).asLong());
    }
    assertThat(s.get("settings")).isEqualTo(e.get("settings"));
    for (int i = 0; i < e.get("biggest_clusters").size(); i++) {
      assertThat(s.get("biggest_clusters").get(i).get("size").asInt())
          .isEqualTo(e.get("biggest_clusters").get(i).get("size").asInt());
    }
  }

  @Test
  void sampleAcrossPartitionsAndAqe() throws IOException {
    String input = Paths.get("../examples/sample.jsonl").toAbsolutePath().toString();
    Path want = tmp.resolve("sample-engine");
    JsonNode e = engine(want, input);
    assertThat(e.get("pairs").asLong()).isPositive();
    int[][] configs = {{1, 1, 2048}, {7, 5, 16}};
    boolean aqe = false;
    for (int[] c : configs) {
      Path got = tmp.resolve("sample-spark-" + c[0] + "-" + c[1]);
      JsonNode s = spark(got, aqe, c[0], c[1], c[2], input);
      assertSame(want, e, got, s);
      aqe = !aqe;
    }
  }

  @Test
  void parquetInputGivesTheSameClustersAndPairs() throws IOException {
    Path input = tmp.resolve("pq-source.jsonl");
    List<String> good = new ArrayList<>();
    List<String> rows = new ArrayList<>();
    for (String l : generated(5).subList(0, 250)) {
      JsonNode n;
      try {
        n = JSON.readTree(l);
      } catch (IOException e) {
        continue;
      }
      if (n == null || !n.isObject() || !n.path("text").isTextual()) {
        continue;
      }
      ObjectNode o = JSON.createObjectNode();
      o.put("id", "p" + good.size());
      o.put("text", n.get("text").asText());
      good.add(o.toString());
      rows.add(o.toString());
    }
    Files.write(input, good, StandardCharsets.UTF_8);
    Path want = tmp.resolve("pq-engine");
    JsonNode e = engine(want, input.toString());
    // The same rows in two Parquet files, read in name order.
    Path pq = tmp.resolve("pq");
    int half = rows.size() / 2;
    for (int part = 0; part < 2; part++) {
      spark
          .read()
          .schema("id STRING, text STRING")
          .json(
              spark.createDataset(
                  part == 0 ? rows.subList(0, half) : rows.subList(half, rows.size()),
                  org.apache.spark.sql.Encoders.STRING()))
          .coalesce(1)
          .write()
          .parquet(pq.resolve("part" + part).toString());
    }
    Path got = tmp.resolve("pq-spark");
    DedupSettings s = new DedupSettings();
    s.parquet = true;
    s.shufflePartitions = 3;
    ObjectNode summary =
        SparkDedupJob.run(spark, s, List.of(pq + "/part*/*.parquet"), got.toString(), true);
    assertThat(summary.get("pairs").asLong()).isEqualTo(e.get("pairs").asLong()).isPositive();
    for (String name : List.of("clusters", "pairs")) {
      assertThat(RunOutput.lines(got, name)).as(name).isEqualTo(RunOutput.lines(want, name));
    }
    // Errors name the Parquet file and its row instead of the JSONL file and line.
    assertThat(strip(RunOutput.lines(got, "errors")))
        .isEqualTo(strip(RunOutput.lines(want, "errors")));
    assertThat(spark.read().parquet(got.resolve("parquet/clusters").toString()).count())
        .isEqualTo(e.get("documents").asLong() - e.get("errors").asLong());
  }

  @Test
  void chainsGiantClusterAndBadLines() throws IOException {
    Path input = tmp.resolve("generated.jsonl");
    Files.write(input, generated(11), StandardCharsets.UTF_8);
    Path want = tmp.resolve("gen-engine");
    JsonNode e = engine(want, input.toString());
    assertThat(e.get("errors").asLong()).isGreaterThanOrEqualTo(5);
    assertThat(e.get("biggest_clusters").get(0).get("size").asInt()).isGreaterThanOrEqualTo(200);
    int[][] configs = {{3, 2, 2048, 1}, {9, 7, 24, 0}};
    for (int[] c : configs) {
      Path got = tmp.resolve("gen-spark-" + c[0] + "-" + c[1]);
      JsonNode s = spark(got, c[3] == 1, c[0], c[1], c[2], input.toString());
      assertSame(want, e, got, s);
      if (c[2] < 87 * 86 / 2) {
        // The 87 exact copies' pairs are a hot pair of shapes: written where they are.
        assertThat(s.at("/spark/pairs_written_in_place").asLong())
            .as("pairs written in place, group limit " + c[2])
            .isGreaterThanOrEqualTo(87 * 86 / 2);
      }
    }
    // Without verification, fingerprint distance alone decides.
    Path want2 = tmp.resolve("gen-engine-nv");
    JsonNode e2 = engine(want2, "--no-verify", "-k", "4", input.toString());
    Path got2 = tmp.resolve("gen-spark-nv");
    assertSame(
        want2, e2, got2, spark(got2, true, 4, 3, 32, "--no-verify", "-k", "4", input.toString()));
  }

  @Test
  void devSet() throws IOException {
    Path dev = Paths.get("/work/shared/data/dev/docs.jsonl");
    assumeTrue(Files.isReadable(dev), "the labelled dev set is not on this machine");
    Path want = tmp.resolve("dev-engine");
    JsonNode e = engine(want, dev.toString());
    Path got = tmp.resolve("dev-spark");
    assertSame(want, e, got, spark(got, true, 6, 8, 2048, dev.toString()));
  }

  @Test
  void presetWebAndVolatileLines() throws IOException {
    Path input = tmp.resolve("pages.jsonl");
    Files.write(input, pages(5), StandardCharsets.UTF_8);
    // The preset matters here: the same pages with other counters and dates are more pairs.
    JsonNode plain = engine(tmp.resolve("pages-plain"), input.toString());
    Path want = tmp.resolve("pages-engine");
    JsonNode e = engine(want, "--preset", "web", input.toString());
    assertThat(e.get("pairs").asLong()).isGreaterThan(plain.get("pairs").asLong());
    Path got = tmp.resolve("pages-spark");
    assertSame(want, e, got, spark(got, false, 3, 4, 2048, "--preset", "web", input.toString()));
    // An option beside the preset wins over it.
    Path want2 = tmp.resolve("pages-engine-keep");
    JsonNode e2 = engine(want2, "--preset", "web", "--volatile-lines", "keep", input.toString());
    assertThat(e2.get("settings")).isNotEqualTo(e.get("settings"));
    Path got2 = tmp.resolve("pages-spark-keep");
    assertSame(
        want2,
        e2,
        got2,
        spark(
            got2,
            true,
            2,
            3,
            2048,
            "--preset",
            "web",
            "--volatile-lines",
            "keep",
            input.toString()));
  }

  /**
   * Crawled pages: a few articles, each fetched several times under a site template (HTML) with its
   * view and comment counters, post date and visit time changed between fetches.
   */
  static List<String> pages(long seed) {
    Random r = new Random(seed);
    List<String> lines = new ArrayList<>();
    int n = 0;
    for (int article = 0; article < 25; article++) {
      String body = String.join(" ", words(r, 25 + r.nextInt(40)));
      for (int fetch = 0; fetch < 4; fetch++) {
        String html =
            "<html><body><nav>home news sports about</nav><article><h1>News "
                + article
                + "</h1>\\n<p>Posted 2024-0"
                + (1 + r.nextInt(9))
                + "-1"
                + r.nextInt(10)
                + " 1"
                + r.nextInt(10)
                + ":"
                + (10 + r.nextInt(50))
                + " · "
                + r.nextInt(100000)
                + " views · "
                + r.nextInt(1000)
                + " comments</p>\\n<p>阅读："
                + r.nextInt(100000)
                + " 评论："
                + r.nextInt(1000)
                + "</p>\\n<p>"
                + body
                + "</p></article><footer>visited "
                + r.nextInt(100000)
                + " times</footer></body></html>";
        lines.add("{\"id\":\"p" + n++ + "\",\"text\":\"" + html + "\"}");
      }
    }
    Collections.shuffle(lines, r);
    return lines;
  }

  /**
   * Shuffled JSONL: chains A~B~C~... of 40 documents (each a few words from the previous, the ends
   * far apart), one giant cluster of 260 near-copies, unrelated documents, and bad lines.
   */
  static List<String> generated(long seed) {
    Random r = new Random(seed);
    List<String> docs = new ArrayList<>();
    for (int chain = 0; chain < 6; chain++) {
      List<String> words = words(r, 90);
      for (int step = 0; step < 40; step++) {
        for (int c = 0; c < 2; c++) {
          words.set(r.nextInt(words.size()), word(r));
        }
        docs.add(String.join(" ", words));
      }
    }
    List<String> giant = words(r, 70);
    for (int i = 0; i < 260; i++) {
      List<String> copy = new ArrayList<>(giant);
      if (i % 3 != 0) {
        copy.set(r.nextInt(copy.size()), word(r));
      }
      docs.add(String.join(" ", copy));
    }
    for (int i = 0; i < 150; i++) {
      docs.add(String.join(" ", words(r, 20 + r.nextInt(60))));
    }
    Collections.shuffle(docs, r);
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < docs.size(); i++) {
      String id = i % 5 == 0 ? Integer.toString(i) : "\"g" + i + "\"";
      lines.add("{\"id\":" + id + ",\"text\":\"" + docs.get(i) + "\"}");
      if (i % 97 == 0) {
        lines.add("");
      }
    }
    lines.add(40, "{\"id\":\"bad\",\"text\":");
    lines.add(80, "{\"id\":\"g1\",\"text\":\"repeated id with some words\"}");
    lines.add(120, "{\"id\":\"notext\"}");
    lines.add(160, "{\"id\":\"empty\",\"text\":\"!!! ...\"}");
    lines.add(200, "[1,2]");
    lines.add(240, "{\"id\":[1],\"text\":\"x\"}");
    // Malformed JSON of several kinds: the error wording must be the command line's.
    lines.add(280, "{\"id\":\"nocomma\" \"text\":\"a b c\"}");
    lines.add(300, "{id:\"unquoted\",\"text\":\"a b c\"}");
    lines.add(320, "{\"id\":\"escape\",\"text\":\"bad \\q escape\"}");
    lines.add(340, "{\"id\":\"trailing\",\"text\":\"a b c\"} {}");
    lines.add(360, "{\"id\":\"tf\",\"text\":tru}");
    return lines;
  }

  private static List<String> strip(List<String> errorLines) {
    List<String> out = new ArrayList<>();
    for (String l : errorLines) {
      out.add(l.replaceFirst("\"location\":\"[^\"]*\"", "\"location\":\"\""));
    }
    return out;
  }

  private static List<String> words(Random r, int n) {
    List<String> w = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      w.add(word(r));
    }
    return w;
  }

  private static String word(Random r) {
    StringBuilder b = new StringBuilder();
    int len = 3 + r.nextInt(6);
    for (int i = 0; i < len; i++) {
      b.append((char) ('a' + r.nextInt(26)));
    }
    return b.toString();
  }
}
