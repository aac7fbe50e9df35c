// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.neardup.Analysis;
import org.neardup.Deduplicator;
import org.neardup.Verdict;
import org.neardup.store.CollectionSettings;
import org.neardup.store.Document;
import org.neardup.store.Outcome;
import org.neardup.store.StoreConfig;
import org.neardup.testkit.RedisServerExtension;
import org.neardup.testkit.Texts;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * Band keys live in band buckets of partial keys ({@link BandEntries}): with few buckets (2^8, so
 * each holds many documents' entries) the verdicts are still the engine's, a partial key that
 * matches by chance adds no candidate, and a removal leaves no entry behind.
 */
class RedisBandBucketsTest {
  @RegisterExtension static final RedisServerExtension server = new RedisServerExtension();

  private static RedisStore open(String prefix) throws IOException {
    return (RedisStore)
        new RedisStoreProvider()
            .open(
                new StoreConfig(
                    Map.of(
                        "url",
                        server.url(),
                        "prefix",
                        prefix,
                        "expire-interval",
                        "0",
                        "band-key-bits",
                        "8"),
                    InstantSource.system()));
  }

  private static final CollectionSettings SETTINGS =
      CollectionSettings.defaults().withLexicon(CollectionSettings.NO_LEXICON);

  /** The number of band buckets of a collection. */
  private static int bandBuckets(RedisStore store, RedisCollection c) {
    int n = 0;
    String cursor = ScanParams.SCAN_POINTER_START;
    byte[] pattern = (c.keys.base + "k*").getBytes(StandardCharsets.UTF_8);
    do {
      ScanResult<byte[]> page =
          store
              .redis()
              .scan(
                  cursor.getBytes(StandardCharsets.US_ASCII),
                  new ScanParams().match(pattern).count(1000));
      n += page.getResult().size();
      cursor = page.getCursor();
    } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
    return n;
  }

  @Test
  void verdicts_sameAsTheEngine_crowdedBuckets() throws IOException {
    try (RedisStore store = open("same")) {
      RedisCollection c = (RedisCollection) store.create("news", SETTINGS);
      assertThat(c.layout.bandBits()).isEqualTo(8);
      Deduplicator engine = SETTINGS.deduplicator().build();
      SplittableRandom r = new SplittableRandom(15);
      List<String> bases = new ArrayList<>();
      int duplicates = 0;
      for (int i = 0; i < 600; i++) {
        String text;
        if (bases.isEmpty() || r.nextInt(3) == 0) {
          text = Texts.text(r, 20 + r.nextInt(60));
          bases.add(text);
        } else {
          text = Texts.edit(r, bases.get(r.nextInt(bases.size())));
        }
        Analysis a = c.analyzer().analyze(text);
        Verdict v = engine.checkAndInsert(i, a);
        Outcome o = c.checkAndInsert(new Document(Long.toString(i), a));
        assertThat(o.isNew()).as("document %s", i).isEqualTo(v.isNew());
        assertThat(o.cluster()).as("document %s", i).isEqualTo(Long.toString(v.cluster()));
        duplicates += v.isNew() ? 0 : 1;
      }
      assertThat(duplicates).isGreaterThan(200);
      // 600 documents of 6 band keys (fewer distinct among near-copies) in 256 buckets: nearly
      // every bucket holds entries of several documents.
      assertThat(bandBuckets(store, c)).isGreaterThan(240);
    }
  }

  /**
   * Two documents whose band keys agree in the bucket's top bits and in the low 3 bytes an entry
   * keeps, but not in the bits between, share no band key: the second is new although its sketch is
   * the first's. A third with one band key the first has is found through it.
   */
  @Test
  void partialKeyMatch_addsNoCandidate() throws IOException {
    try (RedisStore store = open("partial")) {
      RedisCollection c = (RedisCollection) store.create("news", SETTINGS);
      Analysis text = c.analyzer().analyze(Texts.text(new SplittableRandom(3), 60));
      long[] keys = text.sketch().bandKeys();
      assertThat(keys).hasSize(6);
      long[] near = new long[keys.length];
      long[] one = new long[keys.length];
      for (int i = 0; i < keys.length; i++) {
        near[i] = keys[i] ^ (1L << 30); // neither in the top 8 bits nor in the low 24
        one[i] = i == 2 ? keys[i] : ~keys[i];
      }
      long far = ~text.fingerprint(); // 64 bits away: no block key in common
      Outcome first = c.checkAndInsert(new Document("a", text));
      assertThat(first.isNew()).isTrue();
      Outcome second =
          c.checkAndInsert(
              new Document(
                  "b",
                  new Analysis(
                      far, new org.neardup.verify.Sketch(text.sketch().shingles(), near), 1000)));
      assertThat(second.isNew()).isTrue();
      Outcome third =
          c.checkAndInsert(
              new Document(
                  "c",
                  new Analysis(
                      far ^ 0xFFFF, // 16 bits from b: not within k either
                      new org.neardup.verify.Sketch(text.sketch().shingles(), one),
                      1000)));
      assertThat(third.isNew()).isFalse();
      assertThat(third.cluster()).isEqualTo("a");
      assertThat(third.matches()).extracting(Outcome.Match::id).containsExactly("a");
    }
  }

  @Test
  void delete_everyDocument_leavesNoBandBucket() throws IOException {
    try (RedisStore store = open("delete")) {
      RedisCollection c = (RedisCollection) store.create("news", SETTINGS);
      SplittableRandom r = new SplittableRandom(5);
      int shared = 0;
      for (int i = 0; i < 300; i++) {
        Analysis a = c.analyzer().analyze(Texts.text(r, 30));
        BandEntries.Grouped g = c.bands.group(a.sketch().bandKeys());
        for (int[] rests : g.rests()) {
          shared += rests.length > 1 ? 1 : 0;
        }
        c.checkAndInsert(new Document("d" + i, a));
      }
      // Some documents have two keys in one bucket (6 keys in 256 buckets: ~6% of them).
      assertThat(shared).isPositive();
      assertThat(bandBuckets(store, c)).isGreaterThan(240);
      for (int i = 0; i < 300; i++) {
        assertThat(c.delete("d" + i)).isTrue();
      }
      assertThat(bandBuckets(store, c)).isZero();
    }
  }
}
