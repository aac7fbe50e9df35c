// SPDX-License-Identifier: Apache-2.0
package org.neardup.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import org.neardup.Analysis;
import org.neardup.Deduplicator;
import org.neardup.eval.CorpusGenerator;

/**
 * Thread CPU time per check-and-insert of a pre-analysed text into a {@link Deduplicator} holding
 * 100,000 documents: the decision alone, as {@link DecideBenchmark}, but timed in CPU time, which a
 * machine shared with other builds disturbs far less than wall time. To compare two builds, run
 * both at the same time (they then share the same conditions) and compare round by round:
 *
 * <pre>
 * java -cp before.jar org.neardup.benchmarks.DecideCpuTime false 100000 &amp;
 * java -cp after.jar org.neardup.benchmarks.DecideCpuTime false 100000
 * </pre>
 *
 * Arguments: verify (true/false), check-and-inserts per round (7 rounds; each round's texts are
 * stored, so later rounds find more copies).
 */
public final class DecideCpuTime {
  private DecideCpuTime() {}

  public static void main(String[] args) throws Exception {
    boolean verify = Boolean.parseBoolean(args[0]);
    int ops = Integer.parseInt(args[1]);
    int stored = 100_000;
    CorpusGenerator g = new CorpusGenerator(7, 0.3);
    Deduplicator.Builder b = Deduplicator.builder().expectedSize(stored + (1 << 22));
    Deduplicator d = verify ? b.build() : b.verify(false).build();
    for (int i = 0; i < stored; i++) {
      d.checkAndInsert(i, g.next());
    }
    Analysis[] a = new Analysis[1 << 16];
    for (int i = 0; i < a.length; i++) {
      a[i] = d.analyzer().analyze(g.next());
    }
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long id = stored;
    for (int round = 0; round < 7; round++) {
      long c0 = mx.getCurrentThreadCpuTime();
      int fresh = 0;
      for (int i = 0; i < ops; i++, id++) {
        fresh += d.checkAndInsert(id, a[(int) id & (a.length - 1)]).isNew() ? 1 : 0;
      }
      double ns = (mx.getCurrentThreadCpuTime() - c0) / (double) ops;
      System.out.printf(
          Locale.ROOT, "round %d: %.0f ns CPU per check-and-insert (%d new)%n", round, ns, fresh);
    }
  }
}
