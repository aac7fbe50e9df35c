// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.neardup.store.embedded.StoreTesting.doc;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.store.Collection;
import org.neardup.store.Document;
import org.neardup.store.Outcome;
import org.neardup.testkit.Texts;

/**
 * A batch whose validation and probes run on several threads ({@link
 * Collection#checkAndInsertAllAsync(List, Collection.Parallel)}) gets the answers the batch gets on
 * one document at a time on one thread, near-duplicates inside the batch included, and an invalid
 * document still fails the whole batch with the first invalid position before anything is stored.
 */
class ParallelProbeTest {
  @TempDir Path dir;
  private final ExecutorService pool = Executors.newFixedThreadPool(3);
  private final Set<String> threads = ConcurrentHashMap.newKeySet();

  @AfterEach
  void stop() throws InterruptedException {
    pool.shutdownNow();
    pool.awaitTermination(1, TimeUnit.MINUTES);
  }

  /** Each task on the pool, in reverse order (the last group probed first), then waits for all. */
  private final Collection.Parallel parallel =
      (n, task) -> {
        List<Future<?>> fs = new ArrayList<>();
        for (int i = n - 1; i >= 0; i--) {
          int t = i;
          fs.add(
              pool.submit(
                  () -> {
                    threads.add(Thread.currentThread().getName());
                    task.accept(t);
                  }));
        }
        RuntimeException first = null;
        for (Future<?> f : fs) {
          try {
            f.get();
          } catch (ExecutionException e) {
            if (first == null && e.getCause() instanceof RuntimeException re) {
              first = re;
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
          }
        }
        if (first != null) {
          throw first;
        }
      };

  @Test
  public void randomBatches_parallelProbes_answerAsOneThread() throws Exception {
    long seed = 1814;
    SplittableRandom r = new SplittableRandom(seed);
    List<String> texts = new ArrayList<>();
    for (int g = 0; g < 150; g++) {
      String text = Texts.text(r, 20 + r.nextInt(60));
      for (int i = 0; i < 1 + r.nextInt(4); i++) {
        texts.add(i == 0 ? text : Texts.edit(r, text));
      }
    }
    Collections.shuffle(texts, new Random(seed));
    try (EmbeddedStore a = EmbeddedStore.builder(dir.resolve("a")).background(false).open();
        EmbeddedStore b = EmbeddedStore.builder(dir.resolve("b")).background(false).open()) {
      Collection ca = a.create("news", StoreTesting.SETTINGS);
      Collection cb = b.create("news", StoreTesting.SETTINGS);
      for (int from = 0; from < texts.size(); ) {
        int n = Math.min(texts.size() - from, 1 + r.nextInt(120));
        List<Document> one = new ArrayList<>();
        List<Document> other = new ArrayList<>();
        for (int i = from; i < from + n; i++) {
          // Some ids again: answered EXISTS in both.
          String id = "d" + (r.nextInt(20) == 0 && i > 0 ? r.nextInt(i) : i);
          one.add(doc(ca, id, texts.get(i)));
          other.add(doc(cb, id, texts.get(i)));
        }
        List<Outcome> want = new ArrayList<>();
        for (Document d : one) {
          want.add(ca.checkAndInsert(d));
        }
        List<Outcome> got = cb.checkAndInsertAllAsync(other, parallel).get(1, TimeUnit.MINUTES);
        assertThat(got.stream().map(OutcomeText::answer).toList())
            .as("seed %s, batch from %s", seed, from)
            .isEqualTo(want.stream().map(OutcomeText::answer).toList());
        from += n;
      }
      assertThat(cb.stats().documents()).isEqualTo(ca.stats().documents());
    }
    assertThat(threads).hasSizeGreaterThan(1);
  }

  @Test
  public void invalidDocumentsInLaterGroups_firstPositionNamed_nothingStored() throws Exception {
    SplittableRandom r = new SplittableRandom(7);
    try (EmbeddedStore s = EmbeddedStore.builder(dir).background(false).open()) {
      Collection c = s.create("news", StoreTesting.SETTINGS);
      List<Document> batch = new ArrayList<>();
      for (int i = 0; i < 60; i++) {
        // Empty ids at 41 and 23: 23 is the first, in another group than 41.
        String id = i == 23 || i == 41 ? "" : "d" + i;
        batch.add(doc(c, id, Texts.text(r, 30)));
      }
      assertThatThrownBy(() -> c.checkAndInsertAllAsync(batch, parallel))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("23")
          .hasMessageContaining("id must not be empty");
      assertThat(c.stats().documents()).isZero();
    }
  }
}
