// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.testing.TestingHBaseCluster;
import org.apache.hadoop.hbase.testing.TestingHBaseClusterOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.Document;
import org.neardup.store.FingerprintStore;
import org.neardup.store.StoreConfig;
import org.neardup.testkit.Texts;

/**
 * Check-and-insert through HBase on a mini-cluster on this machine: documents/s in batches and as
 * single calls from 16 threads, single-call p50/p99, and rows read per probe. Runs only when asked:
 * {@code mvn -B -ntp -pl store-hbase -am verify -Dsurefire.failIfNoSpecifiedTests=false
 * -Dtest=HBaseStoreBench -Dneardup.hbase.bench=N} (N documents in batches, N / 10 singles); writes
 * store-hbase/target/hbase-bench.txt.
 */
@EnabledIfSystemProperty(named = "neardup.hbase.bench", matches = "[0-9]+")
class HBaseStoreBench {

  @Test
  void checkAndInsert_throughputAndLatency() throws Exception {
    int n = Integer.parseInt(System.getProperty("neardup.hbase.bench"));
    TestingHBaseCluster cluster =
        TestingHBaseCluster.create(
            TestingHBaseClusterOption.builder()
                .numMasters(1)
                .numRegionServers(1)
                .numDataNodes(1)
                .build());
    cluster.start();
    List<String> report = new ArrayList<>();
    try (FingerprintStore store =
        HBaseStoreProvider.open(
            cluster.getConf(), new StoreConfig(Map.of(), InstantSource.system()), "mini-cluster")) {
      Collection c =
          store.create(
              "bench", CollectionSettings.defaults().withLexicon(CollectionSettings.NO_LEXICON));
      SplittableRandom r = new SplittableRandom(42);
      List<Document> docs = documents(c, r, n, "b");
      long t0 = System.nanoTime();
      for (int i = 0; i < docs.size(); i += 100) {
        c.checkAndInsertAll(docs.subList(i, Math.min(docs.size(), i + 100)));
      }
      double batchSeconds = (System.nanoTime() - t0) / 1e9;
      report.add(
          String.format(
              java.util.Locale.ROOT,
              "batches of 100: %d documents in %.1f s = %.0f documents/s",
              n,
              batchSeconds,
              n / batchSeconds));
      Map<String, Number> m0 = store.metrics();
      report.add("after batches: " + new java.util.TreeMap<>(m0));

      List<Document> singles = documents(c, r, Math.max(100, n / 10), "s");
      long[] latencies = new long[singles.size()];
      AtomicInteger next = new AtomicInteger();
      ExecutorService pool = Executors.newFixedThreadPool(16);
      List<Future<?>> futures = new ArrayList<>();
      long t1 = System.nanoTime();
      for (int t = 0; t < 16; t++) {
        futures.add(
            pool.submit(
                () -> {
                  for (int i = next.getAndIncrement();
                      i < singles.size();
                      i = next.getAndIncrement()) {
                    long s = System.nanoTime();
                    c.checkAndInsert(singles.get(i));
                    latencies[i] = System.nanoTime() - s;
                  }
                  return null;
                }));
      }
      for (Future<?> f : futures) {
        f.get(30, TimeUnit.MINUTES);
      }
      pool.shutdown();
      double singleSeconds = (System.nanoTime() - t1) / 1e9;
      Arrays.sort(latencies);
      Map<String, Number> m1 = store.metrics();
      report.add("after singles: " + new java.util.TreeMap<>(m1));
      double probes = m1.get("hbase_probes").doubleValue() - m0.get("hbase_probes").doubleValue();
      double rows =
          m1.get("hbase_rows_read").doubleValue() - m0.get("hbase_rows_read").doubleValue();
      report.add(
          String.format(
              java.util.Locale.ROOT,
              "singles, 16 threads: %d documents in %.1f s = %.0f documents/s, p50 %.1f ms, p99"
                  + " %.1f ms",
              singles.size(),
              singleSeconds,
              singles.size() / singleSeconds,
              latencies[latencies.length / 2] / 1e6,
              latencies[(int) (latencies.length * 0.99)] / 1e6));
      report.add(
          String.format(
              java.util.Locale.ROOT,
              "rows read per probe (index + document rows) with %d stored: %.1f",
              n + singles.size(),
              rows / probes));
      assertThat(c.stats().documents()).isEqualTo((long) n + singles.size());
    } finally {
      cluster.stop();
    }
    Files.write(Path.of("target", "hbase-bench.txt"), report, StandardCharsets.UTF_8);
    report.forEach(System.err::println);
  }

  /** n documents, one in four a one-word edit of an earlier one. */
  private static List<Document> documents(Collection c, SplittableRandom r, int n, String prefix)
      throws IOException {
    List<Document> out = new ArrayList<>(n);
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String text =
          i % 4 == 3 && !texts.isEmpty()
              ? Texts.edit(r, texts.get(r.nextInt(texts.size())))
              : Texts.text(r, 60);
      texts.add(text);
      out.add(new Document(prefix + i, c.analyzer().analyze(text)));
    }
    return out;
  }
}
