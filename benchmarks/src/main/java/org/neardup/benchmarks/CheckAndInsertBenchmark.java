// SPDX-License-Identifier: Apache-2.0
package org.neardup.benchmarks;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
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
 * Check-and-insert of whole texts (analysis included) into a {@link Deduplicator} that already
 * holds {@code stored} documents, with verification on (the default) and off (fingerprint distance
 * alone), side by side: what verification costs per text. One thread; texts from {@link
 * CorpusGenerator} (half Chinese, half English, 30% edited copies).
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar CheckAndInsertBenchmark
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
public class CheckAndInsertBenchmark {
  /**
   * Texts generated up front and cycled. Enough that the measured inserts do not come round to a
   * text again (about 240k calls at 15k/s without verification): a repeated text would find every
   * stored exact copy of itself as a candidate and charge verification for the benchmark's reuse.
   */
  static final int TEXTS = 1 << 18;

  /** How many texts setup generates (a power of two); tests use fewer. */
  int textCount = TEXTS;

  @Param({"100000"})
  public int stored;

  @Param({"true", "false"})
  public boolean verify;

  Deduplicator dedup;
  String[] texts;
  long next;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    CorpusGenerator generator = new CorpusGenerator(7, 0.3);
    Deduplicator.Builder b = Deduplicator.builder().expectedSize(stored + (1 << 22));
    dedup = verify ? b.build() : b.verify(false).build();
    for (int i = 0; i < stored; i++) {
      dedup.checkAndInsert(i, generator.next());
    }
    texts = new String[textCount];
    for (int i = 0; i < textCount; i++) {
      texts[i] = generator.next();
    }
    next = stored;
  }

  /** Checks and stores one text; returns whether it was new. */
  @Benchmark
  public boolean checkAndInsert() {
    long id = next++;
    Verdict v = dedup.checkAndInsert(id, texts[(int) id & (texts.length - 1)]);
    return v.isNew();
  }
}
