// SPDX-License-Identifier: Apache-2.0
package org.neardup.store;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.IntConsumer;
import org.neardup.Analysis;
import org.neardup.Analyzer;

/**
 * One independent index of a {@link FingerprintStore}: documents, each checked against every
 * document stored before it, grouped into clusters, forgotten after the retention window.
 *
 * <p>Thread-safe. {@link #checkAndInsert} and {@link #checkAndInsertAll} are linearizable with each
 * other and with {@link #delete}: they act as if executed one at a time in some order that respects
 * real time, so of two near-duplicates inserted at once exactly one is new. Analysis is the
 * caller's job (with {@link #analyzer()}), so the expensive part runs outside any lock.
 *
 * <p>A document's id is unique within the collection while the document is stored: inserting an id
 * that is stored answers {@link Outcome.Status#EXISTS} and changes nothing, which makes retrying an
 * insert after a timeout safe.
 */
public interface Collection {

  /** The largest id, in UTF-8 bytes. */
  int MAX_ID_BYTES = 4096;

  String name();

  CollectionSettings settings();

  /** The analyzer of this collection's settings; texts must be analysed with it. */
  Analyzer analyzer();

  /**
   * Checks a document against every stored one and stores it, unless its id is stored ({@link
   * Outcome.Status#EXISTS}) or its timestamp is already outside the retention window ({@link
   * Outcome.Status#EXPIRED}; it is still checked). Returns once the insert is durable.
   *
   * @throws IllegalArgumentException if the id is empty or longer than {@link #MAX_ID_BYTES}, or
   *     the analysis is empty; nothing is stored
   * @throws IllegalStateException if the collection was dropped
   * @throws IOException if the store's medium failed; the document may or may not be stored
   */
  Outcome checkAndInsert(Document document) throws IOException;

  /**
   * {@link #checkAndInsert} for each document, in order, with the same meaning as calling it once
   * per document in that order (other writers may interleave). Every document is validated before
   * any is stored. Returns once all inserts are durable; after a crash, the stored ones are a
   * prefix of the list.
   *
   * @throws IllegalArgumentException naming the first invalid document's position; nothing is
   *     stored
   */
  List<Outcome> checkAndInsertAll(List<Document> documents) throws IOException;

  /**
   * {@link #checkAndInsert} without waiting for durability: the document is decided (checked,
   * ordered among all writes) before this returns, and the future completes once the insert is
   * durable, on a thread of the store's choosing (keep what runs there short). A server can thus
   * answer many requests per fsync without a thread waiting for each.
   *
   * <p>The default calls {@link #checkAndInsert} and returns a completed future.
   *
   * @throws IllegalArgumentException as {@link #checkAndInsert}, before anything is stored
   * @throws IllegalStateException if the collection was dropped
   */
  default CompletableFuture<Outcome> checkAndInsertAsync(Document document) {
    try {
      return CompletableFuture.completedFuture(checkAndInsert(document));
    } catch (IOException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * {@link #checkAndInsertAll} without waiting for durability; see {@link #checkAndInsertAsync}.
   */
  default CompletableFuture<List<Outcome>> checkAndInsertAllAsync(List<Document> documents) {
    try {
      return CompletableFuture.completedFuture(checkAndInsertAll(documents));
    } catch (IOException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * {@link #checkAndInsertAllAsync(List)}, with the work that needs no lock shared out by {@code
   * parallel}: each document's validation and encoding, its index search and the verification of
   * its candidates against the documents stored at that moment (most of a decision's cost for
   * verified texts). Only the last step, catching up with what was stored meanwhile and storing,
   * runs on the calling thread under the collection's lock. The outcomes are the same as without; a
   * batch's decision just takes less time when the threads {@code parallel} uses are idle.
   *
   * <p>The default ignores {@code parallel}.
   *
   * @throws IllegalArgumentException as {@link #checkAndInsertAll}, before anything is stored
   * @throws IllegalStateException if the collection was dropped
   */
  default CompletableFuture<List<Outcome>> checkAndInsertAllAsync(
      List<Document> documents, Parallel parallel) {
    return checkAndInsertAllAsync(documents);
  }

  /**
   * {@link #checkAndInsertAllAsync(List, Parallel)}, with {@code decided} applied to the outcomes
   * as soon as they are decided, on the calling thread, while the store makes them durable: a
   * server renders its answer there instead of after the fsync, so the two overlap. The future
   * completes with {@code decided}'s result once the documents are durable (exceptionally, with
   * what {@code decided} threw, if it threw). What {@code decided} makes must not be shown to
   * anyone before then: the outcomes are not final until the documents are durable.
   *
   * <p>The default applies {@code decided} once the documents are durable.
   *
   * @throws IllegalArgumentException as {@link #checkAndInsertAll}, before anything is stored
   * @throws IllegalStateException if the collection was dropped
   */
  default <T> CompletableFuture<T> checkAndInsertAllAsync(
      List<Document> documents, Parallel parallel, Function<List<Outcome>, T> decided) {
    return checkAndInsertAllAsync(documents, parallel).thenApply(decided);
  }

  /**
   * Runs tasks on the calling thread and possibly on others at the same time, for {@link
   * #checkAndInsertAllAsync(List, Parallel)}.
   */
  @FunctionalInterface
  interface Parallel {
    /** Runs every task on the calling thread, in order. */
    Parallel CALLER =
        (n, task) -> {
          for (int i = 0; i < n; i++) {
            task.accept(i);
          }
        };

    /**
     * Runs {@code task} once for each of {@code 0..n-1}, in any order and on any of its threads,
     * and returns when all have run; what the tasks did happens-before the return. If a task
     * throws, this throws such an exception, once the tasks that started have ended (the others may
     * not run).
     */
    void run(int n, IntConsumer task);
  }

  /** Checks an analysis against every stored document; stores nothing. */
  Outcome check(Analysis analysis);

  /** The stored document with this id, if any. */
  Optional<StoredDocument> get(String id);

  /**
   * Removes the document with this id: it stops matching; its cluster keeps its other members.
   * Durable when it returns.
   *
   * @return whether it was stored
   */
  boolean delete(String id) throws IOException;

  /**
   * Removes every document outside the retention window as of the store's clock.
   *
   * @return how many were removed
   */
  int expire();

  CollectionStats stats();
}
