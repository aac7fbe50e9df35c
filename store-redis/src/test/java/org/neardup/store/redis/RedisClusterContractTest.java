// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.InstantSource;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.neardup.store.Collection;
import org.neardup.store.FingerprintStore;
import org.neardup.store.StoreConfig;
import org.neardup.testkit.FingerprintStoreContract;
import org.neardup.testkit.RedisCluster;
import redis.clients.jedis.Jedis;

/**
 * The Redis store passes the whole store contract on a real Redis Cluster of three masters (the
 * two-instance race included): every key of a collection carries its hash tag, so each script's
 * keys share one slot, and the cluster client routes each call to that slot's node.
 */
class RedisClusterContractTest extends FingerprintStoreContract {
  private static RedisCluster cluster;
  private static int tests;
  private String prefix;

  @BeforeAll
  static void startCluster() throws IOException {
    cluster = RedisCluster.start();
  }

  @AfterAll
  static void stopCluster() throws IOException {
    if (cluster != null) {
      cluster.close();
    }
  }

  @BeforeEach
  void freshPrefix() {
    prefix = "c" + (++tests);
  }

  /** The test means something only if collections really land on different nodes. */
  @Test
  void collections_spreadOverTheNodes() throws IOException {
    try (FingerprintStore s = store()) {
      for (int i = 0; i < 12; i++) {
        Collection c = s.create("spread" + i, SETTINGS);
        c.checkAndInsert(doc(c, "a", "the same words in every collection of this test " + i));
      }
    }
    int nodesWithKeys = 0;
    for (int port : cluster.ports()) {
      try (Jedis node = new Jedis("127.0.0.1", port)) {
        if (node.dbSize() > 0) {
          nodesWithKeys++;
        }
      }
    }
    assertThat(nodesWithKeys).isGreaterThanOrEqualTo(2);
  }

  @Override
  protected boolean opensTwice() {
    return true;
  }

  @Override
  protected FingerprintStore open(InstantSource clock) throws IOException {
    return new RedisStoreProvider()
        .open(
            new StoreConfig(
                Map.of(
                    "url",
                    cluster.url(),
                    "prefix",
                    prefix,
                    "expire-interval",
                    "0",
                    "cluster",
                    "true"),
                clock));
  }

  /**
   * Export and import on a Redis Cluster: the import's pipelines and its append script touch only
   * keys of the new collection's slot, and the collection comes back record for record.
   */
  @Test
  void exportImport_onCluster_sameRecordsAndAnswers() throws IOException {
    try (FingerprintStore s = store()) {
      Collection a = s.create("from", SETTINGS);
      java.util.SplittableRandom r = new java.util.SplittableRandom(3);
      java.util.List<org.neardup.store.Document> docs = new java.util.ArrayList<>();
      for (int g = 0; g < 400; g++) {
        String text = org.neardup.testkit.Texts.text(r, 40);
        docs.add(doc(a, g + "/0", text));
        docs.add(doc(a, g + "/1", org.neardup.testkit.Texts.edit(r, text)));
      }
      a.checkAndInsertAll(docs);
      RedisTransfer t = new RedisTransfer((RedisStore) s, 256, 300);
      java.util.List<org.neardup.store.StoredRecord> dump = new java.util.ArrayList<>();
      assertThat(t.export("from", dump::add)).isEqualTo(800);
      try (org.neardup.store.CollectionTransfer.Importer in =
          t.importer("to", SETTINGS, SETTINGS.deduplicator().analyzer().id())) {
        dump.forEach(
            x -> {
              try {
                in.add(x);
              } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            });
        assertThat(in.finish()).isEqualTo(800);
      }
      java.util.List<org.neardup.store.StoredRecord> back = new java.util.ArrayList<>();
      t.export("to", back::add);
      assertThat(back).isEqualTo(dump);
      Collection b = s.collection("to");
      for (org.neardup.store.Document d : docs) {
        assertThat(b.get(d.id()).orElseThrow().cluster())
            .isEqualTo(a.get(d.id()).orElseThrow().cluster());
      }
      // Stored under its slot like a created collection: a copy finds its group there.
      org.neardup.store.Outcome o =
          b.checkAndInsert(new org.neardup.store.Document("x", docs.get(5).analysis()));
      assertThat(o.isNew()).isFalse();
      assertThat(o.cluster()).isEqualTo(a.get(docs.get(5).id()).orElseThrow().cluster());
    }
  }
}
