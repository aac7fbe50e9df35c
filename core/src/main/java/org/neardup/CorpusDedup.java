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
 * similarity is computed, as in {@link Deduplicator}: a fingerprint candidate before its sketches
 * are read, a band candidate after the {@link BucketBound}, an exact test that proves most pairs of
 * lightly edited copies below the threshold from the sketches' bucket counts without walking them;
 * the bound changes no result, only the work ({@link Stats} counts each step). Held in memory:
 * fingerprints, band keys and the sixteen smallest shingle hashes of each document; sketches are
 * read through {@code sketches}, which may be backed by a file.
 */
public final class CorpusDedup {
  /** Members of a band group whose sketches are held at once, per side of a tile of pairs. */
  private static final int TILE = 256;

  /** Largest band group whose keys and heads {@link #groups} gathers before its pairs. */
  private static final int GATHER = 1024;

  /**
   * Sketches by document ordinal, as {@code findPairs} reads them, told ahead of time which it is
   * about to read. Called from several threads.
   */
  public interface SketchSource extends IntFunction<ShingleSketch> {
    /**
     * A hint that the sketch of {@code ordinal} will be read soon, given for the members of a band
     * group before its pairs: a source backed by memory may load it now, so that the group's cache
     * misses are taken together instead of one after another between the pairs' work (what a group
     * does with a sketch depends on what it read, so the processor cannot run ahead to the next
     * member's read). Nothing by default.
     */
    default void prefetch(int ordinal) {}

    /**
     * {@link #prefetch} for the members {@code ordinals[from, to)} of a band group, all at once: a
     * source may order the loads itself (the places of all members first, then what is there), so
     * that no member's load waits on another load of its own. One prefetch per member by default.
     */
    default void prefetch(int[] ordinals, int from, int to) {
      for (int x = from; x < to; x++) {
        prefetch(ordinals[x]);
      }
    }
  }

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

    /**
     * Candidates the {@link HeadFilter} turned away: fingerprint candidates before any sketch was
     * read, band candidates that the {@link BucketBound} let through.
     */
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
   * everything so far goes to two files in {@code dir} and the rest follows there ({@link
   * FileArray}), never mapped: the pairs phase reads them in order, a window of documents at a time
   * ({@link Gather}), so that neither the heap nor the resident set holds 116 bytes per document
   * (10M documents: 1.16 GB of keys and heads, which a memory map added to the RSS). Filled from
   * one thread at a time; {@link #close} deletes the files.
   */
  public static final class Columns implements java.io.Closeable {
    private final int bands;
    private final java.nio.file.Path dir;
    private final int heapUpTo;

    /** Heap bytes for the keys and heads of one window of documents read from the files. */
    final long gatherBytes;

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
      this(bands, dir, heapUpTo, Runtime.getRuntime().maxMemory() / 4);
    }

    /** As {@link #Columns(int, java.nio.file.Path, int)} with windows of {@code gatherBytes}. */
    Columns(int bands, java.nio.file.Path dir, int heapUpTo, long gatherBytes) {
      Checks.checkArgument(bands >= 1, "bands must be >= 1, got %s", bands);
      this.gatherBytes = gatherBytes;
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
        keyFile.finish(false);
        headFile.finish(false);
      }
      finished = count;
    }

    /** Bytes of one document's keys and head in the files. */
    int recordBytes() {
      return 8 * bands + 4 * Heads.RECORD;
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
        new BandKeys(bandKeys, bands),
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
    if (columns.onDisk()) {
      try {
        return findInFiles(
            fingerprints,
            count,
            columns,
            sketches,
            maxDistance,
            threshold,
            excluded,
            threads,
            stats,
            scheme,
            out);
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    return find(
        fingerprints,
        count,
        new BandKeys(Objects.requireNonNull(columns.keys, "keys"), columns.bands),
        sketches,
        maxDistance,
        threshold,
        excluded,
        threads,
        new Heads(filter, columns.hashes, columns.codes),
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
    IntFunction<ShingleSketch> sketches = sketches0 == null ? null : counted(sketches0, stats);
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
    long t1 = System.nanoTime();
    stats.headNanos = t1 - t0;
    AtomicLong reported = new AtomicLong();
    fingerprintPairs(
        fps,
        maxDistance,
        scheme,
        threads,
        excluded,
        stats,
        (i, j, d) -> {
          if (!verify) {
            stats.candidates.increment();
            out.accept(i, j, d, Double.NaN);
            reported.incrementAndGet();
            return;
          }
          if (fingerprintPair(
              i, j, i, j, d, bandKeys, bands, heads, sketches, threshold, stats, out)) {
            reported.incrementAndGet();
          }
        });
    long t2 = System.nanoTime();
    stats.fingerprintNanos = t2 - t1;
    if (!verify || bands == 0) {
      stats.reported.add(reported.get());
      return reported.get();
    }
    // The bands' sorts and then their groups, in chunks of whole groups, go to the threads as
    // they finish, band 0 first (BandDeal): a pair is a candidate only in the first band it shares,
    // so band 0 holds most of the candidates, and a thread holding it whole worked on alone.
    int workers = Math.min(threads, bands);
    ShingleSketch.Needs needs = new ShingleSketch.Needs(threshold);
    BandDeal deal = new BandDeal(bands, workers, BandDeal.chunkFor(count, workers));
    run(
        workers,
        "neardup-bands-",
        () -> {
          try {
            for (BandDeal.Job job; (job = deal.take()) != null; ) {
              BandDeal.Sorted s = job.sorted();
              if (s == null) {
                deal.sorted(job.band(), sortBand(count, bandKeys, bands, job.band(), excluded));
              } else {
                reported.addAndGet(
                    groups(
                        fps,
                        s.keys,
                        s.order,
                        job.from(),
                        job.to(),
                        -1,
                        bandKeys,
                        job.band(),
                        sketches,
                        heads,
                        needs,
                        stats,
                        out));
                deal.chunkDone(job.band());
              }
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            deal.fail();
            throw new IllegalStateException("interrupted while finding pairs", e);
          } catch (RuntimeException | Error e) {
            deal.fail();
            throw e;
          }
        });
    stats.bandNanos = System.nanoTime() - t2;
    stats.reported.add(reported.get());
    return reported.get();
  }

  /**
   * One fingerprint pair of ordinals {@code i < j} at distance {@code d}, whose band keys and heads
   * are at {@code si} and {@code sj}: left to the band phase when the two share a band key, else
   * counted as a candidate, dropped when the heads cannot reach the threshold, else verified on the
   * sketches and sent to {@code out} when similar enough. Returns whether it was sent.
   */
  private static boolean fingerprintPair(
      int i,
      int j,
      int si,
      int sj,
      int d,
      BandKeys keys,
      int bands,
      Heads heads,
      IntFunction<ShingleSketch> sketches,
      double threshold,
      Stats stats,
      PairSink out) {
    if (keys.share(si, sj, bands)) {
      return false; // the band phase verifies it
    }
    stats.candidates.increment();
    if (!heads.mayReach(si, sj)) {
      stats.headRejected.increment();
      return false;
    }
    stats.verified.increment();
    double s = ShingleSketch.jaccardAtLeast(sketches.apply(i), sketches.apply(j), threshold);
    if (s < threshold) {
      return false;
    }
    out.accept(i, j, d, s);
    return true;
  }

  /**
   * {@code sketches} counting each read in {@code stats.sketchReads}; its {@link
   * SketchSource#prefetch} passed on when it is a {@link SketchSource}.
   */
  private static SketchSource counted(IntFunction<ShingleSketch> sketches, Stats stats) {
    SketchSource source = sketches instanceof SketchSource s ? s : null;
    return new SketchSource() {
      @Override
      public ShingleSketch apply(int o) {
        stats.sketchReads.increment();
        return sketches.apply(o);
      }

      @Override
      public void prefetch(int o) {
        if (source != null) {
          source.prefetch(o);
        }
      }

      @Override
      public void prefetch(int[] ordinals, int from, int to) {
        if (source != null) {
          source.prefetch(ordinals, from, to);
        }
      }
    };
  }

  /**
   * The fingerprint pairs within {@code maxDistance} ({@link AllPairs#find}) between documents not
   * {@code excluded}, each counted in {@code stats.fingerprintPairs}, to {@code out}.
   */
  private static void fingerprintPairs(
      long[] fingerprints,
      int maxDistance,
      BlockScheme scheme,
      int threads,
      java.util.@Nullable BitSet excluded,
      Stats stats,
      AllPairs.PairConsumer out) {
    AllPairs.find(
        fingerprints,
        maxDistance,
        scheme,
        threads,
        (i, j, d) -> {
          if (isExcluded(excluded, i) || isExcluded(excluded, j)) {
            return;
          }
          stats.fingerprintPairs.increment();
          out.accept(i, j, d);
        });
  }

  /**
   * {@link #find} with the band keys and heads in files ({@link Columns#onDisk()}): the same pairs
   * and the same counts, with the keys and heads of at most one window of documents in the heap
   * ({@link Gather}) and nothing mapped. The fingerprint pairs are checked a chunk at a time; the
   * bands one after the other, each band's groups in windows of whole groups, on every thread.
   */
  private static long findInFiles(
      long[] fps,
      int count,
      Columns columns,
      IntFunction<ShingleSketch> sketches0,
      int maxDistance,
      double threshold,
      java.util.@Nullable BitSet excluded,
      int threads,
      Stats stats,
      BlockScheme scheme,
      PairSink out)
      throws java.io.IOException {
    Checks.checkArgument(count <= fps.length, "count %s out of range", count);
    Checks.checkArgument(threads >= 1, "threads must be >= 1, got %s", threads);
    IntFunction<ShingleSketch> sketches = counted(sketches0, stats);
    long[] fingerprints = count == fps.length ? fps : Arrays.copyOf(fps, count);
    int bands = columns.bands;
    Gather g =
        new Gather(
            columns,
            count,
            (int) Math.max(2, Math.min(1 << 28, columns.gatherBytes / columns.recordBytes())),
            new HeadFilter(threshold));
    AtomicLong reported = new AtomicLong();
    long t1 = System.nanoTime();
    stats.headNanos = 0;
    FingerprintPairs fpPairs =
        new FingerprintPairs(g, fingerprints, sketches, threshold, threads, stats, reported, out);
    fingerprintPairs(
        fingerprints,
        maxDistance,
        scheme,
        threads,
        excluded,
        stats,
        (i, j, d) -> fpPairs.add(i, j));
    fpPairs.flush();
    long t2 = System.nanoTime();
    stats.fingerprintNanos = t2 - t1;
    ShingleSketch.Needs needs = new ShingleSketch.Needs(threshold);
    for (int b = 0; b < bands; b++) {
      // This band's key of every document left in, in ordinal order (as find sorts them).
      long[] keys = new long[count];
      int[] order = new int[count];
      int n = 0;
      FileArray.Cursor c = Objects.requireNonNull(columns.keyFile).cursor();
      for (int o = 0; o < count; o++) {
        c.skip(2L * b);
        long k = c.nextLong();
        c.skip(2L * (bands - b - 1));
        if (!isExcluded(excluded, o)) {
          keys[n] = k;
          order[n++] = o;
        }
      }
      Sorts.sortByKey(keys, order, n);
      // Groups of one document have no pairs: only the others are gathered.
      int m = 0;
      for (int start = 0; start < n; ) {
        int end = start + 1;
        while (end < n && keys[end] == keys[start]) {
          end++;
        }
        if (end - start > 1) {
          System.arraycopy(keys, start, keys, m, end - start);
          System.arraycopy(order, start, order, m, end - start);
          m += end - start;
        }
        start = end;
      }
      for (int ws = 0; ws < m; ) {
        int we = ws;
        while (we < m) {
          int end = we + 1;
          while (end < m && keys[end] == keys[we]) {
            end++;
          }
          if (we > ws && end - ws > g.slots) {
            break;
          }
          we = end;
        }
        g.ensure(we - ws, Math.min(g.slots, m));
        for (int x = ws; x < we; x++) {
          g.slotOf[order[x]] = x - ws;
        }
        g.fill(false); // the band groups test the heads of the sketches they read
        reported.addAndGet(
            g.groupsOnThreads(
                fingerprints, keys, order, ws, we, b, sketches, needs, threads, stats, out));
        for (int x = ws; x < we; x++) {
          g.slotOf[order[x]] = -1;
        }
        ws = we;
      }
    }
    stats.bandNanos = System.nanoTime() - t2;
    stats.reported.add(reported.get());
    return reported.get();
  }

  /**
   * The band keys and heads of a chosen set of documents, read from {@link Columns}' files in one
   * pass in order and held in slots: {@code slotOf[ordinal]} is a document's slot, or -1 when it is
   * not wanted. Heap: 4 bytes per document for {@code slotOf}, {@link Columns#recordBytes()} per
   * slot.
   */
  private static final class Gather {
    final Columns columns;
    final int count;
    final int[] slotOf;
    final HeadFilter filter;
    int slots;
    BandKeys keys;
    Heads heads;

    Gather(Columns columns, int count, int slots, HeadFilter filter) {
      this.columns = columns;
      this.count = count;
      this.slotOf = new int[count];
      Arrays.fill(slotOf, -1);
      this.filter = filter;
      this.slots = slots;
      this.keys = new BandKeys(new long[0], columns.bands);
      this.heads = new Heads(filter, new int[0], new int[0]);
    }

    /**
     * Makes room for {@code n} slots, allocating {@code size} (at least n: a band group larger than
     * the usual window gets its own) when there is less.
     */
    void ensure(int n, int size) {
      if (heads.codes.length < n) {
        size = Math.max(n, size);
        keys = new BandKeys(new long[Math.multiplyExact(size, columns.bands)], columns.bands);
        heads =
            new Heads(filter, new int[Math.multiplyExact(size, HeadFilter.HEAD)], new int[size]);
      }
    }

    /**
     * Reads the keys of every document with a slot into it, and its head when {@code withHeads}: a
     * band window needs no heads, and reading them was 68 of the 116 bytes per document (6 bands)
     * that each window's pass over the files copied.
     */
    void fill(boolean withHeads) throws java.io.IOException {
      int bands = columns.bands;
      FileArray.Cursor k = Objects.requireNonNull(columns.keyFile).cursor();
      FileArray.@Nullable Cursor h =
          withHeads ? Objects.requireNonNull(columns.headFile).cursor() : null;
      long[] kk = keys.keys;
      int[] hashes = heads.hashes;
      int[] codes = heads.codes;
      long skipKeys = 0;
      long skipHeads = 0;
      for (int o = 0; o < count; o++) {
        int s = slotOf[o];
        if (s < 0) {
          skipKeys += 2 * bands;
          skipHeads += Heads.RECORD;
          continue;
        }
        k.skip(skipKeys);
        skipKeys = 0;
        for (int b = 0; b < bands; b++) {
          kk[s * bands + b] = k.nextLong();
        }
        if (h != null) {
          h.skip(skipHeads);
          skipHeads = 0;
          h.nextInts(hashes, s * HeadFilter.HEAD, HeadFilter.HEAD);
          codes[s] = h.nextInt();
        }
      }
    }

    /** {@link #groups} over the window {@code [ws, we)} of gathered groups, on every thread. */
    long groupsOnThreads(
        long[] fps,
        long[] bandSorted,
        int[] order,
        int ws,
        int we,
        int b,
        IntFunction<ShingleSketch> sketches,
        ShingleSketch.Needs needs,
        int threads,
        Stats stats,
        PairSink out) {
      // Parts of whole groups, about 16 per thread, taken in turn.
      int step = Math.max(1024, (we - ws) / (threads * 16));
      List<int[]> parts = new ArrayList<>();
      for (int from = ws; from < we; ) {
        int to = Math.min(we, from + step);
        while (to < we && bandSorted[to] == bandSorted[to - 1]) {
          to++;
        }
        parts.add(new int[] {from, to});
        from = to;
      }
      AtomicLong found = new AtomicLong();
      java.util.concurrent.atomic.AtomicInteger next =
          new java.util.concurrent.atomic.AtomicInteger();
      BandKeys k = keys;
      Heads h = heads;
      run(
          Math.min(threads, parts.size()),
          "neardup-bands-",
          () -> {
            for (int p; (p = next.getAndIncrement()) < parts.size(); ) {
              int[] part = parts.get(p);
              found.addAndGet(
                  groups(
                      fps,
                      bandSorted,
                      order,
                      part[0],
                      part[1],
                      ws,
                      k,
                      b,
                      sketches,
                      h,
                      needs,
                      stats,
                      out));
            }
          });
      return found.get();
    }
  }

  /**
   * The fingerprint pairs of {@link #findInFiles}, buffered from the all-pairs threads and checked
   * (band keys shared, head filter, verification) a chunk at a time, with the keys and heads of the
   * chunk's documents gathered.
   */
  private static final class FingerprintPairs {
    private final Gather g;
    private final long[] fps;
    private final IntFunction<ShingleSketch> sketches;
    private final double threshold;
    private final int threads;
    private final Stats stats;
    private final AtomicLong reported;
    private final PairSink out;
    private final long[] pairs;
    private int n;

    FingerprintPairs(
        Gather g,
        long[] fps,
        IntFunction<ShingleSketch> sketches,
        double threshold,
        int threads,
        Stats stats,
        AtomicLong reported,
        PairSink out) {
      this.g = g;
      this.fps = fps;
      this.sketches = sketches;
      this.threshold = threshold;
      this.threads = threads;
      this.stats = stats;
      this.reported = reported;
      this.out = out;
      // Two slots per pair at most: half a window while the all-pairs arrays are held too.
      this.pairs = new long[Math.max(1, g.slots / 4)];
    }

    synchronized void add(int i, int j) {
      if (n == pairs.length) {
        flush();
      }
      pairs[n++] = (long) i << 32 | j;
    }

    /** Checks the pairs held. */
    synchronized void flush() {
      if (n == 0) {
        return;
      }
      int[] slotOf = g.slotOf;
      for (int p = 0; p < n; p++) {
        slotOf[(int) (pairs[p] >>> 32)] = -2;
        slotOf[(int) pairs[p]] = -2;
      }
      int used = 0;
      for (int o = 0; o < slotOf.length; o++) {
        if (slotOf[o] == -2) {
          slotOf[o] = used++;
        }
      }
      g.ensure(used, used);
      try {
        g.fill(true);
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      int bands = g.columns.bands;
      BandKeys keys = g.keys;
      Heads heads = g.heads;
      int total = n;
      java.util.concurrent.atomic.AtomicInteger next =
          new java.util.concurrent.atomic.AtomicInteger();
      run(
          Math.max(1, Math.min(threads, total / 4096)),
          "neardup-fingerprint-pairs-",
          () -> {
            for (int from; (from = next.getAndAdd(4096)) < total; ) {
              for (int p = from; p < Math.min(total, from + 4096); p++) {
                int i = (int) (pairs[p] >>> 32);
                int j = (int) pairs[p];
                if (fingerprintPair(
                    i,
                    j,
                    slotOf[i],
                    slotOf[j],
                    Long.bitCount(fps[i] ^ fps[j]),
                    keys,
                    bands,
                    heads,
                    sketches,
                    threshold,
                    stats,
                    out)) {
                  reported.incrementAndGet();
                }
              }
            }
          });
      for (int p = 0; p < n; p++) {
        slotOf[(int) (pairs[p] >>> 32)] = -1;
        slotOf[(int) pairs[p]] = -1;
      }
      n = 0;
    }
  }

  /** Runs {@code task} on {@code n} new threads and waits for them; rethrows the first failure. */
  private static void run(int n, String name, Runnable task) {
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread[] pool = new Thread[n];
    for (int w = 0; w < n; w++) {
      pool[w] =
          new Thread(
              () -> {
                try {
                  task.run();
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
              },
              name + w);
      pool[w].start();
    }
    join(pool, failure);
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

  /** Band {@code b}'s keys of the documents not excluded, sorted, with their ordinals. */
  private static BandDeal.Sorted sortBand(
      int count, BandKeys bandKeys, int bands, int b, java.util.@Nullable BitSet excluded) {
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
    Sorts.sortByKeySpread(keys, order, n);
    return new BandDeal.Sorted(keys, order, n);
  }

  /**
   * The pairs of the band groups in sorted positions {@code [from, to)} (whole groups: runs of
   * equal {@code keys}; {@code order} holds their ordinals). Band keys and heads are indexed by
   * ordinal when {@code base < 0}, else by position minus {@code base} (a gathered window).
   */
  private static long groups(
      long[] fps,
      long[] keys,
      int[] order,
      int from,
      int n,
      int base,
      BandKeys bandKeys,
      int b,
      IntFunction<ShingleSketch> sketches,
      Heads heads,
      ShingleSketch.Needs needs,
      Stats stats,
      PairSink out) {
    GroupScan scan = new GroupScan(fps, order, base, bandKeys, b, sketches, heads, needs, out);
    for (int start = from; start < n; ) {
      int end = start + 1;
      while (end < n && keys[end] == keys[start]) {
        end++;
      }
      if (end - start > 1) { // a group of one has no pairs
        scan.group(start, end);
      }
      start = end;
    }
    stats.bandPairs.add(scan.met);
    stats.candidates.add(scan.candidates);
    stats.headRejected.add(scan.rejected);
    stats.bucketRejected.add(scan.bounded);
    stats.verified.add(scan.candidates - scan.rejected - scan.bounded);
    return scan.pairs;
  }

  /**
   * The pairs of band groups, one group per call of {@link #group}, with the scratch space of one
   * thread's {@link #groups} call and its counts.
   *
   * <p>Why a method per group and one per tile: as one method with the loops over groups, tiles and
   * pairs nested in it, C2 compiled {@code groups} four times at 1M realistic documents (three on
   * stack replacement, ~172 kB of code each, 19 s of compiler wall time at load 14 in JFR's {@code
   * jdk.Compilation}), on the same two cores as the work. Methods called once per group or tile are
   * compiled as methods when they are warm, not replaced mid-loop.
   */
  private static final class GroupScan {
    private final long[] fps;
    private final int[] order;
    private final int base;
    private final BandKeys bandKeys;
    private final int b;
    private final IntFunction<ShingleSketch> sketches;
    private final @Nullable SketchSource source;
    private final HeadFilter filter;
    private final ShingleSketch.Needs needs;
    private final double threshold;
    private final PairSink out;

    private final ShingleSketch[] rows = new ShingleSketch[TILE];
    private final ShingleSketch[] columns = new ShingleSketch[TILE];
    // BucketBound counts of each sketch read, beside it; a null row or column has none.
    private final long[] rowCounts = new long[TILE * BucketBound.WORDS];
    private final long[] columnCounts = new long[TILE * BucketBound.WORDS];
    private final boolean[] rowCounted = new boolean[TILE];
    private final boolean[] columnCounted = new boolean[TILE];
    private final BandKeys near;

    /** The keys and position base the current group is read through. */
    private BandKeys groupKeys;

    private int groupBase;

    long pairs;
    long met;
    long candidates;
    long rejected;
    long bounded;

    GroupScan(
        long[] fps,
        int[] order,
        int base,
        BandKeys bandKeys,
        int b,
        IntFunction<ShingleSketch> sketches,
        Heads heads,
        ShingleSketch.Needs needs,
        PairSink out) {
      this.fps = fps;
      this.order = order;
      this.base = base;
      this.bandKeys = bandKeys;
      this.b = b;
      this.sketches = sketches;
      this.source = sketches instanceof SketchSource src ? src : null;
      this.filter = heads.filter;
      this.needs = needs;
      this.threshold = needs.threshold();
      this.out = out;
      // Heap path: the band keys of each group of up to GATHER members are copied next
      // to each other first, in one loop of independent reads, so that the pairs' loop finds them
      // in the cache: reached through the ordinals, each member's first touch was a miss taken in
      // the middle of the pairs' work (the head filter and the shared-key test, 43% of the band
      // phase's JFR samples at 1M realistic, stayed there when their arithmetic was cut).
      int bands = bandKeys.bands;
      this.near = base < 0 ? new BandKeys(new long[GATHER * bands], bands) : bandKeys;
    }

    /** The pairs of the group at sorted positions {@code [start, end)}. */
    void group(int start, int end) {
      groupKeys = bandKeys;
      groupBase = base;
      if (base < 0 && end - start <= GATHER) {
        gather(start, end);
        groupKeys = near;
        groupBase = start;
      }
      // The group's pairs tile by tile, each tile's sketches read once when a pair first needs
      // them: a group of m copies reads m sketches, not m * (m - 1), while a hot key of thousands
      // holds no more than two tiles of sketches at a time.
      for (int xs = start; xs < end; xs += TILE) {
        int xe = Math.min(end, xs + TILE);
        Arrays.fill(rows, 0, xe - xs, null);
        prefetch(xs, xe);
        for (int ys = xs; ys < end; ys += TILE) {
          tile(xs, xe, ys, Math.min(end, ys + TILE));
        }
      }
    }

    /**
     * Tells the source ahead which sketches the members at {@code [from, to)} may need: in a loop
     * of independent loads their misses overlap. In a microbenchmark of groups of 12 random
     * sketches of a 385 MB map (each read followed by a jaccard with the one before), one thread's
     * CPU per sketch was 0.63-0.87x (median ~0.71) with the members touched first, at load 20-50.
     */
    private void prefetch(int from, int to) {
      if (source != null) {
        source.prefetch(order, from, to);
      }
    }

    private void gather(int start, int end) {
      int bands = bandKeys.bands;
      for (int x = start; x < end; x++) {
        int o = order[x];
        int s = x - start;
        System.arraycopy(bandKeys.keys, o * bands, near.keys, s * bands, bands);
      }
    }

    /** The pairs of rows {@code [xs, xe)} with columns {@code [ys, ye)}, each once. */
    private void tile(int xs, int xe, int ys, int ye) {
      boolean same = ys == xs;
      ShingleSketch[] cols = same ? rows : columns;
      long[] colCounts = same ? rowCounts : columnCounts;
      boolean[] colCounted = same ? rowCounted : columnCounted;
      if (!same) {
        Arrays.fill(columns, 0, ye - ys, null);
        prefetch(ys, ye);
      }
      BandKeys groupKeys = this.groupKeys;
      int groupBase = this.groupBase;
      for (int x = xs; x < xe; x++) {
        int ox = order[x];
        int sx = groupBase < 0 ? ox : x - groupBase;
        for (int y = Math.max(ys, x + 1); y < ye; y++) {
          int oy = order[y];
          int sy = groupBase < 0 ? oy : y - groupBase;
          met++;
          if (groupKeys.share(sx, sy, b)) {
            continue; // an earlier band already verified this pair
          }
          candidates++;
          int r = x - xs;
          ShingleSketch kx = rows[r];
          if (kx == null) {
            kx = rows[r] = sketches.apply(ox);
            rowCounted[r] = BucketBound.counts(kx, rowCounts, r * BucketBound.WORDS);
          }
          int c = y - ys;
          ShingleSketch ky = cols[c];
          if (ky == null) {
            ky = cols[c] = sketches.apply(oy);
            colCounted[c] = BucketBound.counts(ky, colCounts, c * BucketBound.WORDS);
          }
          if (rowCounted[r]
              && colCounted[c]
              && !BucketBound.mayReach(
                  kx,
                  rowCounts,
                  r * BucketBound.WORDS,
                  ky,
                  colCounts,
                  c * BucketBound.WORDS,
                  needs)) {
            bounded++;
            continue; // cannot reach the threshold: jaccardAtLeast would say so
          }
          // The head filter after the bucket bound, on the heads of the sketches in hand: the
          // bound is exact (it turns away only pairs that jaccardAtLeast would), so the pairs
          // reported are those of the filter first, but the 1M realistic corpus's 46.8M band
          // candidates took the filter's merge (~60 ns, 28% of the band threads' JFR samples) to
          // turn away 8.8M, and the bound's 32 word operations turned away 35.7M of the rest.
          if (!filter.mayReach(kx, ky)) {
            rejected++;
            continue;
          }
          double s = ShingleSketch.jaccardAtLeast(kx, ky, needs);
          if (s >= threshold) {
            int i = Math.min(ox, oy);
            int j = Math.max(ox, oy);
            out.accept(i, j, Long.bitCount(fps[i] ^ fps[j]), s);
            pairs++;
          }
        }
      }
    }
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

    /** Whether documents (or gathered slots) i and j may reach the threshold. */
    boolean mayReach(int i, int j) {
      return filter.mayReach(hashes, i * HeadFilter.HEAD, codes[i], j * HeadFilter.HEAD, codes[j]);
    }
  }

  /** The band keys of every document (or gathered slot): {@code bands} per document, flat. */
  private static final class BandKeys {
    final long[] keys;
    final int bands;

    BandKeys(long[] keys, int bands) {
      this.keys = keys;
      this.bands = bands;
    }

    long get(int i, int b) {
      return keys[i * bands + b];
    }

    /** Whether documents i and j share a key in any band before {@code limit}. */
    boolean share(int i, int j, int limit) {
      long[] k = keys;
      int a = i * bands;
      int c = j * bands;
      for (int b = 0; b < limit; b++) {
        if (k[a + b] == k[c + b]) {
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
