// SPDX-License-Identifier: Apache-2.0
package org.neardup;

import java.util.List;
import org.neardup.decide.MatchSet;

/**
 * The cluster bookkeeping of a {@link Deduplicator} over its {@link StoredDocuments}: a stored
 * document joins the clusters of its matches (or of a restored verdict's links), a cluster is
 * represented by its earliest member's docId, and verdicts name the clusters a query joins.
 *
 * <p>Stateless; called under the deduplicator's lock (the write lock where it unites).
 */
final class Clustering {
  private Clustering() {}

  /**
   * Unites the just-stored {@code ordinal} with the cluster of every match; returns the docId
   * representing the joined cluster.
   */
  static long join(StoredDocuments docs, int ordinal, MatchSet found) {
    for (int i = 0; i < found.size(); i++) {
      docs.clusters.union(ordinal, (int) found.ordinal(i));
    }
    return docs.ids.docId(docs.clusters.find(ordinal));
  }

  /**
   * Unites the just-stored {@code ordinal} (of {@code docId}) with the cluster of every other docId
   * in {@code links} that is stored.
   */
  static void link(StoredDocuments docs, int ordinal, long docId, long[] links) {
    for (long link : links) {
      int other = link == docId ? -1 : docs.ids.get(link);
      if (other >= 0) {
        docs.clusters.union(ordinal, other);
      }
    }
  }

  /** The docIds of the distinct cluster representatives among the matches (earliest first). */
  static List<Long> joined(StoredDocuments docs, MatchSet matches) {
    if (matches.isEmpty()) {
      return List.of();
    }
    long[] roots = matches.joinedRoots();
    Long[] out = new Long[roots.length];
    for (int i = 0; i < roots.length; i++) {
      out[i] = docs.ids.docId((int) roots[i]);
    }
    return List.of(out);
  }

  /**
   * The representatives of {@code docIds[0, n)} into {@code out[0, n)}, -1 for those not stored.
   *
   * <p>Fastest when the docIds come in ordinal order, as a snapshot lists them: each is first
   * looked for at the ordinal after the previous one, a read of the next element of an array, and
   * only when it is not there in the hash table (a random read of memory; half of a compaction's
   * time went there).
   */
  static void representatives(StoredDocuments docs, long[] docIds, int n, long[] out) {
    int next = -1; // where the next docId probably is
    for (int i = 0; i < n; i++) {
      long docId = docIds[i];
      // A live ordinal holding docId is the one ordinals maps it to (see the invariants); a
      // removed one proves nothing, as the docId may have been stored again since.
      boolean there = next >= 0 && next < docs.count && docs.ids.docId(next) == docId;
      int ordinal = there && !docs.removed.get(next) ? next : docs.ids.get(docId);
      if (ordinal < 0) {
        out[i] = -1;
        next = there ? next + 1 : -1;
        continue;
      }
      int root = docs.clusters.find(ordinal);
      out[i] = root == ordinal ? docId : docs.ids.docId(root);
      next = ordinal + 1;
    }
  }
}
