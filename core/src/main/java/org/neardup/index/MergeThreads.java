package org.neardup.index;

import java.util.Comparator;
import java.util.concurrent.Executor;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The daemon threads, shared by every {@link BlockPermutedIndex} of the JVM, that freeze full add
 * buffers into segments and merge segments, named {@code neardup-index-merge-N}. They start on the
 * first job and stop after a minute without one, so no index owns a thread and nothing needs
 * closing.
 *
 * <p>The cheapest job runs first: a freeze (2^17 entries, 15-35 ms) or the publication of a built
 * segment never queues behind a merge into a big base (10M entries: 0.1-0.6 s).
 */
final class MergeThreads {
  /*
   * Two threads: one may spend half a second merging into a base while the other keeps freezing
   * the buffers that the writer fills meanwhile (at 1M adds/s, one every 130 ms); with one thread
   * those buffers wait, searched through their hash chains at about the cost of a segment each.
   */
  static final int THREADS = 2;

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
      AtomicInteger count = new AtomicInteger();
      ThreadPoolExecutor pool =
          new ThreadPoolExecutor(
              THREADS,
              THREADS,
              60,
              TimeUnit.SECONDS,
              new PriorityBlockingQueue<>(16, CHEAPEST_FIRST),
              r -> {
                Thread t = new Thread(r, "neardup-index-merge-" + count.incrementAndGet());
                t.setDaemon(true);
                return t;
              });
      pool.allowCoreThreadTimeOut(true);
      return pool;
    }
  }
}
