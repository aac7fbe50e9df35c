// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.neardup.store.Document;
import org.neardup.store.Outcome;

/**
 * Gathers the single check-and-inserts that threads of one process make on one collection at the
 * same time into groups, each run as one batch (group commit): one pipeline of probes and one
 * commit script call for the group instead of one each per document. A thread queues its document;
 * whichever thread holds the leader's lock takes up to {@code max} queued documents in arrival
 * order, runs them, hands each thread its outcome, and passes the lead to the next waiting thread.
 * Thread-safe.
 */
final class GroupCommit {
  /*
   * Why (issue 15, speed): a single check costs Redis a probe pipeline and a commit script call of
   * its own, ~2x the Redis CPU per document of a batch (the per-call costs: command dispatch, script
   * setup, the meta check and seq read/write once per call). Concurrent singles are independent
   * documents, so running them as a batch in arrival order gives outcomes a serial order would give
   * (the batch decides each against everything stored before it, the earlier ones of the group
   * included), and the commit's conflict check in Redis still decides races with other processes.
   * A group is only ever as large as what queued while the previous one ran: a lone request runs at
   * once, as a batch of one.
   * Invariant: a queued Pending is completed exactly once, by the leader that took it; only the
   * lock holder takes from the queue.
   */
  private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  private final ReentrantLock leader = new ReentrantLock();
  private final ConcurrentLinkedQueue<Pending> queue = new ConcurrentLinkedQueue<>();
  private final int max;

  /**
   * @param max the most documents per group
   */
  GroupCommit(int max) {
    this.max = max;
  }

  private static final class Pending {
    final Document document;
    final Thread thread = Thread.currentThread();
    volatile boolean done;
    @Nullable Outcome outcome;
    @Nullable RuntimeException error;

    Pending(Document document) {
      this.document = document;
    }

    void complete(@Nullable Outcome o, @Nullable RuntimeException e) {
      outcome = o;
      error = e;
      done = true; // volatile write: publishes outcome and error
      LockSupport.unpark(thread);
    }
  }

  /**
   * Runs {@code document} in a group with whatever other threads submit meanwhile; {@code batch}
   * runs a group (a list of documents, their outcomes in the same order).
   *
   * @throws RuntimeException what {@code batch} threw for the document's group
   */
  Outcome submit(Document document, Function<List<Document>, List<Outcome>> batch) {
    Pending me = new Pending(document);
    queue.add(me);
    while (!me.done) {
      if (leader.tryLock()) {
        try {
          while (!me.done) {
            runGroup(batch);
          }
        } finally {
          leader.unlock();
        }
        // Hand the lead to the next queued thread rather than making it wait for a poll.
        Pending next = queue.peek();
        if (next != null) {
          LockSupport.unpark(next.thread);
        }
      } else {
        LockSupport.parkNanos(this, POLL_NANOS);
      }
    }
    if (me.error != null) {
      throw me.error;
    }
    assert me.outcome != null;
    return me.outcome;
  }

  private void runGroup(Function<List<Document>, List<Outcome>> batch) {
    List<Pending> group = new ArrayList<>(max);
    for (Pending p; group.size() < max && (p = queue.poll()) != null; ) {
      group.add(p);
    }
    List<Document> documents = new ArrayList<>(group.size());
    for (Pending p : group) {
      documents.add(p.document);
    }
    List<Outcome> outcomes;
    try {
      outcomes = batch.apply(documents);
    } catch (RuntimeException e) {
      for (Pending p : group) {
        p.complete(null, e);
      }
      return;
    } catch (Error e) {
      for (Pending p : group) {
        p.complete(null, new IllegalStateException("a group commit failed: " + e, e));
      }
      throw e;
    }
    for (int i = 0; i < group.size(); i++) {
      group.get(i).complete(outcomes.get(i), null);
    }
  }
}
