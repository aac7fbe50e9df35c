// SPDX-License-Identifier: Apache-2.0
package org.neardup.verify;

import java.util.Arrays;

/**
 * Where a {@link org.neardup.Deduplicator} keeps what only verification and removal read: each
 * stored document's encoded shingle sketch ({@link ShingleSketch#encode()}) and its MinHash band
 * keys, addressed by the document's dense ordinal. The default, {@link #onHeap()}, keeps them in
 * Java arrays (the sketch is most of a verified document's memory: ~1.8 KB for a long text); a
 * store may keep them in its own files instead, so that heap per document does not grow with the
 * text (the embedded store does).
 *
 * <p>Thread-safety, as the deduplicator uses it: {@link #add} and {@link #clear} from one writer at
 * a time with no reader running; {@link #sketch} and {@link #bandKeys} from many readers at once.
 */
public interface SketchStore extends AutoCloseable {
  /**
   * Appends one document's band keys and sketch {@code [off, off + len)}; returns its ordinal, the
   * number of entries added before it.
   */
  int add(long[] bandKeys, int bandCount, byte[] sketch, int off, int len);

  /** Points {@code into} at the sketch of entry i (copied, or viewed in place). */
  void sketch(int i, Slice into);

  /** Copies the band keys of entry i into {@code out[0, bandCount)}. */
  void bandKeys(int i, long[] out);

  /** Marks entry i removed; its space may come back only when the whole store is replaced. */
  void clear(int i);

  /** The number of entries added. */
  int size();

  /** Heap bytes held. */
  long ramBytesUsed();

  /** Frees what the store holds outside the heap; no method may be called afterwards. */
  @Override
  default void close() {}

  /** Makes a new, empty store: a compaction fills one with the surviving entries. */
  interface Factory {
    SketchStore create(int bandCount, int expectedSize);
  }

  /** Keeps everything on the Java heap (the default). */
  static Factory onHeap() {
    return HeapSketchStore::new;
  }

  /**
   * A view of bytes: {@code array[offset, offset + length)}; reused per thread. It owns a buffer
   * for copies, apart from the arrays it views (a copy into a viewed array would overwrite the
   * store's own bytes).
   */
  final class Slice {
    public byte[] array = new byte[0];
    public int offset;
    public int length;
    private byte[] own = new byte[0];

    /** This slice's own buffer of at least n bytes, at offset 0, its old content lost. */
    public byte[] buffer(int n) {
      if (own.length < n) {
        own = new byte[Math.max(n, own.length * 2)];
      }
      array = own;
      offset = 0;
      length = n;
      return own;
    }

    /** Points at another array's bytes. */
    public void view(byte[] array, int offset, int length) {
      this.array = array;
      this.offset = offset;
      this.length = length;
    }

    @Override
    public String toString() {
      return Arrays.toString(Arrays.copyOfRange(array, offset, offset + length));
    }
  }
}
