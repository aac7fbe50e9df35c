// SPDX-License-Identifier: Apache-2.0
package org.neardup.benchmarks;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.neardup.index.AllPairs;
import org.neardup.index.BlockScheme;
import org.neardup.testkit.Fingerprints;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Every pair within k among {@code size} random fingerprints with 1% planted near-duplicates.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar AllPairsBenchmark -p size=10000000 -p threads=2
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx16g"})
@Warmup(iterations = 1)
@Measurement(iterations = 3)
public class AllPairsBenchmark {
  @Param({"1000000"})
  int size;

  @Param({"3"})
  int k;

  @Param({"5:2", "4:1", "6:3"})
  String scheme;

  @Param({"2"})
  int threads;

  long[] fps;

  @Setup
  public void setup() {
    SplittableRandom random = new SplittableRandom(42);
    fps = Fingerprints.uniform(random, size);
    for (int p = 0; p < size / 100; p++) {
      int at = 1 + random.nextInt(size - 1);
      fps[at] = Fingerprints.flip(random, fps[random.nextInt(at)], random.nextInt(k + 1));
    }
  }

  /** Returns the number of pairs. */
  @Benchmark
  public long find() {
    return AllPairs.find(fps, k, BlockScheme.parse(scheme), threads, (i, j, d) -> {});
  }
}
