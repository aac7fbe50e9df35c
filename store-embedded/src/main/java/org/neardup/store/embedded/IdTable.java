// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import org.neardup.internal.Checks;
import org.neardup.internal.HashDirectory;

/**
 * The caller's ids of one generation: UTF-8 id bytes to slot, by open addressing with linear
 * probing over {@code long} slots; the bytes themselves stay in the {@link DocTable}.
 *
 * <p>Not thread-safe: the owning collection's lock guards it. Memory: 8 bytes per slot at a load
 * factor of 3/8 to 3/4, so 10.7 to 21 bytes per id. Growth is a sub-table at a time (at most 2^16
 * slots, 49,152 entries moved), never the whole table: a single table rehashed 10M ids in a stall
 * of about half a second.
 */
final class IdTable {
  /*
   * entry = (hash << 32) | (slot + 1); 0 is empty. Extendible hashing (core's HashDirectory) on the
   * entry's top bits, that is the 32-bit id hash's: within a sub-table the home slot is the hash's
   * low bits. A full sub-table doubles below MAX_SLOTS and splits in two on entry bit 63 - d (hash
   * bit 31 - d) at MAX_SLOTS; 16 + depth <= 32 hash bits are used, enough for 2^32 slots, and a
   * sub-table of depth 32 doubles instead. Removal shifts later entries of the run back (Knuth 6.4
   * algorithm R), so there are no tombstones and lookups stay short.
   */
  static final int MAX_SLOTS = HashDirectory.MAX_SLOTS;

  private static final class Table extends HashDirectory.Table {
    final long[] slots;
    final int mask;
    int size;

    Table(int capacity, int depth) {
      super(depth);
      slots = new long[capacity];
      mask = capacity - 1;
    }

    boolean full() {
      return size + 1 > (mask + 1) / 4 * 3;
    }
  }

  private final DocTable docs;
  private final HashDirectory<Table> directory;
  private int size;
  private long slotCount;

  IdTable(DocTable docs, int expected) {
    this.docs = docs;
    long want = Math.max(16, expected * 4L / 3 + 1);
    int capacity = HashDirectory.capacityFor(want, HashDirectory.depthFor(want, 16));
    directory = new HashDirectory<>(want, 16, d -> new Table(capacity, d));
    slotCount = (long) directory.tables() * capacity;
  }

  /** A 32-bit hash of id bytes (FNV-1a, then murmur3's finaliser for the low bits). */
  static int hash(byte[] b, int off, int len) {
    int h = 0x811C9DC5;
    for (int i = off; i < off + len; i++) {
      h = (h ^ b[i]) * 0x01000193;
    }
    h ^= h >>> 16;
    h *= 0x85EBCA6B;
    h ^= h >>> 13;
    h *= 0xC2B2AE35;
    h ^= h >>> 16;
    return h;
  }

  /** The sub-table of an id hash: the directory reads the top bits of a 64-bit hash. */
  private Table table(int hash) {
    return directory.at((long) hash << 32);
  }

  int size() {
    return size;
  }

  /** The slot of a stored id, or -1. */
  int find(byte[] id, int hash) {
    Table t = table(hash);
    long[] table = t.slots;
    int mask = t.mask;
    for (int i = hash & mask; ; i = (i + 1) & mask) {
      long e = table[i];
      if (e == 0) {
        return -1;
      }
      if ((int) (e >>> 32) == hash) {
        int slot = (int) e - 1;
        if (docs.idEquals(slot, id)) {
          return slot;
        }
      }
    }
  }

  /** Files an id (not present) under its slot. */
  void put(int hash, int slot) {
    Table t = table(hash);
    if (t.full()) {
      t = makeRoom(hash);
    }
    insert(t, ((long) hash << 32) | ((slot + 1) & 0xFFFFFFFFL));
    size++;
  }

  private static void insert(Table t, long entry) {
    int i = (int) (entry >>> 32) & t.mask;
    while (t.slots[i] != 0) {
      i = (i + 1) & t.mask;
    }
    t.slots[i] = entry;
    t.size++;
  }

  private Table makeRoom(int hash) {
    while (true) {
      int j = directory.index((long) hash << 32);
      Table t = directory.get(j);
      if (!t.full()) {
        return t;
      }
      int capacity = t.slots.length;
      Table low;
      Table high;
      if (capacity < MAX_SLOTS || t.depth == 32) {
        low = new Table(capacity * 2, t.depth);
        high = low;
      } else {
        j = directory.prepareSplit(j, t);
        low = new Table(capacity, t.depth + 1);
        high = new Table(capacity, t.depth + 1);
      }
      int bit = 63 - t.depth;
      for (long e : t.slots) {
        if (e != 0) {
          insert(high != low && ((e >>> bit) & 1) != 0 ? high : low, e);
        }
      }
      directory.replace(j, t, low, high);
      slotCount += capacity;
    }
  }

  /** Removes the entry of {@code slot}, filed under {@code hash}; returns whether it was there. */
  boolean remove(int hash, int slot) {
    Table t = table(hash);
    long[] table = t.slots;
    int mask = t.mask;
    long want = ((long) hash << 32) | ((slot + 1) & 0xFFFFFFFFL);
    int i = hash & mask;
    while (table[i] != want) {
      if (table[i] == 0) {
        return false;
      }
      i = (i + 1) & mask;
    }
    // Shift back later entries of the run that may not stay after the hole.
    int hole = i;
    for (int j = (hole + 1) & mask; table[j] != 0; j = (j + 1) & mask) {
      int home = (int) (table[j] >>> 32) & mask;
      boolean movable = hole <= j ? (home <= hole || home > j) : (home <= hole && home > j);
      if (movable) {
        table[hole] = table[j];
        hole = j;
      }
    }
    table[hole] = 0;
    t.size--;
    size--;
    return true;
  }

  long ramBytesUsed() {
    return 32 + directory.ramBytesUsed() + directory.tables() * (32L + 16) + slotCount * 8;
  }

  /**
   * Checks the design note's invariants: the directory's, every entry in the sub-table its hash
   * selects and reachable from its home slot, the sizes; for tests.
   */
  void checkInvariants() {
    long[] total = {0};
    directory.checkInvariants(
        t -> {
          int n = 0;
          for (int s = 0; s < t.slots.length; s++) {
            long e = t.slots[s];
            if (e == 0) {
              continue;
            }
            n++;
            int hash = (int) (e >>> 32);
            Checks.checkState(table(hash) == t, "entry %s in the wrong table", e);
            for (int p = hash & t.mask; p != s; p = (p + 1) & t.mask) {
              Checks.checkState(t.slots[p] != 0, "entry %s cut off from its home", e);
            }
          }
          Checks.checkState(n == t.size, "table size %s, counted %s", t.size, n);
          total[0] += n;
        });
    Checks.checkState(total[0] == size, "size %s, counted %s", size, total[0]);
  }
}
