// SPDX-License-Identifier: Apache-2.0
package org.neardup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@link BandDeal} on real threads: every sorted position of every band is dealt exactly once, in
 * chunks that start and end on group boundaries, each band sorted once before any of its chunks,
 * never more than {@code held} bands held at once; and a failing thread stops the others instead of
 * leaving them waiting.
 */
class BandDealTest {
  /** Sorted keys in runs (groups) of random lengths, some long. */
  private static long[] keys(SplittableRandom r, int n) {
    long[] k = new long[n];
    long key = 0;
    for (int i = 0; i < n; ) {
      int run = r.nextInt(10) == 0 ? 1 + r.nextInt(300) : 1 + r.nextInt(5);
      for (int e = Math.min(n, i + run); i < e; i++) {
        k[i] = key;
      }
      key += 1 + r.nextInt(3);
    }
    return k;
  }

  @Test
  void take_manyThreads_everyPositionOnceOnGroupBoundaries() throws Exception {
    SplittableRandom r = new SplittableRandom(20261125);
    for (int round = 0; round < 60; round++) {
      int bands = 1 + r.nextInt(7);
      int threads = 1 + r.nextInt(4);
      int n = r.nextInt(3000);
      int chunk = 1 + r.nextInt(200);
      long[][] keys = new long[bands][];
      for (int b = 0; b < bands; b++) {
        keys[b] = keys(r, r.nextInt(4) == 0 ? 0 : n);
      }
      BandDeal deal = new BandDeal(bands, threads, chunk);
      int[][] dealt = new int[bands][];
      for (int b = 0; b < bands; b++) {
        dealt[b] = new int[keys[b].length];
      }
      AtomicInteger[] sorts = new AtomicInteger[bands];
      Arrays.setAll(sorts, b -> new AtomicInteger());
      AtomicInteger holding = new AtomicInteger();
      AtomicInteger maxHeld = new AtomicInteger();
      AtomicReference<Throwable> failure = new AtomicReference<>();
      List<Thread> pool = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        Thread th =
            new Thread(
                () -> {
                  try {
                    for (BandDeal.Job job; (job = deal.take()) != null; ) {
                      int b = job.band();
                      if (job.sorted() == null) {
                        sorts[b].incrementAndGet();
                        maxHeld.accumulateAndGet(holding.incrementAndGet(), Math::max);
                        long[] k = keys[b];
                        int[] order = new int[k.length];
                        Arrays.setAll(order, i -> i);
                        if (k.length == 0) {
                          holding.decrementAndGet();
                        }
                        deal.sorted(b, new BandDeal.Sorted(k, order, k.length));
                      } else {
                        long[] k = job.sorted().keys;
                        int from = job.from();
                        int to = job.to();
                        assertThat(from).isLessThan(to);
                        assertThat(from == 0 || k[from] != k[from - 1]).isTrue();
                        assertThat(to == k.length || k[to] != k[to - 1]).isTrue();
                        boolean last;
                        synchronized (dealt) {
                          for (int i = from; i < to; i++) {
                            dealt[b][i]++;
                          }
                          last = Arrays.stream(dealt[b]).allMatch(c -> c > 0);
                        }
                        if (last) {
                          holding.decrementAndGet(); // counted down before the deal may drop it
                        }
                        deal.chunkDone(b);
                      }
                    }
                  } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                    deal.fail();
                  }
                });
        th.start();
        pool.add(th);
      }
      for (Thread th : pool) {
        th.join(60_000);
        assertThat(th.isAlive()).as("round %s: a thread still waits", round).isFalse();
      }
      assertThat(failure.get()).isNull();
      for (int b = 0; b < bands; b++) {
        assertThat(sorts[b].get()).isEqualTo(1);
        for (int i = 0; i < dealt[b].length; i++) {
          assertThat(dealt[b][i]).as("round %s band %s position %s", round, b, i).isEqualTo(1);
        }
      }
      assertThat(maxHeld.get()).isLessThanOrEqualTo(threads);
    }
  }

  @Test
  void fail_oneThreadFails_othersStopWaiting() throws Exception {
    BandDeal deal = new BandDeal(3, 2, 10);
    BandDeal.Job sort = deal.take(); // band 0's sort, never finished: the holder fails instead
    assertThat(sort.sorted()).isNull();
    BandDeal.Job sort1 = deal.take();
    assertThat(sort1.band()).isEqualTo(1);
    AtomicReference<BandDeal.Job> seen = new AtomicReference<>();
    Thread waiter =
        new Thread(
            () -> {
              try {
                seen.set(deal.take()); // nothing to take until a sort ends: waits
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    waiter.start();
    waiter.join(200);
    assertThat(waiter.isAlive()).isTrue();
    deal.fail();
    waiter.join(60_000);
    assertThat(waiter.isAlive()).isFalse();
    assertThat(seen.get()).isNull();
    assertThat(deal.take()).isNull();
  }
}
