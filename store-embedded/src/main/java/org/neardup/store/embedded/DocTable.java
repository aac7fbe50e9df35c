// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Per-document facts of one generation, addressed by slot = docId - base: the id's bytes, the
 * timestamp and the expiry, in paged primitive arrays (no object per document, no big copy when
 * growing), and the ids' UTF-8 bytes in 1 MiB chunks. The fingerprint is the engine's ({@link
 * org.neardup.Deduplicator#fingerprintOf}): a second copy here cost 8 bytes per document.
 *
 * <p>Not thread-safe: the owning collection's lock guards it. Memory: 16 bytes per slot plus the
 * id's bytes (the timestamp and the expiry are kept as 4 bytes each, see below). A removed document
 * keeps its slot and id bytes (its id may still name a cluster) until the generation is replaced.
 */
final class DocTable {
  /*
   * ref[slot] packs the id's location: bit 63 = removed, bits 16..62 = offset in the arena,
   * bits 0..15 = length (ids are 1..4096 bytes, so a slot never used has length 0).
   * Invariant: a slot is used iff length > 0; live == number of used slots without bit 63.
   *
   * The expiry is exact but takes 4 bytes: expiresAt - timestamp in milliseconds (a retention of
   * up to 24 days from the timestamp, the usual case: retention counts from the timestamp or the
   * arrival), NEVER for Long.MAX_VALUE (no retention), or FAR with the value in `far`.
   *
   * The timestamp is exact too: timestamp - epoch in milliseconds, where epoch is the first
   * timestamp the table saw (24 days either side of it: a retention window's documents), or
   * FAR_TS with the value in `farTimestamps`.
   */
  private static final int FAR_TS = Integer.MIN_VALUE;
  private static final int NEVER = Integer.MIN_VALUE;
  private static final int FAR = Integer.MIN_VALUE + 1;

  private static final int PAGE_BITS = 14;
  private static final int PAGE = 1 << PAGE_BITS;
  private static final int CHUNK_BITS = 20;
  private static final int CHUNK = 1 << CHUNK_BITS;
  private static final long REMOVED = Long.MIN_VALUE;

  final long base;
  private long[][] ref = new long[16][];
  private int[][] timestamp = new int[16][];
  private int[][] expiresIn = new int[16][];
  private final LongLongMap far = new LongLongMap();
  private final LongLongMap farTimestamps = new LongLongMap();
  private long epoch;
  private boolean epochSet;
  private int pages;
  private int slots;
  private int live;
  private byte[][] chunks = new byte[16][];
  private int chunkCount;
  private int chunkFill = CHUNK;
  private long idLengths; // the bytes of every id recorded

  DocTable(long base) {
    this.base = base;
  }

  /** Slots from base up to the last one used, removed or not. */
  int slots() {
    return slots;
  }

  int live() {
    return live;
  }

  /** The slot of docId, or -1 if it is outside this table. */
  int slot(long docId) {
    long s = docId - base;
    return s >= 0 && s < slots ? (int) s : -1;
  }

  /** Records a new document; its docId must be beyond every docId recorded so far. */
  int add(long docId, byte[] id, int idOff, int idLen, long ts, long exp) {
    long s = docId - base;
    if (s < slots || s >= Integer.MAX_VALUE) {
      throw new IllegalStateException(
          "docId " + docId + " does not follow the last slot " + (base + slots - 1));
    }
    assert idLen >= 1 && idLen <= 0xFFFF;
    int slot = (int) s;
    while (slot >= pages * PAGE) {
      addPage();
    }
    long at = storeId(id, idOff, idLen);
    int p = slot >>> PAGE_BITS;
    int i = slot & (PAGE - 1);
    ref[p][i] = (at << 16) | idLen;
    if (!epochSet) {
      epoch = ts;
      epochSet = true;
    }
    long sinceEpoch = ts - epoch;
    if (sinceEpoch > FAR_TS && sinceEpoch <= Integer.MAX_VALUE) { // exact, mod 2^64
      timestamp[p][i] = (int) sinceEpoch;
    } else {
      timestamp[p][i] = FAR_TS;
      farTimestamps.put(slot, ts);
    }
    long in = exp - ts;
    if (exp == Long.MAX_VALUE) {
      expiresIn[p][i] = NEVER;
    } else if (in > FAR && in <= Integer.MAX_VALUE) { // exact: timestamp + in == exp, mod 2^64
      expiresIn[p][i] = (int) in;
    } else {
      expiresIn[p][i] = FAR;
      far.put(slot, exp);
    }
    slots = slot + 1;
    live++;
    return slot;
  }

  private void addPage() {
    if (pages == ref.length) {
      ref = Arrays.copyOf(ref, pages * 2);
      timestamp = Arrays.copyOf(timestamp, pages * 2);
      expiresIn = Arrays.copyOf(expiresIn, pages * 2);
    }
    ref[pages] = new long[PAGE];
    timestamp[pages] = new int[PAGE];
    expiresIn[pages] = new int[PAGE];
    pages++;
  }

  private long storeId(byte[] id, int off, int len) {
    if (chunkFill + len > CHUNK) {
      if (chunkCount == chunks.length) {
        chunks = Arrays.copyOf(chunks, chunkCount * 2);
      }
      chunks[chunkCount++] = new byte[CHUNK];
      chunkFill = 0;
    }
    long at = ((long) (chunkCount - 1) << CHUNK_BITS) | chunkFill;
    System.arraycopy(id, off, chunks[chunkCount - 1], chunkFill, len);
    chunkFill += len;
    idLengths += len;
    return at;
  }

  private long ref(int slot) {
    return ref[slot >>> PAGE_BITS][slot & (PAGE - 1)];
  }

  /** Whether the slot holds a document that was not removed. */
  boolean isLive(int slot) {
    long r = ref(slot);
    return r > 0 && (r & 0xFFFF) != 0;
  }

  /** Whether the slot was ever used (live or removed). */
  boolean isUsed(int slot) {
    return (ref(slot) & 0xFFFF) != 0;
  }

  /** Marks a live slot removed; its id bytes stay readable. */
  void remove(int slot) {
    assert isLive(slot) : "slot " + slot + " is not live";
    ref[slot >>> PAGE_BITS][slot & (PAGE - 1)] |= REMOVED;
    live--;
  }

  long timestamp(int slot) {
    int t = timestamp[slot >>> PAGE_BITS][slot & (PAGE - 1)];
    return t == FAR_TS ? farTimestamps.get(slot) : epoch + t;
  }

  long expiresAt(int slot) {
    int p = slot >>> PAGE_BITS;
    int i = slot & (PAGE - 1);
    int in = expiresIn[p][i];
    if (in == NEVER) {
      return Long.MAX_VALUE;
    }
    return in == FAR ? far.get(slot) : timestamp(slot) + in;
  }

  /** The id of a used slot. */
  String id(int slot) {
    long r = ref(slot) & ~REMOVED;
    int len = (int) (r & 0xFFFF);
    long at = r >>> 16;
    return new String(
        chunks[(int) (at >>> CHUNK_BITS)], (int) (at & (CHUNK - 1)), len, StandardCharsets.UTF_8);
  }

  /** Whether the id of a used slot equals {@code id}. */
  boolean idEquals(int slot, byte[] id) {
    long r = ref(slot) & ~REMOVED;
    int len = (int) (r & 0xFFFF);
    if (len != id.length) {
      return false;
    }
    long at = r >>> 16;
    int off = (int) (at & (CHUNK - 1));
    return Arrays.equals(chunks[(int) (at >>> CHUNK_BITS)], off, off + len, id, 0, id.length);
  }

  /** The hash {@link IdTable} files an id under. */
  int idHash(int slot) {
    long r = ref(slot) & ~REMOVED;
    int len = (int) (r & 0xFFFF);
    long at = r >>> 16;
    int off = (int) (at & (CHUNK - 1));
    return IdTable.hash(chunks[(int) (at >>> CHUNK_BITS)], off, len);
  }

  /**
   * Heap bytes of the arrays that hold the ids' bytes: the chunks, each with its 16-byte array
   * header (exact for a 64-bit JVM with compressed class pointers).
   */
  long idArrayBytes() {
    return (long) chunkCount * (CHUNK + 16);
  }

  /** The summed length in bytes of every id recorded, removed ones included. */
  long idLengths() {
    return idLengths;
  }

  long ramBytesUsed() {
    return 64
        + (long) pages * PAGE * 16
        + (long) chunkCount * CHUNK
        + ref.length * 24L
        + (far.size() + farTimestamps.size()) * 32L;
  }
}
