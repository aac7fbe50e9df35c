// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.fingerprint.FingerprintSettings;
import picocli.CommandLine;

/** {@code --preset web}: the same page with a new counter line is a duplicate. */
class PresetWebTest {
  @TempDir Path tmp;

  // A short post, as a forum or news site shows it, fetched twice: the counters and the date moved.
  static final String POST_ZH = "世上若要人情好，赊去物件莫取钱。\n    --《增广贤文》";
  static final String POST_ZH_LATER = POST_ZH + "\n发布时间：2021-03-04 10:00　阅读：1843　评论：27";
  static final String POST_EN = "Promising costs nothing, it is the giving that is hard.";
  static final String POST_EN_LATER =
      "Posted 2020-12-01 08:15 · 4,512 views · 36 comments\n" + POST_EN;

  private static EngineOptions options(String... args) {
    EngineOptions o = new EngineOptions();
    new CommandLine(o).parseArgs(args);
    return o;
  }

  @Test
  void preset_web_setsNumbersHtmlAndVolatileLines() {
    EngineOptions o = options("--preset", "web");
    assertThat(o.foldNumbers()).isTrue();
    assertThat(o.htmlMode()).isEqualTo(FingerprintSettings.Html.MAIN);
    assertThat(o.volatileMode()).isEqualTo(FingerprintSettings.Volatile.DROP);
    EngineOptions plain = options();
    assertThat(plain.foldNumbers()).isFalse();
    assertThat(plain.htmlMode()).isEqualTo(FingerprintSettings.Html.VISIBLE);
    assertThat(plain.volatileMode()).isEqualTo(FingerprintSettings.Volatile.KEEP);
  }

  @Test
  void preset_optionsGivenBesideIt_win() {
    EngineOptions o =
        options(
            "--preset",
            "web",
            "--numbers",
            "keep",
            "--html",
            "visible",
            "--volatile-lines",
            "keep");
    assertThat(o.foldNumbers()).isFalse();
    assertThat(o.htmlMode()).isEqualTo(FingerprintSettings.Html.VISIBLE);
    assertThat(o.volatileMode()).isEqualTo(FingerprintSettings.Volatile.KEEP);
  }

  @Test
  void preset_unknown_namesTheChoices() {
    assertThatThrownBy(() -> options("--preset", "news").preset())
        .hasMessageContaining("--preset must be none or web, got 'news'");
    CliRunner r = CliRunner.run("fingerprint", "--preset", "news", "-");
    assertThat(r.exitCode).as(r.toString()).isNotZero();
    assertThat(r.err).contains("--preset must be none or web");
  }

  @Test
  void dedup_presetWeb_findsTheSamePostWithNewCounters() throws IOException {
    Path in = tmp.resolve("in.jsonl");
    Files.write(
        in,
        List.of(
            DedupCommandTest.doc("zh1", POST_ZH),
            DedupCommandTest.doc("zh2", POST_ZH_LATER),
            DedupCommandTest.doc("en1", POST_EN),
            DedupCommandTest.doc("en2", POST_EN_LATER)),
        StandardCharsets.UTF_8);
    // Without the preset the counter line is a third of the short post's shingles: not a duplicate.
    CliRunner plain =
        CliRunner.run("dedup", in.toString(), "--out", tmp.resolve("plain").toString());
    assertThat(plain.exitCode).as(plain.toString()).isZero();
    assertThat(DedupCommandTest.lines(tmp.resolve("plain/pairs.jsonl"))).isEmpty();

    CliRunner web =
        CliRunner.run(
            "dedup", in.toString(), "--preset", "web", "--out", tmp.resolve("web").toString());
    assertThat(web.exitCode).as(web.toString()).isZero();
    List<JsonNode> pairs = DedupCommandTest.lines(tmp.resolve("web/pairs.jsonl"));
    assertThat(pairs)
        .extracting(p -> p.get("a").asText() + "~" + p.get("b").asText())
        .containsExactlyInAnyOrder("zh1~zh2", "en1~en2");
    for (JsonNode p : pairs) {
      assertThat(p.get("similarity").asDouble()).isEqualTo(1.0);
    }
  }

  @Test
  void fingerprint_presetWeb_sameFingerprintWithoutTheCounterLine() throws IOException {
    Path in = tmp.resolve("in.jsonl");
    Files.write(
        in,
        List.of(DedupCommandTest.doc("a", POST_EN), DedupCommandTest.doc("b", POST_EN_LATER)),
        StandardCharsets.UTF_8);
    CliRunner r = CliRunner.run("fingerprint", in.toString(), "--preset", "web");
    assertThat(r.exitCode).as(r.toString()).isZero();
    String[] lines = r.out.strip().split("\n");
    assertThat(lines).hasSize(2);
    assertThat(DedupCommandTest.JSON_READER.readTree(lines[0]).get("simhash"))
        .isEqualTo(DedupCommandTest.JSON_READER.readTree(lines[1]).get("simhash"));
  }
}
