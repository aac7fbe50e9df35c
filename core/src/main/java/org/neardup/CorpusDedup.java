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
import org.neardup.internal.FileArray;
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

  /**
   * The band keys and {@link HeadFilter} heads of every document, taken in ordinal order as the
   * corpus is read, for {@link #findPairs(long[], int, Columns, IntFunction, int, double,
   * java.util.BitSet, int, Stats, BlockScheme, PairSink)}: 8 bytes per band plus 68 per document
   * (116 at 6 bands). Up to {@code heapUpTo} documents they are held in heap arrays; past that,
   * everything so far goes to two files in {@code dir} and the rest follows there, read back
   * through memory maps ({@link FileArray}): no heap per document, so 10M documents (1.16 GB of
   * keys and heads) fit in a 1 GB heap. Filled from one thread at a time; {@link #close} deletes
   * the files.
   */
  public static final class Columns implements java.io.Closeable {
    private final int bands;
    private final java.nio.file.Path dir;
    private final int heapUpTo;
    long @Nullable [] keys;
    int[] hashes;
    int[] codes;
    @Nullable FileArray keyFile;
    @Nullable FileArray headFile;

    /** Documents written to the files (ordinals below it), once on disk. */
    private int written;

    /** The count {@link #finish} was called with, or -1. */
    int finished = -1;

    /**
     * @param bands band keys per document, at least 1
     * @param dir where the files go past {@code heapUpTo} documents (it must exist)
     * @param heapUpTo documents held in the heap at most; 0 puts every document in the files
     */
    public Columns(int bands, java.nio.file.Path dir, int heapUpTo) {
      Checks.checkArgument(bands >= 1, "bands must be >= 1, got %s", bands);
      Checks.checkArgument(heapUpTo >= 0, "heapUpTo must be >= 0, got %s", heapUpTo);
      this.bands = bands;
      this.dir = Objects.requireNonNull(dir, "dir");
      this.heapUpTo = heapUpTo;
      int initial = Math.min(1024, heapUpTo);
      keys = new long[initial * bands];
      hashes = new int[initial * HeadFilter.HEAD];
      codes = new int[initial];
    }

    /**
     * Takes document {@code ordinal}'s band keys and the head of its sketch. Ordinals must
     * increase; those skipped (documents left out) get zero keys and an empty head, and are never
     * compared.
     */
    public void add(int ordinal, long[] bandKeys, ShingleSketch sketch) throws java.io.IOException {
      Checks.checkState(finished < 0, "add() after finish()");
      Checks.checkArgument(
          bandKeys.length == bands, "bandKeys must hold %s keys, got %s", bands, bandKeys.length);
      if (keyFile == null && ordinal >= heapUpTo) {
        toFiles();
      }
      if (keyFile == null) {
        if (ordinal >= codes.length) {
          int n = (int) Math.min(heapUpTo, Math.max(ordinal + 1L, codes.length * 2L));
          keys = Arrays.copyOf(keys, Math.multiplyExact(n, bands));
          hashes = Arrays.copyOf(hashes, Math.multiplyExact(n, HeadFilter.HEAD));
          codes = Arrays.copyOf(codes, n);
        }
        System.arraycopy(bandKeys, 0, keys, ordinal * bands, bands);
        codes[ordinal] = HeadFilter.head(sketch, hashes, ordinal * HeadFilter.HEAD);
        return;
      }
      Checks.checkArgument(
          ordinal >= written, "ordinals must increase: %s after %s", ordinal, written - 1);
      padTo(ordinal);
      int[] head = new int[Heads.RECORD];
      head[HeadFilter.HEAD] = HeadFilter.head(sketch, head, 0);
      for (long k : bandKeys) {
        keyFile.appendLong(k);
      }
      headFile.appendInts(head, 0, Heads.RECORD);
      written = ordinal + 1;
    }

    /** Moves what the heap holds to the files; documents from now on go there. */
    private void toFiles() throws java.io.IOException {
      keyFile = new FileArray(dir.resolve("band-keys"));
      headFile = new FileArray(dir.resolve("heads"));
      int n = Math.min(codes.length, heapUpTo);
      for (int o = 0; o < n; o++) {
        for (int b = 0; b < bands; b++) {
          keyFile.appendLong(keys[o * bands + b]);
        }
        headFile.appendInts(hashes, o * HeadFilter.HEAD, HeadFilter.HEAD);
        headFile.appendInt(codes[o]);
      }
      written = n;
      keys = null;
      hashes = new int[0];
      codes = new int[0];
    }

    private void padTo(int ordinal) throws java.io.IOException {
      for (; written < ordinal; written++) {
        for (int b = 0; b < bands; b++) {
          keyFile.appendLong(0);
        }
        for (int k = 0; k < Heads.RECORD; k++) {
          headFile.appendInt(0);
        }
      }
    }

    /** Ends the corpus at {@code count} documents (the last ones may have been left out). */
    public void finish(int count) throws java.io.IOException {
      Checks.checkState(finished < 0, "finish() twice");
      Checks.checkArgument(count >= 0, "count must be >= 0, got %s", count);
      if (keyFile == null && count > heapUpTo) {
        toFiles();
      }
      if (keyFile == null) {
        if (count > codes.length) {
          keys = Arrays.copyOf(keys, Math.multiplyExact(count, bands));
          hashes = Arrays.copyOf(hashes, Math.multiplyExact(count, HeadFilter.HEAD));
          codes = Arrays.copyOf(codes, count);
        }
      } else {
        padTo(count);
        keyFile.finish();
        headFile.finish();
      }
      finished = count;
    }

    /** Whether the keys and heads are in files. */
    public boolean onDisk() {
      return keyFile != null;
    }

    /** Heap bytes held. */
    public long ramBytesUsed() {
      return 8L * (keys == null ? 0 : keys.length) + 4L * hashes.length + 4L * codes.length;
    }

    @Override
    public void close() {
      try (FileArray a = keyFile;
          FileArray b = headFile) {
        keys = null;
      }
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
    if (given != null) {
      given.ensure(count); // documents never set (excluded ones) have no head
    }
    Heads heads =
        given != null && !given.dropped && sketches0 != null
            ? new Heads(new HeadFilter(threshold), given.hashes, given.codes)
            : null;
    return find(
        fingerprints,
        count,
        new BandKeys(bandKeys, null, bands),
        sketches0,
        maxDistance,
        threshold,
        excluded,
        threads,
        heads,
        stats,
        scheme,
        out);
  }

  /**
   * {@link #findPairs(long[], int, long[], int, IntFunction, int, double, java.util.BitSet, int,
   * SketchHeads, Stats, BlockScheme, PairSink)} with the band keys and heads of every document in
   * {@code columns} ({@link Columns#finish finished} at {@code count}), in the heap or in files.
   * Both give the same pairs.
   */
  public static long findPairs(
      long[] fingerprints,
      int count,
      Columns columns,
      IntFunction<ShingleSketch> sketches,
      int maxDistance,
      double threshold,
      java.util.@Nullable BitSet excluded,
      int threads,
      Stats stats,
      BlockScheme scheme,
      PairSink out) {
    Objects.requireNonNull(columns, "columns");
    Objects.requireNonNull(sketches, "sketches");
    Checks.checkState(
        columns.finished == count,
        "columns must be finished at count %s, got %s",
        count,
        columns.finished);
    HeadFilter filter = new HeadFilter(threshold);
    return find(
        fingerprints,
        count,
        new BandKeys(columns.keys, columns.keyFile, columns.bands),
        sketches,
        maxDistance,
        threshold,
        excluded,
        threads,
        columns.headFile != null
            ? new Heads(filter, columns.headFile)
            : new Heads(filter, columns.hashes, columns.codes),
        stats,
        scheme,
        out);
  }

  private static long find(
      long[] fingerprints,
      int count,
      BandKeys bandKeys,
      @Nullable IntFunction<ShingleSketch> sketches0,
      int maxDistance,
      double threshold,
      java.util.@Nullable BitSet excluded,
      int threads,
      @Nullable Heads given,
      Stats stats,
      BlockScheme scheme,
      PairSink out) {
    int bands = bandKeys.bands;
    Objects.requireNonNull(out, "out");
    Objects.requireNonNull(scheme, "scheme");
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
            : given != null ? given : Heads.of(count, sketches, excluded, threshold, threads);
    ThreadLocal<int[]> scratch = ThreadLocal.withInitial(Heads::scratch);
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
          if (bandKeys.share(i, j, bands)) {
            return; // the band phase verifies it
          }
          stats.candidates.increment();
          if (!heads.mayReach(i, j, heads.file == null ? null : scratch.get())) {
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
      BandKeys bandKeys,
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
        keys[n] = bandKeys.get(i, b);
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
    int[] headScratch = heads.file == null ? null : Heads.scratch();
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
              if (bandKeys.share(i, j, b)) {
                continue; // an earlier band already verified this pair
              }
              candidates++;
              if (!heads.mayReach(i, j, headScratch)) {
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
    /** Ints per document in a heads file: the head's hashes, then its code. */
    static final int RECORD = HeadFilter.HEAD + 1;

    final HeadFilter filter;
    final int[] hashes;
    final int[] codes;
    final @Nullable FileArray file;

    private Heads(HeadFilter filter, FileArray file) {
      this.filter = filter;
      this.hashes = new int[0];
      this.codes = new int[0];
      this.file = file;
    }

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
      this.file = null;
    }

    /** A buffer for {@link #mayReach} of heads in a file: one per thread. */
    static int[] scratch() {
      return new int[2 * RECORD];
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

    /**
     * Whether documents i and j may reach the threshold; {@code scratch} (from {@link #scratch()})
     * holds their heads while they are compared when the heads are in a file, and is not used
     * otherwise.
     */
    boolean mayReach(int i, int j, int @Nullable [] scratch) {
      FileArray f = file;
      if (f == null) {
        return filter.mayReach(
            hashes, i * HeadFilter.HEAD, codes[i], j * HeadFilter.HEAD, codes[j]);
      }
      f.getInts((long) i * RECORD, scratch, 0, RECORD);
      f.getInts((long) j * RECORD, scratch, RECORD, RECORD);
      return filter.mayReach(scratch, 0, scratch[RECORD - 1], RECORD, scratch[2 * RECORD - 1]);
    }
  }

  /** The band keys of every document: {@code bands} per document, in a heap array or a file. */
  private static final class BandKeys {
    final long @Nullable [] heap;
    final @Nullable FileArray file;
    final int bands;

    BandKeys(long @Nullable [] heap, @Nullable FileArray file, int bands) {
      this.heap = heap;
      this.file = file;
      this.bands = bands;
    }

    long get(int i, int b) {
      long at = (long) i * bands + b;
      long[] h = heap;
      return h != null ? h[(int) at] : file.getLong(at);
    }

    /** Whether documents i and j share a key in any band before {@code limit}. */
    boolean share(int i, int j, int limit) {
      long[] keys = heap;
      if (keys != null) {
        int a = i * bands;
        int c = j * bands;
        for (int b = 0; b < limit; b++) {
          if (keys[a + b] == keys[c + b]) {
            return true;
          }
        }
        return false;
      }
      long a = (long) i * bands;
      long c = (long) j * bands;
      for (int b = 0; b < limit; b++) {
        if (file.getLong(a + b) == file.getLong(c + b)) {
          return true;
        }
      }
      return false;
    }
  }

  private static boolean isExcluded(java.util.@Nullable BitSet excluded, int i) {
    return excluded != null && excluded.get(i);
  }
}
