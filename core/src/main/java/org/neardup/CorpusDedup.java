package org.neardup;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import org.jspecify.annotations.Nullable;
import org.neardup.index.AllPairs;
import org.neardup.internal.Checks;
import org.neardup.internal.Sorts;
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
 * verified once without a hash set. Only fingerprints and band keys are held in memory; sketches
 * are read through {@code sketches}, which may be backed by a file.
 */
public final class CorpusDedup {
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
          double s = ShingleSketch.jaccard(sketches.apply(i), sketches.apply(j));
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
                        band(fps, count, bandKeys, bands, b, sketches, threshold, excluded, out));
                  }
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
              },
              "neardup-bands-" + w);
      workers.add(t);
      t.start();
    }
    for (Thread t : workers) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while finding pairs", e);
      }
    }
    if (failure.get() != null) {
      Throwable e = failure.get();
      if (e instanceof RuntimeException) {
        throw (RuntimeException) e;
      }
      throw new IllegalStateException(e);
    }
    return reported.get();
  }

  private static long band(
      long[] fps,
      int count,
      long[] bandKeys,
      int bands,
      int b,
      IntFunction<ShingleSketch> sketches,
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
    for (int start = 0; start < n; ) {
      int end = start + 1;
      while (end < n && keys[end] == keys[start]) {
        end++;
      }
      for (int x = start; x < end; x++) {
        for (int y = x + 1; y < end; y++) {
          int i = Math.min(order[x], order[y]);
          int j = Math.max(order[x], order[y]);
          if (shareBand(bandKeys, bands, i, j, b)) {
            continue; // an earlier band already verified this pair
          }
          double s = ShingleSketch.jaccard(sketches.apply(i), sketches.apply(j));
          if (s >= threshold) {
            out.accept(i, j, Long.bitCount(fps[i] ^ fps[j]), s);
            pairs++;
          }
        }
      }
      start = end;
    }
    return pairs;
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
