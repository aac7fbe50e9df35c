// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.neardup.internal.DaemonThreads;

/**
 * Reads documents on the calling thread, decodes, parses and processes them in batches on worker
 * threads, and hands the results back on the calling thread in input order. At most {@code 4 *
 * threads} batches are in flight, so memory stays bounded however large the input.
 */
final class Parallel {
  private static final int BATCH_DOCS = 256;
  private static final long BATCH_CHARS = 4L << 20; // bytes, in fact

  /** Receives finished results in input order. */
  interface Sink<T> {
    void accept(List<T> results) throws IOException;
  }

  private Parallel() {}

  static <T> void run(
      DocumentSource source,
      Function<InputDocument, T> work,
      int threads,
      Sink<T> sink,
      Runnable onBatch)
      throws IOException {
    runRaw(source, d -> work.apply(source.parse(d)), threads, sink, onBatch);
  }

  /**
   * As {@link #run}, with {@code work} given each document as read ({@link
   * DocumentSource.RawDocument}): a caller that reads some records itself, and the others through
   * {@link DocumentSource#parse}.
   */
  static <T> void runRaw(
      DocumentSource source,
      Function<DocumentSource.RawDocument, T> work,
      int threads,
      Sink<T> sink,
      Runnable onBatch)
      throws IOException {
    ExecutorService pool =
        Executors.newFixedThreadPool(threads, DaemonThreads.named("neardup-worker"));
    ArrayDeque<Future<List<T>>> inFlight = new ArrayDeque<>();
    List<DocumentSource.RawDocument> batch = new ArrayList<>(BATCH_DOCS);
    long[] chars = {0};
    try {
      source.forEach(
          doc -> {
            batch.add(doc);
            chars[0] += doc.bytes() == null ? 0 : doc.bytes().length;
            if (batch.size() >= BATCH_DOCS || chars[0] >= BATCH_CHARS) {
              inFlight.add(submit(pool, work, new ArrayList<>(batch)));
              batch.clear();
              chars[0] = 0;
              drain(inFlight, sink, threads * 4);
              onBatch.run();
            }
          });
      if (!batch.isEmpty()) {
        inFlight.add(submit(pool, work, new ArrayList<>(batch)));
      }
      drain(inFlight, sink, 0);
      onBatch.run();
    } catch (Failure f) {
      if (f.getCause() instanceof IOException) {
        throw (IOException) f.getCause();
      }
      if (f.getCause() instanceof RuntimeException) {
        throw (RuntimeException) f.getCause();
      }
      if (f.getCause() instanceof Error) {
        throw (Error) f.getCause();
      }
      throw new IllegalStateException(f.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  private static <T> Future<List<T>> submit(
      ExecutorService pool,
      Function<DocumentSource.RawDocument, T> work,
      List<DocumentSource.RawDocument> docs) {
    return pool.submit(
        () -> {
          List<T> out = new ArrayList<>(docs.size());
          for (DocumentSource.RawDocument d : docs) {
            out.add(work.apply(d));
          }
          return out;
        });
  }

  /**
   * Hands over finished batches in order while more than {@code keep} are in flight or the head is
   * done.
   */
  private static <T> void drain(ArrayDeque<Future<List<T>>> inFlight, Sink<T> sink, int keep) {
    try {
      while (!inFlight.isEmpty() && (inFlight.size() > keep || inFlight.peek().isDone())) {
        sink.accept(inFlight.poll().get());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Failure(e);
    } catch (ExecutionException e) {
      throw new Failure(e.getCause());
    } catch (IOException e) {
      throw new Failure(e);
    }
  }

  /** Carries a checked failure out of the reading callback. */
  private static final class Failure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Failure(Throwable cause) {
      super(cause);
    }
  }
}
