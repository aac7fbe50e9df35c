// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.util.function.IntConsumer;
import org.neardup.internal.Mix;
import org.neardup.internal.PagedLongArray;
import org.neardup.verify.BandIndex;

/**
 * The caller's ids of one generation: a 32-bit hash of the id's UTF-8 bytes to slot; the bytes
 * themselves stay in the {@link DocTable}, which confirms each hash match.
 *
 * <p>Not thread-safe: the owning collection's lock guards it (lookups may run in parallel under a
 * read lock: they change nothing). Memory: about 6 bytes per id. The (hash, slot) pairs live in
 * core's {@link BandIndex}, the structure the engine keeps its band keys in: a hash table of the
 * newest 2^16 entries (10.7 to 21 bytes each), frozen into sorted runs of 6 bytes per entry (the
 * hash's low 16 bits and the slot, bucketed by its top 16 bits), merged as a binary counter. It
 * replaced a hash table of 8-byte slots (10.7 to 21 bytes per id): 5 to 15 bytes less per document.
 * A lookup binary-searches each run (about n / 2^23 + 7 of them at n ids); growth never rehashes
 * more than 2^16 entries or merges more than a run's worth at once. At open, a snapshot's ids are
 * filed in bulk ({@link #putDeferred}): up to 2^23 of them sorted into a run at once.
 */
final class IdTable {
  /*
   * Each id is one entry (key = its hash as an unsigned 32-bit value, ordinal = its slot). The
   * band index folds keys to 31 bits, so two ids whose hashes differ only in bit 0 share a key; the
   * document table tells them apart (docs.idEquals), as it tells apart ids of equal hashes.
   * Invariant: a live slot's entry is present exactly once; slots are added in increasing order
   * (DocTable hands them out so), which the band index's runs rely on.
   */
  private final DocTable docs;
  private final BandIndex entries;

  /**
   * Entries filed by {@link #putDeferred} and not yet in {@link #entries}, {@code hash << 32 |
   * slot}; every other method moves them there first.
   */
  private PagedLongArray deferred = new PagedLongArray();

  IdTable(DocTable docs, int expected) {
    this.docs = docs;
    this.entries = BandIndex.of32BitKeys(Math.max(0, expected));
  }

  /**
   * A 32-bit hash of id bytes: eight bytes at a time, each word xored in and multiplied, the tail
   * word the same, then murmur3's 64-bit finaliser, so every bit of the result depends on every
   * byte. In memory only (rebuilt at every open), so it may change between releases. It replaced
   * FNV-1a, a multiply per byte: at open, hashing ~6M ids of ~40 bytes was ~8% of the CPU.
   */
  static int hash(byte[] b, int off, int len) {
    long h = 0x9E3779B97F4A7C15L ^ len;
    int i = off;
    int end = off + len;
    for (; i + 8 <= end; i += 8) {
      h = (h ^ Bytes.getLong(b, i)) * 0xFF51AFD7ED558CCDL;
      h ^= h >>> 29;
    }
    long tail = 0;
    for (; i < end; i++) {
      tail = tail << 8 | (b[i] & 0xFF);
    }
    return (int) Mix.fmix64((h ^ tail) * 0xC4CEB9FE1A85EC53L);
  }

  private static long key(int hash) {
    return hash & 0xFFFFFFFFL;
  }

  int size() {
    flush();
    return entries.size();
  }

  /** Finds the slot whose id equals the one looked up. */
  private static final class Finder implements IntConsumer {
    final DocTable docs;
    final byte[] id;
    int found = -1;

    Finder(DocTable docs, byte[] id) {
      this.docs = docs;
      this.id = id;
    }

    @Override
    public void accept(int slot) {
      if (found < 0 && docs.idEquals(slot, id)) {
        found = slot;
      }
    }
  }

  /** The slot of a stored id, or -1. */
  int find(byte[] id, int hash) {
    flush();
    Finder f = new Finder(docs, id);
    entries.forEach(new long[] {key(hash)}, f);
    return f.found;
  }

  /** Files an id (not present) under its slot; slots come in increasing order. */
  void put(int hash, int slot) {
    flush();
    entries.add(key(hash), slot);
  }

  /**
   * As {@link #put}, for an id known not to be present (a snapshot's, see {@link
   * Restorer#beginSnapshot}): kept aside and filed with the others deferred in one bulk step
   * ({@link BandIndex#addAllPacked}) by the next call of any other method, or here once a run's
   * worth waits. At open this replaced one add per id (the table, a sort and ~7 merges each).
   */
  void putDeferred(int hash, int slot) {
    deferred.append(key(hash) << 32 | slot);
    if (deferred.size() >= BandIndex.MAX_RUN) {
      flush();
    }
  }

  /** Files the deferred entries. */
  void flush() {
    PagedLongArray d = deferred;
    if (d.size() > 0) {
      deferred = new PagedLongArray();
      entries.addAllPacked(d, 0, (int) d.size());
    }
  }

  /** Removes the entry of {@code slot}, filed under {@code hash}; returns whether it was there. */
  boolean remove(int hash, int slot) {
    flush();
    return entries.remove(new long[] {key(hash)}, 0, 1, slot) > 0;
  }

  long ramBytesUsed() {
    return 24 + entries.ramBytesUsed() + deferred.ramBytesUsed();
  }

  /** Checks that every live slot of the document table is filed under its id; for tests. */
  void checkInvariants() {
    int live = 0;
    for (int slot = 0; slot < docs.slots(); slot++) {
      if (docs.isLive(slot)) {
        live++;
        byte[] id = docs.id(slot).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        int found = find(id, hash(id, 0, id.length));
        if (found != slot) {
          throw new IllegalStateException("slot " + slot + " is found as " + found);
        }
      }
    }
    if (live != size()) {
      throw new IllegalStateException("size " + size() + ", live slots " + live);
    }
  }
}
