// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.InstantSource;
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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.testing.TestingHBaseCluster;
import org.junit.jupiter.api.Test;
import org.neardup.Analysis;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.Document;
import org.neardup.store.FingerprintStore;
import org.neardup.store.Outcome;
import org.neardup.store.StoreConfig;
import org.neardup.store.StoredDocument;

/**
 * The region server, then the whole HBase (master and region server; ZooKeeper and HDFS stay),
 * stopped and started again under a steady load of batches from four threads on one store: while
 * HBase is down calls fail with an IOException (the service's 503 with Retry-After) rather than
 * hang or fail otherwise, the store reports itself unhealthy, every insert that was acknowledged is
 * there afterwards, and the same store instance serves again with no reopening.
 */
class HBaseStoreFaultTest {

  @Test
  void restartedMidLoad_failsWithIOException_losesNothingAcknowledged_andRecovers()
      throws Exception {
    TestingHBaseCluster cluster = MiniHBase.start(); // its own: this test stops HBase
    ExecutorService pool = Executors.newFixedThreadPool(4);
    AtomicBoolean stop = new AtomicBoolean();
    try {
      Configuration conf = new Configuration(cluster.getConf());
      // Fail a call in seconds rather than after the client's default 30 s of retries.
      conf.setInt("hbase.client.retries.number", 4);
      conf.setInt("hbase.client.pause", 200);
      conf.setInt("hbase.client.operation.timeout", 8_000);
      conf.setInt("hbase.client.meta.operation.timeout", 8_000);
      conf.setInt("hbase.rpc.timeout", 4_000);
      Map<String, Long> acknowledged = new ConcurrentHashMap<>();
      AtomicInteger failures = new AtomicInteger();
      AtomicReference<Throwable> unexpected = new AtomicReference<>();
      try (FingerprintStore store =
          HBaseStoreProvider.open(
              conf, new StoreConfig(Map.of(), InstantSource.system()), "mini-cluster")) {
        Collection c =
            store.create(
                "load",
                CollectionSettings.defaults()
                    .withLexicon(CollectionSettings.NO_LEXICON)
                    .withVerify(false));
        List<Future<?>> load = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
          int thread = t;
          load.add(
              pool.submit(
                  () -> {
                    SplittableRandom r = new SplittableRandom(thread);
                    for (int seq = 0; !stop.get(); seq++) {
                      List<Document> batch = new ArrayList<>();
                      for (int i = 0; i < 10; i++) {
                        batch.add(
                            new Document(
                                "t" + thread + "-" + seq + "-" + i,
                                Analysis.ofFingerprint(r.nextLong(), 100)));
                      }
                      try {
                        for (Outcome o : c.checkAndInsertAll(batch)) {
                          if (o.stored()) {
                            acknowledged.put(o.id(), o.fingerprint());
                          }
                        }
                      } catch (IOException e) {
                        failures.incrementAndGet();
                        sleep(100);
                      } catch (Throwable e) {
                        unexpected.compareAndSet(null, e);
                        return;
                      }
                    }
                  }));
        }
        await("first inserts", () -> acknowledged.size() >= 200);

        ServerName rs = cluster.getRegionServerAddresses().get(0);
        cluster.stopRegionServer(rs).get(5, TimeUnit.MINUTES);
        int failed = failures.get();
        await("failures with the region server down", () -> failures.get() > failed);
        assertThat(store.isHealthy()).isFalse();
        cluster.startRegionServer();
        int before = acknowledged.size();
        await(
            "inserts after the region server restarted", () -> acknowledged.size() >= before + 200);

        cluster.stopHBaseCluster();
        int failed2 = failures.get();
        await("failures with HBase down", () -> failures.get() > failed2);
        cluster.startHBaseCluster();
        int before2 = acknowledged.size();
        await("inserts after HBase restarted", () -> acknowledged.size() >= before2 + 200);

        stop.set(true);
        for (Future<?> f : load) {
          f.get(5, TimeUnit.MINUTES);
        }
        assertThat(unexpected.get()).as("a call failed other than with an IOException").isNull();
        for (Map.Entry<String, Long> e : acknowledged.entrySet()) {
          StoredDocument d = c.get(e.getKey()).orElse(null);
          assertThat(d).as("acknowledged %s", e.getKey()).isNotNull();
          assertThat(d.fingerprint()).isEqualTo(e.getValue());
        }
        assertThat(store.isHealthy()).isTrue();
      }
    } finally {
      stop.set(true);
      pool.shutdownNow();
      cluster.stop();
    }
  }

  private static void await(String what, BooleanSupplier done) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 300_000;
    while (!done.getAsBoolean()) {
      assertThat(System.currentTimeMillis()).as("waiting for " + what).isLessThan(deadline);
      Thread.sleep(200);
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
