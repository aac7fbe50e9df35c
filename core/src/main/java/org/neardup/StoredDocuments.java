// SPDX-License-Identifier: Apache-2.0
package org.neardup;

import java.util.BitSet;
import org.jspecify.annotations.Nullable;
import org.neardup.cluster.Clusters;
import org.neardup.index.BlockPermutedIndex;
import org.neardup.index.BlockScheme;
import org.neardup.index.HammingIndex;
import org.neardup.index.IndexImage;
import org.neardup.internal.Checks;
import org.neardup.internal.PagedLongArray;
import org.neardup.verify.BandImage;
import org.neardup.verify.BandIndex;
import org.neardup.verify.SketchStore;

/**
 * What a {@link Deduplicator} stores, addressed by dense ordinals given in arrival order: each
 * document's docId, fingerprint, sketch and band keys, its cluster, and the two indexes a query's
 * candidates come from (the fingerprint index and the band index). A compaction ({@link
 * Compaction}) builds a new one holding the live documents only.
 *
 * <p>Not thread-safe: the deduplicator writes it under its write lock and reads it under either
 * lock, except the fingerprint index and {@link #published}, which a probe reads without a lock
 * (see the deduplicator's design note).
 */
final class StoredDocuments {
  /*
   * Invariants (under the deduplicator's lock): ids, fingerprints and clusters have `count`
   * entries, sketches (band keys and sketch) too when verifying (ids may run ahead during a restore
   * batch); ids.get maps the docId of every live ordinal to it, and no other; `removed` holds
   * exactly the other ordinals below count; the
   * index and the band index hold the entries of live ordinals only; each cluster's root is its
   * smallest ordinal, so ordinal order is the "earliest member" order.
   *
   * Growth: every per-ordinal array is paged and every hash table grows one sub-table at a time
   * (see PagedLongArray, LongIntMap, BandIndex), so no insert copies or rehashes the whole: the
   * longest insert while growing is bounded by one sub-table's split (GrowthLatency measures it).
   * The exception is DocIdTable's one switch from runs to a map, at the first docId out of order:
   * callers that number their documents themselves hit it at their second document or so.
   */
  private static final byte[] NO_BYTES = new byte[0];

  final BlockScheme scheme;
  final int bandCount;
  final boolean verify;
  final HammingIndex index;
  final @Nullable BandIndex bands;
  final Clusters clusters;
  final SketchStore sketches;
  final BitSet removed = new BitSet();

  /** docId of each ordinal and live ordinal of each docId (runs, see there: ~0 B per document). */
  final DocIdTable ids = new DocIdTable(removed);

  final PagedLongArray fingerprints;

  /** Band keys of the ordinal being removed or copied; used under the write lock only. */
  final long[] keyBuffer;

  int count;
  int live;

  /**
   * {@code count}, written once the index holds every ordinal below it: a probe reads it, without a
   * lock, before it searches the index.
   */
  volatile int published;

  /**
   * While restores defer indexing ({@link Deduplicator#deferIndexing}): the first ordinal not yet
   * in the fingerprint index; every ordinal from it to {@code count} is stored but unindexed and
   * unpublished. -1 otherwise.
   */
  volatile int unindexedFrom = -1;

  /**
   * While restores leave the band index alone ({@link #deferBands}): the first ordinal whose band
   * keys are not filed (0: a deferral starts with the first document); -1 otherwise.
   */
  int unbandedFrom = -1;

  /**
   * @param sketches where sketches and band keys go (empty, unused when not verifying)
   */
  StoredDocuments(
      BlockScheme scheme, int bandCount, boolean verify, SketchStore sketches, int expected) {
    this.scheme = scheme;
    this.bandCount = bandCount;
    this.verify = verify;
    this.index = BlockPermutedIndex.create(scheme);
    this.keyBuffer = new long[bandCount];
    this.bands = verify ? new BandIndex(saturatedInt((long) expected * bandCount)) : null;
    this.clusters = new Clusters(expected);
    this.sketches = sketches;
    this.fingerprints = new PagedLongArray(expected);
  }

  private static int saturatedInt(long n) {
    return (int) Math.min(Integer.MAX_VALUE - 8, n);
  }

  /**
   * Stores a document under the next ordinal, in a cluster of its own, and returns the ordinal.
   *
   * @param encoded its encoded sketch when verifying
   * @throws IllegalArgumentException if docId is already stored; nothing is stored then
   */
  int store(long docId, Analysis analysis, byte @Nullable [] encoded) {
    int ordinal = count;
    assert ids.size() == count : ids.size() + " ids for " + count + " ordinals";
    Checks.checkArgument(ids.append(docId) < 0, "docId %s is already stored", docId);
    count++;
    fingerprints.append(analysis.fingerprint());
    clusters.add();
    index.add(analysis.fingerprint(), ordinal);
    published = count;
    if (bands != null) {
      byte[] sketch = encoded == null ? NO_BYTES : encoded;
      long[] keys = analysis.sketch().bandKeys();
      int pooled = sketches.add(keys, keys.length, sketch, 0, sketch.length);
      assert pooled == ordinal : "sketch store out of step: " + pooled + " != " + ordinal;
      bands.add(keys, ordinal);
    }
    live++;
    return ordinal;
  }

  /**
   * Appends one document's columns without indexing its fingerprint (the caller adds a whole run to
   * the index at once, then {@link #publish}es it): its docId is already in {@link #ids}; its
   * fingerprint, a singleton cluster, and when verifying its band keys ({@code keyBuffer}) and
   * sketch {@code [off, off + len)} go to the sketch store, but not to the band index: the caller
   * adds a run of ordinals' keys there at once ({@link BandIndex#addAll}) before it publishes them.
   */
  void appendUnindexed(long fingerprint, byte @Nullable [] sketch, int off, int len) {
    int ordinal = count++;
    assert ordinal < ids.size() : "docId of ordinal " + ordinal + " not appended";
    fingerprints.append(fingerprint);
    clusters.add();
    if (bands != null) {
      int pooled = sketches.add(keyBuffer, bandCount, sketch == null ? NO_BYTES : sketch, off, len);
      assert pooled == ordinal : "sketch store out of step: " + pooled + " != " + ordinal;
    }
    live++;
  }

  /** Adds ordinals {@code ords[0, n)} with fingerprints {@code fps[0, n)} to the index at once. */
  void publish(long[] fps, long[] ords, int n) {
    index(fps, ords, n);
    publishAll();
  }

  /** Adds ordinals {@code ords[0, n)} to the fingerprint index, not yet published. */
  void index(long[] fps, long[] ords, int n) {
    index.addAll(fps, ords, 0, n);
  }

  /**
   * Publishes every stored ordinal: the index and band index hold them all. While indexing is
   * deferred, publishes nothing.
   */
  void publishAll() {
    if (unindexedFrom < 0) {
      published = count;
    }
  }

  /** From now on restores leave the fingerprint index alone until {@link #indexDeferred}. */
  void deferIndexing() {
    if (unindexedFrom < 0) {
      unindexedFrom = count;
    }
  }

  /**
   * Adds every live ordinal stored since {@link #deferIndexing} to the fingerprint index in one
   * segment, and publishes them. Does nothing unless deferring.
   */
  void indexDeferred() {
    int from = unindexedFrom;
    if (from < 0) {
      return;
    }
    fileDeferredBands(); // a check may follow: every band entry is in place first
    int n = 0;
    for (int o = removed.nextClearBit(from); o < count; o = removed.nextClearBit(o + 1)) {
      n++;
    }
    long[] fps = new long[n];
    long[] ords = new long[n];
    int j = 0;
    for (int o = removed.nextClearBit(from); o < count; o = removed.nextClearBit(o + 1)) {
      fps[j] = fingerprints.get(o);
      ords[j++] = o;
    }
    if (index instanceof BlockPermutedIndex) {
      ((BlockPermutedIndex) index).addAllOwned(fps, ords); // made for it: no copy
    } else {
      index.addAll(fps, ords, 0, n);
    }
    unindexedFrom = -1;
    publishAll();
  }

  /**
   * As {@link #indexDeferred()}, with ordinals {@code [0, image.ordinals())} taken from an image of
   * the index instead of sorted: the ordinals removed since they were restored are removed from it,
   * and the live ordinals after it are indexed as {@link #indexDeferred()} would.
   *
   * @return false, having changed nothing, when the image does not fit: indexing was not deferred
   *     from the first ordinal, the index is not block-permuted, the image has another scheme,
   *     covers more ordinals than are stored, or a sample of its entries holds other fingerprints
   *     than the ordinals they name
   */
  boolean indexDeferred(IndexImage image) {
    int m = image.ordinals();
    if (unindexedFrom != 0
        || !(index instanceof BlockPermutedIndex)
        || !image.scheme().equals(scheme)
        || m > count
        || !image.agrees(o -> o >= 0 && o < m ? fingerprints.get((int) o) : ~0L, SAMPLES)) {
      return false;
    }
    ((BlockPermutedIndex) index).addImage(image);
    for (int o = removed.nextSetBit(0); o >= 0 && o < m; o = removed.nextSetBit(o + 1)) {
      boolean found = index.remove(fingerprints.get(o), o);
      assert found : "ordinal " + o + " is not in the image";
    }
    unindexedFrom = m;
    indexDeferred();
    return true;
  }

  /**
   * From now on batch restores leave the band index alone until {@link #bandsFromImage} or {@link
   * #fileDeferredBands}: only before the first document, while indexing is deferred from it (so no
   * check can see the missing entries). Does nothing when not verifying.
   */
  void deferBands() {
    if (bands == null || unbandedFrom >= 0) {
      return;
    }
    Checks.checkState(
        count == 0 && unindexedFrom == 0,
        "band filing is deferred before the first restore, with indexing deferred");
    unbandedFrom = 0;
  }

  /**
   * Ends {@link #deferBands} by taking the band index of every stored ordinal from {@code image},
   * renumbered to them: it must name exactly {@code count} ordinals, and none may have been removed
   * since (its entries would come back).
   *
   * @return false, having changed nothing, when bands are not deferred or the image does not fit
   */
  boolean bandsFromImage(BandImage image) {
    BandIndex b = bands;
    if (b == null
        || unbandedFrom != 0
        || image.bandCount() != bandCount
        || image.ordinals() != count
        || !removed.isEmpty()) {
      return false;
    }
    b.addImage(image);
    unbandedFrom = -1;
    return true;
  }

  /**
   * Ends {@link #deferBands} by filing the band keys of every live ordinal restored since, read
   * back from the sketch store, in batches of consecutive live ordinals ({@link BandIndex#addAll}):
   * the way back when an image does not fit. Does nothing unless deferring.
   */
  void fileDeferredBands() {
    BandIndex b = bands;
    int from = unbandedFrom;
    if (b == null || from < 0) {
      return;
    }
    long[] buffer = new long[bandCount];
    for (int o = removed.nextClearBit(from); o < count; o = removed.nextClearBit(o)) {
      int first = o;
      PagedLongArray keys = new PagedLongArray();
      while (o < count && o - first < FILE_BATCH && !removed.get(o)) {
        sketches.bandKeys(o++, buffer);
        keys.append(buffer, 0, bandCount);
      }
      b.addAll(keys, 0, bandCount, first, o - first);
    }
    unbandedFrom = -1;
  }

  /** Documents whose keys {@link #fileDeferredBands} files at once: a restore batch's worth. */
  static final int FILE_BATCH = 1 << 22;

  /** Entries of an index image compared with the stored fingerprints before it is taken. */
  static final int SAMPLES = 4096;

  /**
   * Forgets a stored document: its index entries go, its ordinal is marked removed.
   *
   * @return whether the docId was stored
   */
  boolean remove(long docId) {
    int ordinal = ids.remove(docId);
    if (ordinal < 0) {
      return false;
    }
    index.remove(fingerprints.get(ordinal), ordinal);
    if (bands != null) {
      sketches.bandKeys(ordinal, keyBuffer);
      bands.remove(keyBuffer, ordinal);
      sketches.clear(ordinal);
    }
    removed.set(ordinal);
    live--;
    return true;
  }

  /** The root of an ordinal's cluster: the ordinal of its earliest member. */
  int root(int ordinal) {
    return clusters.find(ordinal);
  }

  /** The docId representing a stored docId's cluster, or -1 when it is not stored. */
  long representative(long docId) {
    int ordinal = ids.get(docId);
    return ordinal < 0 ? -1 : ids.docId(clusters.find(ordinal));
  }

  long ramBytesUsed() {
    long bytes = index.ramBytesUsed() + ids.ramBytesUsed() + clusters.ramBytesUsed();
    bytes += sketches.ramBytesUsed() + fingerprints.ramBytesUsed();
    bytes += removed.size() / 8;
    if (bands != null) {
      bytes += bands.ramBytesUsed();
    }
    return bytes;
  }
}
