// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.neardup.store.Document;

/**
 * Parses and analyses the documents of one batch request on the worker that took it and on idle
 * workers, in chunks of {@value #CHUNK}: analysis is most of a verified batch's cost, and one
 * worker per request left every other core idle when a client sends one batch at a time (as {@code
 * neardup send} does by default), which held ingest to half the rate of {@code neardup dedup} on
 * two cores (docs/BENCHMARKS.md, issue 18).
 *
 * <p>The caller takes chunks too, so the request never waits for a helper that has not started: a
 * helper that starts after every chunk is taken returns at once. The result is the same list, in
 * the same order, and the same first error (the lowest document's), as analysing one by one.
 */
final class BatchAnalysis {
  static final int CHUNK = 16;

  /** Parses and analyses one document (position i); throws ApiException for bad input. */
  @FunctionalInterface
  interface Step {
    Document apply(int i) throws ApiException;
  }

  private BatchAnalysis() {}

  /**
   * The documents {@code step(0..n)} in order, with up to {@code helpers} idle workers of {@code
   * pool} taking chunks beside the caller.
   */
  static List<Document> run(int n, Step step, Executor pool, int helpers) throws ApiException {
    Document[] out = new Document[n];
    int chunks = (n + CHUNK - 1) / CHUNK;
    if (chunks <= 1 || helpers <= 0) {
      for (int i = 0; i < n; i++) {
        out[i] = step.apply(i);
      }
      return Arrays.asList(out);
    }
    Shared s = new Shared(n, chunks, step, out);
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
    return Arrays.asList(out);
  }

  private static final class Shared {
    final int n;
    final int chunks;
    final Step step;
    final Document[] out;
    final AtomicInteger next = new AtomicInteger();
    int done;
    // The error of the lowest failed chunk (each chunk stops at its first), guarded by this.
    @Nullable ApiException error;
    int errorChunk = Integer.MAX_VALUE;
    @Nullable RuntimeException crash;

    Shared(int n, int chunks, Step step, Document[] out) {
      this.n = n;
      this.chunks = chunks;
      this.step = step;
      this.out = out;
    }

    void work() {
      for (int c = next.getAndIncrement(); c < chunks; c = next.getAndIncrement()) {
        ApiException failed = null;
        RuntimeException crashed = null;
        try {
          for (int i = c * CHUNK, end = Math.min(n, i + CHUNK); i < end; i++) {
            out[i] = step.apply(i);
          }
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
