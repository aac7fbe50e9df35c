// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DedupCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  static final ObjectMapper JSON_READER = JSON;
  @TempDir Path tmp;

  static final String NEWS_EN =
      "The city council approved the new budget on Tuesday evening, adding money for parks, libraries and two "
          + "new schools, after a long debate about taxes and public transport. The mayor said the plan would be "
          + "reviewed in the spring, when the first results of the new bus lines are known.";
  static final String NEWS_ZH =
      "市议会周二晚间批准了新的年度预算，为公园、图书馆和两所新学校增加了拨款。此前议员们就税收和公共交通问题进行了长时间的辩论。"
          + "市长表示，该计划将在春季进行审查，届时新公交线路的首批结果将会公布。";
  static final String OTHER =
      "A recipe for tomato soup: onions, garlic, olive oil, basil and a pinch of salt, simmered for twenty minutes.";

  static List<JsonNode> lines(Path p) throws IOException {
    List<JsonNode> out = new ArrayList<>();
    for (String l : Files.readAllLines(p, StandardCharsets.UTF_8)) {
      if (!l.isBlank()) {
        out.add(JSON.readTree(l));
      }
    }
    return out;
  }

  static String doc(String id, String text) throws IOException {
    return JSON.createObjectNode().put("id", id).put("text", text).toString();
  }

  @Test
  void dedup_jsonl_writesClustersPairsUniqueAndDuplicates() throws IOException {
    Path in = tmp.resolve("in.jsonl");
    Files.write(
        in,
        List.of(
            doc("a", NEWS_EN),
            doc("b", NEWS_ZH),
            doc("c", NEWS_EN.replace("Tuesday", "Wednesday")),
            doc("d", OTHER),
            doc("e", NEWS_ZH.replace("周二", "周三") + " 转载请注明出处"),
            doc("f", NEWS_EN)),
        StandardCharsets.UTF_8);
    Path out = tmp.resolve("out");
    CliRunner r = CliRunner.run("dedup", in.toString(), "--out", out.toString());
    assertThat(r.exitCode).as(r.toString()).isZero();
    assertThat(r.out).contains("6 documents: 3 unique, 3 duplicates in 2 clusters");

    List<JsonNode> clusters = lines(out.resolve("clusters.jsonl"));
    assertThat(clusters)
        .extracting(n -> n.get("id").asText())
        .containsExactly("a", "b", "c", "d", "e", "f");
    assertThat(clusters)
        .extracting(n -> n.get("cluster").asText())
        .containsExactly("a", "b", "a", "d", "b", "a");
    assertThat(clusters)
        .extracting(n -> n.get("representative").asBoolean())
        .containsExactly(true, true, false, true, false, false);
    assertThat(clusters.get(5).get("distance").asInt()).isZero();
    assertThat(clusters.get(2).get("similarity").asDouble()).isBetween(0.8, 1.0);

    List<JsonNode> pairs = lines(out.resolve("pairs.jsonl"));
    assertThat(pairs)
        .extracting(n -> n.get("a").asText() + n.get("b").asText())
        .containsExactly("ac", "af", "be", "cf");
    assertThat(lines(out.resolve("unique.jsonl")))
        .extracting(n -> n.get("id").asText())
        .containsExactly("a", "b", "d");
    assertThat(lines(out.resolve("duplicates.jsonl")))
        .extracting(n -> n.get("id").asText())
        .containsExactly("c", "e", "f");
    assertThat(Files.readString(out.resolve("errors.jsonl"))).isEmpty();
    JsonNode summary = JSON.readTree(out.resolve("summary.json").toFile());
    assertThat(summary.get("documents").asInt()).isEqualTo(6);
    assertThat(summary.get("settings").asText()).contains("seg=jieba-0.42.1", "threshold=0.8");
    // Where the pairs phase went: every candidate turned away or verified, 4 pairs reported.
    JsonNode p = summary.get("pairs_phase");
    assertThat(p.get("verified").asLong()).isGreaterThanOrEqualTo(4);
    assertThat(
            p.get("head_rejected").asLong()
                + p.get("bucket_rejected").asLong()
                + p.get("verified").asLong())
        .isEqualTo(p.get("candidates").asLong());
    assertThat(summary.get("phase_seconds").has("clusters")).isTrue();
    // CPU seconds per phase (six documents may take well under the millisecond they are rounded
    // to).
    assertThat(summary.get("phase_cpu_seconds").get("read_and_analyse").asDouble()).isNotNegative();
    assertThat(summary.get("phase_cpu_seconds").get("pairs").asDouble()).isNotNegative();
  }

  /**
   * An id longer than 62 characters (64 bytes as JSON) stopped the run with "arraycopy: last source
   * index 102 out of bounds for byte[64]": the id reader's buffer was taken for the output before
   * the read that grew it.
   */
  @Test
  void dedup_idsLongerThanTheFirstReadBuffer_writtenWhole() throws IOException {
    String a = "a".repeat(100);
    String b = "b".repeat(300);
    Path in = tmp.resolve("in.jsonl");
    Files.write(
        in, List.of(doc(a, NEWS_EN), doc(b, NEWS_EN), doc("c", OTHER)), StandardCharsets.UTF_8);
    Path out = tmp.resolve("out");
    CliRunner r = CliRunner.run("dedup", in.toString(), "--out", out.toString(), "--quiet");
    assertThat(r.exitCode).as(r.toString()).isZero();
    assertThat(lines(out.resolve("clusters.jsonl")))
        .extracting(n -> n.get("id").asText() + " " + n.get("cluster").asText())
        .containsExactly(a + " " + a, b + " " + a, "c c");
    assertThat(lines(out.resolve("pairs.jsonl")))
        .extracting(n -> n.get("a").asText() + " " + n.get("b").asText())
        .containsExactly(a + " " + b);
  }

  @Test
  void dedup_textLinesAndGzip_idsAreFileAndLine() throws IOException {
    Path in = tmp.resolve("in.txt.gz");
    try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(in))) {
      o.write(
          (NEWS_EN + "\n" + OTHER + "\r\n" + NEWS_EN.toUpperCase(java.util.Locale.ROOT) + "\n")
              .getBytes(StandardCharsets.UTF_8));
    }
    Path out = tmp.resolve("out");
    CliRunner r = CliRunner.run("dedup", in.toString(), "-o", out.toString(), "--quiet");
    assertThat(r.exitCode).as(r.toString()).isZero();
    assertThat(r.out).isEmpty();
    // One id rule whatever the number of inputs: FILE:LINE, the file as given.
    assertThat(lines(out.resolve("clusters.jsonl")))
        .extracting(n -> n.get("cluster").asText())
        .containsExactly(in + ":1", in + ":2", in + ":1");
    assertThat(lines(out.resolve("unique.jsonl")).get(1).get("text").asText()).isEqualTo(OTHER);
  }

  @Test
  void dedup_directory_eachFileIsADocument() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("site/sub"));
    Files.writeString(tmp.resolve("site/one.txt"), NEWS_EN, StandardCharsets.UTF_8);
    Files.writeString(
        dir.resolve("page.html"),
        "<html><body><nav>Home | About</nav><p>" + NEWS_EN + "</p></body></html>",
        StandardCharsets.UTF_8);
    Files.writeString(tmp.resolve("site/notes.md"), "# Notes\n\n" + OTHER, StandardCharsets.UTF_8);
    Files.writeString(tmp.resolve("site/ignored.bin"), "binary", StandardCharsets.UTF_8);
    Path out = tmp.resolve("out");
    CliRunner r = CliRunner.run("dedup", tmp.resolve("site").toString(), "-o", out.toString());
    assertThat(r.exitCode).as(r.toString()).isZero();
    List<JsonNode> clusters = lines(out.resolve("clusters.jsonl"));
    assertThat(clusters)
        .extracting(n -> n.get("id").asText())
        .containsExactly("notes.md", "one.txt", "sub/page.html");
    assertThat(clusters.get(2).get("cluster").asText()).isEqualTo("one.txt");
  }

  @Test
  void dedup_badDocuments_listedInErrors_runCarriesOn() throws IOException {
    Path in = tmp.resolve("bad.jsonl");
    try (OutputStream o = Files.newOutputStream(in)) {
      o.write((doc("ok1", NEWS_EN) + "\n").getBytes(StandardCharsets.UTF_8));
      o.write("{\"id\": \"broken\", \"text\": \n".getBytes(StandardCharsets.UTF_8));
      o.write("{\"id\": \"notext\"}\n".getBytes(StandardCharsets.UTF_8));
      o.write("{\"id\": \"wrongtype\", \"text\": 42}\n".getBytes(StandardCharsets.UTF_8));
      o.write("{\"text\": \"no id here\"}\n".getBytes(StandardCharsets.UTF_8));
      o.write(
          "{\"id\": \"utf8\", \"text\": \"bad \u00ff\"}\n".getBytes(StandardCharsets.ISO_8859_1));
      o.write((doc("empty", "  \t ") + "\n").getBytes(StandardCharsets.UTF_8));
      o.write((doc("punct", "!!! ... ???") + "\n").getBytes(StandardCharsets.UTF_8));
      o.write((doc("ok1", OTHER) + "\n").getBytes(StandardCharsets.UTF_8));
      o.write("[1, 2, 3]\n\n".getBytes(StandardCharsets.UTF_8));
      o.write((doc("ok2", NEWS_EN) + "\n").getBytes(StandardCharsets.UTF_8));
    }
    Path out = tmp.resolve("out");
    CliRunner r = CliRunner.run("dedup", in.toString(), "-o", out.toString());
    assertThat(r.exitCode).as(r.toString()).isZero();
    assertThat(r.out).contains("9 documents skipped with errors");
    List<JsonNode> errors = lines(out.resolve("errors.jsonl"));
    assertThat(errors)
        .extracting(n -> n.get("location").asText())
        .containsExactly(
            in + ":2",
            in + ":3",
            in + ":4",
            in + ":5",
            in + ":6",
            in + ":7",
            in + ":8",
            in + ":9",
            in + ":10");
    assertThat(errors)
        .extracting(n -> n.get("error").asText())
        .satisfiesExactly(
            e -> assertThat(e).startsWith("malformed JSON"),
            e -> assertThat(e).isEqualTo("missing field 'text'"),
            e -> assertThat(e).isEqualTo("field 'text' must be a string, got number"),
            e -> assertThat(e).isEqualTo("missing field 'id'"),
            e -> assertThat(e).isEqualTo("invalid UTF-8 at byte offset 28"),
            e -> assertThat(e).isEqualTo("text has no letters or digits"),
            e -> assertThat(e).isEqualTo("text has no letters or digits"),
            e -> assertThat(e).startsWith("repeated id \"ok1\""),
            e -> assertThat(e).isEqualTo("expected a JSON object, got array"));
    assertThat(lines(out.resolve("clusters.jsonl")))
        .extracting(n -> n.get("id").asText())
        .containsExactly("ok1", "ok2");
    assertThat(lines(out.resolve("pairs.jsonl"))).hasSize(1);
  }

  /**
   * Records of plain JSONL files, read again from the input when the output is written, are the
   * same bytes as the same files' records from gzip, which are spilled: CRLF lines, a byte-order
   * mark, blank lines, bad records, ids used again after an error, two inputs.
   */
  @Test
  void dedup_plainInputs_writeTheSameRecordsAsGzipInputs() throws IOException {
    List<String> first =
        List.of(
            "\uFEFF" + doc("a", NEWS_EN) + "\r",
            doc("b", NEWS_ZH),
            "",
            "{\"id\": \"broken\", \"text\": ",
            doc("c", NEWS_EN.replace("Tuesday", "Wednesday")) + "\r",
            doc("a", OTHER));
    List<String> second =
        List.of(doc("d", OTHER) + "\r", doc("e", NEWS_ZH.replace("周二", "周三")), doc("f", NEWS_EN));
    Path plain1 = tmp.resolve("one.jsonl");
    Path plain2 = tmp.resolve("two.jsonl");
    Files.write(plain1, first, StandardCharsets.UTF_8);
    Files.write(plain2, second, StandardCharsets.UTF_8);
    Path gz1 = tmp.resolve("one.jsonl.gz");
    Path gz2 = tmp.resolve("two.jsonl.gz");
    for (Path[] p : new Path[][] {{plain1, gz1}, {plain2, gz2}}) {
      try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(p[1]))) {
        o.write(Files.readAllBytes(p[0]));
      }
    }
    Path outPlain = tmp.resolve("plain");
    Path outGzip = tmp.resolve("gzip");
    CliRunner r =
        CliRunner.run(
            "dedup", plain1.toString(), plain2.toString(), "-o", outPlain.toString(), "-q");
    assertThat(r.exitCode).as(r.toString()).isZero();
    r = CliRunner.run("dedup", gz1.toString(), gz2.toString(), "-o", outGzip.toString(), "-q");
    assertThat(r.exitCode).as(r.toString()).isZero();
    for (String file : List.of("unique.jsonl", "duplicates.jsonl")) {
      assertThat(Files.readAllBytes(outPlain.resolve(file)))
          .as(file)
          .isEqualTo(Files.readAllBytes(outGzip.resolve(file)));
    }
    String unique = Files.readString(outPlain.resolve("unique.jsonl"), StandardCharsets.UTF_8);
    // The first line (a byte-order mark before its object) and the broken one are errors.
    assertThat(unique).startsWith(doc("b", NEWS_ZH) + "\n").doesNotContain("\r");
    assertThat(
            lines(outPlain.resolve("unique.jsonl")).size()
                + lines(outPlain.resolve("duplicates.jsonl")).size())
        .isEqualTo(6);
  }

  @Test
  void dedup_hugeDocument_rejectedWithoutStoppingTheRun() throws IOException {
    // One 200 MB document between two good ones: it is skipped as it streams by, never held whole.
    Path in = tmp.resolve("huge.txt");
    try (OutputStream o = Files.newOutputStream(in)) {
      o.write((NEWS_EN + "\n").getBytes(StandardCharsets.UTF_8));
      byte[] mb = "word ".repeat(1 << 18).substring(0, 1 << 20).getBytes(StandardCharsets.UTF_8);
      for (int i = 0; i < 200; i++) {
        o.write(mb);
      }
      o.write('\n');
      o.write((NEWS_EN + "\n").getBytes(StandardCharsets.UTF_8));
    }
    Path out = tmp.resolve("out");
    CliRunner r = CliRunner.run("dedup", in.toString(), "-o", out.toString());
    assertThat(r.exitCode).as(r.toString()).isZero();
    assertThat(lines(out.resolve("errors.jsonl")))
        .singleElement()
        .satisfies(
            e ->
                assertThat(e.get("error").asText())
                    .isEqualTo("document of 209715200 bytes exceeds --max-doc-bytes 67108864"));
    assertThat(lines(out.resolve("clusters.jsonl")))
        .extracting(n -> n.get("cluster").asText())
        .containsExactly(in + ":1", in + ":1");
  }

  @Test
  void dedup_badOptions_oneLineErrorAndExitCode() throws IOException {
    Path in = tmp.resolve("in.jsonl");
    Files.writeString(in, doc("a", NEWS_EN) + "\n", StandardCharsets.UTF_8);
    CliRunner k =
        CliRunner.run("dedup", in.toString(), "-o", tmp.resolve("o").toString(), "-k", "65");
    assertThat(k.exitCode).isEqualTo(1);
    assertThat(k.err.strip())
        .isEqualTo("neardup dedup: error: -k/--max-distance must be in [0, 64], got 65");
    CliRunner t =
        CliRunner.run(
            "dedup", in.toString(), "-o", tmp.resolve("o").toString(), "--threshold", "1.5");
    assertThat(t.err).contains("--threshold must be in (0, 1], got 1.5");
    CliRunner missing =
        CliRunner.run(
            "dedup", tmp.resolve("nope.jsonl").toString(), "-o", tmp.resolve("o").toString());
    assertThat(missing.exitCode).isEqualTo(1);
    assertThat(missing.err).contains("nope.jsonl: no such file or directory");
    CliRunner usage = CliRunner.run("dedup", in.toString());
    assertThat(usage.exitCode).isEqualTo(2);
    assertThat(usage.err).contains("Missing required option: '--out=DIR'");
    assertThat(Files.exists(tmp.resolve("o"))).isFalse();
  }

  @Test
  void dedup_output_replacedOnlyWhenRunSucceeds() throws IOException {
    Path in = tmp.resolve("in.jsonl");
    Files.writeString(
        in, doc("a", NEWS_EN) + "\n" + doc("b", OTHER) + "\n", StandardCharsets.UTF_8);
    Path out = tmp.resolve("out");
    assertThat(CliRunner.run("dedup", in.toString(), "-o", out.toString()).exitCode).isZero();
    String first = Files.readString(out.resolve("clusters.jsonl"));
    // A failing run (its input vanished) leaves the earlier output as it was.
    CliRunner failed =
        CliRunner.run("dedup", tmp.resolve("gone.jsonl").toString(), "-o", out.toString());
    assertThat(failed.exitCode).isEqualTo(1);
    assertThat(Files.readString(out.resolve("clusters.jsonl"))).isEqualTo(first);
    // A successful run replaces it.
    Files.writeString(in, doc("x", OTHER) + "\n", StandardCharsets.UTF_8);
    assertThat(CliRunner.run("dedup", in.toString(), "-o", out.toString()).exitCode).isZero();
    assertThat(lines(out.resolve("clusters.jsonl")))
        .singleElement()
        .satisfies(n -> assertThat(n.get("id").asText()).isEqualTo("x"));
    // No staging directories are left behind.
    try (var s = Files.list(tmp)) {
      assertThat(s.map(p -> p.getFileName().toString()))
          .noneMatch(n -> n.contains("neardup-tmp") || n.contains("neardup-old"));
    }
  }

  @Test
  void dedup_foreignDirectory_refusedUnlessForced() throws IOException {
    Path in = tmp.resolve("in.jsonl");
    Files.writeString(in, doc("a", NEWS_EN) + "\n", StandardCharsets.UTF_8);
    Path out = Files.createDirectories(tmp.resolve("precious"));
    Files.writeString(out.resolve("thesis.tex"), "do not lose me", StandardCharsets.UTF_8);
    CliRunner r = CliRunner.run("dedup", in.toString(), "-o", out.toString());
    assertThat(r.exitCode).isEqualTo(1);
    assertThat(r.err).contains("refusing to replace a directory that is not a neardup output");
    assertThat(Files.readString(out.resolve("thesis.tex"))).isEqualTo("do not lose me");
    assertThat(CliRunner.run("dedup", in.toString(), "-o", out.toString(), "--force").exitCode)
        .isZero();
  }

  @Test
  void dedup_noVerify_usesFingerprintDistanceOnly() throws IOException {
    Path in = tmp.resolve("in.jsonl");
    Files.write(
        in,
        List.of(
            doc("a", NEWS_EN),
            doc("b", NEWS_EN.replace(" ", "   ").toLowerCase(java.util.Locale.ROOT))),
        StandardCharsets.UTF_8);
    Path out = tmp.resolve("out");
    CliRunner r =
        CliRunner.run(
            "dedup", in.toString(), "-o", out.toString(), "--no-verify", "-k", "3", "--json");
    assertThat(r.exitCode).as(r.toString()).isZero();
    assertThat(JSON.readTree(r.out).get("settings").asText()).endsWith(";k=3;verify=off");
    assertThat(lines(out.resolve("pairs.jsonl")))
        .singleElement()
        .satisfies(p -> assertThat(p.has("similarity")).isFalse());
  }

  /**
   * The same answer everywhere: dedup's clusters.jsonl says, for every document of the example
   * corpus, what check-and-insert answers when the documents arrive one by one in input order.
   */
  @Test
  void dedup_sampleCorpus_agreesWithCheckAndInsertInInputOrder() throws IOException {
    Path sample = Path.of("../examples/sample.jsonl");
    Path out = tmp.resolve("out");
    assertThat(CliRunner.run("dedup", sample.toString(), "-o", out.toString(), "-q").exitCode)
        .isZero();
    List<JsonNode> clusters = lines(out.resolve("clusters.jsonl"));
    org.neardup.Deduplicator d = org.neardup.Deduplicator.builder().build();
    List<String> lines = Files.readAllLines(sample, StandardCharsets.UTF_8);
    assertThat(clusters).hasSize(lines.size());
    java.util.Map<String, Long> number = new java.util.HashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      JsonNode doc = JSON.readTree(lines.get(i));
      number.put(doc.get("id").asText(), (long) i);
      org.neardup.Verdict v = d.checkAndInsert(i, doc.get("text").asText());
      JsonNode c = clusters.get(i);
      assertThat(c.get("id").asText()).isEqualTo(doc.get("id").asText());
      assertThat(c.get("new").asBoolean()).as("line %s", i + 1).isEqualTo(v.isNew());
    }
    // And the clusters are the same: every document's representative.
    for (int i = 0; i < lines.size(); i++) {
      assertThat(number.get(clusters.get(i).get("cluster").asText())).isEqualTo(d.clusterOf(i));
    }
  }

  /**
   * clusters.jsonl's similarity of a document to its representative is the Jaccard of their
   * sketches, whether it is taken from the pair the two make (the pairs phase's verified value) or,
   * where they are not a pair (a chain of edits: each copy near the one before, the last far from
   * the first), computed from the two sketches when the file is written.
   */
  @Test
  void dedup_similarityToRepresentative_isTheJaccardOfTheTwoSketches() throws IOException {
    java.util.Random random = new java.util.Random(20);
    List<String> texts = new ArrayList<>();
    List<String> records = new ArrayList<>();
    String[] words =
        (NEWS_EN + " " + OTHER + " " + NEWS_EN.toUpperCase(java.util.Locale.ROOT)).split(" ");
    for (int chain = 0; chain < 8; chain++) {
      String[] w = words.clone();
      for (int step = 0; step < 8; step++) {
        for (int k = 0; k < 3; k++) {
          w[random.nextInt(w.length)] = "edit" + random.nextInt(1_000_000);
        }
        String text = "chain " + chain + " " + String.join(" ", w);
        texts.add(text);
        records.add(doc("c" + chain + "s" + step, text));
      }
    }
    Path in = tmp.resolve("chains.jsonl");
    Files.write(in, records, StandardCharsets.UTF_8);
    Path out = tmp.resolve("out");
    CliRunner r = CliRunner.run("dedup", in.toString(), "-o", out.toString(), "-q");
    assertThat(r.exitCode).as(r.toString()).isZero();
    org.neardup.Analyzer analyzer = org.neardup.Deduplicator.builder().analyzer();
    java.util.Map<String, Integer> index = new java.util.HashMap<>();
    for (int i = 0; i < records.size(); i++) {
      index.put("c" + (i / 8) + "s" + (i % 8), i);
    }
    java.util.Set<String> paired = new java.util.HashSet<>();
    for (JsonNode p : lines(out.resolve("pairs.jsonl"))) {
      paired.add(p.get("a").asText() + " " + p.get("b").asText());
    }
    int fromPairs = 0;
    int computed = 0;
    for (JsonNode c : lines(out.resolve("clusters.jsonl"))) {
      if (c.get("representative").asBoolean()) {
        continue;
      }
      String id = c.get("id").asText();
      String rep = c.get("cluster").asText();
      double expected =
          org.neardup.verify.ShingleSketch.jaccard(
              analyzer.analyze(texts.get(index.get(id))).sketch().shingles(),
              analyzer.analyze(texts.get(index.get(rep))).sketch().shingles());
      assertThat(c.get("similarity").asDouble())
          .as("%s to %s", id, rep)
          .isEqualTo(Math.round(expected * 10000) / 10000.0);
      if (paired.contains(rep + " " + id)) {
        fromPairs++;
      } else {
        computed++;
      }
    }
    assertThat(fromPairs).as("documents paired with their representative").isPositive();
    assertThat(computed).as("documents not paired with their representative").isPositive();
  }

  /**
   * The --scheme help once said "Default: 4:1" while dedup searched with AllPairs.defaultScheme
   * (5:2 for k = 3) and ignored the option. Now the help states the rule from its one definition,
   * and dedup searches with the scheme asked for: every scheme finds the same pairs.
   */
  @Test
  void dedup_scheme_helpStatesTheRuleAndEverySchemeGivesTheSameFiles() throws IOException {
    CliRunner help = CliRunner.run("dedup", "--help");
    assertThat(help.out.replaceAll("\\s+", " "))
        .contains(org.neardup.index.AllPairs.DEFAULT_SCHEME_RULE)
        .doesNotContain("Default: 4:1");
    Path sample = Path.of("../examples/sample.jsonl");
    Path first = tmp.resolve("default");
    assertThat(CliRunner.run("dedup", sample.toString(), "-o", first.toString(), "-q").exitCode)
        .isZero();
    for (String scheme : new String[] {"4:1", "6:3", "2:1"}) {
      Path out = tmp.resolve("s" + scheme.replace(':', '-'));
      // 6:3 also reads its sketches by system calls instead of a map: the same bytes.
      CliRunner r =
          CliRunner.run(
              "dedup",
              sample.toString(),
              "-o",
              out.toString(),
              "-q",
              "--scheme",
              scheme,
              "--map-sketches-up-to",
              scheme.equals("6:3") ? "0" : "1073741824");
      assertThat(r.exitCode).as(r.err).isZero();
      for (String f : new String[] {"clusters.jsonl", "pairs.jsonl"}) {
        assertThat(Files.readString(out.resolve(f)))
            .as("%s with --scheme %s", f, scheme)
            .isEqualTo(Files.readString(first.resolve(f)));
      }
    }
    CliRunner bad =
        CliRunner.run(
            "dedup", sample.toString(), "-o", tmp.resolve("bad").toString(), "--scheme", "4-1");
    assertThat(bad.exitCode).isNotZero();
    assertThat(bad.err).contains("4-1");
    assertThat(tmp.resolve("bad")).doesNotExist();
  }

  /**
   * Pairs spilled to disk in many sorted runs give the same output, byte for byte, as pairs held in
   * memory: the run files are merged back into the same order.
   */
  @Test
  void dedup_pairsSpilledInRuns_writesTheSameOutput() throws IOException {
    Path sample = Path.of("../examples/sample.jsonl");
    for (String verify : new String[] {"--threshold=0.8", "--no-verify"}) {
      Path memory = tmp.resolve("memory" + verify);
      Path spilled = tmp.resolve("spilled" + verify);
      assertThat(
              CliRunner.run("dedup", sample.toString(), "-o", memory.toString(), "-q", verify)
                  .exitCode)
          .isZero();
      assertThat(
              CliRunner.run(
                      "dedup",
                      sample.toString(),
                      "-o",
                      spilled.toString(),
                      "-q",
                      verify,
                      "--pair-chunk=7")
                  .exitCode)
          .isZero();
      assertThat(lines(memory.resolve("pairs.jsonl"))).hasSizeGreaterThan(100);
      for (String f :
          new String[] {"clusters.jsonl", "pairs.jsonl", "unique.jsonl", "duplicates.jsonl"}) {
        assertThat(Files.readString(spilled.resolve(f), StandardCharsets.UTF_8))
            .as("%s %s", verify, f)
            .isEqualTo(Files.readString(memory.resolve(f), StandardCharsets.UTF_8));
      }
    }
  }

  /**
   * Band keys and heads in memory-mapped files (every document, or past the first 100: the heap's
   * columns moved to the files mid-run) give the same files, byte for byte, as held in the heap,
   * with failed documents (which have no keys) among them, one of them the last.
   */
  @Test
  void dedup_columnsOnDisk_writesTheSameOutputAsInTheHeap() throws IOException {
    List<String> sample =
        Files.readAllLines(Path.of("../examples/sample.jsonl"), StandardCharsets.UTF_8);
    Path in = tmp.resolve("with-errors.jsonl");
    try (OutputStream o = Files.newOutputStream(in)) {
      for (int i = 0; i < sample.size(); i++) {
        o.write((sample.get(i) + "\n").getBytes(StandardCharsets.UTF_8));
        if (i % 97 == 3 || i == 99 || i == 100) {
          o.write(("{\"id\": \"bad" + i + "\"}\n").getBytes(StandardCharsets.UTF_8));
        }
      }
      o.write("{\"id\": \"last\", \"text\": \"...\"}\n".getBytes(StandardCharsets.UTF_8));
    }
    Path heap = tmp.resolve("heap");
    CliRunner r = CliRunner.run("dedup", in.toString(), "-o", heap.toString(), "-q");
    assertThat(r.exitCode).as(r.err).isZero();
    assertThat(lines(heap.resolve("pairs.jsonl"))).hasSizeGreaterThan(100);
    assertThat(lines(heap.resolve("errors.jsonl"))).hasSizeGreaterThan(5);
    for (String upTo : new String[] {"0", "100"}) {
      Path disk = tmp.resolve("disk" + upTo);
      r =
          CliRunner.run(
              "dedup",
              in.toString(),
              "-o",
              disk.toString(),
              "-q",
              "--columns-in-heap-up-to",
              upTo,
              "--map-sketches-up-to",
              "0");
      assertThat(r.exitCode).as(r.err).isZero();
      for (String f :
          new String[] {
            "clusters.jsonl", "pairs.jsonl", "unique.jsonl", "duplicates.jsonl", "errors.jsonl"
          }) {
        assertThat(Files.readString(disk.resolve(f), StandardCharsets.UTF_8))
            .as("%s with columns in the heap up to %s", f, upTo)
            .isEqualTo(Files.readString(heap.resolve(f), StandardCharsets.UTF_8));
      }
      JsonNode a = JSON.readTree(heap.resolve("summary.json").toFile()).get("pairs_phase");
      JsonNode b = JSON.readTree(disk.resolve("summary.json").toFile()).get("pairs_phase");
      assertThat(a.get("columns").asText()).isEqualTo("heap");
      assertThat(b.get("columns").asText()).isEqualTo("files");
      for (String k : new String[] {"candidates", "verified", "head_rejected", "sketch_reads"}) {
        assertThat(b.get(k)).as(k).isEqualTo(a.get(k)).isNotNull();
      }
    }
  }
}
