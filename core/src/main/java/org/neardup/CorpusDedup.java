// SPDX-License-Identifier: Apache-2.0
package org.neardup;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;
import org.jspecify.annotations.Nullable;
import org.neardup.index.AllPairs;
import org.neardup.index.BlockScheme;
import org.neardup.internal.Checks;
import org.neardup.internal.Sorts;
import org.neardup.verify.BucketBound;
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
 * sketches are read and compared, as in {@link Deduplicator}. A band candidate then passes the
 * {@link BucketBound}, an exact test that proves most pairs of lightly edited copies below the
 * threshold without walking their sketches; it changes no result, only the work ({@link Stats}
 * counts each step). Held in memory: fingerprints, band keys and the sixteen smallest shingle
 * hashes of each document; sketches are read through {@code sketches}, which may be backed by a
 * file.
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

  /**
   * What a {@link #findPairs} run did, for reports: how many candidate pairs each source gave, how
   * many the head filter turned away, how many were verified on their sketches, and the time of
   * each step. Filled by the run; read it after {@code findPairs} returns.
   */
  public static final class Stats {
    private final LongAdder fingerprintPairs = new LongAdder();
    private final LongAdder bandPairs = new LongAdder();
    private final LongAdder candidates = new LongAdder();
    private final LongAdder headRejected = new LongAdder();
    private final LongAdder bucketRejected = new LongAdder();
    private final LongAdder verified = new LongAdder();
    private final LongAdder sketchReads = new LongAdder();
    private final LongAdder reported = new LongAdder();
    private volatile long headNanos;
    private volatile long fingerprintNanos;
    private volatile long bandNanos;

    /** Pairs within maxDistance bits of each other (excluded documents left out). */
    public long fingerprintPairs() {
      return fingerprintPairs.sum();
    }

    /**
     * Pairs met in band groups, once per band they share (a pair sharing three bands counts three
     * times; only the first one is a candidate).
     */
    public long bandPairs() {
      return bandPairs.sum();
    }

    /** Distinct candidate pairs: each pair that shares a band key or is within maxDistance bits. */
    public long candidates() {
      return candidates.sum();
    }

    /** Candidates the {@link HeadFilter} turned away before any sketch was read. */
    public long headRejected() {
      return headRejected.sum();
    }

    /**
     * Candidates the {@link BucketBound} proved below the threshold from their sketches' bucket
     * counts, without walking the sketches.
     */
    public long bucketRejected() {
      return bucketRejected.sum();
    }

    /** Candidates whose similarity was computed on their sketches. */
    public long verified() {
      return verified.sum();
    }

    /** Sketches read through the {@code sketches} function, heads included. */
    public long sketchReads() {
      return sketchReads.sum();
    }

    /**
     * Pairs reported: verified at or above the threshold (every candidate without verification).
     */
    public long reported() {
      return reported.sum();
    }

    /** Seconds spent reading the head of every sketch. */
    public double headSeconds() {
      return headNanos / 1e9;
    }

    /** Seconds spent finding (and verifying) the pairs within maxDistance bits. */
    public double fingerprintSeconds() {
      return fingerprintNanos / 1e9;
    }

    /** Seconds spent on the band groups: their candidates and verifications. */
    public double bandSeconds() {
      return bandNanos / 1e9;
    }
  }

  /**
   * The {@link HeadFilter} heads of documents by ordinal, 68 bytes each, for a caller that has each
   * sketch in hand as it reads the corpus: {@link #findPairs(long[], int, long[], int, IntFunction,
   * int, double, java.util.BitSet, int, SketchHeads, Stats, BlockScheme, PairSink)} then reads no
   * sketch only for its head. Filled from one thread at a time.
   */
  public static final class SketchHeads {
    /**
     * Past this many documents the heads are no longer kept as they come: growing the arrays would
     * hold the old and the new ones at once (1.6 GB at 10M documents), so {@link #findPairs} takes
     * them afterwards from the sketches, at the exact size.
     */
    static final int MAX_KEPT = 1 << 22;

    private final int maxKept;
    int[] hashes;
    int[] codes;
    boolean dropped;

    /** Heads kept for up to {@link #MAX_KEPT} documents. */
    public SketchHeads() {
      this(MAX_KEPT);
    }

    SketchHeads(int maxKept) {
      this.maxKept = maxKept;
      this.codes = new int[Math.min(1024, maxKept)];
      this.hashes = new int[codes.length * HeadFilter.HEAD];
    }

    /** Takes the head of document {@code ordinal}'s sketch. */
    public void set(int ordinal, ShingleSketch sketch) {
      Checks.checkArgument(ordinal >= 0, "ordinal must be >= 0, got %s", ordinal);
      if (dropped) {
        return;
      }
      if (ordinal >= codes.length) {
        if (ordinal >= maxKept) {
          dropped = true;
          hashes = new int[0];
          codes = new int[0];
          return;
        }
        ensure(Math.min(maxKept, Math.max(ordinal + 1, codes.length * 2)));
      }
      codes[ordinal] = HeadFilter.head(sketch, hashes, ordinal * HeadFilter.HEAD);
    }

    void ensure(int n) {
      if (n > codes.length) {
        codes = Arrays.copyOf(codes, n);
        hashes = Arrays.copyOf(hashes, Math.multiplyExact(n, HeadFilter.HEAD));
      }
    }

    /** Heap bytes held. */
    public long ramBytesUsed() {
      return 4L * hashes.length + 4L * codes.length;
    }
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
    return findPairs(
        fingerprints,
        count,
        bandKeys,
        bands,
        sketches,
        maxDistance,
        threshold,
        excluded,
        threads,
        null,
        new Stats(),
        AllPairs.defaultScheme(maxDistance),
        out);
  }

  /**
   * {@link #findPairs(long[], int, long[], int, IntFunction, int, double, java.util.BitSet, int,
   * PairSink)}, counting what it does into {@code stats}, with the heads of the sketches already
   * taken (from every document not excluded) when {@code given} is not null, so that no sketch is
   * read before the pairs, and with the pairs within maxDistance bits found by {@code scheme}
   * ({@link AllPairs#defaultScheme} is the one chosen for maxDistance): every scheme finds the same
   * pairs ({@link AllPairs#find(long[], int, BlockScheme, int, AllPairs.PairConsumer)}), only the
   * time and memory differ.
   */
  public static long findPairs(
      long[] fingerprints,
      int count,
      long[] bandKeys,
      int bands,
      @Nullable IntFunction<ShingleSketch> sketches0,
      int maxDistance,
      double threshold,
      java.util.@Nullable BitSet excluded,
      int threads,
      @Nullable SketchHeads given,
      Stats stats,
      BlockScheme scheme,
      PairSink out) {
    Objects.requireNonNull(out, "out");
    Objects.requireNonNull(scheme, "scheme");
    if (given != null) {
      given.ensure(count); // documents never set (excluded ones) have no head
    }
    Objects.requireNonNull(stats, "stats");
    IntFunction<ShingleSketch> sketches =
        sketches0 == null
            ? null
            : o -> {
              stats.sketchReads.increment();
              return sketches0.apply(o);
            };
    Checks.checkArgument(
        count >= 0 && count <= fingerprints.length, "count %s out of range", count);
    Checks.checkArgument(threads >= 1, "threads must be >= 1, got %s", threads);
    long[] fps =
        count == fingerprints.length ? fingerprints : java.util.Arrays.copyOf(fingerprints, count);
    boolean verify = sketches != null;
    long t0 = System.nanoTime();
    Heads heads =
        !verify
            ? null
            : given != null && !given.dropped
                ? new Heads(new HeadFilter(threshold), given.hashes, given.codes)
                : Heads.of(count, sketches, excluded, threshold, threads);
    long t1 = System.nanoTime();
    stats.headNanos = t1 - t0;
    AtomicLong reported = new AtomicLong();
    AllPairs.find(
        fps,
        maxDistance,
        scheme,
        threads,
        (i, j, d) -> {
          if (isExcluded(excluded, i) || isExcluded(excluded, j)) {
            return;
          }
          stats.fingerprintPairs.increment();
          if (!verify) {
            stats.candidates.increment();
            out.accept(i, j, d, Double.NaN);
            reported.incrementAndGet();
            return;
          }
          if (shareBand(bandKeys, bands, i, j, bands)) {
            return; // the band phase verifies it
          }
          stats.candidates.increment();
          if (!heads.mayReach(i, j)) {
            stats.headRejected.increment();
            return;
          }
          stats.verified.increment();
          double s = ShingleSketch.jaccardAtLeast(sketches.apply(i), sketches.apply(j), threshold);
          if (s >= threshold) {
            out.accept(i, j, d, s);
            reported.incrementAndGet();
          }
        });
    long t2 = System.nanoTime();
    stats.fingerprintNanos = t2 - t1;
    if (!verify || bands == 0) {
      stats.reported.add(reported.get());
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
                            stats, out));
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
    stats.bandNanos = System.nanoTime() - t2;
    stats.reported.add(reported.get());
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
      Stats stats,
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
    long met = 0;
    long candidates = 0;
    long rejected = 0;
    long bounded = 0;
    ShingleSketch[] rows = new ShingleSketch[TILE];
    ShingleSketch[] columns = new ShingleSketch[TILE];
    // BucketBound counts of each sketch read, beside it; a null row or column has none.
    long[] rowCounts = new long[TILE * BucketBound.WORDS];
    long[] columnCounts = new long[TILE * BucketBound.WORDS];
    boolean[] rowCounted = new boolean[TILE];
    boolean[] columnCounted = new boolean[TILE];
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
          boolean same = ys == xs;
          ShingleSketch[] cols = same ? rows : columns;
          long[] colCounts = same ? rowCounts : columnCounts;
          boolean[] colCounted = same ? rowCounted : columnCounted;
          if (!same) {
            Arrays.fill(columns, 0, ye - ys, null);
          }
          for (int x = xs; x < xe; x++) {
            for (int y = Math.max(ys, x + 1); y < ye; y++) {
              int i = Math.min(order[x], order[y]);
              int j = Math.max(order[x], order[y]);
              met++;
              if (shareBand(bandKeys, bands, i, j, b)) {
                continue; // an earlier band already verified this pair
              }
              candidates++;
              if (!heads.mayReach(i, j)) {
                rejected++;
                continue;
              }
              int r = x - xs;
              ShingleSketch sx = rows[r];
              if (sx == null) {
                sx = rows[r] = sketches.apply(order[x]);
                rowCounted[r] = BucketBound.counts(sx, rowCounts, r * BucketBound.WORDS);
              }
              int c = y - ys;
              ShingleSketch sy = cols[c];
              if (sy == null) {
                sy = cols[c] = sketches.apply(order[y]);
                colCounted[c] = BucketBound.counts(sy, colCounts, c * BucketBound.WORDS);
              }
              if (rowCounted[r]
                  && colCounted[c]
                  && !BucketBound.mayReach(
                      sx,
                      rowCounts,
                      r * BucketBound.WORDS,
                      sy,
                      colCounts,
                      c * BucketBound.WORDS,
                      threshold)) {
                bounded++;
                continue; // cannot reach the threshold: jaccardAtLeast would say so
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
    stats.bandPairs.add(met);
    stats.candidates.add(candidates);
    stats.headRejected.add(rejected);
    stats.bucketRejected.add(bounded);
    stats.verified.add(candidates - rejected - bounded);
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
      this(
          new HeadFilter(threshold),
          new int[Math.multiplyExact(count, HeadFilter.HEAD)],
          new int[count]);
    }

    private Heads(HeadFilter filter, int[] hashes, int[] codes) {
      this.filter = filter;
      this.hashes = hashes;
      this.codes = codes;
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
