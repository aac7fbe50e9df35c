// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.io.IOException;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.neardup.store.CorruptStoreException;

/**
 * Copies insert records into a snapshot in order, {@value #CHUNK} at a time, for a compaction, so
 * that the live clusters of a chunk are looked up under one hold of the collection's read lock (a
 * lock per document contended with the inserts a compaction runs beside).
 *
 * <p>A record of the previous snapshot comes as its head and the place of its sketch entry there
 * ({@link SnapshotFormat.Reader} apart): the new snapshot refers to the entry where it is when its
 * file is kept (the entry is neither read nor written), and the entry is read and written anew when
 * its file is folded ({@link SketchPolicy}). A rebuild reads the snapshot once it is written, not
 * these records ({@link EmbeddedStore}).
 */
final class SnapshotCopier {
  static final int CHUNK = 256;

  private final SnapshotFormat.Writer w;
  private final Map<Integer, EmbeddedCollection> cut;
  private final long now;
  private final SnapshotFormat.@Nullable Reader old;
  private final long[] keptAt;
  private final byte[][] bodies = new byte[CHUNK][];
  private final int[] lengths = new int[CHUNK];
  private final long[] entryAt = new long[CHUNK];
  private final int[] entryLength = new int[CHUNK];
  private final long[] docIds = new long[CHUNK];
  private final long[] clusters = new long[CHUNK];
  private int n;
  // Per collection number, the fingerprints written, in order, for its index image; null: none.
  private final java.util.@Nullable Map<Integer, ImageSource> images;

  /**
   * One collection's fingerprints in the order the snapshot holds its documents, and their hash.
   */
  static final class ImageSource {
    final org.neardup.internal.PagedLongArray fingerprints =
        new org.neardup.internal.PagedLongArray();
    long hash = IndexImages.EMPTY_HASH;

    /** The band image being written from the same documents, or null (none is written). */
    final BandImages.@Nullable Writer bands;

    ImageSource() {
      this(null);
    }

    ImageSource(BandImages.@Nullable Writer bands) {
      this.bands = bands;
    }

    void add(long fingerprint) {
      fingerprints.append(fingerprint);
      hash = IndexImages.hash(hash, fingerprint);
    }

    /** Adds the document whose insert body or head is {@code body[0, length)}. */
    void add(byte[] body, int length) throws IOException {
      add(Bytes.getLong(body, LogFormat.analysisOffset(body, length)));
      if (bands != null) {
        bands.add(body, length);
      }
    }
  }

  /** A copier of whole records only (no previous snapshot read apart). */
  SnapshotCopier(SnapshotFormat.Writer w, Map<Integer, EmbeddedCollection> cut, long now) {
    this(w, cut, now, null, new long[0], false, null, -1);
  }

  // Where band images go (bandImages), for the snapshot of segment; null: none.
  private final java.nio.file.@Nullable Path bandDir;
  private final long segment;

  /**
   * @param old the previous snapshot, read apart, whose entries the records added with a place are
   *     in
   * @param keptAt for each file of {@code old}'s span, where it starts in the span of the files
   *     {@code w} keeps, or -1 when it is folded (its entries are written anew)
   * @param images whether to gather each collection's fingerprints for its index image ({@link
   *     #images()}): 8 bytes of heap per document until the image is written
   * @param bandDir where to write each verifying collection's band image ({@link BandImages}) as
   *     the documents are copied, beside snapshot {@code segment}, when gathering images; null:
   *     none is written
   */
  SnapshotCopier(
      SnapshotFormat.Writer w,
      Map<Integer, EmbeddedCollection> cut,
      long now,
      SnapshotFormat.@Nullable Reader old,
      long[] keptAt,
      boolean images,
      java.nio.file.@Nullable Path bandDir,
      long segment) {
    this.images = images ? new java.util.TreeMap<>() : null;
    this.bandDir = bandDir;
    this.segment = segment;
    this.w = w;
    this.cut = cut;
    this.now = now;
    this.old = old;
    this.keptAt = keptAt.clone();
  }

  /** Takes a copy of the record (the reader reuses its buffer). */
  void add(byte[] body, int length) throws IOException {
    add(body, length, -1, 0);
  }

  /**
   * Takes a copy of a head whose sketch entry is at {@code at} of the previous snapshot's span
   * ({@code at} -1: a whole record).
   */
  void add(byte[] body, int length, long at, int entry) throws IOException {
    int room = at < 0 ? length : length + entry;
    if (bodies[n] == null || bodies[n].length < room) {
      bodies[n] = new byte[Math.max(room, 256)];
    }
    System.arraycopy(body, 0, bodies[n], 0, length);
    entryAt[n] = at;
    entryLength[n] = entry;
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
            if (images != null) {
              images.computeIfAbsent(number, this::newSource).add(bodies[i], lengths[i]);
            }
            if (entryAt[i] < 0) {
              write(bodies[i], lengths[i], clusters[i - from]);
            } else {
              writeHead(bodies[i], lengths[i], entryAt[i], entryLength[i], clusters[i - from]);
            }
          }
        }
      }
      from = to;
    }
    n = 0;
  }

  private ImageSource newSource(int collection) {
    java.nio.file.Path d = bandDir;
    return new ImageSource(d == null ? null : new BandImages.Writer(d, segment, collection));
  }

  /** Drops the band images not yet finished (a compaction given up). */
  void abortImages() {
    if (images == null) {
      return;
    }
    for (ImageSource source : images.values()) {
      if (source.bands != null) {
        try {
          source.bands.close();
        } catch (IOException e) {
          // the next open or compaction deletes the temporary file
        }
      }
    }
  }

  /**
   * Per collection number, the fingerprints of the documents written, in the snapshot's order;
   * empty when not gathering them. After {@link #flush}.
   */
  java.util.Map<Integer, ImageSource> images() {
    return images == null ? java.util.Map.of() : images;
  }

  private void write(byte[] body, int length, long cluster) throws IOException {
    Bytes.putLong(body, LogFormat.CLUSTER, cluster);
    int kept;
    try {
      kept = LogFormat.stripJoined(body, length); // the Cluster alone places it now
    } catch (IllegalArgumentException e) {
      throw new CorruptStoreException(
          w.path(), "an insert record does not decode: " + e.getMessage());
    }
    w.document(body, 0, kept);
  }

  private void writeHead(byte[] head, int length, long at, int entry, long cluster)
      throws IOException {
    SnapshotFormat.Reader r = old;
    if (r == null) {
      throw new IllegalStateException("a head without the snapshot it came from");
    }
    Bytes.putLong(head, LogFormat.CLUSTER, cluster); // a snapshot's heads hold no Joined
    SketchSpan span = r.span();
    int f = span.fileOf(at);
    long to = f < 0 || keptAt[f] < 0 ? -1 : keptAt[f] + (at - span.start(f));
    try {
      if (to >= 0) {
        w.reference(head, length, to, entry);
      } else {
        w.document(head, 0, r.whole(head, length, at, entry));
      }
    } catch (IllegalArgumentException e) {
      throw new CorruptStoreException(
          w.path(), "a document of the previous snapshot does not decode: " + e.getMessage());
    }
  }
}
