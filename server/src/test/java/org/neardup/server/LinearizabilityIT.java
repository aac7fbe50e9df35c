// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.client.Doc;
import org.neardup.client.Result;
import org.neardup.testkit.Texts;

/**
 * Exactly one survivor: many clients over real HTTP send groups of copies and near-copies in random
 * order at the same time; each group has exactly one new document and every copy names it as its
 * cluster.
 *
 * <p>CI runs 1,000 groups of 8 on 64 connections; {@code -Dneardup.groups=10000} runs the full
 * size.
 */
class LinearizabilityIT {
  @TempDir Path dir;

  @Test
  public void concurrentCopies_exactlyOneNewPerGroup() throws Exception {
    int groups = Integer.getInteger("neardup.groups", 1000);
    int copies = 8;
    int connections = 64;
    long seed = Long.getLong("neardup.seed", 20251122L);
    SplittableRandom r = new SplittableRandom(seed);
    List<Doc> docs = new ArrayList<>(groups * copies);
    for (int g = 0; g < groups; g++) {
      // 80 words: an exact copy has Jaccard 1, two different one-word edits about 0.86 > 0.8.
      String base = Texts.text(r, 80);
      for (int i = 0; i < copies; i++) {
        docs.add(Doc.text(g + "/" + i, i % 2 == 0 ? base : Texts.edit(r, base)));
      }
    }
    Collections.shuffle(docs, new Random(seed));
    ConcurrentHashMap<String, Result> results = new ConcurrentHashMap<>();
    try (TestServer t = TestServer.start(dir)) {
      ExecutorService pool = Executors.newFixedThreadPool(connections);
      CountDownLatch start = new CountDownLatch(1);
      AtomicInteger next = new AtomicInteger();
      List<Future<?>> fs = new ArrayList<>();
      long t0 = System.nanoTime();
      for (int c = 0; c < connections; c++) {
        fs.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int i = next.getAndIncrement();
                      i < docs.size();
                      i = next.getAndIncrement()) {
                    Doc d = docs.get(i);
                    results.put(d.id(), t.client.insert("default", d));
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> f : fs) {
        f.get(5, TimeUnit.MINUTES);
      }
      pool.shutdown();
      double seconds = (System.nanoTime() - t0) / 1e9;
      System.out.printf(
          java.util.Locale.ROOT,
          "linearizability: %d requests on %d connections in %.1f s (%.0f req/s), seed %d%n",
          docs.size(),
          connections,
          seconds,
          docs.size() / seconds,
          seed);
      assertThat(t.client.collection("default").orElseThrow().documents())
          .isEqualTo((long) groups * copies);
    }
    int fresh = 0;
    for (int g = 0; g < groups; g++) {
      String winner = null;
      for (int i = 0; i < copies; i++) {
        Result res = results.get(g + "/" + i);
        assertThat(res.stored()).isTrue();
        if (res.isNew()) {
          assertThat(winner).as("group %s has two new documents (seed %s)", g, seed).isNull();
          winner = res.id();
        }
      }
      assertThat(winner).as("group %s has no new document (seed %s)", g, seed).isNotNull();
      fresh++;
      for (int i = 0; i < copies; i++) {
        assertThat(results.get(g + "/" + i).cluster())
            .as("cluster of %s/%s", g, i)
            .isEqualTo(winner);
      }
    }
    assertThat(fresh).isEqualTo(groups);
  }
}
