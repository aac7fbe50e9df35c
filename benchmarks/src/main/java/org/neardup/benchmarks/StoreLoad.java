// SPDX-License-Identifier: Apache-2.0
package org.neardup.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.neardup.Analysis;
import org.neardup.Analyzer;
import org.neardup.eval.CorpusGenerator;
import org.neardup.internal.DaemonThreads;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.CollectionTransfer;
import org.neardup.store.Document;
import org.neardup.store.FingerprintStore;
import org.neardup.store.StoreConfig;
import org.neardup.store.StoredRecord;

/**
 * Check-and-insert through a {@link FingerprintStore} from many threads, one document per call or
 * in batches: documents per second, latency per call (p50, p99), and for Redis its {@code
 * used_memory} per stored document. Documents are analysed before the clock starts, so the figures
 * are the store's.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar org.neardup.benchmarks.StoreLoad \
 *     STORE(redis|embedded) fingerprints|texts DOCS THREADS BATCH [key=value store options...]
 * </pre>
 *
 * <p>{@code collection=NAME part=I/N}: load the shared collection NAME (created if absent, kept at
 * the end) with slice I of N of the documents, so N processes started at once act as N service
 * nodes on one store; each prints its own rate.
 *
 * <p>{@code ids=PREFIX} ({@code d}) and {@code seed=N} (11): the documents' ids are PREFIX0,
 * PREFIX1, ... and their fingerprints or texts come from seed N, so another run into the same
 * collection loads other documents.
 *
 * <p>{@code preload=N}: before the clock starts, N more documents (ids {@code p0, p1, ...}, other
 * random fingerprints) are imported into a fresh collection through the store's {@link
 * CollectionTransfer} (a way to reach 10M stored documents in minutes); with {@code texts} each
 * also gets random band keys and the sketch of one of 512 generated texts, so it costs the store
 * what a verified document costs without being analysed. The import's rate and, for Redis, {@code
 * used_memory} per document are printed, then the load runs into that collection (with DOCS 0 and
 * {@code collection=NAME}, the preload alone: later processes load NAME).
 *
 * <p>{@code fingerprints}: random fingerprints, no verification (a collection of precomputed
 * fingerprints); {@code texts}: generated texts (30% near-copies), verified with sketches, no
 * lexicon. BATCH 1 sends one document per call.
 */
public final class StoreLoad {
  private StoreLoad() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 5) {
      System.err.println(
          "usage: StoreLoad redis|embedded fingerprints|texts DOCS THREADS BATCH [key=value...]");
      System.exit(2);
    }
    String kind = args[0];
    boolean texts = args[1].equals("texts");
    int n = Integer.parseInt(args[2]);
    int threads = Integer.parseInt(args[3]);
    int batch = Integer.parseInt(args[4]);
    Map<String, String> options = new HashMap<>();
    for (int i = 5; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      options.put(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    // Two options are StoreLoad's, not the store's: several processes (service nodes) can load one
    // collection at once, each its own slice of the same documents.
    String shared = options.remove("collection");
    String part = options.remove("part");
    String preloadOption = options.remove("preload");
    // Another run into the same collection needs other ids and fingerprints: ids=PREFIX seed=N.
    String idPrefix = options.getOrDefault("ids", "d");
    options.remove("ids");
    long seed = Long.parseLong(options.getOrDefault("seed", "11"));
    options.remove("seed");
    long preload = preloadOption == null ? 0 : Long.parseLong(preloadOption);
    int slice = 0;
    int slices = 1;
    if (part != null) {
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)/(\\d+)").matcher(part);
      if (!m.matches()
          || Integer.parseInt(m.group(2)) < 1
          || Integer.parseInt(m.group(1)) >= Integer.parseInt(m.group(2))) {
        System.err.println("part=" + part + ": expected I/N with 0 <= I < N (slices count from 0)");
        System.exit(2);
      }
      slice = Integer.parseInt(m.group(1));
      slices = Integer.parseInt(m.group(2));
    }
    if (kind.equals("embedded") && !options.containsKey("data")) {
      options.put("data", Files.createTempDirectory("storeload").toString());
    }
    CollectionSettings settings =
        CollectionSettings.defaults().withLexicon(CollectionSettings.NO_LEXICON).withVerify(texts);
    Analyzer analyzer = settings.deduplicator().analyzer();
    Analysis[] analyses = new Analysis[n];
    if (texts) {
      CorpusGenerator g = new CorpusGenerator(seed, 0.3);
      for (int i = 0; i < n; i++) {
        analyses[i] = analyzer.analyze(g.next());
      }
    } else {
      SplittableRandom r = new SplittableRandom(seed);
      for (int i = 0; i < n; i++) {
        analyses[i] = Analysis.ofFingerprint(r.nextLong(), 1);
      }
    }
    try (FingerprintStore store = FingerprintStore.open(kind, StoreConfig.of(options))) {
      // Short, like a real collection name: the name is in every key of the collection.
      String name = shared != null ? shared : "load" + System.nanoTime() % 1_000_000;
      long memBefore = usedMemory(store);
      if (preload > 0) {
        preload(store, name, settings, preload);
      }
      if (n == 0) {
        return; // DOCS 0: the preload alone (the collection stays for the processes that follow)
      }
      Collection c = openOrCreate(store, shared != null || preload > 0, name, settings);
      int calls = (n + batch - 1) / batch;
      int firstCall = (int) ((long) calls * slice / slices);
      int endCall = (int) ((long) calls * (slice + 1) / slices);
      long[] latencies = new long[calls];
      AtomicInteger next = new AtomicInteger(firstCall);
      // Daemon threads: a call that throws ends the run with its error instead of leaving the JVM
      // waiting on the pool.
      ExecutorService pool =
          Executors.newFixedThreadPool(threads, DaemonThreads.named("neardup-storeload"));
      List<Future<?>> fs = new ArrayList<>();
      long t0 = System.nanoTime();
      for (int t = 0; t < threads; t++) {
        fs.add(
            pool.submit(
                () -> {
                  for (int call = next.getAndIncrement();
                      call < endCall;
                      call = next.getAndIncrement()) {
                    int from = call * batch;
                    int to = Math.min(n, from + batch);
                    long s = System.nanoTime();
                    if (batch == 1) {
                      c.checkAndInsert(new Document(idPrefix + from, analyses[from]));
                    } else {
                      List<Document> docs = new ArrayList<>(to - from);
                      for (int i = from; i < to; i++) {
                        docs.add(new Document(idPrefix + i, analyses[i]));
                      }
                      c.checkAndInsertAll(docs);
                    }
                    latencies[call] = System.nanoTime() - s;
                  }
                  return null;
                }));
      }
      for (Future<?> f : fs) {
        f.get(1, TimeUnit.HOURS);
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      pool.shutdown();
      long[] lat = Arrays.copyOfRange(latencies, firstCall, endCall);
      int sent = Math.min(n, endCall * batch) - firstCall * batch;
      int made = endCall - firstCall;
      Arrays.sort(lat);
      long stored = c.stats().documents();
      long memAfter = usedMemory(store);
      System.out.printf(
          Locale.ROOT,
          "%s %s: %d docs, %d threads, batch %d: %.0f docs/s, p50 %.2f ms, p99 %.2f ms per call,"
              + " %d stored, %d duplicates%s%n",
          kind,
          texts ? "texts" : "fingerprints",
          n,
          threads,
          batch,
          sent / seconds,
          lat[made / 2] / 1e6,
          lat[(int) Math.min(made - 1, (long) made * 99 / 100)] / 1e6,
          stored,
          c.stats().duplicates(),
          memAfter < 0
              ? ""
              : String.format(
                  Locale.ROOT,
                  ", redis used_memory %.1f bytes per document",
                  (memAfter - memBefore) / (double) stored));
      if (shared == null) {
        store.drop(name);
      }
    }
  }

  private static Collection openOrCreate(
      FingerprintStore store, boolean shared, String name, CollectionSettings settings)
      throws IOException {
    Collection c = shared ? store.collection(name) : null;
    if (c != null) {
      return c;
    }
    try {
      return store.create(name, settings);
    } catch (IllegalArgumentException e) {
      Collection other = shared ? store.collection(name) : null; // created meanwhile by another
      if (other == null) {
        throw e;
      }
      return other;
    }
  }

  /** Imports {@code n} fingerprint-only documents into a new collection {@code name}. */
  private static void preload(
      FingerprintStore store, String name, CollectionSettings settings, long n) throws IOException {
    long before = usedMemory(store);
    SplittableRandom r = new SplittableRandom(12);
    byte[][] sketches = new byte[0][];
    int bands = 0;
    if (settings.verify()) {
      Analyzer analyzer = settings.deduplicator().analyzer();
      bands = CollectionTransfer.Importer.bandCount(analyzer);
      CorpusGenerator g = new CorpusGenerator(13, 0);
      List<byte[]> made = new ArrayList<>();
      while (made.size() < 512) {
        Analysis a = analyzer.analyze(g.next());
        if (a.sketch().bandKeys().length == bands) {
          made.add(a.sketch().shingles().encode());
        }
      }
      sketches = made.toArray(new byte[0][]);
    }
    long t0 = System.nanoTime();
    try (CollectionTransfer.Importer in =
        CollectionTransfer.of(store)
            .importer(name, settings, settings.deduplicator().analyzer().id())) {
      for (long i = 0; i < n; i++) {
        long[] bandKeys = new long[bands];
        for (int b = 0; b < bands; b++) {
          bandKeys[b] = r.nextLong();
        }
        in.add(
            new StoredRecord(
                i,
                "p" + i,
                r.nextLong(),
                1_700_000_000_000L,
                Long.MAX_VALUE,
                i,
                "p" + i,
                bandKeys,
                bands == 0 ? new byte[0] : sketches[(int) (i % sketches.length)]));
      }
      in.finish();
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    long after = usedMemory(store);
    System.out.printf(
        Locale.ROOT,
        "preloaded %d documents in %.1f s (%.0f docs/s)%s%n",
        n,
        seconds,
        n / seconds,
        after < 0
            ? ""
            : String.format(
                Locale.ROOT,
                ", redis used_memory %.1f bytes per document",
                (after - before) / (double) n));
  }

  private static long usedMemory(FingerprintStore store) throws IOException {
    Number m = store.metrics().get("redis_used_memory_bytes");
    return m == null ? -1 : m.longValue();
  }
}
