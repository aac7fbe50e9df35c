package org.neardup.store.embedded;

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
   * entry = (hash << 32) | (slot + 1); 0 is empty. Extendible hashing, as in core's LongIntMap: a
   * directory of 2^depth sub-tables indexed by the top `depth` bits of the 32-bit id hash, a
   * sub-table of local depth d referenced by the 2^(depth - d) directory entries sharing its
   * prefix; within a sub-table the home slot is the hash's low bits. A full sub-table doubles below
   * MAX_SLOTS and splits in two on hash bit 31 - d at MAX_SLOTS (16 + depth <= 32 bits are used:
   * enough for 2^32 slots). Removal shifts later entries of the run back (Knuth 6.4 algorithm R),
   * so there are no tombstones and lookups stay short.
   */
  static final int MAX_SLOTS = 1 << 16;

  private static final class Table {
    final long[] slots;
    final int mask;
    final int depth;
    int size;

    Table(int capacity, int depth) {
      slots = new long[capacity];
      mask = capacity - 1;
      this.depth = depth;
    }

    boolean full() {
      return size + 1 > (mask + 1) / 4 * 3;
    }
  }

  private final DocTable docs;
  private Table[] directory;
  private int depth;
  private int size;
  private int tables;
  private long slotCount;

  IdTable(DocTable docs, int expected) {
    this.docs = docs;
    long want = Math.max(16, expected * 4L / 3 + 1);
    int d = 0;
    while ((want >> d) > MAX_SLOTS && d < 16) {
      d++;
    }
    int capacity = (int) Math.min(MAX_SLOTS, Long.highestOneBit((want >> d) * 2 - 1));
    directory = new Table[1 << d];
    for (int i = 0; i < directory.length; i++) {
      directory[i] = new Table(capacity, d);
    }
    depth = d;
    tables = directory.length;
    slotCount = (long) tables * capacity;
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

  private int dirIndex(int hash) {
    return (int) ((hash & 0xFFFFFFFFL) >>> (32 - depth));
  }

  int size() {
    return size;
  }

  /** The slot of a stored id, or -1. */
  int find(byte[] id, int hash) {
    Table t = directory[dirIndex(hash)];
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
    Table t = directory[dirIndex(hash)];
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
      int j = dirIndex(hash);
      Table t = directory[j];
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
        if (t.depth == depth) {
          Table[] next = new Table[directory.length * 2];
          for (int i = 0; i < next.length; i++) {
            next[i] = directory[i >> 1];
          }
          directory = next;
          depth++;
          j *= 2;
        }
        low = new Table(capacity, t.depth + 1);
        high = new Table(capacity, t.depth + 1);
        tables++;
      }
      int bit = 31 - t.depth;
      for (long e : t.slots) {
        if (e != 0) {
          insert(high != low && ((e >>> (32 + bit)) & 1) != 0 ? high : low, e);
        }
      }
      int span = 1 << (depth - t.depth);
      int start = j & -span;
      for (int i = start; i < start + span; i++) {
        directory[i] = i < start + span / 2 ? low : high;
      }
      slotCount += capacity;
    }
  }

  /** Removes the entry of {@code slot}, filed under {@code hash}; returns whether it was there. */
  boolean remove(int hash, int slot) {
    Table t = directory[dirIndex(hash)];
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
    return 48 + 16 + directory.length * 4L + tables * (32L + 16) + slotCount * 8;
  }
}
