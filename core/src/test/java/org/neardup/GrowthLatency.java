// SPDX-License-Identifier: Apache-2.0
package org.neardup;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import org.neardup.fingerprint.FingerprintSettings;

/**
 * Measures the longest single {@link Deduplicator#checkAndInsert} while a deduplicator grows from 0
 * to N documents (a measurement, not a test):
 *
 * <pre>
 * java -XX:+UseZGC -Xmx10g -cp core/target/classes:core/target/test-classes \
 *     org.neardup.GrowthLatency 5000000 [fingerprints|text]
 * </pre>
 *
 * {@code fingerprints} stores random fingerprints without verification; {@code text} stores
 * generated 30-word texts with verification (analysed outside the timed call). Each insert is timed
 * twice: wall clock, and the inserting thread's CPU time, which leaves out time the thread spent
 * descheduled on a shared machine (at a load of 5 on 2 cores, wall-clock maxima of 100-300 ms
 * appear on inserts that did 10 us of work). The report separates inserts during which the
 * fingerprint index changed its state (buffer growth, freezing or merging a segment: the index's
 * own work, not this class's) from the others, so each side of the engine's growth can be read on
 * its own.
 */
public final class GrowthLatency {
  private GrowthLatency() {}

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[0]);
    boolean text = args.length > 1 && args[1].equals("text");
    Deduplicator d =
        Deduplicator.builder()
            .fingerprintSettings(FingerprintSettings.builder().build())
            .verify(text)
            .build();
    Field indexField = Deduplicator.class.getDeclaredField("index");
    indexField.setAccessible(true);
    Object index = indexField.get(d);
    Field stateField = index.getClass().getDeclaredField("state");
    stateField.setAccessible(true);
    SplittableRandom random = new SplittableRandom(7);
    String[] vocabulary = new String[20_000];
    for (int i = 0; i < vocabulary.length; i++) {
      StringBuilder w = new StringBuilder();
      for (int j = 0; j < 3 + i % 7; j++) {
        w.append((char) ('a' + random.nextInt(26)));
      }
      vocabulary[i] = w.toString();
    }
    StringBuilder sb = new StringBuilder();
    long[] top = new long[10];
    int[] topAt = new int[10];
    long maxOwn = 0;
    int maxOwnAt = -1;
    long maxIndex = 0;
    int over1 = 0;
    int over5 = 0;
    int over10 = 0;
    long total = 0;
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long maxCpuOwn = 0;
    int maxCpuOwnAt = -1;
    long maxCpuIndex = 0;
    int cpuOver1 = 0;
    int cpuOver5 = 0;
    long t0 = System.nanoTime();
    for (int i = 0; i < n; i++) {
      Analysis a;
      if (text) {
        sb.setLength(0);
        for (int k = 0; k < 30; k++) {
          sb.append(k == 0 ? "" : " ").append(vocabulary[random.nextInt(vocabulary.length)]);
        }
        a = d.analyzer().analyze(sb);
      } else {
        a = Analysis.ofFingerprint(random.nextLong(), 1);
      }
      Object before = stateField.get(index);
      long c = threads.getCurrentThreadCpuTime();
      long s = System.nanoTime();
      d.checkAndInsert(i, a);
      long took = System.nanoTime() - s;
      long cpu = threads.getCurrentThreadCpuTime() - c;
      boolean indexWork = stateField.get(index) != before;
      if (indexWork) {
        maxCpuIndex = Math.max(maxCpuIndex, cpu);
      } else if (cpu > maxCpuOwn) {
        maxCpuOwn = cpu;
        maxCpuOwnAt = i;
      }
      cpuOver1 += cpu > 1_000_000 ? 1 : 0;
      cpuOver5 += cpu > 5_000_000 ? 1 : 0;
      total += took;
      if (indexWork) {
        maxIndex = Math.max(maxIndex, took);
      } else if (took > maxOwn) {
        maxOwn = took;
        maxOwnAt = i;
      }
      over1 += took > 1_000_000 ? 1 : 0;
      over5 += took > 5_000_000 ? 1 : 0;
      over10 += took > 10_000_000 ? 1 : 0;
      if (took > top[0]) {
        top[0] = took;
        topAt[0] = indexWork ? -i - 1 : i;
        for (int j = 1; j < top.length && top[j] < top[j - 1]; j++) {
          long t = top[j];
          top[j] = top[j - 1];
          top[j - 1] = t;
          int at = topAt[j];
          topAt[j] = topAt[j - 1];
          topAt[j - 1] = at;
        }
      }
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    System.out.printf(
        Locale.ROOT,
        "%d %s in %.1f s (%.2f us per insert inside the call)%n",
        n,
        text ? "texts" : "fingerprints",
        seconds,
        total / 1e3 / n);
    System.out.printf(
        Locale.ROOT,
        "max insert: %.2f ms without index work (at %d), %.2f ms with index work%n",
        maxOwn / 1e6,
        maxOwnAt,
        maxIndex / 1e6);
    System.out.printf(
        Locale.ROOT,
        "max insert CPU time: %.2f ms without index work (at %d), %.2f ms with index work%n",
        maxCpuOwn / 1e6,
        maxCpuOwnAt,
        maxCpuIndex / 1e6);
    System.out.printf(
        Locale.ROOT,
        "inserts over 1 / 5 / 10 ms wall: %d / %d / %d; over 1 / 5 ms CPU: %d / %d%n",
        over1,
        over5,
        over10,
        cpuOver1,
        cpuOver5);
    StringBuilder slowest = new StringBuilder("slowest (ms @ ordinal, * = index work):");
    for (int j = top.length - 1; j >= 0; j--) {
      int at = topAt[j];
      slowest.append(
          String.format(
              Locale.ROOT, " %.1f@%d%s", top[j] / 1e6, at < 0 ? -at - 1 : at, at < 0 ? "*" : ""));
    }
    System.out.println(slowest);
    long ram = d.ramBytesUsed();
    System.out.printf(
        Locale.ROOT, "ramBytesUsed: %d (%.1f bytes per document)%n", ram, (double) ram / d.size());
    System.out.println("args: " + Arrays.toString(args));
  }
}
