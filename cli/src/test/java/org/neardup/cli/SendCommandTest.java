// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.client.NeardupClient;
import org.neardup.server.NeardupServer;
import org.neardup.server.ServerConfig;
import org.neardup.store.CollectionSettings;
import org.neardup.store.embedded.EmbeddedStore;
import picocli.CommandLine;

/** {@code neardup send} against a real service on loopback. */
class SendCommandTest {
  @TempDir Path dir;
  private NeardupServer server;

  @BeforeEach
  void start() throws Exception {
    server =
        NeardupServer.start(
            ServerConfig.builder()
                .port(0)
                .defaults(CollectionSettings.defaults().withLexicon(CollectionSettings.NO_LEXICON))
                .shutdownTimeout(Duration.ofSeconds(5))
                .build(),
            EmbeddedStore.builder(dir.resolve("data")).background(false).open());
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  private String run(String... args) {
    String[] all = new String[args.length + 1];
    all[0] = "send";
    System.arraycopy(args, 0, all, 1, args.length);
    CliRunner r = CliRunner.run(all);
    return r.exitCode + "\n" + r.out + r.err;
  }

  @Test
  public void jsonl_inSmallBatches_summarisesAndShowsDuplicates() throws Exception {
    Path f = dir.resolve("news.jsonl");
    String a = "the quick brown fox jumps over the lazy dog again and again in the park today";
    String b = "a completely different story about markets rising and falling over many years";
    Files.write(
        f,
        List.of(
            "{\"id\":\"u1\",\"text\":\"" + a + "\",\"timestamp\":\"2025-01-01T00:00:00Z\"}",
            "{\"id\":\"u2\",\"text\":\"" + b + "\"}",
            "",
            "{\"id\":\"u3\",\"text\":\"" + a + "\"}",
            "{\"id\":\"u1\",\"text\":\"" + b + "\"}",
            "{\"id\":\"u4\",\"text\":\"" + b + " indeed\",\"timestamp\":1735689600000}"),
        StandardCharsets.UTF_8);
    String out =
        run(f.toString(), "--url", server.uri().toString(), "--batch", "2", "--show", "duplicates");
    assertThat(out).startsWith("0\n");
    assertThat(out).contains("u3\tduplicate\tu1").contains("u4\tduplicate\tu2");
    assertThat(out)
        .contains("sent 5 documents in 3 batches")
        .contains("2 new, 2 duplicates, 1 already stored, 0 expired");
    NeardupClient client = NeardupClient.builder(server.uri()).build();
    assertThat(client.get("default", "u1").orElseThrow().timestamp()).isEqualTo(1735689600000L);
  }

  @Test
  public void textFile_idsAreFileAndLine() throws Exception {
    Path f = dir.resolve("lines.txt");
    Files.write(
        f,
        List.of(
            "first line of words here", "second line of other words", "first line of words here"),
        StandardCharsets.UTF_8);
    String out = run(f.toString(), "--url", server.uri().toString(), "--show", "all");
    assertThat(out).contains(f + ":3\tduplicate\t" + f + ":1").contains("2 new, 1 duplicates");
  }

  @Test
  public void badLine_skippedNamingFileAndLine() throws Exception {
    Path f = dir.resolve("bad.jsonl");
    Files.write(
        f,
        List.of("{\"id\":\"u1\",\"text\":\"words\"}", "{\"id\": \"u2\", \"txt\": \"oops\"}"),
        StandardCharsets.UTF_8);
    String out = run(f.toString(), "--url", server.uri().toString());
    assertThat(out)
        .startsWith("0\n")
        .contains("sent 1 documents")
        .contains("bad.jsonl:2: missing field 'text'");
    assertThat(run(f.toString(), "--url", server.uri().toString(), "--fail-on-error"))
        .startsWith("1\n");
  }

  /**
   * Records that cannot be sent, each skipped and listed by its line while the good records around
   * them are stored: malformed JSON, invalid UTF-8 (an overlong '/' inside the text), no text
   * field, and a line of 200 MB (longer than --max-doc-bytes' 64 MiB; read past, not held).
   */
  @Test
  public void malformedRecords_eachSkippedNamingItsLine_theOthersStored() throws Exception {
    Path f = dir.resolve("mixed.jsonl");
    try (java.io.OutputStream o =
        new java.io.BufferedOutputStream(Files.newOutputStream(f), 1 << 16)) {
      o.write(
          "{\"id\":\"g1\",\"text\":\"the first good record about a market\"}\n"
              .getBytes(StandardCharsets.UTF_8));
      o.write(
          "{\"id\":\"j\",\"text\":\"an object never closed\"\n".getBytes(StandardCharsets.UTF_8));
      o.write("{\"id\":\"u\",\"text\":\"bad bytes ".getBytes(StandardCharsets.UTF_8));
      o.write(new byte[] {(byte) 0xC0, (byte) 0xAF});
      o.write(" in it\"}\n".getBytes(StandardCharsets.UTF_8));
      o.write("{\"id\":\"m\",\"body\":\"no text field here\"}\n".getBytes(StandardCharsets.UTF_8));
      o.write("{\"id\":\"big\",\"text\":\"".getBytes(StandardCharsets.UTF_8));
      byte[] words = "word ".repeat(13_107).getBytes(StandardCharsets.UTF_8); // 65,535 bytes
      for (int i = 0; i < 3_200; i++) {
        o.write(words); // 200 MiB
      }
      o.write("\"}\n".getBytes(StandardCharsets.UTF_8));
      o.write(
          "{\"id\":\"g2\",\"text\":\"the second good record about a river\"}\n"
              .getBytes(StandardCharsets.UTF_8));
    }
    String out = run(f.toString(), "--url", server.uri().toString());
    assertThat(out)
        .startsWith("0\n")
        .contains("sent 2 documents")
        .contains("; 4 skipped")
        .contains("mixed.jsonl:2: ")
        .contains("mixed.jsonl:3: ")
        .contains("mixed.jsonl:4: missing field 'text'")
        .contains("mixed.jsonl:5: document of ")
        .contains("exceeds --max-doc-bytes");
    NeardupClient client = NeardupClient.builder(server.uri()).build();
    assertThat(client.get("default", "g1")).isPresent();
    assertThat(client.get("default", "g2")).isPresent();
    for (String id : List.of("j", "u", "m", "big")) {
      assertThat(client.get("default", id)).as(id).isEmpty();
    }
    Files.delete(f);
  }

  @Test
  public void issue21_noLettersInTheFourthOfFive_theOtherFourAreStored() throws Exception {
    // The report: with --batch 2, send exited 1 with "HTTP 400: document 1: field 'text' has no
    // letters or digits" and no summary; the 3rd record (same batch) and the 5th were not stored.
    Path f = dir.resolve("five.jsonl");
    Files.write(
        f,
        List.of(
            "{\"id\":\"r1\",\"text\":\"first record about the city council budget\"}",
            "{\"id\":\"r2\",\"text\":\"second record about a football match\"}",
            "{\"id\":\"r3\",\"text\":\"third record about the weather tomorrow\"}",
            "{\"id\":\"r4\",\"text\":\"--- !!! ---\"}",
            "{\"id\":\"r5\",\"text\":\"fifth record about a new library opening\"}"),
        StandardCharsets.UTF_8);
    String out = run(f.toString(), "--url", server.uri().toString(), "--batch", "2");
    assertThat(out)
        .startsWith("0\n")
        .contains("sent 4 documents in 2 batches")
        .contains("; 1 skipped")
        .contains("five.jsonl:4: text has no letters or digits");
    NeardupClient client = NeardupClient.builder(server.uri()).build();
    for (String id : List.of("r1", "r2", "r3", "r5")) {
      assertThat(client.get("default", id)).as(id).isPresent();
    }
    assertThat(client.get("default", "r4")).isEmpty();
  }

  @Test
  public void gzipAndDirectoryAndStdinFormat_readAsDedupReadsThem() throws Exception {
    // send read its file with a BufferedReader: gzip gave "error: Input length = 1".
    Path gz = dir.resolve("lines.txt.gz");
    try (java.io.OutputStream o = new java.util.zip.GZIPOutputStream(Files.newOutputStream(gz))) {
      o.write("one line of words\nanother line of words\n".getBytes(StandardCharsets.UTF_8));
    }
    Path site = Files.createDirectories(dir.resolve("site"));
    Files.writeString(site.resolve("page.html"), "<p>a page of words</p>", StandardCharsets.UTF_8);
    String out =
        run(gz.toString(), site.toString(), "--url", server.uri().toString(), "--show", "all");
    assertThat(out)
        .startsWith("0\n")
        .contains(gz + ":1\tnew")
        .contains(gz + ":2\tnew")
        .contains("page.html\tnew")
        .contains("sent 3 documents");
  }

  @Test
  public void unknownCollection_failsClearly() throws Exception {
    Path f = dir.resolve("x.txt");
    Files.write(f, List.of("words"), StandardCharsets.UTF_8);
    String out = run(f.toString(), "--url", server.uri().toString(), "--collection", "nope");
    assertThat(out).startsWith("1\n").contains("no collection 'nope'");
  }

  @Test
  public void serveOptions_mapToTheServerConfig() {
    ServeCommand serve = new ServeCommand();
    new CommandLine(serve)
        .parseArgs(
            "--data",
            "d",
            "--port",
            "0",
            "--retention",
            "48h",
            "--retention-basis",
            "arrival",
            "--k",
            "2",
            "--threshold",
            "0.9",
            "--verify",
            "false",
            "--lexicon",
            "none",
            "--fsync",
            "interval",
            "--token",
            "t",
            "--store-option",
            "snapshot-bytes=1000");
    ServerConfig c = serve.config();
    assertThat(c.host()).isEqualTo("127.0.0.1");
    assertThat(c.port()).isZero();
    assertThat(c.token()).isEqualTo("t");
    assertThat(c.defaults().retention()).isEqualTo(Duration.ofHours(48));
    assertThat(c.defaults().retentionBasis()).isEqualTo(CollectionSettings.RetentionBasis.ARRIVAL);
    assertThat(c.defaults().maxDistance()).isEqualTo(2);
    assertThat(c.defaults().verify()).isFalse();
    assertThat(c.storeOptions())
        .containsEntry("data", "d")
        .containsEntry("fsync", "interval")
        .containsEntry("snapshot-bytes", "1000");
  }
}
