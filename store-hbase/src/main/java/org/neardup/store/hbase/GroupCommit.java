// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.locks.ReentrantLock;
import org.neardup.store.Document;
import org.neardup.store.Outcome;

/**
 * Single check-and-inserts of one collection from many threads, committed together: a thread queues
 * its document, and whichever thread finds no batch running takes everything queued (at most {@link
 * #MAX_BATCH}) and commits it as one batch ({@link HBaseCollection#insertAll}): one hold of the
 * collection's lock and one sequence step for the lot, instead of one each. A batch decides its
 * documents in queue order exactly as single calls in that order would, so each caller gets the
 * outcome its call alone would have had at that point. A failed batch fails every call in it.
 * Thread-safe.
 */
final class GroupCommit {
  static final int MAX_BATCH = 256;

  private final HBaseCollection collection;
  private final ReentrantLock committing = new ReentrantLock(true);
  private final Object queueLock = new Object();
  private List<Pending> queue = new ArrayList<>();

  private record Pending(Document document, CompletableFuture<Outcome> outcome) {}

  GroupCommit(HBaseCollection collection) {
    this.collection = collection;
  }

  Outcome submit(Document document) throws IOException {
    Pending mine = new Pending(document, new CompletableFuture<>());
    synchronized (queueLock) {
      queue.add(mine);
    }
    while (!mine.outcome.isDone()) {
      committing.lock();
      try {
        if (!mine.outcome.isDone()) {
          commitQueued();
        }
      } finally {
        committing.unlock();
      }
    }
    try {
      return mine.outcome.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted waiting for a commit");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw new IOException(io.getMessage(), io);
      }
      if (cause instanceof RuntimeException re) {
        throw re;
      }
      if (cause instanceof Error error) {
        throw error;
      }
      throw new IOException(cause);
    }
  }

  /** Commits what is queued, up to {@link #MAX_BATCH}, in queue order (the lock held). */
  private void commitQueued() {
    List<Pending> batch;
    synchronized (queueLock) {
      if (queue.size() <= MAX_BATCH) {
        batch = queue;
        queue = new ArrayList<>();
      } else {
        batch = new ArrayList<>(queue.subList(0, MAX_BATCH));
        queue = new ArrayList<>(queue.subList(MAX_BATCH, queue.size()));
      }
    }
    if (batch.isEmpty()) {
      return;
    }
    List<Document> docs = new ArrayList<>(batch.size());
    for (Pending p : batch) {
      docs.add(p.document);
    }
    try {
      List<Outcome> out = collection.insertAll(docs);
      for (int i = 0; i < batch.size(); i++) {
        batch.get(i).outcome.complete(out.get(i));
      }
    } catch (Throwable e) {
      for (Pending p : batch) {
        p.outcome.completeExceptionally(e);
      }
      if (e instanceof Error error) {
        throw error;
      }
    }
  }
}
