// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.fingerprint.Simhash;

class OtherCommandsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path tmp;

  @Test
  void fingerprint_printsOneLinePerDocument_errorsOnStderr() throws IOException {
    Path in = tmp.resolve("in.jsonl");
    Files.write(
        in,
        List.of(
            DedupCommandTest.doc("a", DedupCommandTest.NEWS_EN),
            "not json",
            DedupCommandTest.doc("b", DedupCommandTest.NEWS_EN.toUpperCase(java.util.Locale.ROOT)),
            "{\"id\": 7, \"text\": \"" + DedupCommandTest.NEWS_ZH + "\"}"),
        StandardCharsets.UTF_8);
    CliRunner r = CliRunner.run("fingerprint", in.toString());
    // Issue 21: the rule dedup follows, skip and report with exit 0 (1 only with --fail-on-error).
    assertThat(r.exitCode).as(r.toString()).isZero();
    List<JsonNode> lines = new ArrayList<>();
    for (String l : r.out.split("\n")) {
      lines.add(JSON.readTree(l));
    }
    assertThat(lines).extracting(n -> n.get("id").asText()).containsExactly("a", "b", "7");
    assertThat(lines.get(2).get("id").isInt()).isTrue();
    assertThat(lines.get(0).get("simhash").asText())
        .matches("[0-9a-f]{16}")
        .isEqualTo(lines.get(1).get("simhash").asText());
    assertThat(r.err)
        .contains("neardup fingerprint: 1 record skipped")
        .contains("  " + in + ":2: malformed JSON at column 4: Unrecognized token 'not'");
  }

  @Test
  void fingerprint_defaultSettings_goldenValues() throws IOException {
    // The fingerprint of fixed texts under the default settings (jieba) is a stored format.
    Path in = tmp.resolve("in.jsonl");
    Files.write(
        in,
        List.of(
            DedupCommandTest.doc("en", DedupCommandTest.NEWS_EN),
            DedupCommandTest.doc("zh", DedupCommandTest.NEWS_ZH)),
        StandardCharsets.UTF_8);
    CliRunner r = CliRunner.run("fingerprint", in.toString());
    assertThat(r.exitCode).as(r.toString()).isZero();
    String[] lines = r.out.split("\n");
    assertThat(JSON.readTree(lines[0]).get("simhash").asText()).isEqualTo(GOLDEN_EN);
    assertThat(JSON.readTree(lines[1]).get("simhash").asText()).isEqualTo(GOLDEN_ZH);
    assertThat(Simhash.parseHex(GOLDEN_EN)).isNotZero();
  }

  @Test
  void userDictAndHan_changeFingerprintsAndIdf_badDictionaryExitsWithTheLine() throws IOException {
    Path in = tmp.resolve("in.jsonl");
    String zh = "这家公司发布了区块链技术平台。区块链技术平台将向开发者开放，区块链技术平台很受欢迎。";
    String zhTraditional = "這家公司發佈了區塊鏈技術平臺。區塊鏈技術平臺將向開發者開放，區塊鏈技術平臺很受歡迎。";
    Files.write(
        in,
        List.of(DedupCommandTest.doc("s", zh), DedupCommandTest.doc("t", zhTraditional)),
        StandardCharsets.UTF_8);
    Path dict = tmp.resolve("user.txt");
    Files.writeString(dict, "\uFEFF区块链技术平台 50000 n\n", StandardCharsets.UTF_8);
    CliRunner plain = CliRunner.run("fingerprint", in.toString());
    CliRunner withDict =
        CliRunner.run("fingerprint", "--user-dict", dict.toString(), in.toString());
    CliRunner keep = CliRunner.run("fingerprint", "--han", "keep", in.toString());
    assertThat(withDict.exitCode).as(withDict.toString()).isZero();
    String[] p = plain.out.split("\n");
    String[] d = withDict.out.split("\n");
    String[] k = keep.out.split("\n");
    // Folding is the default: the traditional repost has the simplified text's fingerprint.
    assertThat(JSON.readTree(p[1]).get("simhash")).isEqualTo(JSON.readTree(p[0]).get("simhash"));
    assertThat(JSON.readTree(k[1]).get("simhash")).isNotEqualTo(JSON.readTree(k[0]).get("simhash"));
    assertThat(JSON.readTree(d[0]).get("simhash")).isNotEqualTo(JSON.readTree(p[0]).get("simhash"));
    assertThat(JSON.readTree(d[1]).get("simhash")).isEqualTo(JSON.readTree(d[0]).get("simhash"));

    Path idf = tmp.resolve("idf.txt");
    CliRunner built =
        CliRunner.run(
            "idf",
            "build",
            in.toString(),
            "--user-dict",
            dict.toString(),
            "--min-df",
            "1",
            "--out",
            idf.toString());
    assertThat(built.exitCode).as(built.toString()).isZero();
    assertThat(Files.readString(idf, StandardCharsets.UTF_8)).contains("区块链技术平台 ");

    Files.write(dict, new byte[] {'x', ' ', '1', '\n', (byte) 0xff, '\n'});
    CliRunner bad = CliRunner.run("fingerprint", "--user-dict", dict.toString(), in.toString());
    assertThat(bad.exitCode).isNotZero();
    assertThat(bad.err).contains("line 2 is not UTF-8");
  }

  static final String GOLDEN_EN = "1de518dcb7711727";
  static final String GOLDEN_ZH = "9b1ed0f90a4607e3";

  @Test
  void idfBuild_thenUse_changesSettingsAndWorks() throws IOException {
    Path corpus = tmp.resolve("corpus.txt");
    List<String> docs = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      docs.add("市议会 公园 预算 document " + (i % 5) + " common words appear everywhere " + "rare" + i);
    }
    Files.write(corpus, docs, StandardCharsets.UTF_8);
    Path idf = tmp.resolve("my-idf.txt");
    CliRunner build =
        CliRunner.run("idf", "build", corpus.toString(), "-o", idf.toString(), "--min-df", "1");
    assertThat(build.exitCode).as(build.toString()).isZero();
    List<String> lines = Files.readAllLines(idf, StandardCharsets.UTF_8);
    assertThat(lines.get(0)).startsWith("# neardup idf build: 50 documents");
    assertThat(lines).contains("common 0.000000", "rare7 3.912023", "公园 0.000000");
    Path out = tmp.resolve("out");
    CliRunner dedup =
        CliRunner.run(
            "dedup", corpus.toString(), "-o", out.toString(), "--idf", idf.toString(), "--json");
    assertThat(dedup.exitCode).as(dedup.toString()).isZero();
    assertThat(JSON.readTree(dedup.out).get("settings").asText()).contains("idf=my-idf.txt/sha1:");
  }

  @Test
  void idfBuild_malformedIdfFile_clearError() throws IOException {
    Path idf = tmp.resolve("bad-idf.txt");
    Files.writeString(idf, "word 1.0\nbroken-line\n", StandardCharsets.UTF_8);
    Path in = tmp.resolve("in.txt");
    Files.writeString(in, "hello world\n", StandardCharsets.UTF_8);
    CliRunner r =
        CliRunner.run(
            "dedup", in.toString(), "-o", tmp.resolve("o").toString(), "--idf", idf.toString());
    assertThat(r.exitCode).isEqualTo(1);
    assertThat(r.err).contains("bad-idf.txt: line 2: expected 'word idf'");
  }

  @Test
  void benchIndex_smallIndex_exactAndReportsStalls() throws IOException {
    // Small, so the brute-force check covers every query; the answers, not the speed, are tested.
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    int exit =
        new picocli.CommandLine(
                new BenchIndexCommand(new java.io.PrintStream(bytes, true, StandardCharsets.UTF_8)))
            .execute(
                "--size", "100000", "--add-size", "0", "--queries", "2000", "--verify", "2000");
    assertThat(exit).isZero();
    JsonNode out = JSON.readTree(bytes.toString(StandardCharsets.UTF_8));
    assertThat(out.get("verified_queries").asInt()).isEqualTo(2000);
    assertThat(out.get("mismatches").asInt()).isZero();
    assertThat(out.get("matches_per_query").asDouble()).isGreaterThanOrEqualTo(0.5);
    assertThat(out.get("query_stalls").isArray()).isTrue();
    assertThat(out.get("query_stalls").size()).isLessThanOrEqualTo(10);
  }

  @Test
  void benchGenerate_isReproducible() throws IOException {
    Path a = tmp.resolve("a.jsonl");
    Path b = tmp.resolve("b.jsonl");
    assertThat(
            CliRunner.run("bench", "generate", "--docs", "300", "-o", a.toString(), "--seed", "5")
                .exitCode)
        .isZero();
    assertThat(
            CliRunner.run("bench", "generate", "--docs", "300", "-o", b.toString(), "--seed", "5")
                .exitCode)
        .isZero();
    assertThat(Files.readAllBytes(a)).isEqualTo(Files.readAllBytes(b));
    assertThat(Files.readAllLines(a, StandardCharsets.UTF_8)).hasSize(300);
  }

  @Test
  void help_and_version_work() {
    assertThat(CliRunner.run("--help").out).contains("dedup", "fingerprint", "idf", "bench");
    assertThat(CliRunner.run("--version").out).startsWith("neardup ");
    assertThat(CliRunner.run("frobnicate").exitCode).isEqualTo(2);
  }
}
