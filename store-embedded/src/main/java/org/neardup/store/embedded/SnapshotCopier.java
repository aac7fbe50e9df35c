// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.io.IOException;
import java.util.Map;
import org.neardup.store.CorruptStoreException;

/**
 * Copies insert records into a snapshot in order, {@value #CHUNK} at a time, for a compaction, so
 * that the live clusters of a chunk are looked up under one hold of the collection's read lock (a
 * lock per document contended with the inserts a compaction runs beside).
 */
final class SnapshotCopier {
  static final int CHUNK = 256;

  private final SnapshotFormat.Writer w;
  private final Map<Integer, EmbeddedCollection> cut;
  private final long now;
  private final byte[][] bodies = new byte[CHUNK][];
  private final int[] lengths = new int[CHUNK];
  private final long[] docIds = new long[CHUNK];
  private final long[] clusters = new long[CHUNK];
  private int n;

  SnapshotCopier(SnapshotFormat.Writer w, Map<Integer, EmbeddedCollection> cut, long now) {
    this.w = w;
    this.cut = cut;
    this.now = now;
  }

  /** Takes a copy of the record (the reader reuses its buffer). */
  void add(byte[] body, int length) throws IOException {
    if (bodies[n] == null || bodies[n].length < length) {
      bodies[n] = new byte[Math.max(length, 256)];
    }
    System.arraycopy(body, 0, bodies[n], 0, length);
    lengths[n++] = length;
    if (n == CHUNK) {
      flush();
    }
  }

  /** Writes the buffered records, each run of one collection's looked up at once. */
  void flush() throws IOException {
    for (int from = 0; from < n; ) {
      int number = Bytes.getInt(bodies[from], LogFormat.COLLECTION);
      int to = from;
      while (to < n && Bytes.getInt(bodies[to], LogFormat.COLLECTION) == number) {
        docIds[to - from] = Bytes.getLong(bodies[to], LogFormat.DOC_ID);
        to++;
      }
      EmbeddedCollection c = cut.get(number);
      if (c != null) {
        c.snapshotClusters(docIds, to - from, now, clusters);
        for (int i = from; i < to; i++) {
          if (clusters[i - from] >= 0) {
            write(c, bodies[i], lengths[i], clusters[i - from]);
          }
        }
      }
      from = to;
    }
    n = 0;
  }

  private void write(EmbeddedCollection c, byte[] body, int length, long cluster)
      throws IOException {
    Bytes.putLong(body, LogFormat.CLUSTER, cluster);
    int kept;
    try {
      kept = LogFormat.stripJoined(body, length); // the Cluster alone places it now
    } catch (IllegalArgumentException e) {
      throw new CorruptStoreException(
          w.path(), "an insert record does not decode: " + e.getMessage());
    }
    w.document(body, 0, kept);
    c.rebuildRestore(body, kept, now);
  }
}
