// SPDX-License-Identifier: Apache-2.0

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.neardup.fingerprint.Fingerprinter;
import org.neardup.fingerprint.FingerprintSettings;
import org.neardup.text.Lexicon;

/**
 * The same texts fingerprinted again and again in one JVM, with the default settings of a lexicon:
 * the thread CPU time of each pass, so that the first passes (interpreter, C1, C2's compilations
 * on one core) read beside the warm ones. Compiled by benchmarks/fingerprint-passes.sh against a
 * build's shaded jar; not part of the product.
 *
 * <p>Usage: {@code java -cp neardup.jar:DIR FingerprintPasses TEXTS LEXICON PASSES}, where TEXTS
 * holds the texts separated by U+0000. Prints the megabytes of one pass (UTF-8), the milliseconds
 * of CPU per pass, and the sum of all fingerprints (the same for every build that gives the same
 * fingerprints).
 */
public final class FingerprintPasses {
  public static void main(String[] args) throws Exception {
    String[] texts = Files.readString(Path.of(args[0]), StandardCharsets.UTF_8).split("\0");
    Fingerprinter fp =
        Fingerprinter.create(FingerprintSettings.builder(Lexicon.load(args[1])).build());
    int passes = Integer.parseInt(args[2]);
    long bytes = 0;
    for (String t : texts) {
      bytes += t.getBytes(StandardCharsets.UTF_8).length;
    }
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    StringBuilder line = new StringBuilder();
    long sum = 0;
    for (int p = 0; p < passes; p++) {
      long t0 = threads.getCurrentThreadCpuTime();
      for (String t : texts) {
        sum += fp.fingerprint(t);
      }
      double ms = (threads.getCurrentThreadCpuTime() - t0) / 1e6;
      line.append(String.format(Locale.ROOT, " %.0f", ms));
    }
    System.out.printf(
        Locale.ROOT, "%.1f MB per pass, CPU ms per pass:%s, sum %016x%n", bytes / 1e6, line, sum);
  }
}
