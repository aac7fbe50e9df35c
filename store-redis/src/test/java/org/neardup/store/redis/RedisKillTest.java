// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.Document;
import org.neardup.store.FingerprintStore;
import org.neardup.store.StoreConfig;
import org.neardup.testkit.RedisServer;
import org.neardup.testkit.Texts;

/**
 * redis-server killed with SIGKILL in the middle of a load and started again (append-only file,
 * fsync always): calls fail fast with an IOException while it is down, the store recovers by itself
 * when it is back, and every insert acknowledged before, during or after is stored.
 */
class RedisKillTest {
  @Test
  public void killMidLoad_failsFastRecoversAndLosesNothingAcknowledged() throws Exception {
    try (RedisServer server = RedisServer.start("--appendonly", "yes", "--appendfsync", "always");
        FingerprintStore store =
            new RedisStoreProvider()
                .open(
                    new StoreConfig(
                        Map.of("url", server.url(), "expire-interval", "0", "timeout-ms", "2000"),
                        InstantSource.system()))) {
      Collection c =
          store.create(
              "news", CollectionSettings.defaults().withLexicon(CollectionSettings.NO_LEXICON));
      ConcurrentLinkedQueue<String> acknowledged = new ConcurrentLinkedQueue<>();
      AtomicInteger failures = new AtomicInteger();
      AtomicLong slowestFailure = new AtomicLong();
      AtomicBoolean stop = new AtomicBoolean();
      AtomicInteger ids = new AtomicInteger();
      int threads = 8;
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      List<Future<?>> fs = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int seed = t;
        fs.add(
            pool.submit(
                () -> {
                  SplittableRandom r = new SplittableRandom(seed);
                  while (!stop.get()) {
                    String id = "d" + ids.incrementAndGet();
                    Document d = new Document(id, c.analyzer().analyze(Texts.text(r, 40)));
                    long t0 = System.nanoTime();
                    try {
                      c.checkAndInsert(d);
                      acknowledged.add(id);
                    } catch (IOException e) {
                      failures.incrementAndGet();
                      slowestFailure.accumulateAndGet(System.nanoTime() - t0, Math::max);
                      assertThat(e.getMessage()).contains("127.0.0.1:" + server.port());
                      Thread.sleep(5);
                    }
                  }
                  return null;
                }));
      }
      waitFor(() -> acknowledged.size() >= 300);
      server.kill();
      int ackedAtKill = acknowledged.size();
      waitFor(() -> failures.get() >= 20);
      assertThat(store.isHealthy()).isFalse();
      server.restart();
      waitFor(() -> acknowledged.size() >= ackedAtKill + 300);
      assertThat(store.isHealthy()).isTrue();
      stop.set(true);
      for (Future<?> f : fs) {
        f.get(60, TimeUnit.SECONDS);
      }
      pool.shutdown();
      // Failing fast: no call waited much longer than a connection timeout while Redis was down.
      assertThat(slowestFailure.get()).isLessThan(TimeUnit.SECONDS.toNanos(15));
      for (String id : acknowledged) {
        assertThat(c.get(id)).as("acknowledged %s", id).isPresent();
      }
      assertThat(c.stats().documents()).isGreaterThanOrEqualTo(acknowledged.size());
      System.out.printf(
          java.util.Locale.ROOT,
          "redis kill -9: %d acknowledged, all present; %d failed while down (slowest %.1f s)%n",
          acknowledged.size(),
          failures.get(),
          slowestFailure.get() / 1e9);
    }
  }

  private static void waitFor(java.util.function.BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waited 120 s").isLessThan(deadline);
      Thread.sleep(10);
    }
  }
}
