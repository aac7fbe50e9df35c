// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.neardup.store.embedded.StoreTesting.doc;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.store.Collection;
import org.neardup.store.Document;
import org.neardup.store.Outcome;
import org.neardup.testkit.Texts;

/**
 * An insert probes the engine under the read lock and decides under the write lock; between the
 * two, other inserts, deletes and a rebuild that swaps the collection's generation may run. Exactly
 * one copy of each group must still be new, in memory and after reopening.
 */
class ProbeRaceTest {
  @TempDir Path dir;

  @Test
  public void copiesInBatchesAndAlone_whileDeletesAndRebuilds_exactlyOneNewPerGroup()
      throws Exception {
    int groups = 300;
    int copies = 6;
    SplittableRandom r = new SplittableRandom(42);
    ConcurrentHashMap<String, Outcome> outcomes = new ConcurrentHashMap<>();
    AtomicInteger rebuilds = new AtomicInteger();
    try (EmbeddedStore s =
        EmbeddedStore.builder(dir).background(false).snapshotOnClose(false).open()) {
      Collection c = s.create("news", StoreTesting.SETTINGS);
      List<Document> docs = new ArrayList<>();
      for (int g = 0; g < groups; g++) {
        // 80 words: an exact copy has Jaccard 1, two different one-word edits about 0.86 > 0.8.
        String text = Texts.text(r, 80);
        for (int i = 0; i < copies; i++) {
          docs.add(doc(c, g + "-" + i, i % 2 == 0 ? text : Texts.edit(r, text)));
        }
      }
      Collections.shuffle(docs, new Random(42));
      // Unrelated documents to delete meanwhile, so that rebuilds have removed documents to drop.
      List<String> noise = new ArrayList<>();
      for (int i = 0; i < 400; i++) {
        String id = "noise-" + i;
        c.checkAndInsert(doc(c, id, Texts.text(r, 30)));
        noise.add(id);
      }
      int threads = 8;
      ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
      CountDownLatch start = new CountDownLatch(1);
      AtomicInteger next = new AtomicInteger();
      AtomicBoolean done = new AtomicBoolean();
      List<Future<?>> fs = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        fs.add(
            pool.submit(
                () -> {
                  start.await();
                  while (true) {
                    // Odd threads send batches of 1-7 documents, even ones one at a time.
                    int n = thread % 2 == 1 ? 1 + next.get() % 7 : 1;
                    int from = next.getAndAdd(n);
                    if (from >= docs.size()) {
                      return null;
                    }
                    List<Document> part = docs.subList(from, Math.min(docs.size(), from + n));
                    if (part.size() == 1) {
                      outcomes.put(part.get(0).id(), c.checkAndInsert(part.get(0)));
                    } else {
                      List<Outcome> os = c.checkAndInsertAll(part);
                      for (int i = 0; i < os.size(); i++) {
                        outcomes.put(part.get(i).id(), os.get(i));
                      }
                    }
                  }
                }));
      }
      fs.add(
          pool.submit(
              () -> {
                start.await();
                int deleted = 0;
                while (!done.get() && deleted < noise.size()) {
                  for (int i = 0; i < 5 && deleted < noise.size(); i++) {
                    assertThat(c.delete(noise.get(deleted++))).isTrue();
                  }
                  s.checkpoint(); // rebuilds: a new generation replaces the probed one
                  rebuilds.incrementAndGet();
                }
                return null;
              }));
      start.countDown();
      for (int t = 0; t < threads; t++) {
        fs.get(t).get(2, TimeUnit.MINUTES);
      }
      done.set(true);
      fs.get(threads).get(1, TimeUnit.MINUTES);
      pool.shutdown();
      checkGroups(groups, copies, outcomes);
      for (int g = 0; g < groups; g++) {
        String winner = winner(g, copies, outcomes);
        for (int i = 0; i < copies; i++) {
          assertThat(c.get(g + "-" + i).orElseThrow().cluster()).isEqualTo(winner);
        }
      }
    }
    assertThat(rebuilds.get()).isGreaterThan(2);
    try (EmbeddedStore s = EmbeddedStore.builder(dir).background(false).open()) {
      Collection c = s.collection("news");
      for (int g = 0; g < groups; g++) {
        String winner = winner(g, copies, outcomes);
        for (int i = 0; i < copies; i++) {
          assertThat(c.get(g + "-" + i).orElseThrow().cluster())
              .as("after reopening, %s-%s", g, i)
              .isEqualTo(winner);
        }
      }
    }
  }

  private static void checkGroups(
      int groups, int copies, ConcurrentHashMap<String, Outcome> outcomes) {
    for (int g = 0; g < groups; g++) {
      int fresh = 0;
      for (int i = 0; i < copies; i++) {
        Outcome o = outcomes.get(g + "-" + i);
        assertThat(o.stored()).isTrue();
        fresh += o.isNew() ? 1 : 0;
      }
      assertThat(fresh).as("new documents in group %s", g).isEqualTo(1);
      String winner = winner(g, copies, outcomes);
      for (int i = 0; i < copies; i++) {
        assertThat(outcomes.get(g + "-" + i).cluster()).as("%s-%s", g, i).isEqualTo(winner);
      }
    }
  }

  private static String winner(int g, int copies, ConcurrentHashMap<String, Outcome> outcomes) {
    for (int i = 0; i < copies; i++) {
      Outcome o = outcomes.get(g + "-" + i);
      if (o.isNew()) {
        return o.id();
      }
    }
    throw new AssertionError("group " + g + " has no new document");
  }
}
