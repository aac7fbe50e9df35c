// SPDX-License-Identifier: Apache-2.0
package org.neardup.internal;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Daemon threads for the project's background work: executors' workers, log flushers, importers.
 * None of them may keep a JVM alive after its {@code main} returns or a test ends, and each carries
 * a name starting {@code neardup-} so that a thread dump or a profile tells whose it is. One place
 * makes them, so that every executor's factory is the same two lines.
 */
public final class DaemonThreads {
  private DaemonThreads() {}

  /** A daemon thread named {@code name} that will run {@code work}, not yet started. */
  public static Thread unstarted(String name, Runnable work) {
    Thread t = new Thread(work, name);
    t.setDaemon(true);
    return t;
  }

  /** A factory of daemon threads that are all named {@code name} (single-thread executors). */
  public static ThreadFactory named(String name) {
    return work -> unstarted(name, work);
  }

  /**
   * A factory of daemon threads named {@code prefix} followed by 1, 2, 3... in the order they are
   * made (pools whose threads a profile should tell apart).
   */
  public static ThreadFactory numbered(String prefix) {
    AtomicInteger made = new AtomicInteger();
    return work -> unstarted(prefix + made.incrementAndGet(), work);
  }
}
