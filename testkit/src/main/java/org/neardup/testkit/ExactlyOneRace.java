// SPDX-License-Identifier: Apache-2.0
package org.neardup.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.neardup.client.Doc;
import org.neardup.client.NeardupClient;
import org.neardup.client.Result;

/**
 * The exactly-one-survivor race over real HTTP, for one service node or several on one backend:
 * groups of 8 copies and near-copies (80 words; an exact copy has Jaccard 1, two different one-word
 * edits about 0.86 > 0.8) are shuffled and sent at once from many client threads, document {@code
 * i} of the shuffled order to node {@code i % nodes}, so a group's copies are spread over the
 * nodes. Then every document is stored, each group has exactly one new document, every copy names
 * it as its cluster, every node counts every document, and with several nodes nearly every group
 * reached more than one node.
 *
 * <p>{@code -Dneardup.groups=N} and {@code -Dneardup.seed=S} override a test's size and seed.
 */
public final class ExactlyOneRace {
  private static final int COPIES = 8;

  private final String label;
  private final int groups;
  private final long seed;
  private int threads = 64;
  private Duration timeout = Duration.ofMinutes(10);

  private ExactlyOneRace(String label, int groups, long seed) {
    this.label = label;
    this.groups = Integer.getInteger("neardup.groups", groups);
    this.seed = Long.getLong("neardup.seed", seed);
  }

  /**
   * A race of {@code groups} groups (unless {@code -Dneardup.groups} says otherwise) from {@code
   * seed}; {@code label} names it in the line it prints.
   */
  public static ExactlyOneRace of(String label, int groups, long seed) {
    return new ExactlyOneRace(label, groups, seed);
  }

  /** Client threads sending at once; 64 by default. */
  public ExactlyOneRace threads(int threads) {
    this.threads = threads;
    return this;
  }

  /** How long each client thread may take; 10 minutes by default. */
  public ExactlyOneRace timeout(Duration timeout) {
    this.timeout = timeout;
    return this;
  }

  /** The documents, shuffled: ids {@code group/copy}. */
  private List<Doc> documents() {
    SplittableRandom r = new SplittableRandom(seed);
    List<Doc> docs = new ArrayList<>(groups * COPIES);
    for (int g = 0; g < groups; g++) {
      String base = Texts.text(r, 80);
      for (int i = 0; i < COPIES; i++) {
        docs.add(Doc.text(g + "/" + i, i % 2 == 0 ? base : Texts.edit(r, base)));
      }
    }
    Collections.shuffle(docs, new Random(seed));
    return docs;
  }

  /**
   * Runs the race against the nodes' collection {@code default} and checks its outcome.
   *
   * @return the number of groups (each with exactly one new document)
   */
  public int run(List<NeardupClient> nodes) throws Exception {
    List<Doc> docs = documents();
    ConcurrentHashMap<String, Result> results = new ConcurrentHashMap<>();
    ConcurrentHashMap<String, Integer> answeredBy = new ConcurrentHashMap<>();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    AtomicInteger next = new AtomicInteger();
    List<Future<?>> fs = new ArrayList<>();
    long t0 = System.nanoTime();
    try {
      for (int c = 0; c < threads; c++) {
        fs.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int i = next.getAndIncrement();
                      i < docs.size();
                      i = next.getAndIncrement()) {
                    Doc d = docs.get(i);
                    int n = i % nodes.size();
                    results.put(d.id(), nodes.get(n).insert("default", d));
                    answeredBy.put(d.id(), n);
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> f : fs) {
        f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    System.out.printf(
        Locale.ROOT,
        "%s: %d requests from %d threads to %d node(s) in %.1f s (%.0f req/s), seed %d%n",
        label,
        docs.size(),
        threads,
        nodes.size(),
        seconds,
        docs.size() / seconds,
        seed);
    for (NeardupClient node : nodes) {
      assertThat(node.collection("default").orElseThrow().documents())
          .isEqualTo((long) groups * COPIES);
    }
    int spread = 0;
    int won = 0;
    for (int g = 0; g < groups; g++) {
      String winner = null;
      boolean[] nodesSeen = new boolean[nodes.size()];
      int reached = 0;
      for (int i = 0; i < COPIES; i++) {
        Result res = results.get(g + "/" + i);
        assertThat(res).as("answer to %s/%s (seed %s)", g, i, seed).isNotNull();
        int n = answeredBy.get(g + "/" + i);
        reached += nodesSeen[n] ? 0 : 1;
        nodesSeen[n] = true;
        assertThat(res.stored()).as("%s/%s stored: %s", g, i, res).isTrue();
        if (res.isNew()) {
          assertThat(winner).as("group %s has two new documents (seed %s)", g, seed).isNull();
          winner = res.id();
        }
      }
      assertThat(winner).as("group %s has no new document (seed %s)", g, seed).isNotNull();
      won++;
      spread += reached > 1 ? 1 : 0;
      for (int i = 0; i < COPIES; i++) {
        assertThat(results.get(g + "/" + i).cluster())
            .as("cluster of %s/%s (seed %s)", g, i, seed)
            .isEqualTo(winner);
      }
    }
    if (nodes.size() > 1) {
      // Nearly every group reached more than one node.
      assertThat(spread).isGreaterThan(groups * 9 / 10);
    }
    assertThat(won).isEqualTo(groups);
    return won;
  }
}
