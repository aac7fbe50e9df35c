// SPDX-License-Identifier: Apache-2.0
package org.neardup;

import org.jspecify.annotations.Nullable;
import org.neardup.internal.Checks;
import org.neardup.internal.PagedLongArray;
import org.neardup.internal.TaskThread;
import org.neardup.verify.BandIndex;

/**
 * Snapshot and log replay for a {@link Deduplicator}: stores documents without checking them, in
 * their original insertion order, each joining the clusters its verdict named, so the rebuilt
 * deduplicator gives the verdicts the original gave. A batch ({@link RestoreBatch}) goes to the
 * fingerprint index as one sorted segment.
 *
 * <p>Stateless; called under the deduplicator's write lock.
 */
final class Restoring {
  private Restoring() {}

  /**
   * Stores one document and joins it to the clusters of every stored docId in {@code links}.
   *
   * @throws IllegalArgumentException if docId is already stored; nothing is stored then
   */
  static void restore(
      StoredDocuments docs,
      long docId,
      Analysis analysis,
      byte @Nullable [] encoded,
      long[] links) {
    int ordinal = docs.store(docId, analysis, encoded);
    Clustering.link(docs, ordinal, docId, links);
  }

  /**
   * Stores a batch in order, each document joining the clusters of its links stored before it (a
   * link to a document later in the batch is ignored, as a one-by-one restore would).
   *
   * @throws IllegalArgumentException if a docId is already stored or appears twice in the batch;
   *     nothing is stored then
   */
  static void restoreAll(StoredDocuments docs, RestoreBatch batch) {
    int n = batch.size;
    Checks.checkArgument(
        (long) docs.count + n <= Integer.MAX_VALUE - 8,
        "a deduplicator holds fewer than 2^31 ordinals: %s + %s is too many",
        docs.count,
        n);
    int first = docs.count;
    // Ordinals first: they find duplicate docIds before anything else is touched.
    for (int i = 0; i < n; i++) {
      long docId = batch.docIds.get(i);
      int previous = docs.ids.append(docId);
      if (previous >= 0) {
        docs.ids.truncate(first);
        throw new IllegalArgumentException(
            Checks.format(
                previous < first
                    ? "docId %s is already stored"
                    : "docId %s appears twice in the batch",
                docId));
      }
    }
    // While indexing is deferred the fingerprint index gets every batch at once later.
    boolean index = docs.unindexedFrom < 0;
    long[] fps = new long[index ? n : 0];
    long[] ords = new long[index ? n : 0];
    int bandCount = docs.bandCount;
    // The band index is the largest part of the work and shares nothing with the loop below or the
    // fingerprint index: a large batch files its band keys on a second thread meanwhile.
    TaskThread bandFiler = null;
    if (docs.bands != null && docs.unbandedFrom < 0) {
      BandIndex bands = docs.bands;
      PagedLongArray keys = batch.bandKeys;
      bandFiler =
          new TaskThread("neardup-restore-bands", () -> bands.addAll(keys, 0, bandCount, first, n));
      if ((long) n * bandCount >= PARALLEL_AT) {
        bandFiler.start();
      } else {
        bandFiler.run();
      }
    }
    try {
      for (int i = 0; i < n; i++) {
        int ordinal = first + i;
        long fp = batch.fingerprints.get(i);
        if (index) {
          fps[i] = fp;
          ords[i] = ordinal;
        }
        byte[] sketch = null;
        int off = 0;
        int len = 0;
        if (docs.bands != null) {
          batch.bandKeys.get((long) i * bandCount, docs.keyBuffer, 0, bandCount);
          sketch = batch.sketches.array(i);
          off = batch.sketches.offset(i);
          len = batch.sketches.length(i);
        }
        docs.appendUnindexed(fp, sketch, off, len);
        long from = i == 0 ? 0 : batch.linkEnds.get(i - 1);
        long to = batch.linkEnds.get(i);
        for (long k = from; k < to; k++) {
          int other = docs.ids.get(batch.links.get(k));
          if (other >= 0 && other < ordinal) {
            docs.clusters.union(ordinal, other);
          }
        }
      }
      if (index) {
        docs.index(fps, ords, n);
      }
    } catch (RuntimeException | Error e) {
      // Nothing may still write the band index once the caller has the failure.
      if (bandFiler != null) {
        bandFiler.awaitQuietly();
      }
      throw e;
    }
    if (bandFiler != null) {
      bandFiler.finish();
    }
    docs.publishAll();
  }

  /**
   * Band key entries in a batch from which its keys are filed on a thread of its own: 2^20 (about
   * 175,000 documents of 6 bands), far more work than starting a thread.
   */
  static final long PARALLEL_AT = 1 << 20;
}
