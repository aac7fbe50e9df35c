// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.client.NeardupClient;
import org.neardup.server.NeardupServer;
import org.neardup.server.ServerConfig;
import org.neardup.store.CollectionSettings;
import org.neardup.store.embedded.EmbeddedStore;

/**
 * Issue 21: {@code send} against a real service (HTTP on loopback, the embedded store) never
 * half-loads a file. Bad records sit in the middle of batches, some caught while reading and some
 * only by the service; afterwards every good record, and only those, is stored.
 */
class SendLoadTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path dir;
  private NeardupServer server;

  private NeardupServer start(int maxRequestBytes) throws IOException {
    return NeardupServer.start(
        ServerConfig.builder()
            .port(0)
            .defaults(CollectionSettings.defaults().withLexicon(CollectionSettings.NO_LEXICON))
            .maxRequestBytes(maxRequestBytes)
            .shutdownTimeout(Duration.ofSeconds(5))
            .build(),
        EmbeddedStore.builder(dir.resolve("data")).background(false).open());
  }

  @AfterEach
  void stop() throws IOException {
    if (server != null) {
      server.close();
    }
  }

  /** A text no other generated text is a near-duplicate of. */
  private static String text(Random random) {
    StringBuilder b = new StringBuilder();
    for (int w = 0; w < 40; w++) {
      for (int c = 0; c < 6; c++) {
        b.append((char) ('a' + random.nextInt(26)));
      }
      b.append(' ');
    }
    return b.toString().strip();
  }

  private static String good(String id, String text) {
    return "{\"id\":\"" + id + "\",\"text\":\"" + text + "\"}";
  }

  /**
   * 60 records with a bad one every few lines, each kind at least once: caught while reading
   * (malformed, missing text, null id, no letters) and refused only by the service (empty id; a
   * fingerprint sent to a collection that verifies texts).
   */
  private static List<String> corpus(Map<Integer, String> badReasons, List<String> goodIds) {
    Random random = new Random(21);
    String[] bad = {
      "{\"id\":\"m\",\"text\":\"unterminated",
      "{\"id\":\"nt\",\"txt\":\"no text field\"}",
      "{\"id\":null,\"text\":\"a null id\"}",
      "{\"id\":\"punct\",\"text\":\"!!! ??? ...\"}",
      "{\"id\":\"\",\"text\":\"an empty id the service refuses\"}",
      "{\"id\":\"fp\",\"fingerprint\":\"00ff00ff00ff00ff\"}",
    };
    String[] reasons = {
      "malformed JSON",
      "missing field 'text'",
      "field 'id' is null",
      "text has no letters or digits",
      "refused by the service: field 'id' must not be empty",
      "refused by the service: collection 'default' verifies candidates",
    };
    List<String> lines = new ArrayList<>();
    for (int i = 0; lines.size() < 60; i++) {
      if (lines.size() % 5 == 2) {
        int k = (lines.size() / 5) % bad.length;
        lines.add(bad[k]);
        badReasons.put(lines.size(), reasons[k]);
      } else {
        String id = "g" + i;
        lines.add(good(id, text(random)));
        goodIds.add(id);
      }
    }
    return lines;
  }

  private static List<JsonNode> jsonl(Path p) throws IOException {
    List<JsonNode> out = new ArrayList<>();
    for (String l : Files.readAllLines(p, StandardCharsets.UTF_8)) {
      out.add(JSON.readTree(l));
    }
    return out;
  }

  private static CliRunner send(String... args) {
    String[] all = new String[args.length + 1];
    all[0] = "send";
    System.arraycopy(args, 0, all, 1, args.length);
    return CliRunner.run(all);
  }

  @Test
  void send_badRecordsInsideBatches_storesEveryGoodRecordAndOnlyThose() throws IOException {
    server = start(1 << 20);
    Map<Integer, String> badReasons = new LinkedHashMap<>();
    List<String> goodIds = new ArrayList<>();
    Path in = dir.resolve("corpus.jsonl");
    Files.write(in, corpus(badReasons, goodIds), StandardCharsets.UTF_8);
    Path errors = dir.resolve("errors.jsonl");

    CliRunner r =
        send(
            in.toString(),
            "--url",
            server.uri().toString(),
            "--batch",
            "4",
            "--errors",
            errors.toString());

    assertThat(r.exitCode).as(r.toString()).isZero();
    assertThat(r.out)
        .contains("sent " + goodIds.size() + " documents")
        .contains(goodIds.size() + " new, 0 duplicates")
        .contains("; " + badReasons.size() + " skipped");
    assertThat(r.err).contains(badReasons.size() + " records skipped, all listed in " + errors);
    // Every bad record is listed, in file order, at its own line, with its reason.
    List<JsonNode> listed = jsonl(errors);
    assertThat(listed)
        .extracting(n -> n.get("location").asText())
        .containsExactlyElementsOf(
            badReasons.keySet().stream().map(line -> in + ":" + line).toList());
    List<Integer> lines = new ArrayList<>(badReasons.keySet());
    for (int i = 0; i < listed.size(); i++) {
      assertThat(listed.get(i).get("error").asText())
          .as("line " + lines.get(i))
          .startsWith(badReasons.get(lines.get(i)));
    }
    // Every good record is stored, and nothing else.
    try (NeardupClient client = NeardupClient.builder(server.uri()).build()) {
      assertThat(client.collection("default").orElseThrow().documents()).isEqualTo(goodIds.size());
      for (String id : goodIds) {
        assertThat(client.get("default", id)).as(id).isPresent();
      }
      for (String id : List.of("m", "nt", "punct", "fp")) {
        assertThat(client.get("default", id)).as(id).isEmpty();
      }
    }
    // The same file again with --fail-on-error: everything exists already, and the exit code says
    // that records were skipped.
    CliRunner again = send(in.toString(), "--url", server.uri().toString(), "--fail-on-error");
    assertThat(again.exitCode).as(again.toString()).isEqualTo(1);
    assertThat(again.out).contains(goodIds.size() + " already stored");
  }

  @Test
  void send_serviceFailsMidFile_namesTheLineAndResumesWithoutSendingTwice() throws IOException {
    failMidFileThenResume("1");
  }

  /**
   * With several batches in flight, the service decides the batches after the failed one (a refused
   * batch passes its turn), so some may be stored before the client knows of the failure: the
   * resume point must skip them, or the resumed run sends them twice and reports them as already
   * stored (what SendLoadTest caught when 2 in flight were the default).
   */
  @Test
  void send_serviceFailsMidFileWithBatchesInFlight_resumeSkipsTheStoredOnes() throws IOException {
    for (int round = 0; round < 3; round++) {
      failMidFileThenResume("4");
      server.close();
      server = null;
      deleteTree(dir.resolve("data"));
    }
  }

  private void failMidFileThenResume(String inFlight) throws IOException {
    // The service refuses requests over 4 KB: the batch holding one long document fails as a
    // whole (HTTP 413), which is a service failure, not a bad record.
    server = start(4096);
    Random random = new Random(7);
    List<String> lines = new ArrayList<>();
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      String id = "d" + i;
      ids.add(id);
      lines.add(good(id, i == 17 ? (text(random) + " ").repeat(30).strip() : text(random)));
    }
    Path in = dir.resolve("news.jsonl");
    Files.write(in, lines, StandardCharsets.UTF_8);
    String url = server.uri().toString();

    CliRunner first = sendInBatchesOf5(in, url, inFlight, null);

    assertThat(first.exitCode).as(first.toString()).isEqualTo(1);
    Matcher m = Pattern.compile("--resume-from (\\S+)").matcher(first.err);
    assertThat(m.find()).as(first.err).isTrue();
    String point = m.group(1);
    // The first line of the failed batch, then the batches after it that were stored, if any.
    assertThat(point).as(first.err).matches(Pattern.quote(in + ":16") + "(,.*)?");
    assertThat(first.err).contains("HTTP 413");
    Matcher sent = Pattern.compile("sent (\\d+) documents").matcher(first.out);
    assertThat(sent.find()).as(first.out).isTrue();
    int stored = Integer.parseInt(sent.group(1));
    assertThat(first.out).contains(stored + " new, 0 duplicates, 0 already stored");
    List<String> skipped = new ArrayList<>();
    Matcher range = Pattern.compile(",([^,]+)\\.\\.([^,]+)").matcher(point);
    while (range.find()) {
      skipped.add(range.group(1) + ".." + range.group(2));
    }
    // Batches of 5: 15 before the failed one, and 5 for each stored one after it.
    assertThat(stored).as(first.toString()).isEqualTo(15 + 5 * skipped.size());
    if ("1".equals(inFlight)) {
      assertThat(skipped).isEmpty();
    }

    // Resumed against the same service, it fails at the same batch again: the new resume point
    // keeps the ranges the first run stored, beside any this run stored.
    CliRunner again = sendInBatchesOf5(in, url, inFlight, point);
    assertThat(again.exitCode).as(again.toString()).isEqualTo(1);
    assertThat(again.out).contains(" new, 0 duplicates, 0 already stored");
    Matcher m2 = Pattern.compile("--resume-from (\\S+)").matcher(again.err);
    assertThat(m2.find()).as(again.err).isTrue();
    String point2 = m2.group(1);
    assertThat(point2).startsWith(in + ":16");
    for (String r : skipped) {
      assertThat(point2).as(again.err).contains("," + r);
    }
    Matcher sent2 = Pattern.compile("sent (\\d+) documents").matcher(again.out);
    assertThat(sent2.find()).as(again.out).isTrue();
    stored += Integer.parseInt(sent2.group(1));
    skipped.clear();
    Matcher range2 = Pattern.compile(",([^,]+)\\.\\.([^,]+)").matcher(point2);
    while (range2.find()) {
      skipped.add(range2.group(1) + ".." + range2.group(2));
    }
    assertThat(stored).as(again.toString()).isEqualTo(15 + 5 * skipped.size());
    point = point2;

    // The operator restarts the service with a larger limit and resumes where it said.
    server.close();
    server = start(1 << 20);
    CliRunner rest = sendInBatchesOf5(in, server.uri().toString(), inFlight, point);
    assertThat(rest.exitCode).as(rest.toString()).isZero();
    int left = 30 - stored;
    assertThat(rest.out)
        .contains("sent " + left + " documents")
        .contains(left + " new, 0 duplicates, 0 already stored")
        .contains("15 records before --resume-from not read");
    if (!skipped.isEmpty()) {
      assertThat(rest.out).contains((stored - 15) + " records that the failed run stored not read");
    }
    // The restarted service (same data directory) holds every record once.
    try (NeardupClient client = NeardupClient.builder(server.uri()).build()) {
      assertThat(client.collection("default").orElseThrow().documents()).isEqualTo(30);
      for (String id : ids) {
        assertThat(client.get("default", id)).as(id).isPresent();
      }
    }
  }

  /** {@code send} of {@code in} in batches of 5, resumed from {@code point} unless null. */
  private static CliRunner sendInBatchesOf5(
      Path in, String url, String inFlight, @Nullable String point) {
    List<String> args =
        new ArrayList<>(
            List.of(in.toString(), "--url", url, "--batch", "5", "--in-flight", inFlight));
    if (point != null) {
      args.add("--resume-from");
      args.add(point);
    }
    return send(args.toArray(String[]::new));
  }

  private static void deleteTree(Path root) throws IOException {
    try (var paths = Files.walk(root)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  @Test
  void send_stoppedService_namesTheUrl() throws IOException {
    server = start(1 << 20);
    String url = server.uri().toString();
    server.close();
    server = null;
    Path in = dir.resolve("x.txt");
    Files.writeString(in, "some words\n", StandardCharsets.UTF_8);
    CliRunner r = send(in.toString(), "--url", url);
    assertThat(r.exitCode).isEqualTo(1);
    assertThat(r.err.strip())
        .isEqualTo(
            "neardup send: error: cannot connect to the service at "
                + url
                + " (is 'neardup serve' running there?)");
  }
}
