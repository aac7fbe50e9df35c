// SPDX-License-Identifier: Apache-2.0
package org.neardup;

import java.util.Objects;
import org.neardup.internal.BytePool;
import org.neardup.internal.Checks;
import org.neardup.internal.PagedLongArray;
import org.neardup.verify.ShingleSketch;

/**
 * Documents gathered for {@link Deduplicator#restoreAll(RestoreBatch)}, in columns: per document a
 * docId, a fingerprint, its band keys, its encoded sketch and its links (a verdict's {@link
 * Verdict#joined()}), with no object per document. Made by {@link Deduplicator#newRestoreBatch()},
 * which fixes the band count and whether sketches are kept.
 *
 * <p>Not thread-safe. Memory while it holds documents: about 32 bytes per document, 8 per band key
 * and link, plus the encoded sketch when the deduplicator verifies.
 */
public final class RestoreBatch {
  /*
   * Invariants: docIds, fingerprints and linkEnds have size() entries; bandKeys has size() * bands;
   * document i's links are links[linkEnds[i - 1], linkEnds[i]) (from 0 for i = 0); sketches holds
   * one entry per document when verify, none otherwise.
   */
  private static final byte[] NO_BYTES = new byte[0];

  final int bands;
  final boolean verify;
  PagedLongArray docIds = new PagedLongArray();
  PagedLongArray fingerprints = new PagedLongArray();
  PagedLongArray bandKeys = new PagedLongArray();
  PagedLongArray links = new PagedLongArray();
  PagedLongArray linkEnds = new PagedLongArray();
  BytePool sketches = new BytePool();
  int size;

  RestoreBatch(int bands, boolean verify) {
    this.bands = bands;
    this.verify = verify;
  }

  /** The number of documents gathered. */
  public int size() {
    return size;
  }

  /** Forgets every document gathered, keeping the settings. */
  public void clear() {
    docIds = new PagedLongArray();
    fingerprints = new PagedLongArray();
    bandKeys = new PagedLongArray();
    links = new PagedLongArray();
    linkEnds = new PagedLongArray();
    sketches = new BytePool();
    size = 0;
  }

  /**
   * Adds a document to restore from its analysis.
   *
   * @throws IllegalArgumentException if the analysis is empty or has another band count
   */
  public void add(long docId, Analysis analysis, long[] joined) {
    Objects.requireNonNull(analysis, "analysis");
    Objects.requireNonNull(joined, "joined");
    Checks.checkArgument(!analysis.isEmpty(), "text has no letters or digits");
    long[] keys = analysis.sketch().bandKeys();
    if (verify) {
      checkBands(keys.length);
      byte[] sketch = analysis.sketch().shingles().encode();
      add(docId, analysis.fingerprint(), keys, 0, sketch, 0, sketch.length, joined, joined.length);
    } else {
      add(docId, analysis.fingerprint(), keys, 0, NO_BYTES, 0, 0, joined, joined.length);
    }
  }

  /**
   * Adds a document to restore from {@link Analysis#encode()}'s form, without decoding it into
   * objects: the encoded sketch is kept as it is (and checked to decode).
   *
   * @param joined the document's links, {@code joined[0, joinedCount)}
   * @throws IllegalArgumentException if the bytes are not an analysis, the analysis is empty or has
   *     another band count
   */
  public void add(long docId, byte[] encoded, int off, int len, long[] joined, int joinedCount) {
    add(docId, encoded, off, len, joined, joinedCount, true);
  }

  /**
   * As {@link #add(long, byte[], int, int, long[], int)} for bytes that were checked when they were
   * first stored and have come back through a checksum since (a store's own snapshot or log): the
   * encoded sketch is kept without decoding it a second time. Everything else is checked as by the
   * other overload. On a restart this check was half of the CPU time (the sketch is ~1.5 KB of
   * varints for a news article), and for a store's own files it only repeats what the insert that
   * wrote them checked and their CRC32C guards since.
   *
   * <p>Never use it for bytes from outside (an import, a client): a sketch that does not decode
   * would then fail only when a check verifies against it.
   *
   * @throws IllegalArgumentException as the other overload, except for the sketch's encoding
   */
  public void addChecksummed(
      long docId, byte[] encoded, int off, int len, long[] joined, int joinedCount) {
    add(docId, encoded, off, len, joined, joinedCount, false);
  }

  private void add(
      long docId,
      byte[] encoded,
      int off,
      int len,
      long[] joined,
      int joinedCount,
      boolean checkSketch) {
    Objects.requireNonNull(encoded, "encoded");
    Checks.checkArgument(
        off >= 0 && len >= 0 && off + len <= encoded.length,
        "need 0 <= off <= off + len <= %s, got off = %s, len = %s",
        encoded.length,
        off,
        len);
    Checks.checkArgument(len >= 10, "corrupt analysis: truncated (%s bytes)", len);
    int end = off + len;
    long fingerprint = getLong(encoded, off);
    int[] pos = {off + 8};
    long letters = getVarint(encoded, pos, end);
    Checks.checkArgument(letters != 0, "text has no letters or digits");
    long count = getVarint(encoded, pos, end);
    Checks.checkArgument(count >= 0 && count <= 64, "corrupt analysis: %s band keys", count);
    int keysAt = pos[0];
    int sketchAt = keysAt + (int) count * 8;
    Checks.checkArgument(sketchAt <= end, "corrupt analysis: truncated band keys");
    if (verify) {
      checkBands((int) count);
      if (checkSketch) {
        ShingleSketch.validate(encoded, sketchAt, end - sketchAt);
      }
      add(
          docId,
          fingerprint,
          encoded,
          keysAt,
          encoded,
          sketchAt,
          end - sketchAt,
          joined,
          joinedCount);
    } else {
      add(docId, fingerprint, NO_BYTES, 0, NO_BYTES, 0, 0, joined, joinedCount);
    }
  }

  private void checkBands(int count) {
    Checks.checkArgument(
        count == bands,
        "the analysis has %s band keys, this deduplicator uses %s: it was made with other settings",
        count,
        bands);
  }

  private void add(
      long docId,
      long fingerprint,
      long[] keys,
      int keysOff,
      byte[] sketch,
      int sketchOff,
      int sketchLen,
      long[] joined,
      int joinedCount) {
    addExceptKeys(docId, fingerprint, sketch, sketchOff, sketchLen, joined, joinedCount);
    if (verify) {
      bandKeys.append(keys, keysOff, bands);
    }
  }

  /** As the long[] overload, for keys stored big-endian in {@code bytes[keysOff, ...)}. */
  private void add(
      long docId,
      long fingerprint,
      byte[] keyBytes,
      int keysOff,
      byte[] sketch,
      int sketchOff,
      int sketchLen,
      long[] joined,
      int joinedCount) {
    addExceptKeys(docId, fingerprint, sketch, sketchOff, sketchLen, joined, joinedCount);
    if (verify) {
      for (int b = 0; b < bands; b++) {
        bandKeys.append(getLong(keyBytes, keysOff + b * 8));
      }
    }
  }

  /** Everything both add overloads append but the band keys, which each takes in its own form. */
  private void addExceptKeys(
      long docId,
      long fingerprint,
      byte[] sketch,
      int sketchOff,
      int sketchLen,
      long[] joined,
      int joinedCount) {
    Checks.checkArgument(
        joinedCount >= 0 && joinedCount <= joined.length,
        "joinedCount must be in [0, %s], got %s",
        joined.length,
        joinedCount);
    docIds.append(docId);
    fingerprints.append(fingerprint);
    if (verify) {
      sketches.add(sketch, sketchOff, sketchLen);
    }
    links.append(joined, 0, joinedCount);
    linkEnds.append(links.size());
    size++;
  }

  /** Heap bytes held by the gathered documents. */
  public long ramBytesUsed() {
    return 64
        + docIds.ramBytesUsed()
        + fingerprints.ramBytesUsed()
        + bandKeys.ramBytesUsed()
        + links.ramBytesUsed()
        + linkEnds.ramBytesUsed()
        + sketches.ramBytesUsed();
  }

  private static long getLong(byte[] b, int at) {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (b[at + i] & 0xFF);
    }
    return v;
  }

  private static long getVarint(byte[] in, int[] pos, int end) {
    long v = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      Checks.checkArgument(pos[0] < end, "corrupt analysis: truncated");
      byte b = in[pos[0]++];
      v |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        return v;
      }
    }
    throw new IllegalArgumentException("corrupt analysis: varint too long");
  }
}
