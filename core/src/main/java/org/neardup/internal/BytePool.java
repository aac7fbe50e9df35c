// SPDX-License-Identifier: Apache-2.0
package org.neardup.internal;

import java.util.Arrays;

/**
 * Append-only storage of many small byte arrays in large chunks, addressed by a dense ordinal: no
 * object header per entry, 8 bytes of bookkeeping per entry (offset and length packed in a long, in
 * a {@link PagedLongArray}: adding never copies the table). Entries can be cleared to reclaim their
 * ordinal's view but their bytes stay until {@link #compact}. Not thread-safe.
 */
public final class BytePool {
  private static final int CHUNK_BITS = 20;
  private static final int CHUNK = 1 << CHUNK_BITS;

  private byte[][] chunks = new byte[4][];
  private int chunkCount;
  private int chunkFill = CHUNK;
  private PagedLongArray entries = new PagedLongArray();
  private int size;
  private long liveBytes;

  /**
   * Appends a copy of {@code data[off, off+len)}; returns its ordinal.
   *
   * @throws IllegalArgumentException if len exceeds one chunk (1 MiB)
   */
  public int add(byte[] data, int off, int len) {
    Checks.checkArgument(
        len >= 0 && len <= CHUNK, "entry length must be in [0, %s], got %s", CHUNK, len);
    if (chunkCount == 0 || chunkFill + len > CHUNK) {
      if (chunkCount == chunks.length) {
        chunks = Arrays.copyOf(chunks, chunkCount * 2);
      }
      chunks[chunkCount++] = new byte[CHUNK];
      chunkFill = 0;
    }
    System.arraycopy(data, off, chunks[chunkCount - 1], chunkFill, len);
    long address = ((long) (chunkCount - 1) << CHUNK_BITS) | chunkFill;
    chunkFill += len;
    entries.append((address << 21) | len);
    liveBytes += len;
    return size++;
  }

  /** The chunk holding entry i. */
  public byte[] array(int i) {
    return chunks[(int) ((entries.get(i) >>> 21) >>> CHUNK_BITS)];
  }

  /** The offset of entry i within {@link #array(int)}. */
  public int offset(int i) {
    return (int) ((entries.get(i) >>> 21) & (CHUNK - 1));
  }

  /** The length of entry i. */
  public int length(int i) {
    return (int) (entries.get(i) & ((1 << 21) - 1));
  }

  /** A copy of entry i. */
  public byte[] get(int i) {
    return Arrays.copyOfRange(array(i), offset(i), offset(i) + length(i));
  }

  /** Forgets entry i's bytes (its length becomes 0); space returns on {@link #compact}. */
  public void clear(int i) {
    liveBytes -= length(i);
    entries.set(i, entries.get(i) & ~((1L << 21) - 1));
  }

  public int size() {
    return size;
  }

  /** Rewrites the chunks without cleared bytes once at least half of them are garbage. */
  public void compact() {
    long allocated = (long) chunkCount * CHUNK;
    if (allocated < 4L * CHUNK || liveBytes * 2 > allocated) {
      return;
    }
    byte[][] old = chunks;
    PagedLongArray oldEntries = entries;
    chunks = new byte[4][];
    chunkCount = 0;
    chunkFill = CHUNK;
    entries = new PagedLongArray(size);
    int n = size;
    size = 0;
    liveBytes = 0;
    for (int i = 0; i < n; i++) {
      long e = oldEntries.get(i);
      int len = (int) (e & ((1 << 21) - 1));
      long address = e >>> 21;
      add(old[(int) (address >>> CHUNK_BITS)], (int) (address & (CHUNK - 1)), len);
    }
  }

  public long ramBytesUsed() {
    return 64 + chunks.length * 4L + (long) chunkCount * CHUNK + entries.ramBytesUsed();
  }
}
