// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.CollectionStats;
import org.neardup.store.CollectionTransfer;
import org.neardup.store.Document;
import org.neardup.store.FingerprintStore;
import org.neardup.store.Outcome;
import org.neardup.store.StoreConfig;
import org.neardup.store.StoredRecord;
import org.neardup.testkit.ManualClock;
import org.neardup.testkit.RedisServerExtension;
import org.neardup.testkit.Texts;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.resps.Tuple;

/**
 * An import writes exactly the keys the commit script writes: a collection filled by
 * check-and-insert (clusters, band keys and sketches, expiry, deletions leaving gaps), exported and
 * imported under another name over several chunks, has the same keys with the same values (block
 * key entries byte for byte, record and sketch buckets, id index, clusters, expiry index, document
 * count), and exports the same records again.
 */
class RedisTransferTest {
  @RegisterExtension static final RedisServerExtension server = new RedisServerExtension();

  /** Every key of the collection {@code name}, by its name after the hash tag, with its value. */
  private static TreeMap<String, Object> contents(JedisPooled redis, String prefix, String name) {
    TreeMap<String, Object> out = new TreeMap<>();
    byte[] pattern = (prefix + ":{" + name + ":*").getBytes(StandardCharsets.UTF_8);
    String cursor = ScanParams.SCAN_POINTER_START;
    do {
      ScanResult<byte[]> page =
          redis.scan(
              cursor.getBytes(StandardCharsets.US_ASCII),
              new ScanParams().match(pattern).count(1000));
      for (byte[] key : page.getResult()) {
        String k = new String(key, StandardCharsets.ISO_8859_1);
        String suffix = k.substring(k.indexOf('}') + 2);
        out.put(suffix, value(redis, key, suffix));
      }
      cursor = page.getCursor();
    } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
    return out;
  }

  /**
   * The sum of MEMORY USAGE over the keys of collection {@code name} whose name after the hash tag
   * starts with {@code kind}: {@code b} block keys, {@code k} band buckets.
   */
  private static long memory(JedisPooled redis, String prefix, String name, String kind) {
    long sum = 0;
    byte[] pattern = (prefix + ":{" + name + ":*}:" + kind + "*").getBytes(StandardCharsets.UTF_8);
    String cursor = ScanParams.SCAN_POINTER_START;
    do {
      ScanResult<byte[]> page =
          redis.scan(
              cursor.getBytes(StandardCharsets.US_ASCII),
              new ScanParams().match(pattern).count(1000));
      for (byte[] key : page.getResult()) {
        sum += redis.memoryUsage(key, 0);
      }
      cursor = page.getCursor();
    } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
    assertThat(sum).isPositive();
    return sum;
  }

  private static Object value(JedisPooled redis, byte[] key, String suffix) {
    String type = redis.type(key);
    switch (type) {
      case "string":
        return latin1(redis.get(key));
      case "hash":
        if (suffix.equals("st")) {
          // The import keeps the document count; the other counters count calls.
          return "documents="
              + latin1(redis.hget(key, "documents".getBytes(StandardCharsets.US_ASCII)));
        }
        TreeMap<String, String> h = new TreeMap<>();
        redis.hgetAll(key).forEach((f, v) -> h.put(latin1(f), latin1(v)));
        return h;
      case "set":
        TreeSet<String> s = new TreeSet<>();
        redis.smembers(key).forEach(m -> s.add(latin1(m)));
        return s;
      case "zset":
        TreeMap<String, Double> z = new TreeMap<>();
        for (Tuple t : redis.zrangeWithScores(key, 0, -1)) {
          z.put(latin1(t.getBinaryElement()), t.getScore());
        }
        return z;
      default:
        throw new AssertionError(suffix + " has type " + type);
    }
  }

  private static String latin1(byte[] b) {
    return b == null ? null : new String(b, StandardCharsets.ISO_8859_1);
  }

  private static List<StoredRecord> export(CollectionTransfer t, String name) throws IOException {
    List<StoredRecord> out = new ArrayList<>();
    t.export(name, out::add);
    return out;
  }

  @ParameterizedTest(name = "append-entries={0}")
  @ValueSource(booleans = {true, false})
  void importOverSeveralChunks_writesWhatTheCommitsWrote(boolean append) throws IOException {
    ManualClock clock = new ManualClock();
    try (FingerprintStore store =
            new RedisStoreProvider()
                .open(
                    new StoreConfig(
                        Map.of(
                            "url",
                            server.url(),
                            "prefix",
                            "tr" + append,
                            "expire-interval",
                            "0",
                            "append-entries",
                            Boolean.toString(append)),
                        clock));
        JedisPooled redis = new JedisPooled(server.url())) {
      CollectionSettings settings =
          CollectionSettings.defaults()
              .withLexicon(CollectionSettings.NO_LEXICON)
              .withRetention(Duration.ofDays(1));
      Collection a = store.create("a", settings);
      SplittableRandom r = new SplittableRandom(7);
      List<Document> docs = new ArrayList<>();
      for (int g = 0; g < 900; g++) {
        String base = Texts.text(r, 40);
        for (int i = 0; i < 1 + g % 4; i++) {
          String text = i == 0 ? base : Texts.edit(r, base);
          docs.add(new Document(g + "/" + i, a.analyzer().analyze(text)));
        }
      }
      for (int i = 0; i < docs.size(); i += 200) {
        a.checkAndInsertAll(docs.subList(i, Math.min(docs.size(), i + 200)));
      }
      assertThat(a.stats().duplicates()).isGreaterThan(700);
      // Gaps: singletons and the earliest members (roots) of clusters of three or four.
      for (int g = 0; g < 900; g += 3) {
        assertThat(a.delete(g + "/0")).isTrue();
      }

      // Chunks of 1,024: the ~2,000 documents take two, and a chunk is written while the next
      // fills; windows of 700: block keys and id buckets written by one window, and by several.
      CollectionTransfer t = new RedisTransfer((RedisStore) store, 1024, 700);
      List<StoredRecord> dump = export(t, "a");
      assertThat(dump).hasSize(docs.size() - 300);
      assertThat(dump.size()).isGreaterThan(1024);
      assertThat(dump.stream().filter(x -> !x.isRoot()).count()).isGreaterThan(700);
      try (CollectionTransfer.Importer in =
          t.importer("b", settings, settings.deduplicator().analyzer().id())) {
        for (StoredRecord x : dump) {
          in.add(x);
        }
        assertThat(in.finish()).isEqualTo(dump.size());
      }

      TreeMap<String, Object> before = contents(redis, "tr" + append, "a");
      TreeMap<String, Object> after = contents(redis, "tr" + append, "b");
      assertThat(before.keySet().stream().filter(k -> k.startsWith("b")).count())
          .isGreaterThan(1000);
      // Band buckets: 2^16 by default, so ~2,000 documents of 6 bands leave most holding one.
      assertThat(before.keySet().stream().filter(k -> k.startsWith("k")).count())
          .isGreaterThan(1000);
      assertThat(after.keySet()).isEqualTo(before.keySet());
      for (String k : before.keySet()) {
        assertThat(after.get(k)).as(k).isEqualTo(before.get(k));
      }
      assertThat(export(t, "b")).isEqualTo(dump);
      // The import APPENDs block and band entries, then rewrites each key APPENDed to twice: no
      // room is left unused. Commits that write whole keys leave none either: the same memory.
      // Commits that APPEND (without the rewrite, which would bring each key's bytes through Lua)
      // keep the room APPEND left: the import's keys take no more.
      String p = "tr" + append;
      if (append) {
        assertThat(memory(redis, p, "b", "b")).isLessThanOrEqualTo(memory(redis, p, "a", "b"));
        assertThat(memory(redis, p, "b", "k")).isLessThanOrEqualTo(memory(redis, p, "a", "k"));
      } else {
        assertThat(memory(redis, p, "b", "b")).isEqualTo(memory(redis, p, "a", "b"));
        assertThat(memory(redis, p, "b", "k")).isEqualTo(memory(redis, p, "a", "k"));
      }
      // An import is not a check-and-insert: the operation counters start at 0, as a collection
      // opened again in the embedded store; documents counts what was imported.
      Collection b = store.collection("b");
      assertThat(b.stats()).isEqualTo(new CollectionStats(dump.size(), 0, 0, 0, 0, 0, 0));
      // ... and count from there: a copy of a stored text is a duplicate, in that text's cluster.
      Outcome late = b.checkAndInsert(new Document("late", docs.get(1).analysis()));
      assertThat(late.isNew()).isFalse();
      assertThat(late.cluster()).isEqualTo(b.get("1/0").orElseThrow().cluster());
      assertThat(b.stats()).isEqualTo(new CollectionStats(dump.size() + 1, 0, 1, 1, 0, 0, 0));
    }
  }

  @ParameterizedTest(name = "verify={0}")
  @ValueSource(booleans = {true, false})
  void defaultAppendEntries_leavesRoomOnlyInVerifiedCollections(boolean verify) throws IOException {
    String p = "auto" + verify;
    try (FingerprintStore store =
            new RedisStoreProvider()
                .open(
                    new StoreConfig(
                        Map.of("url", server.url(), "prefix", p, "expire-interval", "0"),
                        new ManualClock()));
        JedisPooled redis = new JedisPooled(server.url())) {
      CollectionSettings settings =
          CollectionSettings.defaults()
              .withLexicon(CollectionSettings.NO_LEXICON)
              .withVerify(verify);
      Collection a = store.create("a", settings);
      SplittableRandom r = new SplittableRandom(11);
      List<Document> docs = new ArrayList<>();
      for (int i = 0; i < 3000; i++) {
        docs.add(new Document("d" + i, a.analyzer().analyze(Texts.text(r, 40))));
      }
      // Singles, so that most block keys are appended to several times.
      for (Document d : docs) {
        a.checkAndInsert(d);
      }
      CollectionTransfer t = new RedisTransfer((RedisStore) store, 1024, 700);
      List<StoredRecord> dump = export(t, "a");
      try (CollectionTransfer.Importer in =
          t.importer("b", settings, settings.deduplicator().analyzer().id())) {
        for (StoredRecord x : dump) {
          in.add(x);
        }
        assertThat(in.finish()).isEqualTo(dump.size());
      }
      long committed = memory(redis, p, "a", "b");
      long imported = memory(redis, p, "b", "b");
      if (verify) {
        // APPENDed block keys keep the room Redis reserved when they grew.
        assertThat(committed).isGreaterThan(imported);
      } else {
        // Fingerprint-only collections write whole keys: as compact as an import.
        assertThat(committed).isEqualTo(imported);
      }
    }
  }

  @org.junit.jupiter.api.Test
  void appendEntries_otherValues_areRefusedWithTheChoices() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                new RedisStoreProvider()
                    .open(
                        new StoreConfig(
                            Map.of("url", server.url(), "append-entries", "yes"),
                            new ManualClock())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("auto, true or false");
  }
}
