// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.server.NeardupServer;
import org.neardup.server.ServerConfig;
import org.neardup.store.CollectionSettings;
import org.neardup.store.embedded.EmbeddedStore;
import picocli.CommandLine;

/**
 * Issue 21: every command as a user meets it. {@code --help} prints to stdout and exits 0
 * everywhere; the commands that read a corpus (dedup, fingerprint, idf build, send) read the same
 * bad-input corpus in every shape (JSONL, gzip found by its bytes, a JSON array, stdin, gzip on
 * stdin) and agree on what they skip, what they report and their exit code; a missing input is
 * named the same way by all of them.
 */
class CliContractTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir static Path tmp;
  private static NeardupServer server;

  @BeforeAll
  static void start() throws IOException {
    server =
        NeardupServer.start(
            ServerConfig.builder()
                .port(0)
                .defaults(CollectionSettings.defaults().withLexicon(CollectionSettings.NO_LEXICON))
                .shutdownTimeout(Duration.ofSeconds(5))
                .build(),
            EmbeddedStore.builder(tmp.resolve("store")).background(false).open());
  }

  @AfterAll
  static void stop() throws IOException {
    server.close();
  }

  // --- --help -------------------------------------------------------------------------------

  @Test
  void help_everyCommand_printsUsageToStdoutAndExitsZero() {
    List<List<String>> paths = new ArrayList<>();
    collect(Main.commandLine(), new ArrayList<>(), paths);
    assertThat(paths).hasSizeGreaterThan(8);
    for (List<String> path : paths) {
      List<String> args = new ArrayList<>(path);
      args.add("--help");
      CliRunner r = CliRunner.run(args.toArray(String[]::new));
      assertThat(r.exitCode).as(args + "\n" + r).isZero();
      assertThat(r.err).as(args + "\n" + r).isEmpty();
      assertThat(r.out).as(args + "\n" + r).startsWith("Usage: neardup " + String.join(" ", path));
    }
  }

  private static void collect(CommandLine c, List<String> path, List<List<String>> out) {
    for (var e : c.getSubcommands().entrySet()) {
      if (e.getKey().equals("help")) {
        continue;
      }
      List<String> p = new ArrayList<>(path);
      p.add(e.getKey());
      out.add(p);
      collect(e.getValue(), p, out);
    }
  }

  // --- the same bad input for every command ----------------------------------------------------

  /** Records 1, 3 and 6 are good; 2, 4 and 5 are bad, each for another reason. */
  private static final List<String> RECORDS =
      List.of(
          "{\"id\":\"a\",\"text\":\"" + DedupCommandTest.NEWS_EN + "\"}",
          "{\"id\":\"m\",\"text\":\"unterminated",
          "{\"id\":\"b\",\"text\":\"" + DedupCommandTest.OTHER + "\"}",
          "{\"id\":\"e\",\"text\":\"  ... !!! \"}",
          "{\"id\":null,\"text\":\"a null id\"}",
          "{\"id\":\"c\",\"text\":\"" + DedupCommandTest.NEWS_ZH + "\"}");

  private static final List<String> EXPECTED_ERRORS =
      List.of(
          ":2 malformed JSON at column 31: Unexpected end-of-input",
          ":4 text has no letters or digits",
          ":5 field 'id' is null; it must be a string or an integer");

  /** One way to give the corpus: the arguments naming it, what stdin holds, the location prefix. */
  private record Shape(String name, String input, byte[] stdin, String location) {}

  private static List<Shape> shapes() throws IOException {
    byte[] jsonl = (String.join("\n", RECORDS) + "\n").getBytes(StandardCharsets.UTF_8);
    Path file = tmp.resolve("corpus.jsonl");
    Files.write(file, jsonl);
    // gzip recognised by its bytes, whatever the name says
    Path gz = tmp.resolve("corpus-gzipped.jsonl");
    Files.write(gz, gzip(jsonl));
    // a JSON array, one element per line, the malformed record left out (an array cannot go on
    // after it) and a bad element in its place
    List<String> elements = new ArrayList<>(RECORDS);
    elements.set(1, "{\"id\":\"m\",\"text\":[\"not\",\"a string\"]}");
    Path array = tmp.resolve("corpus.json");
    Files.writeString(array, "[\n" + String.join(",\n", elements) + "\n]\n");
    return List.of(
        new Shape("jsonl", file.toString(), new byte[0], file.toString()),
        new Shape("gzip", gz.toString(), new byte[0], gz.toString()),
        new Shape("array", array.toString(), new byte[0], array.toString()),
        new Shape("stdin", "-", jsonl, "stdin"),
        new Shape("gzip stdin", "-", gzip(jsonl), "stdin"));
  }

  private static byte[] gzip(byte[] b) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (OutputStream o = new GZIPOutputStream(bytes)) {
      o.write(b);
    }
    return bytes.toByteArray();
  }

  /** Each command's arguments for an input; the options that say where its output goes. */
  private static List<Function<String, List<String>>> commands() {
    return List.of(
        in -> List.of("dedup", in, "-o", tmp.resolve("dedup-out").toString(), "--quiet"),
        in -> List.of("fingerprint", in),
        in -> List.of("idf", "build", in, "-o", tmp.resolve("idf.txt").toString()),
        in -> List.of("send", in, "--url", server.uri().toString(), "--batch", "2"));
  }

  private static CliRunner run(List<String> args, byte[] stdin) {
    InputStream saved = System.in;
    System.setIn(new ByteArrayInputStream(stdin));
    try {
      return CliRunner.run(args.toArray(String[]::new));
    } finally {
      System.setIn(saved);
    }
  }

  @Test
  void badInput_everyCommandAndShape_skipsTheSameRecordsReportsThemAndExitsZero()
      throws IOException {
    for (Shape shape : shapes()) {
      List<String> expected = new ArrayList<>();
      for (String e : EXPECTED_ERRORS) {
        expected.add(shape.location() + e);
      }
      if (shape.name().equals("array")) {
        // Line 1 is the '['; each element is located at the line it starts on.
        expected.set(0, shape.location() + ":3 field 'text' must be a string, got array");
        expected.set(1, shape.location() + ":5" + EXPECTED_ERRORS.get(1).substring(2));
        expected.set(2, shape.location() + ":6" + EXPECTED_ERRORS.get(2).substring(2));
      }
      for (Function<String, List<String>> command : commands()) {
        List<String> args = new ArrayList<>(command.apply(shape.input()));
        Path errors = tmp.resolve("errors.jsonl");
        args.add("--errors");
        args.add(errors.toString());
        CliRunner r = run(args, shape.stdin());
        String what = shape.name() + ": " + args + "\n" + r;
        assertThat(r.exitCode).as(what).isZero();
        List<String> listed = new ArrayList<>();
        for (String l : Files.readAllLines(errors, StandardCharsets.UTF_8)) {
          JsonNode n = JSON.readTree(l);
          listed.add(n.get("location").asText() + " " + n.get("error").asText());
        }
        assertThat(listed).as(what).hasSize(3);
        for (int i = 0; i < 3; i++) {
          assertThat(listed.get(i)).as(what).startsWith(expected.get(i));
        }
        assertThat(r.err)
            .as(what)
            .startsWith("neardup " + args.get(0))
            .contains("3 records skipped, all listed in " + errors);

        // --fail-on-error: the same run, exit code 1.
        args.add("--fail-on-error");
        CliRunner failing = run(args, shape.stdin());
        assertThat(failing.exitCode).as(what).isEqualTo(1);
      }
    }
  }

  @Test
  void badInput_withoutErrorsFile_firstRecordsOnStderr() throws IOException {
    Shape jsonl = shapes().get(0);
    for (Function<String, List<String>> command : commands()) {
      List<String> args = command.apply(jsonl.input());
      CliRunner r = run(args, new byte[0]);
      assertThat(r.exitCode).as(r.toString()).isZero();
      assertThat(r.err).as(r.toString()).contains("3 records skipped:");
      for (String e : EXPECTED_ERRORS) {
        int space = e.indexOf(' ');
        assertThat(r.err)
            .as(r.toString())
            .contains(
                "  " + jsonl.location() + e.substring(0, space) + ": " + e.substring(space + 1));
      }
    }
  }

  @Test
  void eval_badLinesInTheDataset_skippedReportedAndExitZero() throws IOException {
    // eval reads a labelled dataset, not INPUT...: the same rule, plus the pairs that name a
    // skipped document are skipped with it.
    Path data = Files.createDirectories(tmp.resolve("dataset"));
    Files.write(
        data.resolve("docs.jsonl"),
        List.of(
            RECORDS.get(0),
            RECORDS.get(1),
            "{\"id\":\"b\",\"text\":\""
                + DedupCommandTest.NEWS_EN.toUpperCase(java.util.Locale.ROOT)
                + "\"}",
            "{\"id\":\"x\"}",
            RECORDS.get(2).replace("\"b\"", "\"c\"")),
        StandardCharsets.UTF_8);
    Files.write(
        data.resolve("pairs.jsonl"),
        List.of(
            "{\"a\":\"a\",\"b\":\"b\",\"jaccard\":1.0}",
            "{\"a\":\"a\",\"b\":\"x\",\"jaccard\":0.9}"),
        StandardCharsets.UTF_8);
    Path errors = tmp.resolve("eval-errors.jsonl");
    List<String> args =
        List.of(
            "eval",
            data.toString(),
            "--no-sweeps",
            "--no-variants",
            "-q",
            "--errors",
            errors.toString());
    CliRunner r = run(args, new byte[0]);
    assertThat(r.exitCode).as(r.toString()).isZero();
    assertThat(r.err).contains("neardup eval: 3 records skipped, all listed in " + errors);
    List<String> listed = new ArrayList<>();
    for (String l : Files.readAllLines(errors, StandardCharsets.UTF_8)) {
      JsonNode n = JSON.readTree(l);
      listed.add(n.get("location").asText() + " " + n.get("error").asText());
    }
    assertThat(listed).hasSize(3);
    assertThat(listed.get(0)).startsWith(data.resolve("docs.jsonl") + ":2 not JSON at column 31");
    assertThat(listed.get(1)).isEqualTo(data.resolve("docs.jsonl") + ":4 missing field 'text'");
    assertThat(listed.get(2))
        .isEqualTo(data.resolve("pairs.jsonl") + ":2 pair names document x, which was skipped");
    List<String> failing = new ArrayList<>(args);
    failing.add("--fail-on-error");
    assertThat(run(failing, new byte[0]).exitCode).isEqualTo(1);
  }

  @Test
  void missingInput_everyCommand_namesTheFileOnceAndExitsOne() {
    String missing = tmp.resolve("nope.jsonl").toString();
    for (Function<String, List<String>> command : commands()) {
      List<String> args = command.apply(missing);
      CliRunner r = run(args, new byte[0]);
      String name = args.get(0).equals("idf") ? "idf build" : args.get(0);
      assertThat(r.exitCode).as(r.toString()).isEqualTo(1);
      assertThat(r.err.strip())
          .isEqualTo("neardup " + name + ": error: " + missing + ": no such file or directory");
    }
    CliRunner eval = CliRunner.run("eval", missing);
    assertThat(eval.err.strip())
        .endsWith("neardup eval: error: " + missing + ": no such file or directory");
  }

  @Test
  void textLines_idIsFileAndLine_withOneInputOrSeveral() throws IOException {
    Path one = tmp.resolve("one.txt");
    Path two = tmp.resolve("two.txt");
    Files.writeString(one, DedupCommandTest.NEWS_EN + "\n" + DedupCommandTest.OTHER + "\n");
    Files.writeString(two, DedupCommandTest.NEWS_ZH + "\n");
    CliRunner single = CliRunner.run("fingerprint", one.toString());
    CliRunner several = CliRunner.run("fingerprint", one.toString(), two.toString());
    assertThat(ids(single.out)).containsExactly(one + ":1", one + ":2");
    assertThat(ids(several.out)).containsExactly(one + ":1", one + ":2", two + ":1");
  }

  private static List<String> ids(String out) throws IOException {
    List<String> ids = new ArrayList<>();
    for (String l : out.split("\n")) {
      ids.add(JSON.readTree(l).get("id").asText());
    }
    return ids;
  }

  @Test
  void malformedJson_unclosedObject_saysColumnsNotJacksonsRedactedSource() throws IOException {
    // Jackson's message for an unclosed object names where it started as "[Source: REDACTED
    // (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); line: 1, column: 1]".
    Path in = tmp.resolve("unclosed.jsonl");
    Files.writeString(in, "{\"id\": \"a\", \"text\": \"some words here\"\n");
    CliRunner r = CliRunner.run("fingerprint", in.toString());
    assertThat(r.err)
        .contains(in + ":1: malformed JSON at column ")
        .contains("start marker at column 1")
        .doesNotContain("REDACTED")
        .doesNotContain("Source");
  }

  @Test
  void lexicon_unknown_listsNoneToo() throws IOException {
    Path in = tmp.resolve("lex.txt");
    Files.writeString(in, DedupCommandTest.NEWS_EN + "\n");
    CliRunner r = CliRunner.run("fingerprint", in.toString(), "--lexicon", "foo");
    assertThat(r.exitCode).isEqualTo(1);
    assertThat(r.err).contains("--lexicon must be one of none, jieba, got 'foo'");
    assertThat(CliRunner.run("fingerprint", in.toString(), "--lexicon", "none").exitCode).isZero();
  }
}
