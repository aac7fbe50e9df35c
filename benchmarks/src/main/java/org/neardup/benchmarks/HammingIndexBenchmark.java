// SPDX-License-Identifier: Apache-2.0
package org.neardup.benchmarks;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.neardup.index.HammingIndex;
import org.neardup.index.MatchConsumer;
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
 * Search latency over uniformly random stored fingerprints; half the queries are near-duplicates
 * (0..k bits from a stored one), half random.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar HammingIndexBenchmark -p size=50000000 \
 *     -p kind=BLOCK_PERMUTED_4_1 -jvmArgsAppend -Xmx20g
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx16g", "-XX:+UseTransparentHugePages"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class HammingIndexBenchmark {
  static final int QUERIES = 1 << 16;
  static final int MASK = QUERIES - 1;

  @Param({"1000000", "10000000"})
  int size;

  @Param({"BLOCK_PERMUTED_4_1", "BLOCK_PERMUTED_5_2", "BLOCK_PERMUTED_6_3", "LINEAR_SCAN"})
  IndexKind kind;

  @Param({"3"})
  int k;

  long[] stored;
  long[] queries;
  HammingIndex index;
  private int next;
  private long sink;
  private final MatchConsumer consumer = (docId, fingerprint, distance) -> sink += docId;

  @Setup
  public void setup() {
    SplittableRandom random = new SplittableRandom(42);
    stored = Fingerprints.uniform(random, size);
    queries = Fingerprints.queries(random, stored, QUERIES, k);
    index = kind.load(stored);
  }

  /** All matches of one query; returns their number. */
  @Benchmark
  public int search() {
    return index.search(queries[next++ & MASK], k, consumer);
  }

  /** Whether one query has any match. */
  @Benchmark
  public boolean any() {
    return index.any(queries[next++ & MASK], k);
  }

  /** The nearest match of one query; returns its distance or -1. */
  @Benchmark
  public int nearest() {
    return index.nearest(queries[next++ & MASK], k, consumer);
  }
}
