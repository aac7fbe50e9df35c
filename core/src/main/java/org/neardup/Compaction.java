// SPDX-License-Identifier: Apache-2.0
package org.neardup;

import org.neardup.internal.LongIntMap;
import org.neardup.internal.PagedLongArray;
import org.neardup.verify.BandIndex;
import org.neardup.verify.SketchStore;

/**
 * Retention's second half for a {@link Deduplicator}: {@link StoredDocuments#remove} only marks a
 * document's ordinal removed, and a compaction copies the live documents, in order, into new {@link
 * StoredDocuments} so the removed ones' memory comes back.
 *
 * <p>Live documents keep their relative order, so "earliest member" keeps its meaning; a cluster is
 * then represented by its earliest <em>surviving</em> member. Time proportional to the live
 * documents (the index is built in bulk); the new structures are built beside the old ones.
 */
final class Compaction {
  private Compaction() {}

  /**
   * The live documents of {@code old} renumbered 0, 1, ... in order, with the same clusters, in new
   * structures whose sketches go to {@code sketches} (empty).
   */
  static StoredDocuments compact(StoredDocuments old, SketchStore sketches) {
    int n = old.live;
    StoredDocuments out = new StoredDocuments(old.scheme, old.bandCount, old.verify, sketches, n);
    SketchStore.Slice slice = new SketchStore.Slice();
    // Old root -> new ordinal of its earliest surviving member, the new root.
    LongIntMap newRoot = new LongIntMap(0);
    long[] fps = new long[n];
    long[] ords = new long[n];
    int next = 0;
    // Band keys of the ordinals from pendingFrom on, added to the band index a run at a time.
    PagedLongArray pending = new PagedLongArray();
    int pendingFrom = 0;
    for (int o = old.removed.nextClearBit(0); o < old.count; o = old.removed.nextClearBit(o + 1)) {
      int i = next++;
      long docId = old.ids.docId(o);
      long fp = old.fingerprints.get(o);
      out.ids.append(docId);
      byte[] sketch = null;
      int off = 0;
      int len = 0;
      if (out.bands != null) {
        old.sketches.sketch(o, slice);
        old.sketches.bandKeys(o, out.keyBuffer);
        sketch = slice.array;
        off = slice.offset;
        len = slice.length;
      }
      out.appendUnindexed(fp, sketch, off, len);
      if (out.bands != null) {
        pending.append(out.keyBuffer, 0, out.bandCount);
        if (pending.size() >= BandIndex.MAX_RUN) {
          out.bands.addAll(pending, 0, out.bandCount, pendingFrom, i + 1 - pendingFrom);
          pending = new PagedLongArray();
          pendingFrom = i + 1;
        }
      }
      int root = old.clusters.find(o);
      int earliest = newRoot.get(root);
      if (earliest < 0) {
        newRoot.put(root, i);
      } else {
        out.clusters.union(i, earliest);
      }
      fps[i] = fp;
      ords[i] = i;
    }
    assert next == n : "live count " + n + ", found " + next;
    if (out.bands != null) {
      out.bands.addAll(pending, 0, out.bandCount, pendingFrom, n - pendingFrom);
    }
    out.publish(fps, ords, n);
    return out;
  }
}
