// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Bounds each step of a benchmark run. A step still running after its limit writes every thread's
 * stack to a file, says in the run's report which step stalled and where the stacks are, and ends
 * the JVM: a run either finishes or fails with that message, never waits on. (Two 10M A/B runs of
 * earlier sessions sat in their import for 14 and 15 minutes and were stopped by hand, with nothing
 * to say where they were.) One step at a time; a step's {@link Step#close()} disarms it.
 * Thread-safe.
 */
final class StepLimit implements AutoCloseable {
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "neardup-step-limit");
            t.setDaemon(true);
            return t;
          });
  private final Path stacks;
  private final Consumer<String> report;
  private final Runnable end;

  /**
   * @param stacks the file the stalled run's thread stacks go to
   * @param report takes the line that names the stalled step (and saves the report)
   * @param end ends the run once the line is saved (the JVM's halt in the benchmark)
   */
  StepLimit(Path stacks, Consumer<String> report, Runnable end) {
    this.stacks = stacks;
    this.report = report;
    this.end = end;
  }

  /** An armed step. */
  final class Step implements AutoCloseable {
    private final ScheduledFuture<?> alarm;

    private Step(String name, Duration limit) {
      long started = System.nanoTime();
      this.alarm =
          timer.schedule(
              () -> stalled(name, limit, started), limit.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
      alarm.cancel(false);
    }
  }

  /** Arms a step of at most {@code limit}. */
  Step step(String name, Duration limit) {
    return new Step(name, limit);
  }

  private void stalled(String name, Duration limit, long started) {
    String where;
    try {
      Files.writeString(stacks, threadStacks(), StandardCharsets.UTF_8);
      where = "every thread's stack in " + stacks.toAbsolutePath();
    } catch (IOException | RuntimeException e) {
      where = "the threads' stacks not written: " + e;
    }
    report.accept(
        String.format(
            java.util.Locale.ROOT,
            "STALLED: %s still running after %.0f s (its limit %d s); the run ends here; %s",
            name,
            (System.nanoTime() - started) / 1e9,
            limit.toSeconds(),
            where));
    end.run();
  }

  /** Every live thread's state, locks and whole stack (ThreadInfo.toString keeps 8 frames). */
  static String threadStacks() {
    StringBuilder out = new StringBuilder();
    for (ThreadInfo t : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
      out.append('"')
          .append(t.getThreadName())
          .append("\" ")
          .append(t.getThreadState())
          .append(" cpu=")
          .append(ManagementFactory.getThreadMXBean().getThreadCpuTime(t.getThreadId()) / 1_000_000)
          .append("ms");
      if (t.getLockName() != null) {
        out.append(" on ").append(t.getLockName());
      }
      if (t.getLockOwnerName() != null) {
        out.append(" held by \"").append(t.getLockOwnerName()).append('"');
      }
      out.append('\n');
      for (StackTraceElement e : t.getStackTrace()) {
        out.append("\tat ").append(e).append('\n');
      }
      out.append('\n');
    }
    return out.toString();
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
