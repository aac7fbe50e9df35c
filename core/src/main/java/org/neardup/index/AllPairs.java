// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.neardup.internal.Checks;

/**
 * Every pair of a set of fingerprints within k bits: the batch form of a {@link HammingIndex}, for
 * deduplicating a whole corpus.
 *
 * <p>For each table of a {@link BlockScheme} it sorts (fingerprint, position) by the table's key
 * and compares the entries within each run of equal keys. A pair is reported only from the first
 * (lowest numbered) table whose key the two share, so each pair is reported exactly once without a
 * hash set. This needs every pair within k to share a key somewhere: {@code k <= }{@link
 * BlockScheme#exactUpTo()}. For a larger k it instead bulk-loads a {@link BlockPermutedIndex} and
 * runs one multi-probe query per fingerprint.
 *
 * <p>Skew and duplicates: a run of more than 64 entries (a block value shared by many fingerprints)
 * is not compared pairwise. Its exact duplicates are collapsed into groups first, and the distinct
 * values are split again by the pigeonhole principle over their remaining free bits (k + 1
 * sub-blocks, recursively), so the work stays near-linear plus the output; pairs of exact
 * duplicates are reported from their groups, one call per pair, which is unavoidable output.
 * Callers who only need one representative per duplicate group can collapse duplicates first.
 *
 * <p>Threads: tables are spread over the given number of threads, and {@code out} is called from
 * all of them concurrently: it must be thread-safe when {@code threads > 1}. Memory: 16 bytes per
 * fingerprint per thread on top of the input.
 */
public final class AllPairs {
  /*
   * Exactly once: pair (a, b) with diff = a ^ b, bitCount(diff) <= k <= exactUpTo, shares table
   * t's key iff (diff & keyMask[t]) == 0; it is reported at the first such t. Inside a big run of
   * table t the same rule continues one level down: the run's distinct values agree on every bit
   * outside `free`; a pair within k agrees on at least one of k + 1 sub-blocks of the free bits,
   * and is reported from the first sub-block it agrees on, provided it differs somewhere in every
   * mask of `excludes` (earlier tables' keys and earlier sub-blocks of enclosing levels).
   */

  /** Receives one pair of positions {@code i < j} and their distance. */
  @FunctionalInterface
  public interface PairConsumer {
    void accept(int i, int j, int distance);
  }

  /** Runs longer than this are split recursively instead of compared pairwise. */
  static final int SMALL_RUN = 64;

  /** Digit width for sorting packed keys: 2 passes over a 26-bit key instead of 4. */
  static final int PACKED_DIGIT_BITS = 13;

  private AllPairs() {}

  /**
   * {@link #defaultScheme}'s rule in words, for help texts (a constant, so an annotation can hold
   * it): the one place besides the method that states it, tested against it.
   */
  public static final String DEFAULT_SCHEME_RULE =
      "chosen for k: 5:2 up to k = 3, (k + 2):2 above while that has at most 1024 tables, then (k + 1):1";

  /**
   * The scheme {@link #find(long[], int, int, PairConsumer)} uses for k: 5:2 (10 tables of 26-bit
   * keys) up to k = 3, which at 10M random fingerprints compares some 100x fewer pairs than 4:1
   * with 16-bit keys; beyond, {@code (k + 2):2}, exact up to k, while it has at most 1024 tables,
   * then {@code (k + 1):1}.
   */
  public static BlockScheme defaultScheme(int k) {
    Checks.checkMaxDistance(k, 64);
    if (k <= 3) {
      return BlockScheme.of(5, 2);
    }
    if (BlockScheme.binomial(k + 2, 2) <= BlockScheme.MAX_TABLES && k + 2 <= 64) {
      return BlockScheme.of(k + 2, 2);
    }
    return BlockScheme.of(Math.min(64, k + 1), 1);
  }

  /** {@link #find(long[], int, BlockScheme, int, PairConsumer)} with {@link #defaultScheme}. */
  public static long find(long[] fingerprints, int maxDistance, int threads, PairConsumer out) {
    Checks.checkMaxDistance(maxDistance, 64);
    return find(fingerprints, maxDistance, defaultScheme(maxDistance), threads, out);
  }

  /**
   * Calls {@code out} once for every pair of positions {@code i < j} with {@code
   * bitCount(fingerprints[i] ^ fingerprints[j]) <= maxDistance}, in no particular order.
   *
   * @return the number of pairs reported
   * @throws IllegalArgumentException for a null argument, maxDistance outside [0, 64] or threads
   *     outside [1, 256]
   */
  public static long find(
      long[] fingerprints, int maxDistance, BlockScheme scheme, int threads, PairConsumer out) {
    Checks.checkArgument(fingerprints != null, "fingerprints must not be null");
    Checks.checkMaxDistance(maxDistance, 64);
    Checks.checkArgument(scheme != null, "scheme must not be null");
    Checks.checkArgument(
        threads >= 1 && threads <= 256, "threads must be in [1, 256], got %s", (long) threads);
    Checks.checkArgument(out != null, "out must not be null");
    if (fingerprints.length < 2) {
      return 0;
    }
    if (scheme.keyErrors(maxDistance) > 0) {
      return byIndex(fingerprints, maxDistance, scheme, threads, out);
    }
    int tables = scheme.tables();
    AtomicLong total = new AtomicLong();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    int workers = Math.min(threads, tables);
    List<Thread> started = new ArrayList<>();
    for (int w = 0; w < workers; w++) {
      int first = w;
      Runnable task =
          () -> {
            try {
              Worker worker = new Worker(fingerprints, maxDistance, scheme, out);
              for (int t = first; t < tables; t += workers) {
                worker.table(t);
              }
              total.addAndGet(worker.count);
            } catch (Throwable e) {
              failure.compareAndSet(null, e);
            }
          };
      if (w == workers - 1) {
        task.run(); // the calling thread takes the last share
      } else {
        Thread thread = new Thread(task, "neardup-allpairs-" + w);
        thread.start();
        started.add(thread);
      }
    }
    join(started);
    rethrow(failure.get());
    return total.get();
  }

  private static long byIndex(
      long[] fps, int k, BlockScheme scheme, int threads, PairConsumer out) {
    BlockPermutedIndex index = BlockPermutedIndex.create(scheme);
    long[] ids = new long[fps.length];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = i;
    }
    index.addAll(fps, ids, 0, fps.length);
    AtomicLong total = new AtomicLong();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> started = new ArrayList<>();
    for (int w = 0; w < threads; w++) {
      int first = w;
      Runnable task =
          () -> {
            try {
              long[] count = {0};
              for (int i = first; i < fps.length; i += threads) {
                int self = i;
                index.search(
                    fps[i],
                    k,
                    (id, fp, d) -> {
                      if (id > self) {
                        out.accept(self, (int) id, d);
                        count[0]++;
                      }
                    });
              }
              total.addAndGet(count[0]);
            } catch (Throwable e) {
              failure.compareAndSet(null, e);
            }
          };
      if (w == threads - 1) {
        task.run();
      } else {
        Thread thread = new Thread(task, "neardup-allpairs-" + w);
        thread.start();
        started.add(thread);
      }
    }
    join(started);
    rethrow(failure.get());
    return total.get();
  }

  private static void join(List<Thread> threads) {
    boolean interrupted = false;
    for (Thread t : threads) {
      while (true) {
        try {
          t.join();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private static void rethrow(Throwable t) {
    if (t instanceof RuntimeException) {
      throw (RuntimeException) t;
    }
    if (t instanceof Error) {
      throw (Error) t;
    }
    if (t != null) {
      throw new IllegalStateException(t);
    }
  }

  /** One thread's tables: reusable sort arrays and the pair rule. */
  private static final class Worker {
    private final long[] fps;
    private final int k;
    private final BlockScheme scheme;
    private final PairConsumer out;
    private final int idxBits;
    private long[] packed = new long[0];
    private long[] scratch = new long[0];
    private final int[] runPos = new int[SMALL_RUN];
    private final long[] runFp = new long[SMALL_RUN];
    long count;

    Worker(long[] fps, int k, BlockScheme scheme, PairConsumer out) {
      this.fps = fps;
      this.k = k;
      this.scheme = scheme;
      this.out = out;
      idxBits = Math.max(1, 64 - Long.numberOfLeadingZeros(fps.length - 1L));
    }

    /**
     * Table t: sort {@code key << idxBits | position} by the key bits, then compare within runs of
     * equal keys, fetching fingerprints by position. Sorting one packed long instead of a
     * (fingerprint, position) pair halves the memory traffic: 10M at k = 3 with 5:2 on 2 threads
     * took 2.4-8.0 s sorting pairs by 8-bit digits and 1.9-2.4 s this way (alternating runs on a
     * shared box; system time fell from 0.8-1.8 s to 0.1 s with the smaller arrays).
     */
    void table(int t) {
      int n = fps.length;
      long keyMask = scheme.keyMask(t);
      long[] excludes = new long[t];
      for (int u = 0; u < t; u++) {
        excludes[u] = scheme.keyMask(u);
      }
      int w = scheme.keyBits(t);
      if (w + idxBits > 64) {
        wideTable(t, keyMask, excludes);
        return;
      }
      if (packed.length < n) {
        packed = new long[n];
        scratch = new long[n];
      }
      int[] blocks = scheme.tableBlocks(t);
      if (blocks.length == 2) {
        int s0 = scheme.blockShift(blocks[0]);
        int s1 = scheme.blockShift(blocks[1]);
        int w1 = scheme.blockWidth(blocks[1]);
        long m0 = BlockScheme.mask(scheme.blockWidth(blocks[0]));
        long m1 = BlockScheme.mask(w1);
        for (int i = 0; i < n; i++) {
          long fp = fps[i];
          long key = (((fp >>> s0) & m0) << w1) | ((fp >>> s1) & m1);
          packed[i] = (key << idxBits) | i;
        }
      } else {
        for (int i = 0; i < n; i++) {
          long fp = fps[i];
          long key = 0;
          for (int b : blocks) {
            key =
                (key << scheme.blockWidth(b))
                    | ((fp >>> scheme.blockShift(b)) & BlockScheme.mask(scheme.blockWidth(b)));
          }
          packed[i] = (key << idxBits) | i;
        }
      }
      RadixSort.sort(
          packed,
          null,
          n,
          scratch,
          null,
          RadixSort.digitsFor(new int[] {idxBits}, new int[] {w}, PACKED_DIGIT_BITS));
      long idxMask = BlockScheme.mask(idxBits);
      for (int a = 0; a < n; ) {
        long key = packed[a] >>> idxBits;
        int b = a + 1;
        while (b < n && (packed[b] >>> idxBits) == key) {
          b++;
        }
        int m = b - a;
        if (m > SMALL_RUN) {
          long[] vals = new long[m];
          long[] members = new long[m];
          for (int i = 0; i < m; i++) {
            int p = (int) (packed[a + i] & idxMask);
            vals[i] = fps[p];
            members[i] = p;
          }
          bigRun(vals, members, m, t, ~keyMask, excludes);
        } else if (m > 1) {
          for (int i = 0; i < m; i++) {
            int p = (int) (packed[a + i] & idxMask);
            runPos[i] = p;
            runFp[i] = fps[p];
          }
          for (int i = 0; i < m; i++) {
            long x = runFp[i];
            for (int j = i + 1; j < m; j++) {
              long diff = x ^ runFp[j];
              int d = Long.bitCount(diff);
              if (d <= k && differsInAll(diff, excludes)) {
                report(runPos[i], runPos[j], d);
              }
            }
          }
        }
        a = b;
      }
    }

    /** Keys too wide to pack with a position: sort (fingerprint, position) pairs instead. */
    private void wideTable(int t, long keyMask, long[] excludes) {
      int n = fps.length;
      long[] keys = fps.clone();
      long[] pos = new long[n];
      for (int i = 0; i < n; i++) {
        pos[i] = i;
      }
      int[] blocks = scheme.tableBlocks(t);
      int[] shifts = new int[blocks.length];
      int[] widths = new int[blocks.length];
      for (int i = 0; i < blocks.length; i++) {
        shifts[i] = scheme.blockShift(blocks[i]);
        widths[i] = scheme.blockWidth(blocks[i]);
      }
      RadixSort.sort(keys, pos, n, new long[n], new long[n], RadixSort.digitsFor(shifts, widths));
      for (int a = 0; a < n; ) {
        long key = keys[a] & keyMask;
        int b = a + 1;
        while (b < n && (keys[b] & keyMask) == key) {
          b++;
        }
        int m = b - a;
        if (m > 1) {
          bigRun(
              java.util.Arrays.copyOfRange(keys, a, b),
              java.util.Arrays.copyOfRange(pos, a, b),
              m,
              t,
              ~keyMask,
              excludes);
        }
        a = b;
      }
    }

    private void report(int p, int q, int d) {
      if (p < q) {
        out.accept(p, q, d);
      } else {
        out.accept(q, p, d);
      }
      count++;
    }

    /**
     * Entries sharing table t's key: collapse exact duplicates into groups, then split the distinct
     * values recursively. {@code vals} and {@code members} are the run's own arrays.
     */
    private void bigRun(long[] vals, long[] members, int m, int t, long free, long[] excludes) {
      RadixSort.sortUnsigned(vals, members, m, new long[m], new long[m]);
      // groups: distinct value g covers members[groupStart[g], groupStart[g + 1])
      int[] groupStart = new int[m + 1];
      long[] distinct = new long[m];
      int groups = 0;
      for (int i = 0; i < m; ) {
        int j = i + 1;
        while (j < m && vals[j] == vals[i]) {
          j++;
        }
        distinct[groups] = vals[i];
        groupStart[groups++] = i;
        if (t == 0) {
          // identical fingerprints share every key, so table 0 reports them
          for (int x = i; x < j; x++) {
            for (int y = x + 1; y < j; y++) {
              report((int) members[x], (int) members[y], 0);
            }
          }
        }
        i = j;
      }
      groupStart[groups] = m;
      int[] ids = new int[groups];
      for (int g = 0; g < groups; g++) {
        ids[g] = g;
      }
      new Split(distinct, groupStart, members).split(ids, groups, free, excludes);
    }

    /** The recursive pigeonhole split of one big run's distinct values. */
    private final class Split {
      private final long[] values;
      private final int[] groupStart;
      private final long[] members;

      Split(long[] values, int[] groupStart, long[] members) {
        this.values = values;
        this.groupStart = groupStart;
        this.members = members;
      }

      void split(int[] ids, int n, long free, long[] excludes) {
        if (n < 2) {
          return;
        }
        int freeBits = Long.bitCount(free);
        if (n <= SMALL_RUN || freeBits <= k) {
          for (int x = 0; x < n; x++) {
            long v = values[ids[x]];
            for (int y = x + 1; y < n; y++) {
              long diff = v ^ values[ids[y]];
              int d = Long.bitCount(diff);
              if (d <= k && differsInAll(diff, excludes)) {
                reportGroups(ids[x], ids[y], d);
              }
            }
          }
          return;
        }
        long[] subMasks = subBlocks(free, k + 1);
        long[] sortKeys = new long[n];
        long[] order = new long[n];
        long[] scratch1 = new long[n];
        long[] scratch2 = new long[n];
        long[] inner = new long[excludes.length + subMasks.length];
        System.arraycopy(excludes, 0, inner, 0, excludes.length);
        int[] run = new int[n];
        for (int s = 0; s < subMasks.length; s++) {
          long sub = subMasks[s];
          for (int x = 0; x < n; x++) {
            sortKeys[x] = values[ids[x]] & sub;
            order[x] = ids[x];
          }
          RadixSort.sortUnsigned(sortKeys, order, n, scratch1, scratch2);
          long[] ex = java.util.Arrays.copyOf(inner, excludes.length + s);
          for (int x = 0; x < n; ) {
            int y = x + 1;
            while (y < n && sortKeys[y] == sortKeys[x]) {
              y++;
            }
            if (y - x > 1) {
              for (int z = x; z < y; z++) {
                run[z - x] = (int) order[z];
              }
              split(java.util.Arrays.copyOf(run, y - x), y - x, free & ~sub, ex);
            }
            x = y;
          }
          inner[excludes.length + s] = sub;
        }
      }

      private void reportGroups(int g, int h, int d) {
        for (int x = groupStart[g]; x < groupStart[g + 1]; x++) {
          for (int y = groupStart[h]; y < groupStart[h + 1]; y++) {
            report((int) members[x], (int) members[y], d);
          }
        }
      }
    }
  }

  static boolean differsInAll(long diff, long[] masks) {
    for (long m : masks) {
      if ((diff & m) == 0) {
        return false;
      }
    }
    return true;
  }

  /** Cuts the set bits of {@code free} into {@code parts} masks of nearly equal bit counts. */
  static long[] subBlocks(long free, int parts) {
    int bits = Long.bitCount(free);
    long[] out = new long[parts];
    int p = 0;
    int inPart = 0;
    int want = bits / parts + (0 < bits % parts ? 1 : 0);
    for (long rest = free; rest != 0; rest &= rest - 1) {
      out[p] |= Long.lowestOneBit(rest);
      if (++inPart == want && p < parts - 1) {
        p++;
        inPart = 0;
        want = bits / parts + (p < bits % parts ? 1 : 0);
      }
    }
    return out;
  }
}
