// SPDX-License-Identifier: Apache-2.0
package org.neardup.benchmarks;

import java.io.IOException;
import java.util.Arrays;
import java.util.Locale;

/**
 * The variants of {@link ChineseOptionsBenchmark} timed in alternating rounds in one JVM, so that a
 * busy machine slows them all alike: each round fingerprints the corpus once with every variant, in
 * turn, and the figure reported for a variant is the median over rounds of its time divided by
 * {@code keep}'s time in the same round (with the 25th and 75th percentiles).
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar org.neardup.benchmarks.ChineseOptionsRounds \
 *     ../shared/data/dev/docs.jsonl [ROUNDS]
 * </pre>
 */
public final class ChineseOptionsRounds {
  private ChineseOptionsRounds() {}

  public static void main(String[] args) throws IOException {
    String corpus = args.length > 0 ? args[0] : "examples/sample.jsonl";
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 15;
    String[] variants = {"keep", "keep-hanruns", "fold", "fold-userdict10k"};
    for (String lang : new String[] {"zh", "en"}) {
      ChineseOptionsBenchmark[] b = new ChineseOptionsBenchmark[variants.length];
      for (int v = 0; v < variants.length; v++) {
        b[v] = new ChineseOptionsBenchmark();
        b[v].corpus = corpus;
        b[v].lang = lang;
        b[v].variant = variants[v];
        b[v].setUp();
      }
      long bytes = 0;
      for (String t : b[0].texts) {
        bytes += t.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
      }
      for (int w = 0; w < 3; w++) { // warm-up
        for (ChineseOptionsBenchmark x : b) {
          x.fingerprint();
        }
      }
      double[][] ratio = new double[variants.length][rounds];
      double[][] mbs = new double[variants.length][rounds];
      for (int r = 0; r < rounds; r++) {
        long[] ns = new long[variants.length];
        for (int v = 0; v < variants.length; v++) {
          int at = (v + r) % variants.length; // rotate the order from round to round
          long t0 = System.nanoTime();
          b[at].fingerprint();
          ns[at] = System.nanoTime() - t0;
        }
        for (int v = 0; v < variants.length; v++) {
          ratio[v][r] = (double) ns[0] / ns[v]; // speed relative to keep
          mbs[v][r] = bytes / 1e6 / (ns[v] / 1e9);
        }
      }
      System.out.printf(
          Locale.ROOT,
          "%s: %d documents, %.2f MB; %d rounds; speed relative to keep, median [p25, p75];"
              + " MB/s median%n",
          lang,
          b[0].texts.length,
          bytes / 1e6,
          rounds);
      for (int v = 0; v < variants.length; v++) {
        Arrays.sort(ratio[v]);
        Arrays.sort(mbs[v]);
        System.out.printf(
            Locale.ROOT,
            "  %-17s %.3f [%.3f, %.3f]  %6.2f MB/s%n",
            variants[v],
            ratio[v][rounds / 2],
            ratio[v][rounds / 4],
            ratio[v][rounds * 3 / 4],
            mbs[v][rounds / 2]);
      }
    }
  }
}
