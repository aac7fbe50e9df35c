// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.neardup.Analysis;
import org.neardup.index.BlockScheme;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.Document;
import org.neardup.store.Outcome;
import org.neardup.store.StoreConfig;

/**
 * What the HBase store adds to the contract, on one real mini-cluster: each block scheme finds
 * exactly what a brute-force scan finds, within a batch too; the scheme is kept with the
 * collection; HBase's TTL removes an expired document's rows with no sweep; single calls from many
 * threads, committed together, keep exactly one new document per group; a cluster of one has no
 * rows of its own until a second document joins it.
 */
@ExtendWith(MiniHBase.class)
class HBaseStoreFeaturesTest {
  private static int stores;

  private static HBaseStore open(Map<String, String> options) throws IOException {
    Map<String, String> o = new HashMap<>(options);
    o.putIfAbsent("prefix", "f" + (++stores));
    return (HBaseStore)
        HBaseStoreProvider.open(
            MiniHBase.conf(), new StoreConfig(o, InstantSource.system()), "mini-cluster");
  }

  private static CollectionSettings fingerprintsOnly() {
    return CollectionSettings.defaults()
        .withLexicon(CollectionSettings.NO_LEXICON)
        .withVerify(false)
        .withMaxDistance(3);
  }

  /** {@code fp} with {@code bits} random bits flipped (the same bit may flip back). */
  static long flip(SplittableRandom r, long fp, int bits) {
    for (int i = 0; i < bits; i++) {
      fp ^= 1L << r.nextInt(64);
    }
    return fp;
  }

  @Test
  void schemes_findExactlyWhatBruteForceFinds_inBatches() throws IOException {
    for (String text : List.of("4:1", "5:2", "6:3")) {
      // With the region servers' distance filter and without it: the same matches, and with it
      // fewer block rows come back (the near-copies 4 and 5 bits away share blocks).
      long[] blockRows = new long[2];
      for (String filter : List.of("auto", "off")) {
        blockRows[filter.equals("auto") ? 0 : 1] = schemeFindsWhatBruteForceFinds(text, filter);
      }
      assertThat(blockRows[0]).as("block rows with the filter, %s", text).isLessThan(blockRows[1]);
    }
  }

  /** The block rows the probes read in a run of batches with {@code server-filter=filter}. */
  private long schemeFindsWhatBruteForceFinds(String text, String filter) throws IOException {
    long seed = text.hashCode();
    SplittableRandom r = new SplittableRandom(seed);
    long blockRows;
    try (HBaseStore store = open(Map.of("server-filter", filter))) {
      BlockScheme scheme = BlockScheme.parse(text);
      Collection c = store.create("s", fingerprintsOnly(), scheme);
      // Near-copies 0 to 5 bits from 60 bases: distances around k = 3 on both sides.
      long[] bases = new long[60];
      for (int i = 0; i < bases.length; i++) {
        bases[i] = r.nextLong();
      }
      List<Long> stored = new ArrayList<>();
      int n = 600;
      for (int from = 0; from < n; from += 40) {
        List<Document> batch = new ArrayList<>();
        List<Long> fps = new ArrayList<>();
        for (int i = from; i < from + 40; i++) {
          long fp = flip(r, bases[r.nextInt(bases.length)], r.nextInt(6));
          fps.add(fp);
          batch.add(new Document("d" + i, Analysis.ofFingerprint(fp, 100)));
        }
        List<Outcome> out = c.checkAndInsertAll(batch);
        for (int j = 0; j < batch.size(); j++) {
          Set<String> expected = new HashSet<>();
          for (int s = 0; s < stored.size(); s++) {
            if (Long.bitCount(stored.get(s) ^ fps.get(j)) <= 3) {
              expected.add("d" + s);
            }
          }
          Set<String> got = new HashSet<>();
          out.get(j).matches().forEach(m -> got.add(m.id()));
          assertThat(got)
              .as("scheme %s, seed %s, document d%s", text, seed, from + j)
              .isEqualTo(expected);
          assertThat(out.get(j).isNew()).isEqualTo(expected.isEmpty());
          stored.add(fps.get(j));
        }
      }
      assertThat(c.stats().documents()).isEqualTo(n);
      assertThat(store.metrics().get("hbase_server_filter"))
          .isEqualTo(filter.equals("auto") ? 1 : 0);
      blockRows = store.metrics().get("hbase_block_rows_read").longValue();
    }
    // The scheme is the collection's: a store opened with another default reads it back.
    try (HBaseStore again = open(Map.of("prefix", "f" + stores, "scheme", "4:1"))) {
      HBaseCollection c = (HBaseCollection) again.collection("s");
      assertThat(c.scheme()).isEqualTo(BlockScheme.parse(text));
    }
    return blockRows;
  }

  @Test
  void create_schemeThatCannotReachK_isRefusedBeforeAnythingIsWritten() throws IOException {
    try (HBaseStore store = open(Map.of())) {
      assertThatThrownBy(
              () -> store.create("s", fingerprintsOnly().withMaxDistance(4), BlockScheme.of(5, 2)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("5:2 finds every match only up to k = 3");
      assertThat(store.collection("s")).isNull();
      // The default scheme takes k + 1 blocks for k above 3, as before.
      HBaseCollection c =
          (HBaseCollection) store.create("t", fingerprintsOnly().withMaxDistance(5));
      assertThat(c.scheme()).isEqualTo(BlockScheme.of(6, 1));
    }
  }

  @Test
  void ttl_hidesAnExpiredDocumentsRows_withNoSweep() throws Exception {
    try (HBaseStore store = open(Map.of("ttl-grace-ms", "0"));
        Connection conn = ConnectionFactory.createConnection(MiniHBase.conf());
        Table docs = conn.getTable(store.docs)) {
      HBaseCollection c =
          (HBaseCollection)
              store.create("ttl", fingerprintsOnly().withRetention(Duration.ofSeconds(3)));
      long fp = 0x0123456789ABCDEFL;
      assertThat(c.checkAndInsert(new Document("a", Analysis.ofFingerprint(fp, 100))).isNew())
          .isTrue();
      byte[] idRow = Rows.id(c.uid, "a");
      assertThat(docs.get(new Get(idRow)).isEmpty()).isFalse();
      long deadline = System.currentTimeMillis() + 60_000;
      while (!docs.get(new Get(idRow)).isEmpty() && System.currentTimeMillis() < deadline) {
        Thread.sleep(250);
      }
      // HBase dropped the cells on its own (expire() was never called)...
      assertThat(docs.get(new Get(idRow)).isEmpty()).isTrue();
      assertThat(docs.get(new Get(Rows.doc(c.uid, 1))).isEmpty()).isTrue();
      try (Table index = conn.getTable(store.index)) {
        assertThat(index.get(new Get(Rows.block(c.scheme(), 0, c.uid, fp))).isEmpty()).isTrue();
      }
      // ...so the document is neither found nor matched, and its id can be stored again.
      assertThat(c.get("a")).isEmpty();
      assertThat(c.checkAndInsert(new Document("a", Analysis.ofFingerprint(fp, 100))).isNew())
          .isTrue();
    }
  }

  @Test
  void clusterOfOne_hasNoRowsOfItsOwn_theFirstToJoinWritesThem_andTheNameOutlivesTheRoot()
      throws Exception {
    try (HBaseStore store = open(Map.of());
        Connection conn = ConnectionFactory.createConnection(MiniHBase.conf());
        Table docs = conn.getTable(store.docs)) {
      HBaseCollection c = (HBaseCollection) store.create("alone", fingerprintsOnly());
      assertThat(c.checkAndInsert(new Document("a", Analysis.ofFingerprint(0L, 100))).isNew())
          .isTrue();
      assertThat(docs.get(new Get(Rows.rootId(c.uid, 1))).isEmpty()).isTrue();
      assertThat(docs.get(new Get(Rows.members(c.uid, 1))).isEmpty()).isTrue();
      assertThat(c.get("a").orElseThrow().cluster()).isEqualTo("a");

      Outcome b = c.checkAndInsert(new Document("b", Analysis.ofFingerprint(0b111L, 100)));
      assertThat(b.isNew()).isFalse();
      assertThat(b.cluster()).isEqualTo("a");
      assertThat(
              docs.get(new Get(Rows.rootId(c.uid, 1)))
                  .getValue(HBaseStore.DOC_FAMILY, HBaseStore.VALUE))
          .isEqualTo(HBaseStore.bytes("a"));
      assertThat(members(docs, c.uid, 1)).containsExactly(1L, 2L);

      assertThat(c.delete("a")).isTrue();
      assertThat(c.get("b").orElseThrow().cluster()).isEqualTo("a");
      Outcome d = c.checkAndInsert(new Document("d", Analysis.ofFingerprint(0b1110L, 100)));
      assertThat(d.cluster()).isEqualTo("a");
    }
  }

  @Test
  void merge_ofClustersOfOne_movesEachRootIntoTheEarliest_inABatchAndAcrossBatches()
      throws Exception {
    try (HBaseStore store = open(Map.of());
        Connection conn = ConnectionFactory.createConnection(MiniHBase.conf());
        Table docs = conn.getTable(store.docs)) {
      HBaseCollection c = (HBaseCollection) store.create("merge", fingerprintsOnly());
      // x and y are 6 bits apart, each alone; z is 3 bits from both and joins them.
      c.checkAndInsert(new Document("x", Analysis.ofFingerprint(0L, 100)));
      c.checkAndInsert(new Document("y", Analysis.ofFingerprint(0x3FL, 100)));
      Outcome z = c.checkAndInsert(new Document("z", Analysis.ofFingerprint(0x07L, 100)));
      assertThat(z.cluster()).isEqualTo("x");
      for (String id : List.of("x", "y", "z")) {
        assertThat(c.get(id).orElseThrow().cluster()).as(id).isEqualTo("x");
      }
      assertThat(members(docs, c.uid, 1)).containsExactly(1L, 2L, 3L);
      assertThat(docs.get(new Get(Rows.members(c.uid, 2))).isEmpty()).isTrue();

      // The same within one batch: p alone, q alone, r joins both, s joins p's cluster.
      long base = 0x5555_0000_0000_0000L;
      List<Outcome> out =
          c.checkAndInsertAll(
              List.of(
                  new Document("p", Analysis.ofFingerprint(base, 100)),
                  new Document("q", Analysis.ofFingerprint(base ^ 0x3F, 100)),
                  new Document("r", Analysis.ofFingerprint(base ^ 0x07, 100)),
                  new Document("s", Analysis.ofFingerprint(base ^ 0x0E, 100))));
      assertThat(out).extracting(Outcome::cluster).containsExactly("p", "q", "p", "p");
      for (String id : List.of("p", "q", "r", "s")) {
        assertThat(c.get(id).orElseThrow().cluster()).as(id).isEqualTo("p");
      }
      assertThat(members(docs, c.uid, 4)).containsExactly(4L, 5L, 6L, 7L);
    }
  }

  /** The ordinals the members row of cluster {@code root} lists. */
  private static List<Long> members(Table docs, int uid, long root) throws IOException {
    Result r = docs.get(new Get(Rows.members(uid, root)));
    List<Long> out = new ArrayList<>();
    for (Cell cell : r.rawCells()) {
      out.add(Rows.toLong(CellUtil.cloneQualifier(cell)));
    }
    out.sort(null);
    return out;
  }

  @Test
  void singleCalls_fromManyThreads_keepOneNewPerGroup() throws Exception {
    SplittableRandom r = new SplittableRandom(7);
    int groups = 150;
    int copies = 4;
    List<Document> docs = new ArrayList<>();
    Map<String, Integer> groupOf = new HashMap<>();
    for (int g = 0; g < groups; g++) {
      long fp = r.nextLong();
      for (int j = 0; j < copies; j++) {
        String id = "g" + g + "c" + j;
        docs.add(new Document(id, Analysis.ofFingerprint(flip(r, fp, j == 0 ? 0 : 1), 100)));
        groupOf.put(id, g);
      }
    }
    // A seeded shuffle: copies of a group arrive at about the same time from different threads.
    for (int i = docs.size() - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      Document t = docs.get(i);
      docs.set(i, docs.get(j));
      docs.set(j, t);
    }
    try (HBaseStore store = open(Map.of())) {
      Collection c = store.create("race", fingerprintsOnly());
      ExecutorService pool = Executors.newFixedThreadPool(32);
      List<Future<Outcome>> futures = new ArrayList<>();
      for (Document d : docs) {
        futures.add(pool.submit(() -> c.checkAndInsert(d)));
      }
      int[] news = new int[groups];
      for (Future<Outcome> f : futures) {
        Outcome o = f.get(5, TimeUnit.MINUTES);
        if (o.isNew()) {
          news[groupOf.get(o.id())]++;
        } else {
          // A duplicate names a document of its own group.
          assertThat(groupOf.get(o.matches().get(0).id())).isEqualTo(groupOf.get(o.id()));
        }
      }
      pool.shutdown();
      for (int g = 0; g < groups; g++) {
        assertThat(news[g]).as("new documents in group %s", g).isEqualTo(1);
      }
      assertThat(c.stats().documents()).isEqualTo((long) groups * copies);
      // Committed together: fewer commits than calls.
      assertThat(store.metrics().get("hbase_commits").longValue()).isLessThan(groups * copies);
    }
  }
}
