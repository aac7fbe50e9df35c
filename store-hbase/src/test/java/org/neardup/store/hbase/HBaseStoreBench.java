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
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.ConnectionImplementation;
import org.apache.hadoop.hbase.client.MetricsConnection;
import org.apache.hadoop.hbase.testing.TestingHBaseCluster;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.neardup.Analysis;
import org.neardup.index.BlockScheme;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.CollectionTransfer;
import org.neardup.store.Document;
import org.neardup.store.StoreConfig;
import org.neardup.store.StoredRecord;
import org.neardup.testkit.Texts;

/**
 * Check-and-insert through HBase on a mini-cluster in this JVM. Runs only when asked, through
 * {@code benchmarks/hbase-store.sh} or: {@code mvn -B -ntp -pl store-hbase -am verify
 * -Dsurefire.failIfNoSpecifiedTests=false -Dtest=HBaseStoreBench -Dneardup.hbase.bench=N
 * [-Dneardup.hbase.schemes=M] [-Dneardup.hbase.batch=B] [-Dneardup.hbase.preload=P]
 * [-Dneardup.hbase.singles=S] [-Dneardup.hbase.warm=W] [-Dneardup.hbase.verified-preload=V]};
 * writes store-hbase/target/hbase-bench.txt.
 *
 * <ul>
 *   <li>With W > 0, first W verified documents in batches into a collection of their own, not
 *       counted: the JIT, the caches and the connections warm, so what follows is the steady state,
 *       not the start-up.
 *   <li>With V > 0, the verified collection first gets V documents by HFile import (random
 *       fingerprints and band keys, real sketches).
 *   <li>Verified documents (60 random words, one in four a one-word edit of an earlier one, k = 3,
 *       4:1): N in batches of B (200) from one thread, documents/s and p50/p99 per batch call; then
 *       S (N / 10) single calls from 16 threads, documents/s and p50/p99 per call.
 *   <li>With M > 0, fingerprints only, 4:1 and 5:2 side by side (each in its own tables): M
 *       fingerprints in batches of B, one in four within 3 bits of an earlier one; documents/s,
 *       block rows the scans returned per check, and bytes per fingerprint of the index table on
 *       disk after a flush and a major compaction.
 * </ul>
 */
@EnabledIfSystemProperty(named = "neardup.hbase.bench", matches = "[0-9]+")
class HBaseStoreBench {
  private final List<String> report = java.util.Collections.synchronizedList(new ArrayList<>());

  // Each step's bound (STEP_LIMIT in hbase-store.sh, seconds): a step still running after it
  // writes every thread's stack to target/hbase-bench-stall-threads.txt, names itself in the
  // report and ends the JVM (StepLimit).
  private static final java.time.Duration STEP =
      java.time.Duration.ofSeconds(Long.getLong("neardup.hbase.step-limit", 600));
  private final StepLimit limits =
      new StepLimit(
          Path.of("target", "hbase-bench-stall-threads.txt"),
          line -> {
            report.add(line);
            try {
              save();
            } catch (IOException e) {
              System.err.println(line + " (the report not saved: " + e + ")");
            }
          },
          () -> Runtime.getRuntime().halt(3));

  // The mini-cluster in this JVM, or null with neardup.hbase.zookeeper (an HBase in another
  // process, such as `neardup dev hbase`, whose CPU the /proc of neardup.hbase.server-pid shows).
  private @Nullable TestingHBaseCluster cluster;
  private Configuration conf = new Configuration(false);
  private @Nullable ServerCpu server;

  @Test
  void checkAndInsert_throughputLatencyAndSize() throws Exception {
    int n = Integer.parseInt(System.getProperty("neardup.hbase.bench"));
    int m = Integer.parseInt(System.getProperty("neardup.hbase.schemes", "0"));
    int batch = Integer.parseInt(System.getProperty("neardup.hbase.batch", "200"));
    int preload = Integer.parseInt(System.getProperty("neardup.hbase.preload", "0"));
    // The files a compaction replaced go to the archive, which the master's cleaner empties only
    // after 5 minutes: a 10M preload's compaction would hold its table twice on disk meanwhile.
    String zookeeper = System.getProperty("neardup.hbase.zookeeper");
    if (zookeeper == null) {
      try (StepLimit.Step s = step("the mini-cluster's start")) {
        Map<String, String> settings = new TreeMap<>();
        settings.put("hbase.master.hfilecleaner.ttl", "5000");
        settings.put("hbase.master.cleaner.interval", "5000");
        // RS_CONF in hbase-store.sh: the mini-cluster's settings ("key=value ..."), such as the
        // region server's block cache (an off-heap BucketCache that holds a 10M index).
        for (String kv : System.getProperty("neardup.hbase.rs-conf", "").trim().split("\\s+")) {
          if (!kv.isEmpty()) {
            int eq = kv.indexOf('=');
            settings.put(kv.substring(0, eq), kv.substring(eq + 1));
          }
        }
        cluster = MiniHBase.start(settings);
        if (System.getProperty("neardup.hbase.rs-conf") != null) {
          report.add("mini-cluster settings: " + settings);
        }
      }
      conf = cluster.getConf();
    } else {
      conf = HBaseConfiguration.create();
      int colon = zookeeper.lastIndexOf(':');
      conf.set(HConstants.ZOOKEEPER_QUORUM, zookeeper.substring(0, colon));
      conf.set(HConstants.ZOOKEEPER_CLIENT_PORT, zookeeper.substring(colon + 1));
      String pid = System.getProperty("neardup.hbase.server-pid");
      server = pid == null ? null : new ServerCpu(Long.parseLong(pid));
      report.add(
          "HBase in another process: zookeeper "
              + zookeeper
              + (pid == null ? "" : ", its CPU from /proc/" + pid));
    }
    report.add(
        String.format(
            Locale.ROOT,
            "machine: %d cores, load %s",
            Runtime.getRuntime().availableProcessors(),
            Files.readString(Path.of("/proc/loadavg")).trim()));
    report.add(
        "index family options: "
            + System.getProperty("neardup.hbase.index-family", "(the store's defaults)"));
    try {
      // The report is rewritten after each step, so that a run stopped midway (a 10M preload
      // on a machine short of memory) keeps what it measured.
      save();
      if (n > 0) {
        verified(n, batch);
        save();
      }
      // FP_SCHEMES in hbase-store.sh: one of them alone, as a 10M preload of each may not fit on
      // the disk beside the other.
      List<String> fpSchemes =
          List.of(System.getProperty("neardup.hbase.fp-schemes", "4:1,5:2").split(","));
      // FILTER_AB in hbase-store.sh: the region servers' distance filter off and on, interleaved.
      int filterRounds = Integer.getInteger("neardup.hbase.filter-ab", 0);
      for (String scheme : m > 0 ? fpSchemes : List.<String>of()) {
        if (filterRounds > 0) {
          filterAb(BlockScheme.parse(scheme), m, batch, preload, filterRounds);
        } else {
          fingerprints(BlockScheme.parse(scheme), m, batch, preload);
        }
        save();
      }
      // PURGE in hbase-store.sh: a drop's purge of that many verified documents, old against new.
      int purge = Integer.getInteger("neardup.hbase.purge", 0);
      if (purge > 0) {
        purgeAb(purge, Integer.getInteger("neardup.hbase.purge-rounds", 1));
        save();
      }
    } finally {
      if (cluster != null) {
        try (StepLimit.Step s = step("the mini-cluster's stop")) {
          cluster.stop();
        }
      }
      save();
      report.forEach(System.err::println);
      limits.close();
    }
  }

  private void save() throws IOException {
    synchronized (report) {
      Files.write(Path.of("target", "hbase-bench.txt"), report, StandardCharsets.UTF_8);
    }
  }

  /** Arms the bound of the step about to run ({@link #STEP}); closing the step disarms it. */
  private StepLimit.Step step(String name) {
    return limits.step(name, STEP);
  }

  private HBaseStore open(String tables) throws IOException {
    return open(tables, BlockScheme.DEFAULT);
  }

  /** The store on the given tables whose collections are created with {@code scheme}. */
  private HBaseStore open(String tables, BlockScheme scheme) throws IOException {
    // The client counts its RPCs by method (one registry per scope, shared by the store's
    // synchronous and asynchronous connections).
    Configuration c = new Configuration(conf);
    c.setBoolean(MetricsConnection.CLIENT_SIDE_METRICS_ENABLED_KEY, true);
    c.set(MetricsConnection.METRICS_SCOPE_KEY, "bench-" + tables);
    return (HBaseStore)
        HBaseStoreProvider.open(
            c, new StoreConfig(options(tables, scheme), InstantSource.system()), "bench");
  }

  /**
   * The store's options: the tables, the scheme, and the index family's settings given in {@code
   * neardup.hbase.index-family} ({@code key=value} pairs separated by spaces, INDEX_FAMILY in
   * hbase-store.sh), which apply when the store creates the tables.
   */
  private static Map<String, String> options(String tables, BlockScheme scheme) {
    Map<String, String> out = new TreeMap<>();
    out.put("table-prefix", tables);
    out.put("scheme", scheme.toString());
    for (String kv : System.getProperty("neardup.hbase.index-family", "").trim().split("\\s+")) {
      if (!kv.isEmpty()) {
        int eq = kv.indexOf('=');
        out.put(kv.substring(0, eq), kv.substring(eq + 1));
      }
    }
    return out;
  }

  /**
   * The verified phase's tables: one set per scheme, so that an HBase of another process, which
   * keeps them between runs, holds a preloaded collection of each.
   */
  private static String verifiedTables(BlockScheme scheme) {
    return "verified" + scheme.blocks() + scheme.required();
  }

  /** The verified phase's block scheme: {@code neardup.hbase.verified-scheme}, 4:1 by default. */
  private static BlockScheme verifiedScheme() {
    return BlockScheme.parse(System.getProperty("neardup.hbase.verified-scheme", "4:1"));
  }

  /** The RPCs the store's client sent so far, by method (Get, Multi, Scan, Mutate, ...). */
  private static Map<String, Long> rpcs(HBaseStore store) {
    Map<String, Long> out = new TreeMap<>();
    if (store.connection() instanceof ConnectionImplementation c
        && c.getConnectionMetrics() != null) {
      c.getConnectionMetrics()
          .getRpcCounters()
          .forEach(
              (k, v) -> {
                if (k.startsWith("rpcCount_ClientService_")) {
                  out.put(k.substring("rpcCount_ClientService_".length()), v.getCount());
                }
              });
    }
    return out;
  }

  /** The verified collections' settings: the defaults, with CAPACITY and RETENTION if given. */
  private static CollectionSettings verifiedSettings() {
    CollectionSettings settings =
        CollectionSettings.defaults().withLexicon(CollectionSettings.NO_LEXICON);
    // A smaller sketch capacity (CAPACITY in hbase-store.sh) where the default's sketches would not
    // fit on the disk at 10M (the texts' 60 words give ~58 shingles, under the default 512).
    Integer capacity = Integer.getInteger("neardup.hbase.capacity");
    if (capacity != null) {
      settings = settings.withAnalysis(settings.analysis().withSketchCapacity(capacity.intValue()));
    }
    // RETENTION in hbase-store.sh (an ISO-8601 duration, PT0S keeps documents forever: no TTL tags
    // and no expiry rows, fewer bytes at 10M).
    String retention = System.getProperty("neardup.hbase.retention");
    if (retention != null) {
      settings = settings.withRetention(java.time.Duration.parse(retention));
    }
    return settings;
  }

  private void verified(int n, int batch) throws Exception {
    CollectionSettings settings = verifiedSettings();
    if (Integer.getInteger("neardup.hbase.capacity") != null) {
      report.add(
          "verified collections' sketch capacity: " + Integer.getInteger("neardup.hbase.capacity"));
    }
    if (System.getProperty("neardup.hbase.retention") != null) {
      report.add(
          "verified collections' retention: " + System.getProperty("neardup.hbase.retention"));
    }
    int stored = Integer.getInteger("neardup.hbase.verified-preload", 0);
    BlockScheme scheme = verifiedScheme();
    String label = "verified, " + scheme;
    boolean bytes = Boolean.getBoolean("neardup.hbase.verified-bytes");
    // An HBase of another process keeps its tables between runs: a preloaded collection is used
    // again, and each run's documents and warm-up collection are its own.
    boolean again = false;
    if (stored > 0 && cluster == null) {
      try (HBaseStore store = open(verifiedTables(scheme), scheme)) {
        Collection old = store.collection("bench");
        if (old != null) {
          report.add(
              "using the stored collection again: " + old.stats().documents() + " documents");
          again = true;
        }
      }
    }
    if (stored > 0 && !again) {
      preloadVerified(settings, stored, scheme);
      if (bytes) {
        // Compacted before the checks: one file per region, as a store that has run for a while.
        try (HBaseStore store = open(verifiedTables(scheme), scheme)) {
          verifiedBytes(store, "verified, " + scheme + ", the preload", stored);
          prefetched(store, stored);
        }
      }
    }
    try (HBaseStore store = open(verifiedTables(scheme), scheme)) {
      int warm = Integer.getInteger("neardup.hbase.warm", 0);
      if (warm > 0) {
        // A collection of its own in the same tables, so the measured one starts empty while the
        // JIT, the region server's caches and the client's connections are warm.
        Collection w =
            store.create(cluster == null ? "warm-" + System.currentTimeMillis() : "warm", settings);
        List<Document> warmDocs = documents(w, new SplittableRandom(41), warm, "w");
        // In parts of neardup.hbase.warm-part documents (WARM_PART in hbase-store.sh), each with
        // its own CPU split, so that one run shows when the JIT's share stops falling.
        int part = Integer.getInteger("neardup.hbase.warm-part", warm);
        for (int i = 0; i < warm; i += part) {
          int end = Math.min(warm, i + part);
          batches(
              store,
              w,
              warmDocs.subList(i, end),
              batch,
              "warm-up (not the figure), documents " + (i + 1) + "-" + end + ", " + label);
        }
      }
      Collection c = stored > 0 ? store.collection("bench") : store.create("bench", settings);
      long before = c.stats().documents();
      // The documents already stored seed a run on a collection used again: new texts and ids.
      SplittableRandom r = new SplittableRandom(again ? before : 42);
      String ids = again ? before + "-" : "";
      List<Document> docs = documents(c, r, n, "b" + ids);
      batches(
          store,
          c,
          docs,
          batch,
          label
              + (stored > 0 ? ", " + stored + " stored before" : "")
              + (warm > 0 ? ", after the warm-up" : ""));
      Map<String, Number> m0 = store.metrics();

      int count = Integer.getInteger("neardup.hbase.singles", Math.max(100, n / 10));
      List<Document> singles = documents(c, r, count, "s" + ids);
      long[] latencies = new long[singles.size()];
      AtomicInteger next = new AtomicInteger();
      ExecutorService pool = Executors.newFixedThreadPool(16);
      List<Future<?>> futures = new ArrayList<>();
      long t1 = System.nanoTime();
      long cpu1 = cpuNanos();
      ThreadsCpu threads1 = threadCpu();
      Map<String, Long> server1 = server == null ? Map.of() : server.snapshot();
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
      try (StepLimit.Step s = step(label + ", singles")) {
        for (Future<?> f : futures) {
          f.get(60, TimeUnit.MINUTES);
        }
      }
      double seconds = (System.nanoTime() - t1) / 1e9;
      double cpuMs = (cpuNanos() - cpu1) / 1e6;
      Map<String, Number> m1 = store.metrics();
      report.add(
          String.format(
              Locale.ROOT,
              label
                  + ", singles from 16 threads: %d documents in %.1f s = %.0f documents/s,"
                  + " per call p50 %.1f ms, p99 %.1f ms, %d commits, %.2f ms CPU per document",
              singles.size(),
              seconds,
              singles.size() / seconds,
              percentile(latencies, 0.5),
              percentile(latencies, 0.99),
              m1.get("hbase_commits").longValue() - m0.get("hbase_commits").longValue(),
              cpuMs / singles.size()));
      report.add(cpuByThreads(threads1, singles.size(), cpuMs)); // the pool's threads still alive
      if (server != null) {
        report.add(server.since(server1, singles.size()));
      }
      pool.shutdown();
      report.add("metrics: " + new TreeMap<>(m1));
      assertThat(c.stats().documents()).isEqualTo(before + n + singles.size());
      if (bytes && stored == 0) {
        // Both tables hold the warm-up collection too: per document of the two collections.
        verifiedBytes(store, label, c.stats().documents() + warm);
      }
    }
  }

  /**
   * Waits for the region server's prefetch of the index's store files (the index family's {@code
   * index-prefetch}, started when a file opens) to end, and reports the time and the JVM's CPU that
   * took, per stored document, so that a side with the prefetch on counts its cost beside the
   * checks' (a side without it waits for nothing). On the mini-cluster only.
   */
  private void prefetched(HBaseStore store, int stored) throws Exception {
    if (cluster == null) {
      return;
    }
    long t0 = System.nanoTime();
    long cpu0 = cpuNanos();
    ThreadsCpu threads0 = threadCpu();
    List<org.apache.hadoop.fs.Path> files = new ArrayList<>();
    try (StepLimit.Step s = step("the index's prefetch");
        org.apache.hadoop.hbase.client.Admin admin = store.connection().getAdmin()) {
      for (org.apache.hadoop.hbase.client.RegionInfo region : admin.getRegions(store.index)) {
        var r = cluster.getRegion(region);
        if (r.isPresent()) {
          for (org.apache.hadoop.hbase.regionserver.HStore h :
              ((org.apache.hadoop.hbase.regionserver.HRegion) r.get()).getStores()) {
            for (org.apache.hadoop.hbase.regionserver.HStoreFile f : h.getStorefiles()) {
              files.add(f.getPath());
            }
          }
        }
      }
      while (!files.stream()
          .allMatch(org.apache.hadoop.hbase.io.hfile.PrefetchExecutor::isCompleted)) {
        Thread.sleep(100);
      }
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    double cpuMs = (cpuNanos() - cpu0) / 1e6;
    report.add(
        String.format(
            Locale.ROOT,
            "the index's prefetch after the compaction (%d store files): %.1f s, %.0f ms of the"
                + " JVM's CPU = %.4f ms per stored document",
            files.size(),
            seconds,
            cpuMs,
            cpuMs / stored));
    report.add(cpuByThreads(threads0, stored, cpuMs));
    // Every prefetch so far (the import's bulk-loaded files too), the region server's side of it:
    // the prefetch threads' CPU since they started (the DataNode's sending is not in it).
    java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
    long prefetchNanos = 0;
    for (java.lang.management.ThreadInfo t : mx.getThreadInfo(mx.getAllThreadIds())) {
      if (t != null && t.getThreadName().startsWith("hfile-prefetch")) {
        prefetchNanos += Math.max(0, mx.getThreadCpuTime(t.getThreadId()));
      }
    }
    report.add(
        String.format(
            Locale.ROOT,
            "the prefetch threads' CPU since the mini-cluster's start: %.0f ms = %.4f ms per stored"
                + " document",
            prefetchNanos / 1e6,
            prefetchNanos / 1e6 / stored));
  }

  /** The verified tables' bytes on disk after a flush and a major compaction, per document. */
  private void verifiedBytes(HBaseStore store, String what, long all) throws Exception {
    if (cluster == null) {
      report.add(what + ": bytes on disk measured only on the mini-cluster");
      return;
    }
    long t0 = System.nanoTime();
    long index;
    long documents;
    try (StepLimit.Step s = step(what + ": flush and major compaction")) {
      index = MiniHBase.onDisk(cluster, store.index);
      documents = MiniHBase.onDisk(cluster, store.docs);
    }
    report.add(
        String.format(
            Locale.ROOT,
            "%s: after flush + major compaction (%.0f s), index table %,d bytes = %.1f bytes per"
                + " document, documents table %,d bytes = %.1f bytes per document (%,d documents)",
            what,
            (System.nanoTime() - t0) / 1e9,
            index,
            index / (double) all,
            documents,
            documents / (double) all,
            all));
    save();
  }

  private void fingerprints(BlockScheme scheme, int m, int batch, int preload) throws Exception {
    String tables = "fp" + scheme.blocks() + scheme.required();
    CollectionSettings settings =
        CollectionSettings.defaults().withLexicon(CollectionSettings.NO_LEXICON).withVerify(false);
    if (preload > 0) {
      preload(tables, scheme, settings, preload);
    }
    try (HBaseStore store = open(tables)) {
      Collection c =
          preload > 0 ? store.collection("bench") : store.create("bench", settings, scheme);
      SplittableRandom r = new SplittableRandom(7);
      List<Document> docs = new ArrayList<>(m);
      long[] fps = new long[m];
      for (int i = 0; i < m; i++) {
        long fp = r.nextLong();
        if (i % 4 == 3) {
          fp = fps[r.nextInt(i)];
          for (int b = r.nextInt(4); b > 0; b--) {
            fp ^= 1L << r.nextInt(64);
          }
        }
        fps[i] = fp;
        docs.add(new Document("f" + i, Analysis.ofFingerprint(fp, 100)));
      }
      batches(
          store,
          c,
          docs,
          batch,
          "fingerprints, " + scheme + (preload > 0 ? ", " + preload + " stored before" : ""));
      assertThat(c.stats().documents()).isEqualTo((long) preload + m);
      Map<String, Number> metrics = store.metrics();
      if (preload > 0) {
        report.add(
            String.format(
                Locale.ROOT,
                "fingerprints, %s: %.2f block rows per check with %d to %d stored",
                scheme,
                metrics.get("hbase_block_rows_read").doubleValue()
                    / metrics.get("hbase_probes").doubleValue(),
                preload,
                preload + m));
        return; // a major compaction of the preloaded tables would take minutes
      }
      double blockRows =
          metrics.get("hbase_block_rows_read").doubleValue()
              / metrics.get("hbase_probes").doubleValue();
      if (cluster == null) {
        return; // bytes on disk only on the mini-cluster
      }
      long bytes;
      try (StepLimit.Step s = step("fingerprints, " + scheme + ": flush and major compaction")) {
        bytes = MiniHBase.onDisk(cluster, store.index);
      }
      report.add(
          String.format(
              Locale.ROOT,
              "fingerprints, %s: %.2f block rows per check (average over the load), index table"
                  + " %,d bytes on disk after flush + major compaction = %.1f bytes per"
                  + " fingerprint (%d tables)",
              scheme,
              blockRows,
              bytes,
              bytes / (double) m,
              scheme.tables()));
    }
  }

  /**
   * A store option's two values side by side on one collection of {@code preload} random
   * fingerprints ({@code neardup.hbase.ab-option}, default {@code server-filter}, the region
   * servers' distance filter {@link BlockDistanceFilter}; {@code neardup.hbase.ab-values}, the old
   * value first, default {@code off,auto}): two stores on the same tables, one with each value,
   * take turns, each round {@code m} new fingerprints per side in batches (one in four within 3
   * bits of an earlier one of its side), the side going first alternating. Per side and round: CPU
   * per document by kind of thread, block rows returned per check, documents/s; then the medians of
   * the rounds' new / old ratios.
   */
  private void filterAb(BlockScheme scheme, int m, int batch, int preload, int rounds)
      throws Exception {
    String tables = "ab" + scheme.blocks() + scheme.required();
    CollectionSettings settings =
        CollectionSettings.defaults().withLexicon(CollectionSettings.NO_LEXICON).withVerify(false);
    preload(tables, scheme, settings, Math.max(1, preload));
    String option = System.getProperty("neardup.hbase.ab-option", "server-filter");
    String[] names = System.getProperty("neardup.hbase.ab-values", "off,auto").split(",");
    Map<String, String> offOptions = options(tables, scheme);
    offOptions.put(option, names[0]);
    Map<String, String> onOptions = options(tables, scheme);
    onOptions.put(option, names[1]);
    try (HBaseStore off = openWith(offOptions, tables + "-off");
        HBaseStore on = openWith(onOptions, tables + "-on")) {
      HBaseStore[] stores = {off, on};
      Collection[] cs = {off.collection("bench"), on.collection("bench")};
      SplittableRandom[] r = {new SplittableRandom(11), new SplittableRandom(13)};
      List<List<Long>> fps = List.of(new ArrayList<>(), new ArrayList<>());
      double[][] perRound = new double[rounds][]; // new / old: handlers, all CPU, docs/s
      for (int round = 0; round < rounds; round++) {
        double[][] side = new double[2][];
        for (int turn = 0; turn < 2; turn++) {
          int s = (round + turn) % 2;
          List<Document> docs = new ArrayList<>(m);
          for (int i = 0; i < m; i++) {
            List<Long> mine = fps.get(s);
            long fp = r[s].nextLong();
            if (i % 4 == 3 && !mine.isEmpty()) {
              fp = mine.get(r[s].nextInt(mine.size()));
              for (int b = r[s].nextInt(4); b > 0; b--) {
                fp ^= 1L << r[s].nextInt(64);
              }
            }
            mine.add(fp);
            docs.add(new Document(names[s] + round + "-" + i, Analysis.ofFingerprint(fp, 100)));
          }
          Map<String, Number> metrics0 = stores[s].metrics();
          long t0 = System.nanoTime();
          long cpu0 = cpuNanos();
          ThreadsCpu threads0 = threadCpu();
          // Threads started: the mini-cluster's DataNode starts one per connection a block read
          // opens; a count, so it does not move with the machine's load.
          long started0 = startedThreads();
          try (StepLimit.Step step =
              step(option + " A/B, round " + (round + 1) + ", " + names[s])) {
            for (int i = 0; i < m; i += batch) {
              cs[s].checkAndInsertAll(docs.subList(i, Math.min(m, i + batch)));
            }
          }
          double started = (startedThreads() - started0) / (double) m;
          double seconds = (System.nanoTime() - t0) / 1e9;
          double cpuMs = (cpuNanos() - cpu0) / 1e6;
          Map<String, Long> byKind = cpuSince(threads0, cpuMs);
          Map<String, Number> metrics1 = stores[s].metrics();
          double probes = delta(metrics0, metrics1, "hbase_probes");
          double handlers = byKind.getOrDefault("region-server-rpc", 0L) / 1e6 / m;
          side[s] = new double[] {handlers, cpuMs / m, m / seconds};
          report.add(
              String.format(
                  Locale.ROOT,
                  "%s A/B, %s, %d stored, round %d, %s: %.0f documents/s, %.3f ms CPU"
                      + " per document (region-server-rpc %.3f, hbase-client %.3f, caller %.3f),"
                      + " %.2f block rows returned per check, %.3f threads started per document,"
                      + " server filter in use: %s",
                  option,
                  scheme,
                  preload,
                  round + 1,
                  names[s],
                  m / seconds,
                  cpuMs / m,
                  handlers,
                  byKind.getOrDefault("hbase-client", 0L) / 1e6 / m,
                  byKind.getOrDefault("caller", 0L) / 1e6 / m,
                  delta(metrics0, metrics1, "hbase_block_rows_read") / probes,
                  started,
                  metrics1.get("hbase_server_filter")));
          report.add("  " + perDocument("CPU ms per document by thread kind:", byKind, m));
          save();
        }
        perRound[round] =
            new double[] {
              side[1][0] / side[0][0], side[1][1] / side[0][1], side[1][2] / side[0][2]
            };
      }
      report.add(
          String.format(
              Locale.ROOT,
              "%s A/B, %s, %d stored, %s / %s, median of %d rounds: region-server-rpc CPU per"
                  + " document %.3f, the JVM's CPU per document %.3f, documents/s %.3f (rounds: %s)",
              option,
              scheme,
              preload,
              names[1],
              names[0],
              rounds,
              median(perRound, 0),
              median(perRound, 1),
              median(perRound, 2),
              Arrays.stream(perRound)
                  .map(x -> String.format(Locale.ROOT, "%.3f/%.3f/%.3f", x[0], x[1], x[2]))
                  .toList()));
    }
  }

  /** The purge A/B's new side: slices under way at once against one, the purge's calls before. */
  private static final int MORE_IN_FLIGHT = Purge.IN_FLIGHT;

  /**
   * A drop's purge of {@code count} verified documents, one slice at a time (the calls of the purge
   * before {@link Purge}) against {@link #MORE_IN_FLIGHT} slices under way (the store's default),
   * side by side: each round imports two collections of {@code count} random verified documents (as
   * the STORED preload) into one set of tables, then drops them one after the other, the side going
   * first alternating. Per drop: its time, documents/s, the JVM's CPU per document (client and
   * mini-cluster), and every 10 s the store's {@code hbase_purged_documents}; then the medians of
   * the rounds' new / old ratios.
   */
  private void purgeAb(int count, int rounds) throws Exception {
    BlockScheme scheme = verifiedScheme();
    String tables = "purge" + scheme.blocks() + scheme.required();
    CollectionSettings settings = verifiedSettings();
    int[] inFlight = {1, MORE_IN_FLIGHT};
    double[][] perRound = new double[rounds][]; // new / old: documents/s, CPU per document
    try (HBaseStore store = hfileStore(tables, scheme)) {
      for (int round = 0; round < rounds; round++) {
        for (int s = 0; s < 2; s++) {
          importVerified(store, "purge-" + round + "-" + s, settings, count, 3000L + 2 * round + s);
        }
        double[][] side = new double[2][];
        for (int turn = 0; turn < 2; turn++) {
          int s = (round + turn) % 2;
          String name = "purge-" + round + "-" + s;
          // Each drop from the same state: without this the side going second was the slower in 4
          // of 5 rounds (the first drop's delete markers in the memstores, its flushes running).
          try (StepLimit.Step step = step("the flush before the drop of " + name)) {
            settle(store);
          }
          store.purgeInFlight = inFlight[s];
          long purged0 = store.purged.sum();
          long t0 = System.nanoTime();
          long cpu0 = cpuNanos();
          // Progress as an operator sees it: the store's counter, every 10 s.
          java.util.concurrent.ScheduledExecutorService progress =
              Executors.newSingleThreadScheduledExecutor();
          progress.scheduleAtFixedRate(
              () -> {
                report.add(
                    String.format(
                        Locale.ROOT,
                        "  purge of %s under way: %d of %d documents deleted after %.0f s",
                        name,
                        store.purged.sum() - purged0,
                        count,
                        (System.nanoTime() - t0) / 1e9));
                try {
                  save();
                } catch (IOException e) {
                  // the next save writes it
                }
              },
              10,
              10,
              TimeUnit.SECONDS);
          boolean dropped;
          try (StepLimit.Step step = step("the drop of " + name + " (" + count + " documents)")) {
            dropped = store.drop(name);
          } finally {
            progress.shutdownNow();
          }
          double seconds = (System.nanoTime() - t0) / 1e9;
          double cpuMs = (cpuNanos() - cpu0) / 1e6;
          long deleted = store.purged.sum() - purged0;
          assertThat(dropped).isTrue();
          assertThat(deleted).isEqualTo(count);
          side[s] = new double[] {count / seconds, cpuMs / count};
          report.add(
              String.format(
                  Locale.ROOT,
                  "purge A/B, %s, round %d, %d slice(s) under way: %d documents dropped in %.1f s"
                      + " = %.0f documents/s, %.3f ms CPU per document (load %s)",
                  scheme,
                  round + 1,
                  inFlight[s],
                  deleted,
                  seconds,
                  count / seconds,
                  cpuMs / count,
                  Files.readString(Path.of("/proc/loadavg")).trim()));
          save();
        }
        perRound[round] = new double[] {side[1][0] / side[0][0], side[1][1] / side[0][1]};
      }
    }
    report.add(
        String.format(
            Locale.ROOT,
            "purge A/B, %s, %d documents per drop, %d / 1 slices under way, median of %d rounds:"
                + " documents/s %.3f, the JVM's CPU per document %.3f (rounds: %s)",
            scheme,
            count,
            MORE_IN_FLIGHT,
            rounds,
            median(perRound, 0),
            median(perRound, 1),
            Arrays.stream(perRound)
                .map(x -> String.format(Locale.ROOT, "%.3f/%.3f", x[0], x[1]))
                .toList()));
  }

  /** Flushes the store's index and documents tables and waits (up to 2 minutes) for compactions. */
  private static void settle(HBaseStore store) throws IOException, InterruptedException {
    try (org.apache.hadoop.hbase.client.Admin admin = store.connection().getAdmin()) {
      admin.flush(store.index);
      admin.flush(store.docs);
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
      while (System.nanoTime() < deadline
          && (admin.getCompactionState(store.index)
                  != org.apache.hadoop.hbase.client.CompactionState.NONE
              || admin.getCompactionState(store.docs)
                  != org.apache.hadoop.hbase.client.CompactionState.NONE)) {
        Thread.sleep(500);
      }
    }
  }

  private static long startedThreads() {
    return java.lang.management.ManagementFactory.getThreadMXBean().getTotalStartedThreadCount();
  }

  private static double median(double[][] rows, int column) {
    double[] v = Arrays.stream(rows).mapToDouble(x -> x[column]).sorted().toArray();
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  /** A store with the given options, its client's RPCs counted in a registry of its own. */
  private HBaseStore openWith(Map<String, String> options, String scope) throws IOException {
    Configuration c = new Configuration(conf);
    c.setBoolean(MetricsConnection.CLIENT_SIDE_METRICS_ENABLED_KEY, true);
    c.set(MetricsConnection.METRICS_SCOPE_KEY, "bench-" + scope);
    return (HBaseStore)
        HBaseStoreProvider.open(c, new StoreConfig(options, InstantSource.system()), "bench");
  }

  /** The store on the given tables that imports by writing HFiles ({@code import=hfiles}). */
  private HBaseStore hfileStore(String tables, BlockScheme scheme) throws IOException {
    Map<String, String> options = options(tables, scheme);
    options.put("import", "hfiles");
    options.put(
        "bulk-dir", System.getProperty("neardup.hbase.bulk-dir", "/tmp") + "/bench-" + tables);
    // IMPORT_ENCODING=family in hbase-store.sh: the imported files in the families' encodings, so
    // that a 10M preload fits on the disk before its first major compaction.
    String encoding = System.getProperty("neardup.hbase.import-encoding");
    if (encoding != null) {
      options.put("import-encoding", encoding);
    }
    return (HBaseStore)
        HBaseStoreProvider.open(conf, new StoreConfig(options, InstantSource.system()), "bench");
  }

  /**
   * Imports {@code count} verified documents into collection "bench" of the verified tables as
   * HFiles ({@code import=hfiles}), each its own cluster: random fingerprints and band keys (so the
   * measured documents meet them in the block rows they scan, as in a store that has run for a
   * while, and rarely as candidates), each with the sketch of one of 256 real texts.
   */
  private void preloadVerified(CollectionSettings settings, int count, BlockScheme scheme)
      throws IOException {
    long t0 = System.nanoTime();
    try (HBaseStore store = hfileStore(verifiedTables(scheme), scheme)) {
      importVerified(store, "bench", settings, count, 2027);
    }
    report.add(
        String.format(
            Locale.ROOT,
            "preloaded %d verified documents (%s, import=hfiles) in %.1f s",
            count,
            scheme,
            (System.nanoTime() - t0) / 1e9));
    save();
  }

  /**
   * Imports {@code count} random verified documents (fingerprints and band keys from {@code seed},
   * sketches of 256 real texts) into a new collection {@code name} of the store ({@code
   * import=hfiles}), and registers it.
   */
  private void importVerified(
      HBaseStore store, String name, CollectionSettings settings, int count, long seed)
      throws IOException {
    long t0 = System.nanoTime();
    // In parts of neardup.hbase.preload-part documents (PRELOAD_PART in hbase-store.sh), each an
    // import of its own into the one unregistered collection, so that the importer holds one part's
    // rows at a time: 10M verified documents at once would take ~5-6 GB of heap.
    int part = Integer.getInteger("neardup.hbase.preload-part", count);
    HBaseCollection c = store.unregistered(name, settings);
    SplittableRandom r = new SplittableRandom(seed);
    byte[][] sketches = new byte[256][];
    int bands = 0;
    for (int i = 0; i < sketches.length; i++) {
      Analysis a = settings.deduplicator().analyzer().analyze(Texts.text(r, 60));
      sketches[i] = a.sketch().shingles().encode();
      bands = a.sketch().bandKeys().length;
    }
    long now = System.currentTimeMillis();
    long exp = settings.expiresAt(now, now);
    for (int from = 0; from < count; from += part) {
      try (StepLimit.Step step =
              step(
                  "the import of verified documents "
                      + (from + 1)
                      + "-"
                      + Math.min(count, from + part)
                      + " of "
                      + count
                      + " into "
                      + name);
          HFileImporter importer =
              new HFileImporter(
                  store, c, settings.deduplicator().analyzer(), store.bulkDir, false)) {
        for (int i = from; i < Math.min(count, from + part); i++) {
          String id = "p" + i;
          long[] keys = new long[bands];
          for (int b = 0; b < bands; b++) {
            keys[b] = r.nextLong();
          }
          importer.add(
              new StoredRecord(
                  i, id, r.nextLong(), now, exp, i, id, keys, sketches[i & (sketches.length - 1)]));
        }
        finish(importer);
      }
      report.add(
          String.format(
              Locale.ROOT,
              "  %s: %d of %d verified documents loaded, %.1f s",
              name,
              Math.min(count, from + part),
              count,
              (System.nanoTime() - t0) / 1e9));
      save();
    }
    HBaseTransfer.complete(store, c, count - 1, count);
  }

  /**
   * Imports {@code count} random fingerprints into collection "bench" of the given tables as HFiles
   * ({@code import=hfiles}), each its own cluster, as a store that has run for a while holds them.
   */
  private void preload(String tables, BlockScheme scheme, CollectionSettings settings, int count)
      throws IOException {
    long t0 = System.nanoTime();
    String phases = "";
    try (StepLimit.Step step = step("the import of " + count + " fingerprints (" + scheme + ")");
        HBaseStore store = hfileStore(tables, scheme);
        CollectionTransfer.Importer importer =
            CollectionTransfer.of(store)
                .importer("bench", settings, settings.deduplicator().analyzer().id())) {
      SplittableRandom r = new SplittableRandom(2026);
      long now = System.currentTimeMillis();
      long exp = settings.expiresAt(now, now);
      for (int i = 0; i < count; i++) {
        String id = "p" + i;
        importer.add(
            new StoredRecord(i, id, r.nextLong(), now, exp, i, id, new long[0], new byte[0]));
      }
      finish(importer);
      if (importer instanceof HFileImporter h) {
        phases =
            String.format(
                Locale.ROOT,
                " (adding %.1f s, sorting and writing %.1f s, bulk load %.1f s)",
                h.addNanos / 1e9,
                h.sortWriteNanos / 1e9,
                h.loadNanos / 1e9);
      }
    }
    report.add(
        String.format(
            Locale.ROOT,
            "preloaded %d fingerprints (%s, import=hfiles) in %.1f s%s",
            count,
            scheme,
            (System.nanoTime() - t0) / 1e9,
            phases));
    save();
  }

  /**
   * Finishes the import; a failure goes into the report (and is saved) before it is thrown, since
   * the importer's close() then deletes what was loaded, which for millions of documents takes
   * long.
   */
  private void finish(CollectionTransfer.Importer importer) throws IOException {
    try {
      importer.finish();
    } catch (IOException | RuntimeException | Error e) {
      report.add(
          "the import failed: " + e + (e.getCause() == null ? "" : ", cause " + e.getCause()));
      save();
      throw e;
    }
  }

  private void batches(HBaseStore store, Collection c, List<Document> docs, int batch, String what)
      throws IOException {
    long[] latencies = new long[(docs.size() + batch - 1) / batch];
    Map<String, Long> rpcs0 = rpcs(store);
    Map<String, Number> metrics0 = store.metrics();
    long t0 = System.nanoTime();
    long cpu0 = cpuNanos();
    ThreadsCpu threads0 = threadCpu();
    Map<String, Long> server0 = server == null ? Map.of() : server.snapshot();
    try (StepLimit.Step step = step(what)) {
      for (int i = 0, b = 0; i < docs.size(); i += batch, b++) {
        long s = System.nanoTime();
        c.checkAndInsertAll(docs.subList(i, Math.min(docs.size(), i + batch)));
        latencies[b] = System.nanoTime() - s;
      }
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    double cpuMs = (cpuNanos() - cpu0) / 1e6;
    java.time.Instant end = java.time.Instant.now();
    report.add(
        String.format(
            Locale.ROOT,
            "%s, batches of %d: %d documents in %.1f s = %.0f documents/s, per batch p50 %.1f ms,"
                + " p99 %.1f ms, %.2f ms CPU per document",
            what,
            batch,
            docs.size(),
            seconds,
            docs.size() / seconds,
            percentile(latencies, 0.5),
            percentile(latencies, 0.99),
            cpuMs / docs.size()));
    // The phase's clock times, to cut a flight recording to it.
    report.add("phase from " + end.minusNanos((long) (seconds * 1e9)) + " to " + end);
    report.add(cpuByThreads(threads0, docs.size(), cpuMs));
    if (server != null) {
      report.add(server.since(server0, docs.size()));
    }
    Map<String, Long> rpcs1 = rpcs(store);
    StringBuilder perBatch = new StringBuilder("RPCs per batch:");
    rpcs1.forEach(
        (k, v) ->
            perBatch.append(
                String.format(
                    Locale.ROOT,
                    " %s %.1f",
                    k,
                    (v - rpcs0.getOrDefault(k, 0L)) / (double) latencies.length)));
    report.add(perBatch.toString());
    Map<String, Number> metrics1 = store.metrics();
    double probes = delta(metrics0, metrics1, "hbase_probes");
    report.add(
        String.format(
            Locale.ROOT,
            "rows read per check in this phase: %.2f block rows, %.2f rows in all (%.0f checks)",
            delta(metrics0, metrics1, "hbase_block_rows_read") / probes,
            delta(metrics0, metrics1, "hbase_rows_read") / probes,
            probes));
    report.add("metrics: " + new TreeMap<>(metrics1));
  }

  private static double delta(Map<String, Number> before, Map<String, Number> after, String key) {
    return after.get(key).doubleValue() - before.get(key).doubleValue();
  }

  /** CPU time of each live Java thread, by thread id, and of the JVM's own threads, by kind. */
  private record ThreadsCpu(Map<Long, Long> java, Map<String, Long> jvm) {}

  private static ThreadsCpu threadCpu() {
    java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
    Map<Long, Long> out = new java.util.HashMap<>();
    for (long id : mx.getAllThreadIds()) {
      long t = mx.getThreadCpuTime(id);
      if (t >= 0) {
        out.put(id, t);
      }
    }
    return new ThreadsCpu(out, jvmThreadsCpu());
  }

  /**
   * CPU time of the JVM's own threads (JIT compilers, garbage collector, VM thread), which the
   * ThreadMXBean does not list, by kind, from /proc/self/task (Linux; empty elsewhere). Clock ticks
   * of 10 ms: over a phase of seconds the error is a few percent.
   */
  private static Map<String, Long> jvmThreadsCpu() {
    Map<String, Long> out = new TreeMap<>();
    Path tasks = Path.of("/proc/self/task");
    if (!Files.isDirectory(tasks)) {
      return out;
    }
    try (var dirs = Files.list(tasks)) {
      for (Path task : (Iterable<Path>) dirs::iterator) {
        String stat;
        try {
          stat = Files.readString(task.resolve("stat"));
        } catch (IOException e) {
          continue; // ended meanwhile
        }
        String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        String kind =
            comm.contains("CompilerThre")
                ? "jit"
                : comm.startsWith("GC Thread") || comm.startsWith("G1 ")
                    ? "gc"
                    : comm.startsWith("VM ") ? "vm-thread" : null;
        if (kind == null) {
          continue;
        }
        // Fields after the command: state is the 3rd of the line, utime the 14th, stime the 15th.
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
        out.merge(kind, ticks * 10_000_000L, Long::sum);
      }
    } catch (IOException e) {
      return out;
    }
    return out;
  }

  /**
   * Where the CPU went since {@code snapshot}, per document, by kind of thread: the client's (the
   * caller, the HBase client's event loops), the region server's (RPC handlers, WAL), HDFS's, the
   * rest; the JVM's own (jit, gc, vm-thread); and what threads that ended meanwhile (and anything
   * else) took, as the difference to {@code processMs}, the JVM's CPU over the same time.
   */
  private static String cpuByThreads(ThreadsCpu snapshot, int documents, double processMs) {
    return perDocument(
        "CPU ms per document by thread kind:", cpuSince(snapshot, processMs), documents);
  }

  /**
   * The nanoseconds of CPU by kind of thread since {@code snapshot} (see {@link #cpuByThreads}).
   */
  private static Map<String, Long> cpuSince(ThreadsCpu snapshot, double processMs) {
    java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
    Map<Long, Long> before = snapshot.java();
    Map<String, Long> byKind = new TreeMap<>();
    jvmThreadsCpu().forEach((k, v) -> byKind.put(k, v - snapshot.jvm().getOrDefault(k, 0L)));
    for (java.lang.management.ThreadInfo info : mx.getThreadInfo(mx.getAllThreadIds(), 0)) {
      if (info == null) {
        continue;
      }
      long now = mx.getThreadCpuTime(info.getThreadId());
      if (now < 0) {
        continue;
      }
      long spent = now - before.getOrDefault(info.getThreadId(), 0L);
      byKind.merge(kind(info.getThreadName()), spent, Long::sum);
    }
    long threads = byKind.values().stream().mapToLong(Long::longValue).sum();
    byKind.put("ended-threads-and-rest", Math.max(0, (long) (processMs * 1e6) - threads));
    return byKind;
  }

  /** {@code head}, then each kind's milliseconds per document, the largest first. */
  private static String perDocument(String head, Map<String, Long> nanosByKind, int documents) {
    StringBuilder out = new StringBuilder(head);
    nanosByKind.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .forEach(
            e ->
                out.append(
                    String.format(
                        Locale.ROOT, " %s %.3f;", e.getKey(), e.getValue() / 1e6 / documents)));
    return out.toString();
  }

  /**
   * The CPU of the HBase process {@code pid} (another JVM on this machine) by kind of thread, from
   * /proc/PID/task, where Linux cuts the threads' names to 15 characters ({@code RpcServer.defau},
   * {@code C2 CompilerThre}); the process's total from /proc/PID/stat counts the threads that ended
   * meanwhile too.
   */
  private record ServerCpu(long pid) {
    Map<String, Long> snapshot() {
      Map<String, Long> out = new TreeMap<>();
      try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
        for (Path task : (Iterable<Path>) tasks::iterator) {
          try {
            String stat = Files.readString(task.resolve("stat"));
            out.merge(serverKind(comm(stat)), ticksNanos(stat), Long::sum);
          } catch (IOException e) {
            // the thread ended meanwhile
          }
        }
        out.put("process", ticksNanos(Files.readString(Path.of("/proc/" + pid + "/stat"))));
      } catch (IOException e) {
        throw new java.io.UncheckedIOException("the HBase process " + pid + " is gone", e);
      }
      return out;
    }

    String since(Map<String, Long> before, int documents) {
      Map<String, Long> now = snapshot();
      Map<String, Long> spent = new TreeMap<>();
      long threads = 0;
      for (Map.Entry<String, Long> e : now.entrySet()) {
        if (!e.getKey().equals("process")) {
          long v = Math.max(0, e.getValue() - before.getOrDefault(e.getKey(), 0L));
          spent.put(e.getKey(), v);
          threads += v;
        }
      }
      long process = now.get("process") - before.getOrDefault("process", 0L);
      spent.put("ended-threads-and-rest", Math.max(0, process - threads));
      return perDocument(
          String.format(
              Locale.ROOT,
              "HBase process (pid %d) CPU ms per document: %.3f, by thread kind:",
              pid,
              process / 1e6 / documents),
          spent,
          documents);
    }

    private static String comm(String stat) {
      return stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    }

    /** utime + stime of a stat line, in nanoseconds (clock ticks of 10 ms). */
    private static long ticksNanos(String stat) {
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000_000L;
    }

    private static String serverKind(String comm) {
      if (comm.contains("CompilerThre")) {
        return "jit";
      }
      if (comm.startsWith("GC Thread") || comm.startsWith("G1 ")) {
        return "gc";
      }
      if (comm.startsWith("VM ")) {
        return "vm-thread";
      }
      String k = kind(comm);
      return k.equals("caller") ? "other" : k;
    }
  }

  private static String kind(String thread) {
    if (thread.equals("main") || thread.startsWith("pool-")) {
      return "caller";
    }
    if (thread.startsWith("RPCClient") || thread.startsWith("hconnection")) {
      return "hbase-client";
    }
    if (thread.startsWith("hfile-prefetch")) {
      return "prefetch";
    }
    if (thread.startsWith("RpcServer") || thread.startsWith("RS-EventLoop")) {
      return "region-server-rpc";
    }
    if (thread.contains("WAL")) {
      return "wal";
    }
    if (thread.startsWith("IPC ")
        || thread.startsWith("DataXceiver")
        || thread.startsWith("PacketResponder")
        || thread.contains("datanode")
        || thread.startsWith("org.apache.hadoop.hdfs")) {
      return "hdfs";
    }
    if (thread.contains("MemStore") || thread.contains("Flush") || thread.contains("ompact")) {
      return "flush-compaction";
    }
    return "other";
  }

  private static long cpuNanos() {
    return ProcessHandle.current().info().totalCpuDuration().orElseThrow().toNanos();
  }

  private static double percentile(long[] nanos, double p) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    return sorted[Math.min(sorted.length - 1, (int) (sorted.length * p))] / 1e6;
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
