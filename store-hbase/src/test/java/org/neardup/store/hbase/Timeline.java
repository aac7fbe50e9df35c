// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Which threads of this JVM used the CPU, second by second: a daemon thread reads every thread's
 * user + system ticks from /proc/self/task/TID/stat once a second and prints, to standard output, a
 * line {@code TIMELINE t cores name=cores ...} with the cores the JVM used in that second and the
 * threads that used more than 0.05 of a core (by the kernel's thread name, 15 characters at most).
 * For {@link BulkImportProcess}: where an import runs on one thread only. Linux only; prints
 * nothing elsewhere.
 */
final class Timeline {
  private static final long TICK_NANOS = 10_000_000L;
  private final Thread thread;
  private volatile boolean stopped;
  // CPU seconds per thread over the whole run.
  private final Map<String, Double> totals = new HashMap<>();

  private Timeline() {
    thread = new Thread(this::loop, "neardup-timeline");
    thread.setDaemon(true);
  }

  static Timeline start() {
    Timeline t = new Timeline();
    t.thread.start();
    return t;
  }

  void stop() {
    stopped = true;
    thread.interrupt();
    try {
      thread.join(5000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void loop() {
    long t0 = System.nanoTime();
    Map<String, Long> before = ticks();
    long last = t0;
    while (!stopped) {
      try {
        Thread.sleep(1000);
      } catch (InterruptedException e) {
        // stop() ends the loop after one last line
      }
      long now = System.nanoTime();
      Map<String, Long> after = ticks();
      double wall = (now - last) / 1e9;
      Map<String, Double> byName = new HashMap<>();
      double total = 0;
      for (Map.Entry<String, Long> e : after.entrySet()) {
        long d = e.getValue() - before.getOrDefault(e.getKey(), 0L);
        if (d > 0) {
          double cores = d * TICK_NANOS / 1e9 / wall;
          total += cores;
          byName.merge(e.getKey(), cores, Double::sum);
          totals.merge(e.getKey(), d * TICK_NANOS / 1e9, Double::sum);
        }
      }
      StringBuilder line =
          new StringBuilder(
              String.format(Locale.ROOT, "TIMELINE %.1f %.2f", (now - t0) / 1e9, total));
      List<Map.Entry<String, Double>> top = new ArrayList<>(byName.entrySet());
      top.sort(Map.Entry.<String, Double>comparingByValue().reversed());
      for (Map.Entry<String, Double> e : top) {
        if (e.getValue() > 0.05) {
          line.append(String.format(Locale.ROOT, " %s=%.2f", e.getKey(), e.getValue()));
        }
      }
      System.out.println(line);
      before = after;
      last = now;
    }
    StringBuilder line = new StringBuilder("TIMELINE total CPU s:");
    List<Map.Entry<String, Double>> top = new ArrayList<>(totals.entrySet());
    top.sort(Map.Entry.<String, Double>comparingByValue().reversed());
    for (Map.Entry<String, Double> e : top) {
      if (e.getValue() >= 0.05) {
        line.append(String.format(Locale.ROOT, " %s=%.2f", e.getKey(), e.getValue()));
      }
    }
    System.out.println(line);
  }

  /** Each thread's ticks, keyed by "name/tid" (names with blanks replaced). */
  private static Map<String, Long> ticks() {
    Map<String, Long> out = new HashMap<>();
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
      for (Path task : tasks) {
        try {
          String stat = Files.readString(task.resolve("stat"), StandardCharsets.US_ASCII);
          int open = stat.indexOf('(');
          int close = stat.lastIndexOf(')');
          String name = stat.substring(open + 1, close).replace(' ', '_');
          String[] f = stat.substring(close + 2).trim().split(" ");
          out.put(task.getFileName() + " " + name, Long.parseLong(f[11]) + Long.parseLong(f[12]));
        } catch (IOException | RuntimeException e) {
          // the thread ended meanwhile
        }
      }
    } catch (IOException e) {
      // not Linux
    }
    return out;
  }
}
