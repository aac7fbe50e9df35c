// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.Analysis;
import org.neardup.store.Collection;
import org.neardup.store.CollectionDump;
import org.neardup.store.CollectionSettings;
import org.neardup.store.Document;
import org.neardup.store.FingerprintStore;
import org.neardup.store.Outcome;
import org.neardup.store.StoreConfig;
import org.neardup.store.StoredRecord;
import org.neardup.testkit.RedisServer;
import org.neardup.testkit.Texts;

/**
 * {@code neardup store export|import} between the embedded store and a real redis-server: a
 * collection with clusters, deleted members, a deleted representative and expiring documents moves
 * embedded -> Redis -> embedded with nothing lost (the dumps of each store equal) and every store
 * answers checks and inserts alike.
 */
class StoreCommandTest {
  private static RedisServer redis;

  @TempDir Path tmp;

  @BeforeAll
  static void startRedis() throws IOException {
    redis = RedisServer.start();
  }

  @AfterAll
  static void stopRedis() throws IOException {
    if (redis != null) {
      redis.close();
    }
  }

  private static FingerprintStore embedded(Path dir) throws IOException {
    return FingerprintStore.open("embedded", StoreConfig.of(Map.of("data", dir.toString())));
  }

  private static FingerprintStore redisStore(String prefix) throws IOException {
    return FingerprintStore.open(
        "redis", StoreConfig.of(Map.of("url", redis.url(), "prefix", prefix)));
  }

  private static String[] redisArgs(String prefix) {
    return new String[] {
      "--store",
      "redis",
      "--store-option",
      "url=" + redis.url(),
      "--store-option",
      "prefix=" + prefix
    };
  }

  /** Texts in groups of near-copies, so clusters form; a few deleted, one representative too. */
  private static List<String> fill(Collection c, long seed, int groups) throws IOException {
    SplittableRandom r = new SplittableRandom(seed);
    List<String> ids = new ArrayList<>();
    List<Document> batch = new ArrayList<>();
    long now = System.currentTimeMillis();
    for (int g = 0; g < groups; g++) {
      String base = Texts.text(r, 40);
      int copies = 1 + r.nextInt(4);
      for (int i = 0; i < copies; i++) {
        String text = i == 0 ? base : Texts.edit(r, base);
        String id = "doc-" + g + "-" + i;
        ids.add(id);
        // Some documents carry a timestamp, so they expire in a 30-day window later on.
        long ts = r.nextInt(3) == 0 ? now - r.nextInt(1_000_000) : Document.NO_TIMESTAMP;
        batch.add(new Document(id, c.analyzer().analyze(text), ts));
      }
    }
    c.checkAndInsertAll(batch);
    for (int g = 0; g < groups; g += 7) {
      c.delete("doc-" + g + "-0"); // the representative of group g
    }
    for (int g = 3; g < groups; g += 11) {
      c.delete("doc-" + g + "-1");
    }
    return ids;
  }

  private static List<StoredRecord> read(Path dump) throws IOException {
    List<StoredRecord> out = new ArrayList<>();
    try (InputStream in = Files.newInputStream(dump);
        CollectionDump.Reader r = new CollectionDump.Reader(in, dump.toString())) {
      for (StoredRecord s = r.next(); s != null; s = r.next()) {
        out.add(s);
      }
    }
    return out;
  }

  private static CollectionDump.Header header(Path dump) throws IOException {
    try (InputStream in = Files.newInputStream(dump);
        CollectionDump.Reader r = new CollectionDump.Reader(in, dump.toString())) {
      return r.header();
    }
  }

  private static void ok(CliRunner run) {
    assertThat(run.exitCode).as(run.toString()).isZero();
  }

  /** What a check answers, without the fields that name nothing stored. */
  private static String answer(Outcome o) {
    return o.status() + " new=" + o.isNew() + " cluster=" + o.cluster() + " " + o.matches();
  }

  @Test
  void embeddedToRedisAndBack_nothingLost_sameAnswers() throws IOException {
    CollectionSettings settings =
        CollectionSettings.defaults()
            .withLexicon(CollectionSettings.NO_LEXICON)
            .withRetention(java.time.Duration.ofDays(30));
    Path data = tmp.resolve("data");
    List<String> ids;
    try (FingerprintStore s = embedded(data)) {
      ids = fill(s.create("news", settings), 1, 400);
    }
    Path a = tmp.resolve("a.ndump");
    ok(CliRunner.run("store", "export", "--data", data.toString(), "news", "--out", a.toString()));
    ok(CliRunner.run(onRedis("import", "t1", "--in", a.toString())));
    Path b = tmp.resolve("b.ndump.gz");
    ok(CliRunner.run(onRedis("export", "t1", "news", "--out", b.toString())));
    Path back = tmp.resolve("back");
    ok(CliRunner.run("store", "import", "--data", back.toString(), "--in", b.toString(), "news"));
    Path c = tmp.resolve("c.ndump");
    ok(CliRunner.run("store", "export", "--data", back.toString(), "news", "--out", c.toString()));

    List<StoredRecord> first = read(a);
    assertThat(first).hasSizeGreaterThan(700);
    assertThat(first.stream().filter(r -> !r.isRoot()).count()).isGreaterThan(200);
    assertThat(first.get(0).sketch()).isNotEmpty();
    assertThat(read(b)).isEqualTo(first);
    assertThat(read(c)).isEqualTo(first);
    assertThat(header(b).settings()).isEqualTo(header(a).settings());
    assertThat(header(a).source()).isEqualTo("embedded");
    assertThat(header(b).source()).isEqualTo("redis");

    // The three stores answer alike: gets, checks of stored and new texts, then the same inserts.
    try (FingerprintStore e1 = embedded(data);
        FingerprintStore rs = redisStore("t1");
        FingerprintStore e2 = embedded(back)) {
      List<Collection> all =
          List.of(e1.collection("news"), rs.collection("news"), e2.collection("news"));
      for (String id : ids) {
        assertThat(all.get(1).get(id)).as(id).isEqualTo(all.get(0).get(id));
        assertThat(all.get(2).get(id)).as(id).isEqualTo(all.get(0).get(id));
      }
      SplittableRandom r = new SplittableRandom(1); // the texts fill() stored, edited again
      List<Analysis> probes = new ArrayList<>();
      for (int g = 0; g < 400; g++) {
        String base = Texts.text(r, 40);
        probes.add(all.get(0).analyzer().analyze(Texts.edit(r, base)));
        int copies = 1 + r.nextInt(4);
        for (int i = 1; i < copies; i++) {
          Texts.edit(r, base);
        }
        r.nextInt(3);
      }
      for (Analysis p : probes) {
        String expected = answer(all.get(0).check(p));
        assertThat(answer(all.get(1).check(p))).isEqualTo(expected);
        assertThat(answer(all.get(2).check(p))).isEqualTo(expected);
      }
      for (int i = 0; i < 100; i++) {
        Document d = new Document("new-" + i, probes.get(i * 3));
        String expected = answer(all.get(0).checkAndInsert(d));
        assertThat(answer(all.get(1).checkAndInsert(d))).as("new-" + i).isEqualTo(expected);
        assertThat(answer(all.get(2).checkAndInsert(d))).as("new-" + i).isEqualTo(expected);
      }
    }
  }

  /** {@code store SUB --store redis ... REST}. */
  private static String[] onRedis(String sub, String prefix, String... rest) {
    List<String> args = new ArrayList<>(List.of("store", sub));
    args.addAll(List.of(redisArgs(prefix)));
    args.addAll(List.of(rest));
    return args.toArray(new String[0]);
  }

  @Test
  void errors_areOneLineAndLeaveNothing() throws IOException {
    Path data = tmp.resolve("data");
    try (FingerprintStore s = embedded(data)) {
      fill(s.create("news", CollectionSettings.defaults().withLexicon("none")), 2, 50);
    }
    Path a = tmp.resolve("a.ndump");
    ok(CliRunner.run("store", "export", "--data", data.toString(), "news", "--out", a.toString()));

    CliRunner unknown =
        CliRunner.run("store", "export", "--data", data.toString(), "sports", "--out", "x");
    assertThat(unknown.exitCode).isEqualTo(1);
    assertThat(unknown.err).contains("no collection named 'sports'");
    assertThat(tmp.resolve("x")).doesNotExist();

    CliRunner exists =
        CliRunner.run("store", "import", "--data", data.toString(), "--in", a.toString());
    assertThat(exists.exitCode).isEqualTo(1);
    assertThat(exists.err).contains("collection 'news' exists");

    // A dump cut short: the import fails at the end and the half-filled collection is gone.
    byte[] bytes = Files.readAllBytes(a);
    Path cut = tmp.resolve("cut.ndump");
    Files.write(cut, java.util.Arrays.copyOf(bytes, bytes.length * 2 / 3));
    CliRunner corrupt = CliRunner.run(onRedis("import", "t2", "--in", cut.toString()));
    assertThat(corrupt.exitCode).as(corrupt.toString()).isEqualTo(1);
    assertThat(corrupt.err).contains("cut short");
    try (FingerprintStore rs = redisStore("t2")) {
      assertThat(rs.collections()).isEmpty();
    }
    // A dump made by a build whose analyzer differs: its sketches would not match new texts.
    Path other = tmp.resolve("other.ndump");
    try (InputStream in = Files.newInputStream(a);
        CollectionDump.Reader r = new CollectionDump.Reader(in, "a");
        java.io.OutputStream out = Files.newOutputStream(other)) {
      CollectionDump.Header h = r.header();
      try (CollectionDump.Writer w =
          new CollectionDump.Writer(
              out,
              new CollectionDump.Header(
                  h.source(), h.name(), h.settings(), "another-analyzer", 0, -1),
              false)) {
        for (StoredRecord x = r.next(); x != null; x = r.next()) {
          w.write(x);
        }
        w.finish();
      }
    }
    CliRunner mismatch = CliRunner.run(onRedis("import", "t3", "--in", other.toString()));
    assertThat(mismatch.exitCode).isEqualTo(1);
    assertThat(mismatch.err).contains("analysed with 'another-analyzer'");
    try (FingerprintStore rs = redisStore("t3")) {
      assertThat(rs.collections()).isEmpty();
    }

    CliRunner corruptEmbedded =
        CliRunner.run(
            "store", "import", "--data", tmp.resolve("e").toString(), "--in", cut.toString());
    assertThat(corruptEmbedded.exitCode).isEqualTo(1);
    try (FingerprintStore e = embedded(tmp.resolve("e"))) {
      assertThat(e.collections()).isEmpty();
    }
  }
}
