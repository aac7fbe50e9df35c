package org.neardup.internal;

import java.util.Arrays;

/**
 * A map from long keys to non-negative int values: open addressing with linear probing and
 * backward-shift deletion (no tombstones), at most 2/3 full. About 18 bytes per entry. Not
 * thread-safe.
 */
public final class LongIntMap {
  private static final int FREE = -1;
  private long[] keys;
  private int[] values;
  private int mask;
  private int size;

  public LongIntMap(int expected) {
    int cap = Integer.highestOneBit(Math.max(8, expected * 3 / 2)) * 2;
    keys = new long[cap];
    values = new int[cap];
    Arrays.fill(values, FREE);
    mask = cap - 1;
  }

  private static int slot(long key, int mask) {
    long h = key * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32)) & mask;
  }

  /** The value of key, or -1. */
  public int get(long key) {
    for (int s = slot(key, mask); ; s = (s + 1) & mask) {
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
    Checks.checkArgument(value >= 0, "value must be >= 0, got %s", value);
    if ((size + 1) * 3 > keys.length * 2) {
      grow();
    }
    for (int s = slot(key, mask); ; s = (s + 1) & mask) {
      if (values[s] == FREE) {
        keys[s] = key;
        values[s] = value;
        size++;
        return -1;
      }
      if (keys[s] == key) {
        int old = values[s];
        values[s] = value;
        return old;
      }
    }
  }

  /** Removes key; returns its value or -1. */
  public int remove(long key) {
    int s = slot(key, mask);
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
      int home = slot(keys[j], mask);
      boolean movable = hole <= j ? (home <= hole || home > j) : (home <= hole && home > j);
      if (movable) {
        keys[hole] = keys[j];
        values[hole] = values[j];
        hole = j;
      }
    }
    values[hole] = FREE;
    size--;
    return old;
  }

  public int size() {
    return size;
  }

  public long ramBytesUsed() {
    return 32 + keys.length * 12L;
  }

  private void grow() {
    long[] oldKeys = keys;
    int[] oldValues = values;
    keys = new long[oldKeys.length * 2];
    values = new int[oldKeys.length * 2];
    Arrays.fill(values, FREE);
    mask = keys.length - 1;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldValues[i] != FREE) {
        int s = slot(oldKeys[i], mask);
        while (values[s] != FREE) {
          s = (s + 1) & mask;
        }
        keys[s] = oldKeys[i];
        values[s] = oldValues[i];
      }
    }
  }
}
