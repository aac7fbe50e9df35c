// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import org.neardup.index.BenchmarkQueries;
import org.neardup.index.BlockPermutedIndex;
import org.neardup.index.BlockScheme;
import org.neardup.index.MatchConsumer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code neardup bench index}: measures a {@link BlockPermutedIndex} on N uniformly random
 * fingerprints and prints one JSON line.
 *
 * <p>Steps: after a warm-up of 2M adds into a throwaway index, incremental adds into an empty index
 * ({@code add_per_s}; every add timed with {@link System#nanoTime()}: {@code add_max_ms}, {@code
 * add_p999_us}, {@code add_over_10ms}...; then {@code add_await_s}, the wait for the background
 * merges the adds left), a bulk load of the same data into a second index (fingerprints/s), its
 * heap bytes per fingerprint, then Q queries against the bulk loaded index, half of them
 * near-duplicates (a stored fingerprint with 0..k bits flipped) and half random, each timed after a
 * warm-up pass.
 *
 * <p>{@code --build incremental} also times the queries on the index built by the single adds
 * ({@code incremental_query_*}). {@code --build mixed} builds a third index as a bulk-loaded base
 * of N/2 plus N/2 check-and-inserts (a search for a near-duplicate, then the add, as the service
 * does): {@code mixed_query_*} is the searches' latency while the adds arrive, {@code mixed_add_*}
 * the adds', {@code mixed_rest_query_*} the queries' once the background work is done. Queries at
 * rest alternate with the bulk-loaded index's in 4 rounds, so both see the same machine ({@code
 * *_query_ratio}). {@code mismatches} counts sampled queries whose result set differs from a linear
 * scan over the same arrays; it must be 0. Example: {@code java -Xmx20g -cp cli/target/neardup.jar
 * org.neardup.cli.Main bench index --size 10000000 --k 3 --build mixed}.
 */
@Command(
    name = "index",
    mixinStandardHelpOptions = true,
    description = "Measure the Hamming index: add rate, bulk load, bytes/fingerprint, latency.")
public final class BenchIndexCommand implements Callable<Integer> {
  @Option(names = "--size", description = "Stored fingerprints (default ${DEFAULT-VALUE}).")
  long size = 1_000_000;

  @Option(names = "--k", description = "Max distance of a match (default ${DEFAULT-VALUE}).")
  int k = 3;

  @Option(
      names = "--scheme",
      description = "Block scheme BLOCKS:REQUIRED, e.g. 4:1, 5:2, 6:3 (default ${DEFAULT-VALUE}).")
  String scheme = BlockScheme.DEFAULT.toString();

  @Option(names = "--queries", description = "Timed queries (default ${DEFAULT-VALUE}).")
  int queries = 200_000;

  @Option(
      names = "--verify",
      description = "Queries checked by linear scan (default ${DEFAULT-VALUE}).")
  int verify = 1000;

  @Option(
      names = "--add-size",
      description =
          "Fingerprints added one by one for the add rate; -1 = all (default ${DEFAULT-VALUE}).")
  long addSize = -1;

  /** How the index measured next to the bulk-loaded one is built. */
  enum Build {
    bulk,
    incremental,
    mixed
  }

  @Option(
      names = "--build",
      description =
          "Also time queries on an index built by single adds (incremental) or by a bulk load of"
              + " N/2 plus N/2 single adds (mixed), next to the bulk-loaded one (default"
              + " ${DEFAULT-VALUE}).")
  Build build = Build.bulk;

  @Option(names = "--seed", description = "Random seed (default ${DEFAULT-VALUE}).")
  long seed = 42;

  @Option(
      names = "--threads",
      description = "Threads for the verification scan (default ${DEFAULT-VALUE}).")
  int threads = 1;

  private final PrintStream out;
  private final List<List<Double>> stalls = new ArrayList<>();
  // System.nanoTime() at JVM uptime 0, within a millisecond
  private final long startNanosAtUptimeZero =
      System.nanoTime() - ManagementFactory.getRuntimeMXBean().getUptime() * 1_000_000;

  public BenchIndexCommand() {
    this(System.out);
  }

  BenchIndexCommand(PrintStream out) {
    this.out = out;
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new BenchIndexCommand()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    BlockScheme blockScheme = BlockScheme.parse(scheme);
    if (size < 1 || size > Integer.MAX_VALUE - 8) {
      throw new CommandLine.ParameterException(
          new CommandLine(this), "--size must be in [1, 2^31 - 9], got " + size);
    }
    if (k < 0 || k > 64) {
      throw new CommandLine.ParameterException(
          new CommandLine(this), "--k must be in [0, 64], got " + k);
    }
    int n = (int) size;
    SplittableRandom random = new SplittableRandom(seed);
    long[] fps = new long[n];
    long[] ids = new long[n];
    for (int i = 0; i < n; i++) {
      fps[i] = random.nextLong();
      ids[i] = i;
    }
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("size", n);
    result.put("k", k);
    result.put("scheme", blockScheme.toString());
    result.put("tables", blockScheme.tables());

    result.put("build", build.toString());
    BlockPermutedIndex other = null; // the index measured next to the bulk-loaded one

    // Incremental adds into an empty index.
    int adds = addSize < 0 ? n : (int) Math.min(addSize, n);
    if (adds > 0) {
      // Warm-up: compile the add, freeze and merge paths before timing them.
      BlockPermutedIndex warm = BlockPermutedIndex.create(blockScheme);
      for (int i = 0; i < Math.min(n, 2_000_000); i++) {
        warm.add(fps[n - 1 - i], i);
      }
      warm.awaitMerges();
      warm = null;
      BlockPermutedIndex incremental = BlockPermutedIndex.create(blockScheme);
      addTimed(incremental, fps, ids, 0, adds, "add_", result);
      result.put("add_count", adds);
      result.put("add_segments", incremental.segmentCount());
      result.put("add_bytes_per_fingerprint", round2((double) incremental.ramBytesUsed() / adds));
      if (adds == n && build == Build.incremental) {
        other = incremental;
      } else if (adds == n) {
        long[] q = BenchmarkQueries.of(random, fps, Math.min(queries, 50_000), k);
        double[] lat = time(incremental, q);
        result.put("incremental_query_mean_us", round2(mean(lat)));
      }
      incremental = null;
    }
    System.gc();

    // Bulk load.
    BlockPermutedIndex index = BlockPermutedIndex.create(blockScheme);
    long t0 = System.nanoTime();
    index.addAll(fps, ids, 0, n);
    double bulkSeconds = (System.nanoTime() - t0) / 1e9;
    result.put("bulk_load_per_s", Math.round(n / bulkSeconds));
    result.put("bulk_load_s", round2(bulkSeconds));
    result.put("segments", index.segmentCount());
    result.put("bytes_per_fingerprint", round2((double) index.ramBytesUsed() / n));

    if (build == Build.mixed) {
      other = BlockPermutedIndex.create(blockScheme);
      int half = n / 2;
      t0 = System.nanoTime();
      other.addAll(fps, ids, 0, half);
      result.put("mixed_bulk_load_s", round2((System.nanoTime() - t0) / 1e9));
      checkAndInsertTimed(other, fps, ids, half, n, random, "mixed_", result);
      result.put("mixed_bytes_per_fingerprint", round2((double) other.ramBytesUsed() / n));
    }
    if (other != null) {
      result.put(build + "_segments", other.segmentCount());
    }

    long[] q = BenchmarkQueries.of(random, fps, queries, k);
    // Collect what the loads left (sort buffers, copies) now: otherwise a full collection the
    // timed loop's first allocation triggers stops one query for 50-160 ms.
    System.gc();
    stalls.clear();
    double[] latencies;
    if (other == null) {
      latencies = time(index, q);
    } else {
      // Alternate rounds between the two indexes, so machine noise hits both alike.
      double[][] both = timeAlternating(index, other, q, 4);
      latencies = both[0];
      double[] o = both[1];
      double[] os = o.clone();
      Arrays.sort(os);
      String at = build == Build.mixed ? "mixed_rest_" : build + "_";
      result.put(at + "query_mean_us", round2(mean(o)));
      result.put(at + "query_p99_us", round2(os[(int) (os.length * 0.99)]));
      result.put(at + "query_ratio", round2(mean(o) / mean(latencies)));
    }
    double[] sorted = latencies.clone();
    Arrays.sort(sorted);
    result.put("queries", q.length);
    result.put("query_mean_us", round2(mean(latencies)));
    result.put("query_p50_us", round2(sorted[sorted.length / 2]));
    result.put("query_p99_us", round2(sorted[(int) (sorted.length * 0.99)]));
    result.put("query_max_us", round2(sorted[sorted.length - 1]));
    // Stalls the index does not cause (GC pauses, a busy machine) show here and in the mean.
    int over = 0;
    double trimmed = 0;
    for (double v : latencies) {
      if (v > 1000) {
        over++;
      } else {
        trimmed += v;
      }
    }
    result.put("queries_over_1ms", over);
    result.put("query_mean_under_1ms_us", round2(trimmed / Math.max(1, latencies.length - over)));
    result.put("query_stalls", stalls);
    AtomicLong matches = new AtomicLong();
    for (long query : q) {
      matches.addAndGet(index.search(query, k, (id, fp, d) -> {}));
    }
    result.put("matches_per_query", round2((double) matches.get() / q.length));

    int sample = Math.min(verify, q.length);
    result.put("verified_queries", sample);
    result.put("mismatches", mismatches(index, fps, q, sample));
    if (other != null) {
      result.put(build + "_mismatches", mismatches(other, fps, q, sample));
    }
    Runtime rt = Runtime.getRuntime();
    result.put("heap_used_mb", (rt.totalMemory() - rt.freeMemory()) >> 20);
    result.put("heap_max_mb", rt.maxMemory() >> 20);
    result.put("threads", threads);
    result.put("seed", seed);
    result.put(
        "jvm_args", String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()));
    out.println(new ObjectMapper().writeValueAsString(result));
    return 0;
  }

  /**
   * Adds entries [from, to) one by one, timing each add, then waits for the background merges they
   * left; puts {@code <prefix>per_s}, {@code max_ms}, {@code p99_us}, {@code p999_us}, {@code
   * over_1ms}, {@code over_10ms}, {@code over_1ms_total_ms} (time spent in adds of more than 1 ms)
   * and {@code await_s}.
   */
  private void addTimed(
      BlockPermutedIndex index,
      long[] fps,
      long[] ids,
      int from,
      int to,
      String prefix,
      Map<String, Object> result)
      throws InterruptedException {
    Histogram h = new Histogram();
    long t0 = System.nanoTime();
    long prev = t0;
    for (int i = from; i < to; i++) {
      index.add(fps[i], ids[i]);
      long now = System.nanoTime();
      h.record(now - prev);
      prev = now;
    }
    double s = (prev - t0) / 1e9;
    result.put(prefix + "per_s", Math.round((to - from) / s));
    h.put(prefix, result);
    await(index, prefix, result);
  }

  /**
   * The service's write path: for each entry of [from, to), a search for a near-duplicate (of an
   * earlier entry with 0..k bits flipped, or of the entry itself, alternately), then its add; both
   * timed. Puts {@code <prefix>per_s} (searches and adds), the add latencies as {@link #addTimed}
   * does, and {@code <prefix>query_mean_us}, {@code query_p99_us}: searches while the adds arrive.
   */
  private void checkAndInsertTimed(
      BlockPermutedIndex index,
      long[] fps,
      long[] ids,
      int from,
      int to,
      SplittableRandom random,
      String prefix,
      Map<String, Object> result)
      throws InterruptedException {
    long[] check = new long[to - from];
    for (int i = from; i < to; i++) {
      check[i - from] =
          (i & 1) == 0 ? BenchmarkQueries.flip(random, fps[random.nextInt(i)], k) : fps[i];
    }
    long[] sink = new long[1];
    MatchConsumer consumer = (id, fp, d) -> sink[0] += id;
    Histogram adds = new Histogram();
    Histogram searches = new Histogram();
    long t0 = System.nanoTime();
    long prev = t0;
    for (int i = from; i < to; i++) {
      index.search(check[i - from], k, consumer);
      long mid = System.nanoTime();
      index.add(fps[i], ids[i]);
      long now = System.nanoTime();
      searches.record(mid - prev);
      adds.record(now - mid);
      prev = now;
    }
    double s = (prev - t0) / 1e9;
    if (sink[0] == 42) {
      out.print("");
    }
    result.put(prefix + "per_s", Math.round((to - from) / s));
    adds.put(prefix + "add_", result);
    result.put(prefix + "query_mean_us", round2(searches.mean() / 1e3));
    result.put(prefix + "query_p99_us", round2(searches.percentile(0.99) / 1e3));
    await(index, prefix, result);
  }

  private static void await(BlockPermutedIndex index, String prefix, Map<String, Object> result)
      throws InterruptedException {
    long w0 = System.nanoTime();
    index.awaitMerges();
    result.put(prefix + "await_s", round2((System.nanoTime() - w0) / 1e9));
  }

  /** Latencies in counts per 100 ns up to 100 ms, the maximum and the sum exactly. */
  private static final class Histogram {
    final int[] counts = new int[1_000_001];
    long n;
    long max;
    long sum;
    long over1ms;
    long over10ms;
    long over1msTotal;

    void record(long nanos) {
      counts[(int) Math.min(counts.length - 1, nanos / 100)]++;
      n++;
      sum += nanos;
      max = Math.max(max, nanos);
      if (nanos > 1_000_000) {
        over1ms++;
        over1msTotal += nanos;
        if (nanos > 10_000_000) {
          over10ms++;
        }
      }
    }

    double mean() {
      return (double) sum / Math.max(1, n);
    }

    /** The upper edge, in ns, of the 100 ns bucket holding the p-quantile. */
    long percentile(double p) {
      long rank = (long) Math.ceil(n * p);
      long seen = 0;
      for (int b = 0; b < counts.length; b++) {
        seen += counts[b];
        if (seen >= rank) {
          return (b + 1) * 100L;
        }
      }
      return max;
    }

    void put(String prefix, Map<String, Object> result) {
      result.put(prefix + "max_ms", round2(max / 1e6));
      result.put(prefix + "p99_us", round2(percentile(0.99) / 1e3));
      result.put(prefix + "p999_us", round2(percentile(0.999) / 1e3));
      result.put(prefix + "over_1ms", over1ms);
      result.put(prefix + "over_10ms", over10ms);
      result.put(prefix + "over_1ms_total_ms", Math.round(over1msTotal / 1e6));
    }
  }

  /**
   * Per-query latencies in microseconds on two indexes, in {@code rounds} alternating rounds of
   * q.length / rounds queries each, after an untimed warm-up pass over both.
   */
  private double[][] timeAlternating(
      BlockPermutedIndex a, BlockPermutedIndex b, long[] q, int rounds) {
    long[] sink = new long[1];
    MatchConsumer consumer = (id, fp, d) -> sink[0] += id;
    for (long query : q) {
      a.search(query, k, consumer);
      b.search(query, k, consumer);
    }
    double[][] lat = {new double[q.length], new double[q.length]};
    BlockPermutedIndex[] both = {a, b};
    for (int r = 0; r < rounds; r++) {
      int from = (int) ((long) q.length * r / rounds);
      int to = (int) ((long) q.length * (r + 1) / rounds);
      for (int x = 0; x < 2; x++) {
        BlockPermutedIndex index = both[(x + r) & 1];
        double[] out = lat[(x + r) & 1];
        for (int i = from; i < to; i++) {
          long t = System.nanoTime();
          index.search(q[i], k, consumer);
          long d = System.nanoTime() - t;
          out[i] = d / 1e3;
          if (d > 1_000_000) {
            stall(t, d);
          }
        }
      }
    }
    if (sink[0] == 42) {
      out.print("");
    }
    return lat;
  }

  /** Per-query latency in microseconds, after one untimed warm-up pass. */
  private double[] time(BlockPermutedIndex index, long[] q) {
    long[] sink = new long[1];
    MatchConsumer consumer = (id, fp, d) -> sink[0] += id;
    for (int pass = 0; pass < 2; pass++) {
      for (long query : q) {
        index.search(query, k, consumer);
      }
    }
    double[] lat = new double[q.length];
    for (int i = 0; i < q.length; i++) {
      long t = System.nanoTime();
      index.search(q[i], k, consumer);
      long d = System.nanoTime() - t;
      lat[i] = d / 1e3;
      if (d > 1_000_000) {
        stall(t, d);
      }
    }
    if (sink[0] == 42) {
      out.print("");
    }
    return lat;
  }

  /**
   * Notes a query that took over 1 ms: when it started, in seconds of JVM uptime (the clock of
   * {@code -Xlog}'s {@code uptime} decoration, to match it against GC and safepoint lines), and how
   * long it took in ms. Keeps the 10 longest.
   */
  private void stall(long startNanos, long nanos) {
    double at = (startNanos - startNanosAtUptimeZero) / 1e9;
    stalls.add(List.of(Math.round(at * 1000) / 1000.0, round2(nanos / 1e6)));
    if (stalls.size() > 10) {
      stalls.sort((a, b) -> Double.compare(b.get(1), a.get(1)));
      stalls.remove(stalls.size() - 1);
    }
  }

  /** Queries among the first {@code sample} whose sorted (docId, distance) lists differ. */
  private int mismatches(BlockPermutedIndex index, long[] fps, long[] q, int sample)
      throws InterruptedException {
    // Brute force: one pass over fps per block of queries, split over threads by stored range.
    Thread[] workers = new Thread[Math.max(1, threads)];
    long[][][] parts = new long[workers.length][][];
    int[][] partCounts = new int[workers.length][];
    for (int w = 0; w < workers.length; w++) {
      int from = (int) ((long) fps.length * w / workers.length);
      int to = (int) ((long) fps.length * (w + 1) / workers.length);
      int wi = w;
      parts[w] = new long[sample][];
      partCounts[w] = new int[sample];
      for (int i = 0; i < sample; i++) {
        parts[w][i] = new long[4];
      }
      workers[w] =
          new Thread(
              () -> {
                for (int i = 0; i < sample; i++) {
                  long query = q[i];
                  for (int j = from; j < to; j++) {
                    int d = Long.bitCount(fps[j] ^ query);
                    if (d <= k) {
                      long[] a = parts[wi][i];
                      int c = partCounts[wi][i];
                      if (c == a.length) {
                        a = parts[wi][i] = Arrays.copyOf(a, c * 2);
                      }
                      a[c] = ((long) j << 7) | d;
                      partCounts[wi][i] = c + 1;
                    }
                  }
                }
              });
      workers[w].start();
    }
    for (Thread t : workers) {
      t.join();
    }
    int mismatches = 0;
    for (int i = 0; i < sample; i++) {
      long[] expected = new long[0];
      for (int w = 0; w < workers.length; w++) {
        int c = partCounts[w][i];
        int old = expected.length;
        expected = Arrays.copyOf(expected, old + c);
        System.arraycopy(parts[w][i], 0, expected, old, c);
      }
      Arrays.sort(expected);
      long[][] actual = {new long[4]};
      int[] count = {0};
      index.search(
          q[i],
          k,
          (id, fp, d) -> {
            if (count[0] == actual[0].length) {
              actual[0] = Arrays.copyOf(actual[0], count[0] * 2);
            }
            // ids are positions, so the fingerprint must be fps[id].
            actual[0][count[0]++] = fps[(int) id] == fp ? (id << 7) | d : -1;
          });
      long[] got = Arrays.copyOf(actual[0], count[0]);
      Arrays.sort(got);
      if (!Arrays.equals(expected, got)) {
        mismatches++;
      }
    }
    return mismatches;
  }

  private static double mean(double[] a) {
    double s = 0;
    for (double v : a) {
      s += v;
    }
    return s / a.length;
  }

  private static double round2(double v) {
    return Math.round(v * 100) / 100.0;
  }
}
