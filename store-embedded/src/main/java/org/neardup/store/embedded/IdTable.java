package org.neardup.store.embedded;

/**
 * The caller's ids of one generation: UTF-8 id bytes to slot, by open addressing with linear
 * probing over one {@code long[]}; the bytes themselves stay in the {@link DocTable}.
 *
 * <p>Not thread-safe: the owning collection's lock guards it. Memory: 8 bytes per entry at a load
 * factor of at most 3/4, so 10.7 to 21 bytes per id.
 */
final class IdTable {
  /*
   * entry = (hash << 32) | (slot + 1); 0 is empty. Removal shifts later entries of the run back
   * (Knuth 6.4 algorithm R), so there are no tombstones and lookups stay short.
   */
  private final DocTable docs;
  private long[] table;
  private int mask;
  private int size;

  IdTable(DocTable docs, int expected) {
    this.docs = docs;
    int want = (int) Math.min(1 << 29, Math.max(16, expected * 4L / 3 + 1));
    int cap = Integer.highestOneBit(want * 2 - 1);
    table = new long[cap];
    mask = cap - 1;
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

  int size() {
    return size;
  }

  /** The slot of a stored id, or -1. */
  int find(byte[] id, int hash) {
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
    if (size + 1 > (mask + 1) / 4 * 3) {
      grow();
    }
    insert(((long) hash << 32) | ((slot + 1) & 0xFFFFFFFFL));
    size++;
  }

  private void insert(long entry) {
    int i = (int) (entry >>> 32) & mask;
    while (table[i] != 0) {
      i = (i + 1) & mask;
    }
    table[i] = entry;
  }

  private void grow() {
    long[] old = table;
    table = new long[old.length * 2];
    mask = table.length - 1;
    for (long e : old) {
      if (e != 0) {
        insert(e);
      }
    }
  }

  /** Removes the entry of {@code slot}, filed under {@code hash}; returns whether it was there. */
  boolean remove(int hash, int slot) {
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
    size--;
    return true;
  }

  long ramBytesUsed() {
    return 32 + table.length * 8L;
  }
}
