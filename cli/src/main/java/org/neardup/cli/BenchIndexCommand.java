package org.neardup.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
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
 * (adds/s), a bulk load of the same data into a second index (fingerprints/s), its heap bytes per
 * fingerprint, then Q queries against the bulk loaded index, half of them near-duplicates (a stored
 * fingerprint with 0..k bits flipped) and half random, each timed with {@link System#nanoTime()}
 * after a warm-up pass. {@code mismatches} counts sampled queries whose result set differs from a
 * linear scan over the same arrays; it must be 0. Example: {@code java -Xmx20g -cp ...
 * org.neardup.cli.BenchIndexCommand --size 10000000 --k 3 --scheme 4:1}.
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

  @Option(names = "--seed", description = "Random seed (default ${DEFAULT-VALUE}).")
  long seed = 42;

  @Option(
      names = "--threads",
      description = "Threads for the verification scan (default ${DEFAULT-VALUE}).")
  int threads = 1;

  private final PrintStream out;

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

    // Incremental adds into an empty index.
    int adds = addSize < 0 ? n : (int) Math.min(addSize, n);
    if (adds > 0) {
      // Warm-up: compile the add, freeze and merge paths before timing them.
      BlockPermutedIndex warm = BlockPermutedIndex.create(blockScheme);
      for (int i = 0; i < Math.min(n, 2_000_000); i++) {
        warm.add(fps[n - 1 - i], i);
      }
      warm = null;
      BlockPermutedIndex incremental = BlockPermutedIndex.create(blockScheme);
      long t0 = System.nanoTime();
      for (int i = 0; i < adds; i++) {
        incremental.add(fps[i], ids[i]);
      }
      double s = (System.nanoTime() - t0) / 1e9;
      result.put("add_per_s", Math.round(adds / s));
      result.put("add_count", adds);
      result.put("add_segments", incremental.segmentCount());
      result.put("add_bytes_per_fingerprint", round2((double) incremental.ramBytesUsed() / adds));
      if (adds == n) {
        long[] q = queries(random, fps, Math.min(queries, 50_000));
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

    long[] q = queries(random, fps, queries);
    double[] latencies = time(index, q);
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
    AtomicLong matches = new AtomicLong();
    for (long query : q) {
      matches.addAndGet(index.search(query, k, (id, fp, d) -> {}));
    }
    result.put("matches_per_query", round2((double) matches.get() / q.length));

    int sample = Math.min(verify, q.length);
    result.put("verified_queries", sample);
    result.put("mismatches", mismatches(index, fps, q, sample));
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

  /** Even queries: a stored fingerprint with 0..k bits flipped; odd: random. */
  private long[] queries(SplittableRandom random, long[] fps, int count) {
    long[] q = new long[count];
    for (int i = 0; i < count; i++) {
      if ((i & 1) == 0) {
        long fp = fps[random.nextInt(fps.length)];
        int flips = random.nextInt(k + 1);
        long mask = 0;
        while (Long.bitCount(mask) < flips) {
          mask |= 1L << random.nextInt(64);
        }
        q[i] = fp ^ mask;
      } else {
        q[i] = random.nextLong();
      }
    }
    return q;
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
      lat[i] = (System.nanoTime() - t) / 1e3;
    }
    if (sink[0] == 42) {
      out.print("");
    }
    return lat;
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
