// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.neardup.Analysis;
import org.neardup.store.Document;

/** A batch analysed on several workers gives what analysing it one by one gives. */
class BatchAnalysisTest {
  private final ExecutorService pool = Executors.newFixedThreadPool(3);

  @AfterEach
  void stop() throws InterruptedException {
    pool.shutdownNow();
    pool.awaitTermination(1, TimeUnit.MINUTES);
  }

  private static Document doc(int i) {
    return new Document("d" + i, Analysis.ofFingerprint(i * 31L, 1), i);
  }

  @Test
  public void randomBatches_sameDocumentsInOrder_andTheLowestError() throws Exception {
    long seed = 18;
    SplittableRandom r = new SplittableRandom(seed);
    for (int round = 0; round < 300; round++) {
      int n = 1 + r.nextInt(400);
      int helpers = r.nextInt(4);
      int chunk = 1 + r.nextInt(BatchAnalysis.MAX_CHUNK);
      // Some batches have bad documents, at random positions.
      Set<Integer> bad = ConcurrentHashMap.newKeySet();
      if (r.nextInt(3) == 0) {
        for (int k = 0; k < 1 + r.nextInt(4); k++) {
          bad.add(r.nextInt(n));
        }
      }
      Set<String> threads = ConcurrentHashMap.newKeySet();
      BatchAnalysis.Step step =
          i -> {
            threads.add(Thread.currentThread().getName());
            if (bad.contains(i)) {
              throw ApiException.badRequest("document " + i + ": bad");
            }
            return doc(i);
          };
      String as =
          "seed " + seed + " round " + round + " n " + n + " chunk " + chunk + " bad " + bad;
      if (bad.isEmpty()) {
        List<Document> got = BatchAnalysis.run(n, chunk, step, pool, helpers);
        assertThat(got).as(as).hasSize(n);
        for (int i = 0; i < n; i++) {
          assertThat(got.get(i)).as(as).usingRecursiveComparison().isEqualTo(doc(i));
        }
      } else {
        int first = bad.stream().mapToInt(Integer::intValue).min().getAsInt();
        assertThatThrownBy(() -> BatchAnalysis.run(n, chunk, step, pool, helpers))
            .as(as)
            .isInstanceOf(ApiException.class)
            .hasMessageContaining("document " + first + ": bad");
      }
    }
  }

  /** With helpers and enough chunks, more than one thread analyses (when the pool is idle). */
  @Test
  public void largeBatch_usesIdleWorkers() throws Exception {
    Set<String> threads = ConcurrentHashMap.newKeySet();
    for (int attempt = 0; attempt < 20 && threads.size() < 2; attempt++) {
      BatchAnalysis.run(
          2000,
          BatchAnalysis.MAX_CHUNK,
          i -> {
            threads.add(Thread.currentThread().getName());
            long x = i;
            for (int k = 0; k < 20_000; k++) {
              x = x * 6364136223846793005L + 1442695040888963407L;
            }
            return new Document("d" + i, Analysis.ofFingerprint(x, 1), 0);
          },
          pool,
          2);
    }
    assertThat(threads).hasSizeGreaterThan(1);
  }

  /** The store's tasks: each runs exactly once, on more than one thread; a failure is rethrown. */
  @Test
  public void parallel_runsEveryTaskOnce_andRethrows() {
    SplittableRandom r = new SplittableRandom(1814);
    for (int round = 0; round < 200; round++) {
      int n = r.nextInt(40);
      int helpers = r.nextInt(3);
      java.util.concurrent.atomic.AtomicIntegerArray runs =
          new java.util.concurrent.atomic.AtomicIntegerArray(Math.max(n, 1));
      BatchAnalysis.parallel(pool, helpers).run(n, runs::incrementAndGet);
      for (int i = 0; i < n; i++) {
        assertThat(runs.get(i)).as("round %s task %s of %s", round, i, n).isEqualTo(1);
      }
    }
    assertThatThrownBy(
            () ->
                BatchAnalysis.parallel(pool, 2)
                    .run(
                        30,
                        i -> {
                          if (i == 17) {
                            throw new IllegalArgumentException("task 17");
                          }
                        }))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("task 17");
  }

  @Test
  public void chunk_holdsAboutChunkBytes_between1AndMax() {
    assertThat(BatchAnalysis.chunk(100 * 200, 100)).isEqualTo(BatchAnalysis.MAX_CHUNK);
    assertThat(BatchAnalysis.chunk(100 * 6000, 100)).isEqualTo(2);
    assertThat(BatchAnalysis.chunk(5_000_000, 10)).isEqualTo(1);
    assertThat(BatchAnalysis.chunk(0, 0)).isEqualTo(BatchAnalysis.MAX_CHUNK);
  }
}
