// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * How much an open of each data directory costs this build, in the process's CPU seconds (every
 * thread: the loader, the restore thread, the JIT and the GC) and wall seconds: for comparing two
 * formats of the same documents with one build, side by side, where a service's CPU to /ready also
 * holds its start-up. Opens each directory in turn, ROUNDS times, without writing a snapshot on
 * close; use copies (an open deletes scratch files and may cut a torn log tail).
 *
 * <pre>
 * java -Xmx4g -cp neardup.jar org.neardup.store.embedded.OpenTime ROUNDS DIR...
 * </pre>
 */
public final class OpenTime {
  private OpenTime() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 2) {
      System.err.println("usage: OpenTime ROUNDS DIR...");
      System.exit(2);
    }
    int rounds = Integer.parseInt(args[0]);
    for (int round = 1; round <= rounds; round++) {
      for (int i = 1; i < args.length; i++) {
        System.gc();
        long cpu0 = cpuNanos();
        long t0 = System.nanoTime();
        long docs = 0;
        try (EmbeddedStore s =
            EmbeddedStore.builder(Path.of(args[i]))
                .background(false)
                .snapshotOnClose(false)
                .open()) {
          long cpu = cpuNanos() - cpu0;
          long wall = System.nanoTime() - t0;
          for (org.neardup.store.Collection c : s.collections()) {
            docs += c.stats().documents();
          }
          System.out.printf(
              Locale.ROOT,
              "round %d %s: %d documents, open %.2f CPU s, %.2f s wall%n",
              round,
              args[i],
              docs,
              cpu / 1e9,
              wall / 1e9);
          System.out.printf(
              Locale.ROOT,
              "result round=%d dir=%s docs=%d cpu=%.3f wall=%.3f images=%d bandimages=%d%n",
              round,
              args[i],
              docs,
              cpu / 1e9,
              wall / 1e9,
              s.metrics().get("open_index_images").intValue(),
              s.metrics().getOrDefault("open_band_images", 0).intValue());
        }
      }
    }
  }

  /** The process's CPU time so far, every thread (ProcessHandle: /proc on Linux). */
  private static long cpuNanos() {
    return ProcessHandle.current()
        .info()
        .totalCpuDuration()
        .orElseThrow(() -> new IllegalStateException("this platform reports no process CPU time"))
        .toNanos();
  }
}
