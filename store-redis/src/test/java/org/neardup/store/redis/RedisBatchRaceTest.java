// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.Document;
import org.neardup.store.FingerprintStore;
import org.neardup.store.Outcome;
import org.neardup.store.StoreConfig;
import org.neardup.testkit.RedisServer;
import org.neardup.testkit.Texts;

/**
 * Pipelined batches from two store instances at once, holding copies of the same texts, within a
 * batch and across batches: exactly one new document per group, every copy naming it, and no
 * document decided against a later one of its own batch (a copy is never the cluster of an earlier
 * copy in the same batch); afterwards the block keys and band buckets hold exactly the stored
 * documents' entries.
 */
class RedisBatchRaceTest {
  private static FingerprintStore open(RedisServer server) throws IOException {
    return new RedisStoreProvider()
        .open(
            new StoreConfig(
                Map.of("url", server.url(), "expire-interval", "0"), InstantSource.system()));
  }

  @Test
  public void concurrentBatches_twoInstances_exactlyOneNewPerGroup() throws Exception {
    try (RedisServer server = RedisServer.start();
        FingerprintStore one = open(server);
        FingerprintStore two = open(server)) {
      Collection a =
          one.create(
              "news", CollectionSettings.defaults().withLexicon(CollectionSettings.NO_LEXICON));
      Collection b = two.collection("news");
      int groups = 300;
      int copies = 6;
      SplittableRandom r = new SplittableRandom(7);
      List<Document> docs = new ArrayList<>();
      for (int g = 0; g < groups; g++) {
        String text = Texts.text(r, 80);
        for (int i = 0; i < copies; i++) {
          docs.add(
              new Document(
                  g + "-" + i, a.analyzer().analyze(i % 2 == 0 ? text : Texts.edit(r, text))));
        }
      }
      Collections.shuffle(docs, new Random(7));
      int batch = 40;
      int threads = 8;
      ConcurrentHashMap<String, Outcome> outcomes = new ConcurrentHashMap<>();
      Map<String, Integer> position = new HashMap<>();
      for (int i = 0; i < docs.size(); i++) {
        position.put(docs.get(i).id(), i);
      }
      AtomicInteger next = new AtomicInteger();
      CountDownLatch start = new CountDownLatch(1);
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      List<Future<?>> fs = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        Collection mine = t % 2 == 0 ? a : b;
        fs.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int from = next.getAndAdd(batch);
                      from < docs.size();
                      from = next.getAndAdd(batch)) {
                    List<Document> part = docs.subList(from, Math.min(docs.size(), from + batch));
                    List<Outcome> out = mine.checkAndInsertAll(part);
                    for (int i = 0; i < part.size(); i++) {
                      outcomes.put(part.get(i).id(), out.get(i));
                    }
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> f : fs) {
        f.get(120, TimeUnit.SECONDS);
      }
      pool.shutdown();
      for (int g = 0; g < groups; g++) {
        String winner = null;
        for (int i = 0; i < copies; i++) {
          Outcome o = outcomes.get(g + "-" + i);
          if (o.isNew()) {
            assertThat(winner).as("group %s has two new documents", g).isNull();
            winner = o.id();
          }
        }
        assertThat(winner).as("group %s has no new document", g).isNotNull();
        for (int i = 0; i < copies; i++) {
          Outcome o = outcomes.get(g + "-" + i);
          assertThat(o.cluster()).isEqualTo(winner);
          // Within one batch, the winner comes first.
          int pw = position.get(winner);
          int po = position.get(o.id());
          if (pw / batch == po / batch) {
            assertThat(pw).isLessThanOrEqualTo(po);
          }
        }
      }
      assertThat(a.stats().documents()).isEqualTo((long) groups * copies);
      // Commits that found a conflict after appending took their entries back: none is left.
      KeyAudit.assertEntriesMatchRecords((RedisStore) one, (RedisCollection) a);
    }
  }

  /**
   * Single checks from two instances while a third thread deletes stored documents: commits run
   * both ways (keys only grown since the probe, and after a removal), and afterwards the keys hold
   * exactly the entries of the documents still stored.
   */
  @Test
  public void checksWithDeletes_twoInstances_keysMatchRecords() throws Exception {
    try (RedisServer server = RedisServer.start();
        FingerprintStore one = open(server);
        FingerprintStore two = open(server)) {
      Collection a =
          one.create(
              "news", CollectionSettings.defaults().withLexicon(CollectionSettings.NO_LEXICON));
      Collection b = two.collection("news");
      SplittableRandom r = new SplittableRandom(11);
      List<Document> docs = new ArrayList<>();
      for (int g = 0; g < 150; g++) {
        String text = Texts.text(r, 80);
        for (int i = 0; i < 4; i++) {
          docs.add(new Document(g + "-" + i, a.analyzer().analyze(Texts.edit(r, text))));
        }
      }
      Collections.shuffle(docs, new Random(11));
      AtomicInteger next = new AtomicInteger();
      AtomicInteger deleted = new AtomicInteger();
      ExecutorService pool = Executors.newFixedThreadPool(5);
      List<Future<?>> fs = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        Collection mine = t % 2 == 0 ? a : b;
        fs.add(
            pool.submit(
                () -> {
                  for (int i = next.getAndIncrement();
                      i < docs.size();
                      i = next.getAndIncrement()) {
                    mine.checkAndInsert(docs.get(i));
                  }
                  return null;
                }));
      }
      fs.add(
          pool.submit(
              () -> {
                Random d = new Random(5);
                while (next.get() < docs.size()) {
                  int upTo = Math.min(next.get(), docs.size());
                  if (upTo > 0 && b.delete(docs.get(d.nextInt(upTo)).id())) {
                    deleted.incrementAndGet();
                  }
                }
                return null;
              }));
      for (Future<?> f : fs) {
        f.get(120, TimeUnit.SECONDS);
      }
      pool.shutdown();
      assertThat(deleted.get()).as("some deletes ran during the checks").isPositive();
      assertThat(a.stats().documents()).isEqualTo((long) docs.size() - deleted.get());
      KeyAudit.assertEntriesMatchRecords((RedisStore) one, (RedisCollection) a);
    }
  }
}
