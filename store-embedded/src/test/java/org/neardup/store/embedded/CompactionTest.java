// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.neardup.store.embedded.StoreTesting.doc;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.store.Collection;
import org.neardup.store.Outcome;
import org.neardup.store.StoredDocument;
import org.neardup.testkit.Texts;

/**
 * A compaction writes a snapshot and rebuilds collections while writers keep going; nothing a
 * writer was told is lost or changed, in memory or after reopening.
 */
class CompactionTest {
  @TempDir Path dir;

  private EmbeddedStore open() throws IOException {
    return EmbeddedStore.builder(dir).background(false).snapshotOnClose(false).open();
  }

  @Test
  public void checkpoint_thenMoreWrites_reopenSeesSnapshotPlusLog() throws IOException {
    SplittableRandom r = new SplittableRandom(1);
    String a = Texts.text(r, 30);
    String b = Texts.text(r, 30);
    try (EmbeddedStore s = open()) {
      Collection c = s.create("news", StoreTesting.SETTINGS);
      c.checkAndInsert(doc(c, "a1", a));
      c.checkAndInsert(doc(c, "a2", a));
      c.checkAndInsert(doc(c, "gone", b));
      s.checkpoint();
      assertThat(StoreTesting.files(dir, ".ndsnap")).hasSize(1);
      c.delete("gone");
      c.checkAndInsert(doc(c, "a3", Texts.edit(r, a)));
      c.checkAndInsert(doc(c, "b1", b));
    }
    try (EmbeddedStore s = open()) {
      Collection c = s.collection("news");
      assertThat(c.stats().documents()).isEqualTo(4);
      assertThat(c.get("gone")).isEmpty();
      assertThat(c.get("a3").orElseThrow().cluster()).isEqualTo("a1");
      assertThat(c.get("b1").orElseThrow().cluster()).isEqualTo("b1");
      s.checkpoint();
    }
    // Only the newest snapshot and the segment after it remain.
    assertThat(StoreTesting.files(dir, ".ndsnap")).hasSize(1);
    assertThat(StoreTesting.files(dir, ".ndlog")).hasSize(1);
  }

  @Test
  public void checkpoint_representativeDeleted_clusterStaysWhole() throws IOException {
    SplittableRandom r = new SplittableRandom(2);
    String a = Texts.text(r, 30);
    try (EmbeddedStore s = open()) {
      Collection c = s.create("news", StoreTesting.SETTINGS);
      c.checkAndInsert(doc(c, "rep", a));
      c.checkAndInsert(doc(c, "m1", a));
      c.delete("rep");
      // The engine keeps a removed representative as its cluster's name until a rebuild.
      assertThat(c.checkAndInsert(doc(c, "m2", a)).cluster()).isEqualTo("rep");
      s.checkpoint(); // rebuilds: "rep" is gone for good, its earliest member stands for it
      assertThat(c.get("m2").orElseThrow().cluster()).isEqualTo("m1");
      Outcome m3 = c.checkAndInsert(doc(c, "m3", a));
      assertThat(m3.cluster()).isEqualTo("m1");
      assertThat(m3.matches()).extracting(Outcome.Match::id).containsExactlyInAnyOrder("m1", "m2");
    }
    try (EmbeddedStore s = open()) {
      Collection c = s.collection("news");
      for (String id : new String[] {"m1", "m2", "m3"}) {
        assertThat(c.get(id).orElseThrow().cluster()).isEqualTo("m1");
      }
    }
  }

  @Test
  public void checkpoint_whileWritersRun_losesNothing() throws Exception {
    int threads = 6;
    Map<String, StoredDocument> acked = new ConcurrentHashMap<>();
    Map<String, Boolean> deleted = new ConcurrentHashMap<>();
    AtomicBoolean stop = new AtomicBoolean();
    try (EmbeddedStore s = open()) {
      Collection c = s.create("news", StoreTesting.SETTINGS);
      Collection other = s.create("other", StoreTesting.SETTINGS.withVerify(false));
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        futures.add(
            pool.submit(
                () -> {
                  SplittableRandom r = new SplittableRandom(100 + thread);
                  List<String> mine = new ArrayList<>();
                  for (int i = 0; !stop.get() || i < 300; i++) {
                    String id = "t" + thread + "-" + i;
                    String text = Texts.text(r, 12);
                    Outcome o = c.checkAndInsert(doc(c, id, text));
                    other.checkAndInsert(doc(other, id, text));
                    acked.put(id, c.get(id).orElseThrow());
                    assertThat(o.stored()).isTrue();
                    mine.add(id);
                    if (r.nextInt(3) == 0) {
                      // delete an earlier one: rebuilds must see removals made during them
                      String victim = mine.remove(r.nextInt(mine.size()));
                      assertThat(c.delete(victim)).isTrue();
                      acked.remove(victim);
                      deleted.put(victim, true);
                    }
                  }
                  return null;
                }));
      }
      for (int k = 0; k < 5; k++) {
        // Wait for fresh deletions, so every checkpoint has removed documents to rebuild away.
        while (deleted.size() < 10 * (k + 1)) {
          Thread.sleep(2);
        }
        s.checkpoint(); // rebuilds whatever holds deleted documents, writers still running
      }
      stop.set(true);
      for (Future<?> f : futures) {
        f.get(60, TimeUnit.SECONDS);
      }
      pool.shutdown();
      assertThat(s.metrics().get("rebuilds_total").longValue()).isGreaterThan(0);
      check(c, acked, deleted);
      assertThat(other.stats().documents()).isEqualTo(c.stats().documents() + deleted.size());
    }
    try (EmbeddedStore s = open()) {
      check(s.collection("news"), acked, deleted);
    }
  }

  private static void check(
      Collection c, Map<String, StoredDocument> acked, Map<String, Boolean> deleted) {
    assertThat(c.stats().documents()).isEqualTo(acked.size());
    for (StoredDocument d : acked.values()) {
      StoredDocument now = c.get(d.id()).orElseThrow(() -> new AssertionError("lost " + d.id()));
      assertThat(now.fingerprint()).isEqualTo(d.fingerprint());
      assertThat(now.timestamp()).isEqualTo(d.timestamp());
    }
    for (String id : deleted.keySet()) {
      assertThat(c.get(id)).as(id).isEmpty();
    }
  }
}
