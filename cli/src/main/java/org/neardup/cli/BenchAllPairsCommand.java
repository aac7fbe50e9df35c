// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.LongAdder;
import org.neardup.index.AllPairs;
import org.neardup.index.BlockScheme;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code neardup bench all-pairs}: times {@link AllPairs} over N uniformly random fingerprints and
 * prints one JSON line with {@code size, k, scheme, threads, pairs, seconds}. Example: {@code java
 * -Xmx8g -cp ... org.neardup.cli.BenchAllPairsCommand --size 10000000 --k 3 --threads 2}.
 */
@Command(
    name = "all-pairs",
    mixinStandardHelpOptions = true,
    description = "Time finding every pair within k bits among N random fingerprints.")
public final class BenchAllPairsCommand implements Callable<Integer> {
  @Option(names = "--size", description = "Fingerprints (default ${DEFAULT-VALUE}).")
  int size = 1_000_000;

  @Option(names = "--k", description = "Max distance of a pair (default ${DEFAULT-VALUE}).")
  int k = 3;

  @Option(
      names = "--scheme",
      description = "Block scheme BLOCKS:REQUIRED; default: chosen by AllPairs for k.")
  String scheme;

  @Option(names = "--threads", description = "Threads (default ${DEFAULT-VALUE}).")
  int threads = 2;

  @Option(
      names = "--near",
      description = "Also plant this many near-duplicates (0..k bits from a random earlier one).")
  int near = 0;

  @Option(names = "--seed", description = "Random seed (default ${DEFAULT-VALUE}).")
  long seed = 42;

  private final PrintStream out;

  public BenchAllPairsCommand() {
    this(System.out);
  }

  BenchAllPairsCommand(PrintStream out) {
    this.out = out;
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new BenchAllPairsCommand()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    BlockScheme blockScheme =
        scheme == null ? AllPairs.defaultScheme(k) : BlockScheme.parse(scheme);
    SplittableRandom random = new SplittableRandom(seed);
    long[] fps = new long[size];
    for (int i = 0; i < size; i++) {
      fps[i] = random.nextLong();
    }
    for (int p = 0; p < Math.min(near, size - 1); p++) {
      int at = 1 + random.nextInt(size - 1);
      long mask = 0;
      int flips = random.nextInt(k + 1);
      while (Long.bitCount(mask) < flips) {
        mask |= 1L << random.nextInt(64);
      }
      fps[at] = fps[random.nextInt(at)] ^ mask;
    }
    LongAdder distanceSum = new LongAdder();
    long t0 = System.nanoTime();
    long pairs = AllPairs.find(fps, k, blockScheme, threads, (i, j, d) -> distanceSum.add(d));
    double seconds = (System.nanoTime() - t0) / 1e9;
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("size", size);
    result.put("k", k);
    result.put("scheme", blockScheme.toString());
    result.put("tables", blockScheme.tables());
    result.put("threads", threads);
    result.put("pairs", pairs);
    result.put("seconds", Math.round(seconds * 1000) / 1000.0);
    result.put("distance_sum", distanceSum.sum());
    out.println(new ObjectMapper().writeValueAsString(result));
    return 0;
  }
}
