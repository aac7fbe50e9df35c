// SPDX-License-Identifier: Apache-2.0
package org.neardup.internal;

import org.jspecify.annotations.Nullable;

/**
 * A daemon thread that runs one piece of work beside its starter and hands back what the work
 * threw: the starter calls {@link #finish} (or {@link #awaitQuietly} on its own failure path), and
 * the work's writes are visible to it afterwards (Thread.join). The work may also run in the
 * caller's thread ({@link #run} without {@link #start}) when it is too small for a thread.
 *
 * <p>The thread lets go of its work, and so of everything the work refers to, as soon as the work
 * returns: a finished thread's object can stay reachable inside the JVM for a while after {@code
 * join} returns (until the JVM deletes the native thread), and a subclass's fields would stay
 * reachable with it. That cost 767 MB at a store's /ready: the open's last three band filers, each
 * holding its restore batch of up to 4M documents, were still held by their finished threads when
 * the open was done (10M documents; 2026-11-26, docs/BENCHMARKS.md).
 */
public final class TaskThread extends Thread {
  private volatile @Nullable Runnable work;
  private volatile @Nullable Throwable failure;

  /** A thread, not yet started, that will run {@code work} once. */
  public TaskThread(String name, Runnable work) {
    super(name);
    setDaemon(true);
    this.work = work;
  }

  /**
   * Runs the work (once: a second call does nothing), keeping what it throws for {@link #finish}.
   */
  @Override
  public void run() {
    Runnable w = work;
    work = null; // the local keeps it while it runs; nothing does afterwards
    if (w == null) {
      return;
    }
    try {
      w.run();
    } catch (RuntimeException | Error e) {
      failure = e;
    }
  }

  /** Whether the thread still refers to its work: until the work has started (tests). */
  boolean holdsWork() {
    return work != null;
  }

  /** Waits for the work (if started) and rethrows what it threw. */
  public void finish() {
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
  public void awaitQuietly() {
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
