// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.neardup.store.Collection;
import org.neardup.store.Document;

/**
 * Runs the parts of one batch request that need no lock on the worker that took it and on idle
 * workers: parsing and analysing its documents, in chunks ({@link #chunk}), and the store's probes
 * ({@link #parallel}). Analysis is most of a verified batch's cost, and one worker per request left
 * every other core idle when a client sends one batch at a time (as {@code neardup send} does by
 * default), which held ingest to half the rate of {@code neardup dedup} on two cores
 * (docs/BENCHMARKS.md, issue 18).
 *
 * <p>The caller takes chunks too, so the request never waits for a helper that has not started: a
 * helper that starts after every chunk is taken returns at once. The result is the same list, in
 * the same order, and the same first error (the lowest document's), as analysing one by one.
 */
final class BatchAnalysis {
  /*
   * Chunks are taken one at a time by whichever thread is free, so the last one to finish ends at
   * most one chunk after the others: 16 news-length texts are ~2-3 ms of analysis, against a batch
   * of 100's ~9 ms over two workers (docs/BENCHMARKS.md, the fourteenth session). But taking a
   * chunk costs an atomic increment and a synchronized block, which buys nothing for short texts
   * (chunks of 4 read 1.07x the workers' CPU per short text side by side, inside that run's noise):
   * so a chunk holds about CHUNK_BYTES of the body, 1 to MAX_CHUNK documents (2 news texts in
   * Chinese, 16 short ones).
   */
  static final int MAX_CHUNK = 16;
  static final int CHUNK_BYTES = 16 << 10;

  /** Parses and analyses one document (position i); throws ApiException for bad input. */
  @FunctionalInterface
  interface Step {
    Document apply(int i) throws ApiException;
  }

  /** Does the work of positions [from, to); throws ApiException for bad input. */
  @FunctionalInterface
  private interface Range {
    void apply(int from, int to) throws ApiException;
  }

  private BatchAnalysis() {}

  /**
   * How many documents of a batch of {@code n} in {@code bodyBytes} a chunk holds: about {@value
   * #CHUNK_BYTES} bytes of the body, 1 to {@value #MAX_CHUNK} documents.
   */
  static int chunk(long bodyBytes, int n) {
    long perDocument = Math.max(1, bodyBytes / Math.max(1, n));
    return (int) Math.max(1, Math.min(MAX_CHUNK, CHUNK_BYTES / perDocument));
  }

  /**
   * The documents {@code step(0..n)} in order, in chunks of {@code chunk}, with up to {@code
   * helpers} idle workers of {@code pool} taking chunks beside the caller.
   */
  static List<Document> run(int n, int chunk, Step step, Executor pool, int helpers)
      throws ApiException {
    Document[] out = new Document[n];
    run(
        n,
        chunk,
        (from, to) -> {
          for (int i = from; i < to; i++) {
            out[i] = step.apply(i);
          }
        },
        pool,
        helpers);
    return Arrays.asList(out);
  }

  /**
   * A {@link Collection.Parallel} that runs each task as a chunk of its own, with up to {@code
   * helpers} idle workers of {@code pool} beside the caller.
   */
  static Collection.Parallel parallel(Executor pool, int helpers) {
    return (n, task) -> {
      try {
        run(
            n,
            1,
            (from, to) -> {
              for (int i = from; i < to; i++) {
                task.accept(i);
              }
            },
            pool,
            helpers);
      } catch (ApiException e) {
        throw new IllegalStateException(
            "cannot happen: the store's tasks throw no ApiException", e);
      }
    };
  }

  private static void run(int n, int chunk, Range range, Executor pool, int helpers)
      throws ApiException {
    int chunks = (n + chunk - 1) / chunk;
    if (chunks <= 1 || helpers <= 0) {
      range.apply(0, n);
      return;
    }
    Shared s = new Shared(n, chunk, chunks, range);
    for (int h = 0; h < Math.min(helpers, chunks - 1); h++) {
      try {
        pool.execute(s::work);
      } catch (RejectedExecutionException e) {
        break; // shutting down: the caller does the rest
      }
    }
    s.work();
    s.awaitChunks();
    if (s.error != null) {
      throw s.error;
    }
  }

  private static final class Shared {
    final int n;
    final int chunk;
    final int chunks;
    final Range range;
    final AtomicInteger next = new AtomicInteger();
    int done;
    // The error of the lowest failed chunk (each chunk stops at its first), guarded by this.
    @Nullable ApiException error;
    int errorChunk = Integer.MAX_VALUE;
    @Nullable RuntimeException crash;

    Shared(int n, int chunk, int chunks, Range range) {
      this.n = n;
      this.chunk = chunk;
      this.chunks = chunks;
      this.range = range;
    }

    void work() {
      for (int c = next.getAndIncrement(); c < chunks; c = next.getAndIncrement()) {
        ApiException failed = null;
        RuntimeException crashed = null;
        try {
          range.apply(c * chunk, Math.min(n, c * chunk + chunk));
        } catch (ApiException e) {
          failed = e;
        } catch (RuntimeException e) {
          crashed = e;
        }
        synchronized (this) {
          if (failed != null && c < errorChunk) {
            error = failed;
            errorChunk = c;
          }
          if (crashed != null && crash == null) {
            crash = crashed;
          }
          done++;
          if (done == chunks) {
            notifyAll();
          }
        }
      }
    }

    /** Waits for the chunks helpers took; the caller has finished its own. */
    synchronized void awaitChunks() {
      boolean interrupted = false;
      while (done < chunks) {
        try {
          wait();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
      if (crash != null) {
        throw crash;
      }
    }
  }
}
