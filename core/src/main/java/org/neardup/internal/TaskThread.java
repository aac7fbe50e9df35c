// SPDX-License-Identifier: Apache-2.0
package org.neardup.internal;

import org.jspecify.annotations.Nullable;

/**
 * A daemon thread that runs one piece of work beside its starter and hands back what the work
 * threw: the starter calls {@link #finish} (or {@link #awaitQuietly} on its own failure path), and
 * the work's writes are visible to it afterwards (Thread.join).
 */
public abstract class TaskThread extends Thread {
  private volatile @Nullable Throwable failure;

  protected TaskThread(String name) {
    super(name);
    setDaemon(true);
  }

  /** The work; what it throws is kept for {@link #finish}. */
  protected abstract void work();

  @Override
  public final void run() {
    try {
      work();
    } catch (RuntimeException | Error e) {
      failure = e;
    }
  }

  /** Waits for the work (if started) and rethrows what it threw. */
  public final void finish() {
    awaitQuietly();
    Throwable f = failure;
    if (f instanceof RuntimeException) {
      throw (RuntimeException) f;
    }
    if (f instanceof Error) {
      throw (Error) f;
    }
  }

  /**
   * Waits for the work (if started), keeping what it threw; an interrupt meanwhile is kept for the
   * caller, not acted on.
   */
  public final void awaitQuietly() {
    boolean interrupted = false;
    while (isAlive()) {
      try {
        join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
