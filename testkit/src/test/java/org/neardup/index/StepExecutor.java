// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Executor;

/**
 * An executor that runs nothing until told: tests step the background jobs of a {@link
 * BlockPermutedIndex} (each takes two steps, build and publish) between writer and reader calls, in
 * an order they choose, and so force interleavings deterministically. Records the threads that ran
 * its tasks.
 */
final class StepExecutor implements Executor {
  private final List<Runnable> queue = new ArrayList<>();
  private final Set<String> threads = new LinkedHashSet<>();
  private int ran;

  @Override
  public synchronized void execute(Runnable task) {
    queue.add(task);
  }

  synchronized int queued() {
    return queue.size();
  }

  synchronized int ran() {
    return ran;
  }

  synchronized Set<String> threads() {
    return Set.copyOf(threads);
  }

  /** Runs the oldest queued task in the calling thread; false when none is queued. */
  boolean runOldest() {
    return run(null);
  }

  /** Runs a queued task chosen at random in the calling thread; false when none is queued. */
  boolean runAny(SplittableRandom random) {
    return run(random);
  }

  /** Runs tasks, those they queue included, until none is left. */
  void drain() {
    while (runOldest()) {
      // next
    }
  }

  private boolean run(SplittableRandom random) {
    Runnable task;
    synchronized (this) {
      if (queue.isEmpty()) {
        return false;
      }
      task = queue.remove(random == null ? 0 : random.nextInt(queue.size()));
      threads.add(Thread.currentThread().getName());
      ran++;
    }
    task.run();
    return true;
  }
}
