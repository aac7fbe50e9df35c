// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.Stream;

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

  /** A snapshot file of dir (a store keeps one), or dir itself if there is none. */
  private static Path snapshotIn(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> SnapshotFormat.segmentOf(f) >= 0).findAny().orElse(dir);
    }
  }

  public static void main(String[] args) throws IOException {
    if (args.length < 1) {
      System.err.println("usage: CompactionTimer DIR [ROUNDS]");
      System.exit(2);
    }
    int rounds = 3;
    if (args.length > 1) {
      try {
        rounds = Integer.parseInt(args[1]);
      } catch (NumberFormatException e) {
        rounds = 0;
      }
      if (rounds < 1) {
        System.err.println("ROUNDS must be a whole number >= 1, got '" + args[1] + "'");
        System.exit(2);
      }
    }
    Path dir = Path.of(args[0]);
    if (!Files.isDirectory(dir) || SnapshotFormat.segmentOf(snapshotIn(dir)) < 0) {
      System.err.println(dir + " holds no snapshot; give it a copy of a data directory");
      System.exit(2);
    }
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long t0 = System.nanoTime();
    try (EmbeddedStore store =
        EmbeddedStore.builder(dir).background(false).snapshotOnClose(false).open()) {
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
