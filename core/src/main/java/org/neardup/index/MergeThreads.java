// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

import java.util.Comparator;
import java.util.concurrent.Executor;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.neardup.internal.DaemonThreads;

/**
 * The daemon thread, shared by every {@link BlockPermutedIndex} of the JVM, that freezes full add
 * buffers into segments and merges segments, named {@code neardup-index-merge}. It starts on the
 * first job and stops after a minute without one, so no index owns a thread and nothing needs
 * closing.
 *
 * <p>The cheapest job runs first: publishing a built segment, then a freeze (2^15 entries, a few
 * ms), so neither waits for more than the merge that is running (a merge into a 10M-entry base:
 * 0.1-0.6 s).
 */
final class MergeThreads {
  /*
   * One thread. On 2 cores a second one took CPU from the writer: 5M adds onto a 5M base (ZGC,
   * pre-touched heap, shared box) had 75-176 adds over 1 ms (max 12-70 ms) with two threads, 18-23
   * (max 7-8 ms) with one, and 2-6 (max 3-6 ms) with none running (jobs parked): the remaining
   * stalls are 4 ms time slices lost while a GC cycle makes writer, merge and GC thread three.
   */
  static final int THREADS = 1;

  private static final Comparator<Runnable> CHEAPEST_FIRST =
      Comparator.comparingLong(MergeThreads::priority);

  private MergeThreads() {}

  static Executor shared() {
    return Holder.POOL;
  }

  private static long priority(Runnable r) {
    return r instanceof BlockPermutedIndex.Job ? ((BlockPermutedIndex.Job) r).priority() : 0;
  }

  private static final class Holder {
    static final ThreadPoolExecutor POOL = create();

    private static ThreadPoolExecutor create() {
      ThreadPoolExecutor pool =
          new ThreadPoolExecutor(
              THREADS,
              THREADS,
              60,
              TimeUnit.SECONDS,
              new PriorityBlockingQueue<>(16, CHEAPEST_FIRST),
              DaemonThreads.named("neardup-index-merge"));
      pool.allowCoreThreadTimeOut(true);
      return pool;
    }
  }
}
