// SPDX-License-Identifier: Apache-2.0
package org.neardup.benchmarks;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.neardup.index.BlockPermutedIndex;
import org.neardup.index.HammingIndex;
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
 * Building an index of {@code size} random fingerprints: one add at a time into an empty index
 * (buffer freezes and segment merges included), and one bulk load. Time per whole build; divide
 * size by it for a rate.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar IndexBuildBenchmark -p size=10000000
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx16g", "-XX:+UseTransparentHugePages"})
@Warmup(iterations = 2)
@Measurement(iterations = 5)
public class IndexBuildBenchmark {
  @Param({"1000000"})
  int size;

  @Param({"BLOCK_PERMUTED_4_1", "BLOCK_PERMUTED_5_2", "BLOCK_PERMUTED_6_3"})
  IndexKind kind;

  long[] fps;
  long[] ids;

  @Setup
  public void setup() {
    fps = Fingerprints.uniform(new SplittableRandom(42), size);
    ids = new long[size];
    for (int i = 0; i < size; i++) {
      ids[i] = i;
    }
  }

  /** Adds every fingerprint one by one; returns the final size. */
  @Benchmark
  public long add() {
    HammingIndex index = kind.empty();
    for (int i = 0; i < fps.length; i++) {
      index.add(fps[i], ids[i]);
    }
    return index.size();
  }

  /** Bulk-loads every fingerprint; returns the final size. */
  @Benchmark
  public long bulkLoad() {
    BlockPermutedIndex index = (BlockPermutedIndex) kind.empty();
    index.addAll(fps, ids, 0, fps.length);
    return index.size();
  }
}
