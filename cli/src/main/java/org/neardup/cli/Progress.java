// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import java.io.PrintStream;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.jspecify.annotations.Nullable;
import org.neardup.internal.Checks;

/**
 * A progress bar with rate and ETA on a terminal's stderr, and nothing at all when stderr is not a
 * terminal (a pipe, a file, CI) or when --quiet is given.
 */
final class Progress implements AutoCloseable {
  private final @Nullable ProgressBar bar;
  private @Nullable Thread follower;

  private Progress(@Nullable ProgressBar bar) {
    this.bar = bar;
  }

  /** Whether bars should be drawn: a console is attached and the user did not ask for quiet. */
  static boolean wanted(boolean quiet) {
    return !quiet && System.console() != null;
  }

  /**
   * @param total the amount of work, or -1 when unknown
   * @param unit e.g. "MB", with {@code scale} units of work per displayed unit
   */
  static Progress start(
      boolean show, String task, long total, String unit, long scale, PrintStream err) {
    if (!show) {
      return new Progress(null);
    }
    ProgressBar bar =
        new ProgressBarBuilder()
            .setTaskName(task)
            .setInitialMax(total)
            .setUnit(" " + unit, scale)
            .showSpeed()
            .setStyle(ProgressBarStyle.ASCII)
            .setUpdateIntervalMillis(250)
            .setConsumer(new ConsoleProgressBarConsumer(err))
            .build();
    return new Progress(bar);
  }

  void stepTo(long n) {
    if (bar != null) {
      bar.stepTo(n);
    }
  }

  /**
   * Steps the bar to {@code position}'s value four times a second until {@link #close}, for work
   * that cannot report its own progress (it only counts, from whatever threads do it).
   */
  void follow(java.util.function.LongSupplier position) {
    if (bar == null) {
      return;
    }
    Checks.checkState(follower == null, "already following");
    Thread t =
        new Thread(
            () -> {
              while (!Thread.currentThread().isInterrupted()) {
                bar.stepTo(position.getAsLong());
                try {
                  Thread.sleep(250);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "neardup-progress");
    t.setDaemon(true);
    t.start();
    follower = t;
  }

  void extra(String message) {
    if (bar != null) {
      bar.setExtraMessage(message);
    }
  }

  @Override
  public void close() {
    if (follower != null) {
      follower.interrupt();
      try {
        follower.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (bar != null) {
      bar.close();
    }
  }
}
