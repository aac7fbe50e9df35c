package org.neardup.store.embedded;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Times compactions of a data directory: opens it, then rewrites its snapshot ROUNDS times the way
 * the background compactor does (every live document from the last snapshot and the log, cluster
 * looked up, checksummed, forced), at full speed, and prints the wall time and the compacting
 * thread's CPU of each. The CPU is what a compaction takes from a service it runs beside.
 *
 * <pre>
 * java -cp ... org.neardup.store.embedded.CompactionTimer DIR [ROUNDS]
 * </pre>
 *
 * It rewrites DIR's snapshot (with the same content): give it a copy, e.g. of one BulkLoad made.
 */
public final class CompactionTimer {
  private CompactionTimer() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 1) {
      System.err.println("usage: CompactionTimer DIR [ROUNDS]");
      System.exit(2);
    }
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long t0 = System.nanoTime();
    try (EmbeddedStore store =
        EmbeddedStore.builder(Path.of(args[0])).background(false).snapshotOnClose(false).open()) {
      long documents = 0;
      for (var c : store.collections()) {
        documents += c.stats().documents();
      }
      System.out.printf(
          Locale.ROOT,
          "opened %s: %d documents in %.2f s%n",
          args[0],
          documents,
          (System.nanoTime() - t0) / 1e9);
      for (int i = 1; i <= rounds; i++) {
        long cpu0 = threads.getCurrentThreadCpuTime();
        long user0 = threads.getCurrentThreadUserTime();
        long wall0 = System.nanoTime();
        store.compactNow();
        long wall = System.nanoTime() - wall0;
        long cpu = threads.getCurrentThreadCpuTime() - cpu0;
        long user = threads.getCurrentThreadUserTime() - user0;
        System.out.printf(
            Locale.ROOT,
            "compaction %d: %.2f s, thread CPU %.2f s (user %.2f, system %.2f), %.0f ns of CPU per"
                + " document%n",
            i,
            wall / 1e9,
            cpu / 1e9,
            user / 1e9,
            (cpu - user) / 1e9,
            documents == 0 ? 0.0 : (double) cpu / documents);
      }
    }
  }
}
