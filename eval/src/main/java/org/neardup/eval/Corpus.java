// SPDX-License-Identifier: Apache-2.0
package org.neardup.eval;

import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import org.jspecify.annotations.Nullable;
import org.neardup.Analysis;
import org.neardup.Analyzer;
import org.neardup.CorpusDedup;
import org.neardup.internal.DaemonThreads;
import org.neardup.verify.ShingleSketch;

/**
 * Every document of a {@link Dataset} analysed by one {@link Analyzer}, held in memory in the form
 * {@link CorpusDedup#findPairs} takes: fingerprints, flat band keys, shingle sketches, and the
 * documents left out because they have no letters or digits (which {@code neardup dedup} reports as
 * errors and leaves out too).
 *
 * <p>Immutable after {@link #analyse}; the arrays are shared, not copied.
 */
public final class Corpus {
  private final Analyzer analyzer;
  final long[] fingerprints;
  final ShingleSketch @Nullable [] sketches;
  final long[] bandKeys;
  final int bands;
  final BitSet excluded;
  private final double seconds;
  private final int threads;

  private Corpus(
      Analyzer analyzer,
      long[] fingerprints,
      ShingleSketch @Nullable [] sketches,
      long[] bandKeys,
      int bands,
      BitSet excluded,
      double seconds,
      int threads) {
    this.analyzer = analyzer;
    this.fingerprints = fingerprints;
    this.sketches = sketches;
    this.bandKeys = bandKeys;
    this.bands = bands;
    this.excluded = excluded;
    this.seconds = seconds;
    this.threads = threads;
  }

  /**
   * Analyses every document on {@code threads} threads and times it. The clock covers the analysis
   * only, after a warm-up on the first {@code warmUp} documents (so the JIT compiler and lazily
   * loaded dictionaries do not count against the first settings measured).
   */
  public static Corpus analyse(Dataset data, Analyzer analyzer, int threads, int warmUp) {
    Objects.requireNonNull(analyzer, "analyzer");
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be >= 1, got " + threads);
    }
    List<Dataset.Doc> docs = data.docs();
    int n = docs.size();
    boolean verify = analyzer.shingler() != null;
    int bands = verify ? analyzer.shingler().bands().bands() : 0;
    long[] fingerprints = new long[n];
    ShingleSketch[] sketches = verify ? new ShingleSketch[n] : null;
    long[] bandKeys = new long[n * bands];
    boolean[] empty = new boolean[n];
    parallel(Math.min(n, Math.max(0, warmUp)), threads, i -> analyzer.analyze(docs.get(i).text()));
    long t0 = System.nanoTime();
    parallel(
        n,
        threads,
        i -> {
          Analysis a = analyzer.analyze(docs.get(i).text());
          if (a.isEmpty()) {
            empty[i] = true;
            return;
          }
          fingerprints[i] = a.fingerprint();
          if (verify) {
            sketches[i] = a.sketch().shingles();
            long[] keys = a.sketch().bandKeys();
            System.arraycopy(keys, 0, bandKeys, i * bands, Math.min(bands, keys.length));
          }
        });
    double seconds = (System.nanoTime() - t0) / 1e9;
    BitSet excluded = new BitSet(n);
    for (int i = 0; i < n; i++) {
      if (empty[i]) {
        excluded.set(i);
        if (verify) {
          sketches[i] = ShingleSketch.empty();
        }
      }
    }
    return new Corpus(
        analyzer, fingerprints, sketches, bandKeys, bands, excluded, seconds, threads);
  }

  /**
   * Calls {@code task} for every index in [0, n) on {@code threads} threads, in chunks; rethrows
   * the first failure. Returns after every call has returned, so their writes are visible.
   */
  static void parallel(int n, int threads, IntConsumer task) {
    if (n == 0) {
      return;
    }
    if (threads == 1) {
      for (int i = 0; i < n; i++) {
        task.accept(i);
      }
      return;
    }
    AtomicInteger next = new AtomicInteger();
    int chunk = 32;
    ExecutorService pool =
        Executors.newFixedThreadPool(threads, DaemonThreads.named("neardup-eval"));
    try {
      Future<?>[] futures = new Future<?>[threads];
      for (int w = 0; w < threads; w++) {
        futures[w] =
            pool.submit(
                () -> {
                  for (int start; (start = next.getAndAdd(chunk)) < n; ) {
                    for (int i = start; i < Math.min(n, start + chunk); i++) {
                      task.accept(i);
                    }
                  }
                });
      }
      for (Future<?> f : futures) {
        f.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException) {
        throw (RuntimeException) cause;
      }
      if (cause instanceof Error) {
        throw (Error) cause;
      }
      throw new IllegalStateException(cause);
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * The pairs {@code neardup dedup} reports with this corpus's analyses: {@link
   * CorpusDedup#findPairs} with the same arguments the dedup command passes.
   *
   * @param verify whether to verify (needs sketches); false decides by distance alone
   */
  public PairList findPairs(int maxDistance, double threshold, boolean verify, int threads) {
    return findPairs(bandKeys, bands, maxDistance, threshold, verify, threads);
  }

  /** As {@link #findPairs(int, double, boolean, int)} with other band keys (another threshold). */
  PairList findPairs(
      long[] keys, int nBands, int maxDistance, double threshold, boolean verify, int threads) {
    if (verify && sketches == null) {
      throw new IllegalStateException("verification needs sketches; analysed without a shingler");
    }
    PairList out = new PairList();
    ShingleSketch[] s = sketches;
    long t0 = System.nanoTime();
    CorpusDedup.findPairs(
        fingerprints,
        fingerprints.length,
        keys,
        verify ? nBands : 0,
        verify ? o -> s[o] : null,
        maxDistance,
        threshold,
        excluded,
        threads,
        out);
    out.seconds = (System.nanoTime() - t0) / 1e9;
    out.sort();
    return out;
  }

  /** This corpus with other shingle sketches (the same texts sketched by another shingler). */
  Corpus withSketches(ShingleSketch[] other) {
    return new Corpus(analyzer, fingerprints, other, bandKeys, bands, excluded, seconds, threads);
  }

  public Analyzer analyzer() {
    return analyzer;
  }

  /** The number of documents. */
  public int size() {
    return fingerprints.length;
  }

  public long fingerprint(int doc) {
    return fingerprints[doc];
  }

  /** The shingle sketch of a document; null when analysed without verification. */
  public @Nullable ShingleSketch sketch(int doc) {
    return sketches == null ? null : sketches[doc];
  }

  /** Whether the analyzer verifies (the corpus has sketches and band keys). */
  public boolean verifies() {
    return sketches != null;
  }

  /** Whether the document was left out (no letters or digits). */
  public boolean excluded(int doc) {
    return excluded.get(doc);
  }

  /** The number of documents left out. */
  public int excludedCount() {
    return excluded.cardinality();
  }

  /** Whether documents a and b share a band key. */
  public boolean shareBand(int a, int b) {
    for (int k = 0; k < bands; k++) {
      if (bandKeys[a * bands + k] == bandKeys[b * bands + k]) {
        return true;
      }
    }
    return false;
  }

  /** Wall-clock seconds of the timed analysis. */
  public double seconds() {
    return seconds;
  }

  /** Documents analysed per second, on {@link #threads()} threads. */
  public double docsPerSecond() {
    return seconds > 0 ? size() / seconds : Double.NaN;
  }

  public int threads() {
    return threads;
  }
}
