// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import java.util.Arrays;
import org.neardup.store.Collection;

/**
 * The ids of an import's documents, their bytes end to end in chunks of {@link #CHUNK} bytes, each
 * id named by a {@code long} reference (its chunk, offset and length). Not thread-safe while
 * appending; reads of appended ids may run on several threads once appending is done.
 *
 * <p>Why not a {@code byte[]} per id: at 10M documents those were 10M objects of 32 bytes plus a
 * list of references, which the garbage collector's marking walked (G1's concurrent marking took
 * ~4.7 of an import's ~51 CPU s), and writing the id rows in id order read the list and then the
 * array, two cache misses per row at random places in ~360 MB (the id rows' loop was a quarter of a
 * 10M import's JFR samples, all on that line). Here the bytes take ~16 MB per million ids of 16
 * bytes, and a reference carried through the sort by id leaves one miss per row, into the chunks.
 */
final class IdBytes {
  /*
   * A reference: chunk << 32 | offset << 13 | length, length in [1, 4096] stored as length - 1 in
   * 13 bits (ids have at most Collection.MAX_ID_BYTES = 4096 bytes), offset < 2^19, chunk < 2^31.
   * An id never spans two chunks: one that does not fit in the rest of a chunk starts the next.
   */
  static final int CHUNK = 1 << 19;

  private static final int LENGTH_BITS = 13;
  private static final int OFFSET_BITS = 19;

  static {
    if (Collection.MAX_ID_BYTES > 1 << LENGTH_BITS || CHUNK > 1 << OFFSET_BITS) {
      throw new AssertionError("an id's length or offset does not fit its reference");
    }
  }

  private byte[][] chunks = new byte[16][];
  private int chunkCount;
  private int used = CHUNK; // of the last chunk: none yet

  /** Stores an id's bytes (1 to 4096 of them); returns its reference. */
  long add(byte[] id) {
    int n = id.length;
    if (n < 1 || n > Collection.MAX_ID_BYTES) {
      throw new IllegalArgumentException("an id of " + n + " bytes");
    }
    if (used + n > CHUNK) {
      if (chunkCount == chunks.length) {
        chunks = Arrays.copyOf(chunks, chunkCount * 2);
      }
      chunks[chunkCount++] = new byte[CHUNK];
      used = 0;
    }
    int chunk = chunkCount - 1;
    System.arraycopy(id, 0, chunks[chunk], used, n);
    long ref = ((long) chunk << 32) | ((long) used << LENGTH_BITS) | (n - 1);
    used += n;
    return ref;
  }

  /** The array holding the id of {@code ref}, at {@link #offset} for {@link #length} bytes. */
  byte[] array(long ref) {
    return chunks[(int) (ref >>> 32)];
  }

  static int offset(long ref) {
    return (int) (ref >>> LENGTH_BITS) & ((1 << OFFSET_BITS) - 1);
  }

  static int length(long ref) {
    return ((int) ref & ((1 << LENGTH_BITS) - 1)) + 1;
  }

  /** A copy of the id's bytes. */
  byte[] bytes(long ref) {
    int off = offset(ref);
    return Arrays.copyOfRange(array(ref), off, off + length(ref));
  }

  /**
   * The id's first 8 bytes, big-endian, zero-padded: where two ids' prefixes differ they order as
   * {@link #compare} orders them (as {@link SortOrder#prefix} does for an array).
   */
  long prefix(long ref) {
    return SortOrder.prefix(array(ref), offset(ref), length(ref));
  }

  /** The two ids' bytes compared unsigned, as {@link Arrays#compareUnsigned(byte[], byte[])}. */
  int compare(long x, long y) {
    int xo = offset(x);
    int yo = offset(y);
    return Arrays.compareUnsigned(array(x), xo, xo + length(x), array(y), yo, yo + length(y));
  }

  boolean equal(long x, long y) {
    int xo = offset(x);
    int yo = offset(y);
    return Arrays.equals(array(x), xo, xo + length(x), array(y), yo, yo + length(y));
  }

  /** Bytes of heap the chunks take. */
  long ramBytes() {
    return (long) chunkCount * CHUNK;
  }
}
