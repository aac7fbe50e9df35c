// SPDX-License-Identifier: Apache-2.0
package org.neardup.internal;

import java.util.Arrays;

/**
 * A map from long keys to non-negative int values that grows a small piece at a time: no insert
 * moves more than {@value #MAX_SLOTS_TEXT} entries, whatever the map's size. About 18 bytes per
 * entry (12 per slot, slots 1/3 to 2/3 full). Not thread-safe.
 *
 * <p>Cost: a lookup hashes the key, reads one directory entry and one sub-table header (both in
 * cache: the directory has one reference per 2^16 slots), then probes the sub-table: one cache
 * miss, as in a single table. A sub-table doubles, or at full size splits in two, in well under a
 * millisecond; the single table this replaces rehashed everything, 0.5 s at 10M entries.
 */
public final class LongIntMap {
  /*
   * Extendible hashing (HashDirectory): sub-tables chosen by the top bits of the key's hash. Each
   * sub-table is open addressing with linear probing on the hash's low bits and backward-shift
   * deletion (no tombstones), at most 2/3 full. A sub-table below MAX_SLOTS doubles; one at
   * MAX_SLOTS splits into two of MAX_SLOTS on hash bit 63 - d.
   *
   * Invariants (checkInvariants): the directory's; every key sits in the sub-table its hash's top
   * bits select, in the probe run from its home slot without a free slot between; size == sum of
   * sub-table sizes.
   */
  static final int MAX_SLOTS = HashDirectory.MAX_SLOTS;
  private static final String MAX_SLOTS_TEXT = "43,690";
  private static final int FREE = -1;

  private static final class Table extends HashDirectory.Table {
    final long[] keys;
    final int[] values;
    final int mask;
    int size;

    Table(int capacity, int depth) {
      super(depth);
      keys = new long[capacity];
      values = new int[capacity];
      Arrays.fill(values, FREE);
      mask = capacity - 1;
    }

    boolean full() {
      return (size + 1) * 3 > keys.length * 2;
    }
  }

  private final HashDirectory<Table> directory;
  private int size;
  private long slots;

  /** A map pre-sized for {@code expected} entries. */
  public LongIntMap(int expected) {
    Checks.checkArgument(expected >= 0, "expected must be >= 0, got %s", expected);
    long want = Math.max(8, expected * 3L / 2 + 1);
    int capacity = HashDirectory.capacityFor(want, HashDirectory.depthFor(want, 32));
    directory = new HashDirectory<>(want, 32, d -> new Table(capacity, d));
    slots = (long) directory.tables() * capacity;
  }

  /** Murmur3's 64-bit finaliser: the top bits pick the sub-table, the low bits the home slot. */
  private static long hash(long key) {
    return Mix.fmix64(key);
  }

  /** The value of key, or -1. */
  public int get(long key) {
    long h = hash(key);
    Table t = directory.at(h);
    long[] keys = t.keys;
    int[] values = t.values;
    int mask = t.mask;
    for (int s = (int) h & mask; ; s = (s + 1) & mask) {
      if (values[s] == FREE) {
        return -1;
      }
      if (keys[s] == key) {
        return values[s];
      }
    }
  }

  /** Sets key to value (>= 0); returns the previous value or -1. */
  public int put(long key, int value) {
    return insert(key, value, true);
  }

  /**
   * Sets key to value (>= 0) unless key is present; returns the present value (nothing changed) or
   * -1 (stored). One probe where get-then-put takes two.
   */
  public int putIfAbsent(long key, int value) {
    return insert(key, value, false);
  }

  private int insert(long key, int value, boolean overwrite) {
    Checks.checkArgument(value >= 0, "value must be >= 0, got %s", value);
    long h = hash(key);
    Table t = directory.at(h);
    int s = (int) h & t.mask;
    for (; t.values[s] != FREE; s = (s + 1) & t.mask) {
      if (t.keys[s] == key) {
        int old = t.values[s];
        if (overwrite) {
          t.values[s] = value;
        }
        return old;
      }
    }
    if (t.full()) {
      t = makeRoom(h);
      s = (int) h & t.mask;
      while (t.values[s] != FREE) {
        s = (s + 1) & t.mask;
      }
    }
    t.keys[s] = key;
    t.values[s] = value;
    t.size++;
    size++;
    return -1;
  }

  /** Removes key; returns its value or -1. */
  public int remove(long key) {
    long h = hash(key);
    Table t = directory.at(h);
    long[] keys = t.keys;
    int[] values = t.values;
    int mask = t.mask;
    int s = (int) h & mask;
    while (true) {
      if (values[s] == FREE) {
        return -1;
      }
      if (keys[s] == key) {
        break;
      }
      s = (s + 1) & mask;
    }
    int old = values[s];
    // Backward-shift: move later entries of the probe run into the hole where allowed.
    int hole = s;
    for (int j = (hole + 1) & mask; values[j] != FREE; j = (j + 1) & mask) {
      int home = (int) hash(keys[j]) & mask;
      boolean movable = hole <= j ? (home <= hole || home > j) : (home <= hole && home > j);
      if (movable) {
        keys[hole] = keys[j];
        values[hole] = values[j];
        hole = j;
      }
    }
    values[hole] = FREE;
    t.size--;
    size--;
    return old;
  }

  public int size() {
    return size;
  }

  public long ramBytesUsed() {
    return 32 + directory.ramBytesUsed() + directory.tables() * (32L + 32) + slots * 12;
  }

  /**
   * Grows or splits the full sub-table that hash h selects until h's sub-table has room; returns
   * that sub-table.
   */
  private Table makeRoom(long h) {
    while (true) {
      int j = directory.index(h);
      Table t = directory.get(j);
      if (!t.full()) {
        return t;
      }
      if (t.keys.length < MAX_SLOTS) {
        Table grown = new Table(t.keys.length * 2, t.depth);
        moveAll(t, grown, null, 0);
        directory.replace(j, t, grown, grown);
      } else {
        j = directory.prepareSplit(j, t);
        Table low = new Table(t.keys.length, t.depth + 1);
        Table high = new Table(t.keys.length, t.depth + 1);
        moveAll(t, low, high, 63 - t.depth);
        directory.replace(j, t, low, high);
      }
      slots += t.keys.length;
    }
  }

  /** Moves every entry of {@code from} into {@code a}, or into {@code b} when hash bit is set. */
  private static void moveAll(Table from, Table a, Table b, int bit) {
    for (int i = 0; i < from.keys.length; i++) {
      if (from.values[i] == FREE) {
        continue;
      }
      long key = from.keys[i];
      long h = hash(key);
      Table to = b != null && ((h >>> bit) & 1) != 0 ? b : a;
      int s = (int) h & to.mask;
      while (to.values[s] != FREE) {
        s = (s + 1) & to.mask;
      }
      to.keys[s] = key;
      to.values[s] = from.values[i];
      to.size++;
    }
  }

  /** Checks the design note's invariants; for tests. */
  void checkInvariants() {
    long[] total = {0};
    directory.checkInvariants(
        t -> {
          int n = 0;
          for (int s = 0; s < t.keys.length; s++) {
            if (t.values[s] == FREE) {
              continue;
            }
            n++;
            long h = hash(t.keys[s]);
            Checks.checkState(directory.at(h) == t, "key %s in the wrong table", t.keys[s]);
            for (int p = (int) h & t.mask; p != s; p = (p + 1) & t.mask) {
              Checks.checkState(t.values[p] != FREE, "key %s cut off from its home", t.keys[s]);
            }
          }
          Checks.checkState(n == t.size, "table size %s, counted %s", t.size, n);
          total[0] += n;
        });
    Checks.checkState(total[0] == size, "size %s, counted %s", size, total[0]);
  }
}
