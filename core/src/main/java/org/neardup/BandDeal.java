// SPDX-License-Identifier: Apache-2.0
package org.neardup;

import org.jspecify.annotations.Nullable;

/**
 * Deals the band phase of {@link CorpusDedup} (the heap path) to its threads as jobs: a band's
 * sort, then the band's groups in chunks of whole groups, lowest band first. Dealt a whole band at
 * a time, the thread holding band 0 (which has most of the candidates: a pair is a candidate only
 * in the first band it shares) was still working when the other had run out of bands; in chunks,
 * every thread works on whatever band is open until the last chunk. At most {@code held} bands are
 * sorted and held at once (one per thread, as when each thread held its own band).
 *
 * <p>Thread-safe: every method is synchronized; {@link #take} waits while the only work left is a
 * sort another thread is doing or chunks other threads hold.
 */
final class BandDeal {
  /**
   * Sorted positions per chunk (before it is extended to the end of its last group) for {@code
   * count} documents on {@code threads} threads: 16 chunks per thread and band, at least 64
   * positions (31,250 for 1M documents on 2 threads).
   */
  static int chunkFor(int count, int threads) {
    return Math.max(64, count / (16 * Math.max(1, threads)));
  }

  /** One band, sorted: its keys in order and their ordinals, and how far it has been dealt. */
  static final class Sorted {
    final long[] keys;
    final int[] order;
    final int n;
    int next;
    int out;

    Sorted(long[] keys, int[] order, int n) {
      this.keys = keys;
      this.order = order;
      this.n = n;
    }
  }

  /** A job: sort band {@code band} when {@code sorted} is null, else its positions [from, to). */
  record Job(int band, @Nullable Sorted sorted, int from, int to) {}

  private final int bands;
  private final int held;
  private final int chunk;
  private final Sorted[] sorted;
  private int nextSort;
  private int done;
  private boolean failed;

  BandDeal(int bands, int held, int chunk) {
    this.bands = bands;
    this.held = Math.max(1, held);
    this.chunk = Math.max(1, chunk);
    this.sorted = new Sorted[bands];
  }

  /** The next job, or null when every band is done or a thread failed. */
  synchronized @Nullable Job take() throws InterruptedException {
    while (!failed && done < bands) {
      for (int b = 0; b < nextSort; b++) {
        Sorted s = sorted[b];
        if (s != null && s.next < s.n) {
          int from = s.next;
          int to = Math.min(s.n, from + chunk);
          while (to < s.n && s.keys[to] == s.keys[to - 1]) {
            to++; // whole groups only
          }
          s.next = to;
          s.out++;
          return new Job(b, s, from, to);
        }
      }
      if (nextSort < bands && nextSort - done < held) {
        return new Job(nextSort++, null, 0, 0);
      }
      wait();
    }
    return null;
  }

  /** Band {@code b} is sorted: its chunks may be dealt. */
  synchronized void sorted(int b, Sorted s) {
    sorted[b] = s;
    if (s.n == 0) {
      finish(b);
    }
    notifyAll();
  }

  /** A chunk of band {@code b} is done; the band is dropped once all of its chunks are. */
  synchronized void chunkDone(int b) {
    Sorted s = sorted[b];
    s.out--;
    if (s.next == s.n && s.out == 0) {
      finish(b);
    }
    notifyAll();
  }

  /** A thread failed: the others stop taking jobs. */
  synchronized void fail() {
    failed = true;
    notifyAll();
  }

  private void finish(int b) {
    sorted[b] = null;
    done++;
  }
}
