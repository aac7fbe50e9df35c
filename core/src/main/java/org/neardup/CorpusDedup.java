// SPDX-License-Identifier: Apache-2.0
package org.neardup;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import org.jspecify.annotations.Nullable;
import org.neardup.index.AllPairs;
import org.neardup.internal.Checks;
import org.neardup.internal.Sorts;
import org.neardup.verify.HeadFilter;
import org.neardup.verify.ShingleSketch;

/**
 * Deduplicates a whole corpus at once: every pair of near-duplicate documents and the clusters they
 * form, with the same meaning as calling {@link Deduplicator#checkAndInsert} on each document in
 * order (the same pairs, the same clusters, the same representatives), but with all candidate pairs
 * found in bulk and verified on several threads.
 *
 * <p>Candidates: every pair within {@code maxDistance} bits ({@link AllPairs}) and every pair that
 * shares a MinHash band key (one sort per band). A pair sharing band keys is verified only from the
 * first band it shares, and a fingerprint pair only when it shares no band key, so each pair is
 * verified once without a hash set. Every candidate passes the {@link HeadFilter} before its
 * sketches are read and compared, as in {@link Deduplicator}. Held in memory: fingerprints, band
 * keys and the sixteen smallest shingle hashes of each document; sketches are read through {@code
 * sketches}, which may be backed by a file.
 */
public final class CorpusDedup {
  /** Members of a band group whose sketches are held at once, per side of a tile of pairs. */
  private static final int TILE = 256;

  /**
   * Receives each near-duplicate pair {@code i < j} (document ordinals). Called from several
   * threads.
   */
  @FunctionalInterface
  public interface PairSink {
    void accept(int i, int j, int distance, double similarity);
  }

  private CorpusDedup() {}

  /**
   * Finds every near-duplicate pair.
   *
   * @param fingerprints one per document, by ordinal
   * @param bandKeys {@code bands} keys per document, flat: document i's keys at {@code [i * bands,
   *     (i + 1) * bands)}; ignored when verification is off
   * @param bands band keys per document (0 when verification is off)
   * @param sketches the shingle sketch of a document ordinal; called from several threads; null
   *     turns verification off (fingerprint distance alone decides)
   * @param excluded ordinals to leave out (documents that failed), or null
   * @return the number of pairs reported
   */
  public static long findPairs(
      long[] fingerprints,
      int count,
      long[] bandKeys,
      int bands,
      @Nullable IntFunction<ShingleSketch> sketches,
      int maxDistance,
      double threshold,
      java.util.@Nullable BitSet excluded,
      int threads,
      PairSink out) {
    Objects.requireNonNull(out, "out");
    Checks.checkArgument(
        count >= 0 && count <= fingerprints.length, "count %s out of range", count);
    Checks.checkArgument(threads >= 1, "threads must be >= 1, got %s", threads);
    long[] fps =
        count == fingerprints.length ? fingerprints : java.util.Arrays.copyOf(fingerprints, count);
    boolean verify = sketches != null;
    Heads heads = verify ? Heads.of(count, sketches, excluded, threshold, threads) : null;
    java.util.concurrent.atomic.AtomicLong reported = new java.util.concurrent.atomic.AtomicLong();
    AllPairs.find(
        fps,
        maxDistance,
        threads,
        (i, j, d) -> {
          if (isExcluded(excluded, i) || isExcluded(excluded, j)) {
            return;
          }
          if (!verify) {
            out.accept(i, j, d, Double.NaN);
            reported.incrementAndGet();
            return;
          }
          if (shareBand(bandKeys, bands, i, j, bands)) {
            return; // the band phase verifies it
          }
          if (!heads.mayReach(i, j)) {
            return;
          }
          double s = ShingleSketch.jaccardAtLeast(sketches.apply(i), sketches.apply(j), threshold);
          if (s >= threshold) {
            out.accept(i, j, d, s);
            reported.incrementAndGet();
          }
        });
    if (!verify || bands == 0) {
      return reported.get();
    }
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> workers = new ArrayList<>();
    int nThreads = Math.min(threads, bands);
    for (int w = 0; w < nThreads; w++) {
      int first = w;
      Thread t =
          new Thread(
              () -> {
                try {
                  for (int b = first; b < bands; b += nThreads) {
                    reported.addAndGet(
                        band(
                            fps, count, bandKeys, bands, b, sketches, heads, threshold, excluded,
                            out));
                  }
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
              },
              "neardup-bands-" + w);
      workers.add(t);
      t.start();
    }
    join(workers.toArray(new Thread[0]), failure);
    return reported.get();
  }

  /** Waits for the threads; rethrows the first failure of any of them. */
  private static void join(Thread[] threads, AtomicReference<Throwable> failure) {
    for (Thread t : threads) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while finding pairs", e);
      }
    }
    Throwable e = failure.get();
    if (e != null) {
      if (e instanceof RuntimeException) {
        throw (RuntimeException) e;
      }
      if (e instanceof Error) {
        throw (Error) e;
      }
      throw new IllegalStateException(e);
    }
  }

  private static long band(
      long[] fps,
      int count,
      long[] bandKeys,
      int bands,
      int b,
      IntFunction<ShingleSketch> sketches,
      Heads heads,
      double threshold,
      java.util.BitSet excluded,
      PairSink out) {
    // Sort ordinals by this band's key: keys and ordinals packed as (key, ordinal) pairs.
    long[] keys = new long[count];
    int[] order = new int[count];
    int n = 0;
    for (int i = 0; i < count; i++) {
      if (!isExcluded(excluded, i) && bands > 0) {
        keys[n] = bandKeys[i * bands + b];
        order[n++] = i;
      }
    }
    Sorts.sortByKey(keys, order, n);
    long pairs = 0;
    ShingleSketch[] rows = new ShingleSketch[TILE];
    ShingleSketch[] columns = new ShingleSketch[TILE];
    for (int start = 0; start < n; ) {
      int end = start + 1;
      while (end < n && keys[end] == keys[start]) {
        end++;
      }
      // The group's pairs tile by tile, each tile's sketches read once when a pair first needs
      // them: a group of m copies reads m sketches, not m * (m - 1), while a hot key of thousands
      // holds no more than two tiles of sketches at a time.
      for (int xs = start; xs < end; xs += TILE) {
        int xe = Math.min(end, xs + TILE);
        Arrays.fill(rows, 0, xe - xs, null);
        for (int ys = xs; ys < end; ys += TILE) {
          int ye = Math.min(end, ys + TILE);
          ShingleSketch[] cols = ys == xs ? rows : columns;
          if (cols == columns) {
            Arrays.fill(columns, 0, ye - ys, null);
          }
          for (int x = xs; x < xe; x++) {
            for (int y = Math.max(ys, x + 1); y < ye; y++) {
              int i = Math.min(order[x], order[y]);
              int j = Math.max(order[x], order[y]);
              if (shareBand(bandKeys, bands, i, j, b)) {
                continue; // an earlier band already verified this pair
              }
              if (!heads.mayReach(i, j)) {
                continue;
              }
              ShingleSketch sx = rows[x - xs];
              if (sx == null) {
                sx = rows[x - xs] = sketches.apply(order[x]);
              }
              ShingleSketch sy = cols[y - ys];
              if (sy == null) {
                sy = cols[y - ys] = sketches.apply(order[y]);
              }
              double s = ShingleSketch.jaccardAtLeast(sx, sy, threshold);
              if (s >= threshold) {
                out.accept(i, j, Long.bitCount(fps[i] ^ fps[j]), s);
                pairs++;
              }
            }
          }
        }
      }
      start = end;
    }
    return pairs;
  }

  /**
   * The {@link HeadFilter} heads of every document, read once before the pairs: 68 bytes per
   * document, so that a candidate far below the threshold costs no sketch read.
   */
  private static final class Heads {
    final HeadFilter filter;
    final int[] hashes;
    final int[] codes;

    private Heads(int count, double threshold) {
      this.filter = new HeadFilter(threshold);
      this.hashes = new int[Math.multiplyExact(count, HeadFilter.HEAD)];
      this.codes = new int[count];
    }

    static Heads of(
        int count,
        IntFunction<ShingleSketch> sketches,
        java.util.@Nullable BitSet excluded,
        double threshold,
        int threads) {
      Heads h = new Heads(count, threshold);
      int workers = Math.max(1, Math.min(threads, count / 4096));
      Thread[] pool = new Thread[workers];
      AtomicReference<Throwable> failure = new AtomicReference<>();
      for (int w = 0; w < workers; w++) {
        int first = w;
        pool[w] =
            new Thread(
                () -> {
                  try {
                    for (int i = first; i < count; i += workers) {
                      if (!isExcluded(excluded, i)) {
                        h.codes[i] =
                            HeadFilter.head(sketches.apply(i), h.hashes, i * HeadFilter.HEAD);
                      }
                    }
                  } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                  }
                },
                "neardup-heads-" + w);
        pool[w].start();
      }
      join(pool, failure);
      return h;
    }

    boolean mayReach(int i, int j) {
      return filter.mayReach(hashes, i * HeadFilter.HEAD, codes[i], j * HeadFilter.HEAD, codes[j]);
    }
  }

  /** Whether documents i and j share a key in any band before {@code limit}. */
  private static boolean shareBand(long[] keys, int bands, int i, int j, int limit) {
    int a = i * bands;
    int c = j * bands;
    for (int b = 0; b < limit; b++) {
      if (keys[a + b] == keys[c + b]) {
        return true;
      }
    }
    return false;
  }

  private static boolean isExcluded(java.util.@Nullable BitSet excluded, int i) {
    return excluded != null && excluded.get(i);
  }
}
