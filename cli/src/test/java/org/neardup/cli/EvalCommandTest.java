// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code neardup eval} end to end on the tiny dataset, against {@code neardup dedup}. */
class EvalCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;

  /** What one run printed and returned. */
  private record Run(int exit, String out, String err) {}

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cmd = Main.commandLine();
    cmd.setOut(new PrintWriter(out, true));
    cmd.setErr(new PrintWriter(err, true));
    int exit = cmd.execute(args);
    return new Run(exit, out.toString(), err.toString());
  }

  private static Path tiny() throws URISyntaxException {
    return Path.of(EvalCommandTest.class.getResource("/tiny/docs.jsonl").toURI()).getParent();
  }

  @Test
  void eval_tinyDataset_writesReportJsonAndThePairsDedupFinds() throws Exception {
    Path data = tiny();
    Path html = tmp.resolve("report.html");
    Path json = tmp.resolve("result.json");
    Path pairs = tmp.resolve("pairs.jsonl");
    Run eval =
        run(
            "eval",
            data.toString(),
            "--out",
            html.toString(),
            "--json",
            json.toString(),
            "--pairs",
            pairs.toString(),
            "--threads",
            "2",
            "--max-k",
            "8",
            "-q");
    assertThat(eval.exit()).as(eval.err()).isZero();
    assertThat(eval.out())
        .contains("gold: " + data + "  threshold: jaccard >= 0.8")
        .contains("ALL ")
        .contains("fingerprint only (--no-verify)")
        .contains("by similarity threshold")
        .contains("settings alternatives")
        .contains("--numbers fold")
        .contains("--top-n 0 (all)");

    Run dedup =
        run(
            "dedup",
            data.resolve("docs.jsonl").toString(),
            "--out",
            tmp.resolve("dd").toString(),
            "-q");
    assertThat(dedup.exit()).as(dedup.err()).isZero();
    assertThat(pairSet(pairs)).isEqualTo(pairSet(tmp.resolve("dd/pairs.jsonl")));
    assertThat(pairSet(pairs)).isNotEmpty();

    JsonNode result = JSON.readTree(json.toFile());
    JsonNode summary = JSON.readTree(tmp.resolve("dd/summary.json").toFile());
    assertThat(result.path("settings").path("id").asText())
        .isEqualTo(summary.path("settings").asText());
    assertThat(result.path("predicted_pairs").asInt()).isEqualTo(pairSet(pairs).size());
    assertThat(result.path("groups").path("ALL").path("tp").isNumber()).isTrue();
    assertThat(result.path("sweeps").path("fingerprint_by_k")).hasSize(9);
    assertThat(result.path("sweeps").path("by_threshold")).hasSize(10);
    assertThat(result.path("variants").size()).isGreaterThan(5);

    String page = Files.readString(html, StandardCharsets.UTF_8);
    assertThat(page).startsWith("<!DOCTYPE html>").contains("False negatives").contains("<svg");
  }

  /**
   * --texts writes what the settings read: with --preset web, a page's main content without its
   * counter line; with the defaults, its visible text with the counter line.
   */
  @Test
  void eval_texts_writesEachDocumentAsTheSettingsReadIt() throws Exception {
    Path data = tmp.resolve("data");
    Files.createDirectories(data);
    String page =
        "<html><body><nav>Home | About</nav><main><p>The council approved the budget.</p>"
            + "<p>Posted 2021-03-04 10:00 · 1,234 views</p></main></body></html>";
    Files.writeString(
        data.resolve("docs.jsonl"),
        JSON.writeValueAsString(java.util.Map.of("id", "p", "lang", "en", "text", page))
            + "\n"
            + "{\"id\":\"q\",\"lang\":\"en\",\"text\":\"The council approved the budget.\"}\n",
        StandardCharsets.UTF_8);
    Files.writeString(
        data.resolve("pairs.jsonl"),
        "{\"a\":\"p\",\"b\":\"q\",\"jaccard\":0.3,\"kind\":\"html\"}\n",
        StandardCharsets.UTF_8);
    Path web = tmp.resolve("web.jsonl");
    Path plain = tmp.resolve("plain.jsonl");
    Run a =
        run(
            "eval",
            data.toString(),
            "--no-sweeps",
            "--no-variants",
            "-q",
            "--preset",
            "web",
            "--texts",
            web.toString());
    Run b =
        run(
            "eval",
            data.toString(),
            "--no-sweeps",
            "--no-variants",
            "-q",
            "--texts",
            plain.toString());
    assertThat(a.exit()).as(a.err()).isZero();
    assertThat(b.exit()).as(b.err()).isZero();
    List<String> webLines = Files.readAllLines(web, StandardCharsets.UTF_8);
    List<String> plainLines = Files.readAllLines(plain, StandardCharsets.UTF_8);
    assertThat(webLines).hasSize(2);
    assertThat(JSON.readTree(webLines.get(0)).path("id").asText()).isEqualTo("p");
    assertThat(JSON.readTree(webLines.get(0)).path("text").asText().strip())
        .isEqualTo("the council approved the budget.");
    assertThat(JSON.readTree(plainLines.get(0)).path("text").asText())
        .contains("home")
        .contains("1,234 views");
    assertThat(JSON.readTree(webLines.get(1)).path("text").asText())
        .isEqualTo("the council approved the budget.");
  }

  /** Engine options reach eval as they reach dedup: the same pairs and the same settings id. */
  @Test
  void eval_engineOptions_sameAsDedupWithThem() throws Exception {
    Path data = tiny();
    String[] engine = {"--numbers", "fold", "-k", "5", "--html", "main", "--threshold", "0.7"};
    Path pairs = tmp.resolve("pairs.jsonl");
    Path json = tmp.resolve("r.json");
    List<String> evalArgs =
        new ArrayList<>(
            List.of(
                "eval",
                data.toString(),
                "--pairs",
                pairs.toString(),
                "--json",
                json.toString(),
                "--no-sweeps",
                "--no-variants",
                "-q"));
    evalArgs.addAll(List.of(engine));
    Run eval = run(evalArgs.toArray(new String[0]));
    assertThat(eval.exit()).as(eval.err()).isZero();
    assertThat(eval.out())
        .contains("settings: --max-distance 5 --threshold 0.7 --numbers fold --html main");
    List<String> dedupArgs =
        new ArrayList<>(
            List.of(
                "dedup",
                data.resolve("docs.jsonl").toString(),
                "--out",
                tmp.resolve("dd").toString(),
                "-q"));
    dedupArgs.addAll(List.of(engine));
    Run dedup = run(dedupArgs.toArray(new String[0]));
    assertThat(dedup.exit()).as(dedup.err()).isZero();
    assertThat(pairSet(pairs)).isEqualTo(pairSet(tmp.resolve("dd/pairs.jsonl")));
    assertThat(JSON.readTree(json.toFile()).path("settings").path("id").asText())
        .isEqualTo(
            JSON.readTree(tmp.resolve("dd/summary.json").toFile()).path("settings").asText());
  }

  @Test
  void eval_labelThresholdBelowFloor_warnsLikeScorePy() throws Exception {
    Run r =
        run(
            "eval",
            tiny().toString(),
            "--label-threshold",
            "0.4",
            "--no-sweeps",
            "--no-variants",
            "-q");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.err()).contains("warning: --label-threshold 0.4 is below the floor 0.5");
  }

  @Test
  void eval_missingDataset_oneLineErrorExit1() throws java.io.IOException {
    Run r = run("eval", tmp.resolve("nowhere").toString(), "-q");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err().strip())
        .isEqualTo(
            "neardup eval: error: " + tmp.resolve("nowhere") + ": no such file or directory");
    java.nio.file.Files.createDirectories(tmp.resolve("empty"));
    Run empty = run("eval", tmp.resolve("empty").toString(), "-q");
    assertThat(empty.exit()).isEqualTo(1);
    assertThat(empty.err()).startsWith("neardup eval: error: ").contains("docs.jsonl: missing");
  }

  @Test
  void eval_badThreads_exit1NamesTheOption() throws Exception {
    Run r = run("eval", tiny().toString(), "--threads", "0", "-q");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).contains("--threads must be in [1, 256], got 0");
  }

  @Test
  void eval_scheme_usageExit2SaysWhy() throws Exception {
    // eval used to accept --scheme and ignore it; now it says so instead of scoring silently.
    Run r = run("eval", tiny().toString(), "--scheme", "4:1", "-q");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("--scheme is not taken by eval");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void eval_unknownOption_usageExit2() throws Exception {
    Run r = run("eval", tiny().toString(), "--bogus");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("Unknown option");
  }

  private static Set<String> pairSet(Path file) throws IOException {
    Set<String> out = new TreeSet<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode n = JSON.readTree(line);
      String a = n.get("a").asText();
      String b = n.get("b").asText();
      out.add(a.compareTo(b) < 0 ? a + " " + b : b + " " + a);
    }
    return out;
  }
}
