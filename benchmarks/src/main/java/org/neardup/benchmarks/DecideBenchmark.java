// SPDX-License-Identifier: Apache-2.0
package org.neardup.benchmarks;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.neardup.Analysis;
import org.neardup.Deduplicator;
import org.neardup.Verdict;
import org.neardup.eval.CorpusGenerator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The decision alone: check-and-insert of texts analysed during setup into a {@link Deduplicator}
 * holding {@code stored} documents (index search, band lookup, verification, clustering, verdict),
 * without the analysis that dominates {@link CheckAndInsertBenchmark}. The 2^16 analyses are cycled
 * under fresh docIds, so later rounds also find the earlier rounds' copies, as in any run.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar DecideBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx6g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class DecideBenchmark {
  static final int ANALYSES = 1 << 16;

  @Param({"100000"})
  public int stored;

  @Param({"true", "false"})
  public boolean verify;

  Deduplicator dedup;
  Analysis[] analyses;
  long next;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    CorpusGenerator generator = new CorpusGenerator(7, 0.3);
    Deduplicator.Builder b = Deduplicator.builder().expectedSize(stored + (1 << 22));
    dedup = verify ? b.build() : b.verify(false).build();
    for (int i = 0; i < stored; i++) {
      dedup.checkAndInsert(i, generator.next());
    }
    analyses = new Analysis[ANALYSES];
    for (int i = 0; i < ANALYSES; i++) {
      analyses[i] = dedup.analyzer().analyze(generator.next());
    }
    next = stored;
  }

  /** Checks and stores one analysed text; returns whether it was new. */
  @Benchmark
  public boolean checkAndInsert() {
    long id = next++;
    Verdict v = dedup.checkAndInsert(id, analyses[(int) id & (ANALYSES - 1)]);
    return v.isNew();
  }
}
