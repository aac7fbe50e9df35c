package org.neardup.verify;

import java.util.function.IntConsumer;

/**
 * A multimap from MinHash band keys to document ordinals, for finding candidates: every ordinal
 * stored under any of a query's band keys.
 *
 * <p>One open-addressing table of {@code long} slots, each {@code key31 << 32 | (ordinal + 1)}: the
 * band key folded to 31 bits with the low bit set (so a used slot is never 0), duplicates of a key
 * in separate slots of one probe run. At most 3/4 full: about 11 bytes per (key, ordinal) entry.
 * Folding keys to 31 bits lets unrelated keys collide with probability n / 2^31, which only adds a
 * candidate that verification then rejects. Removal leaves a tombstone (the key with ordinal part
 * 0) until the next rebuild. Not thread-safe: the caller serialises writers and readers.
 */
public final class BandIndex {
  private long[] slots;
  private int mask;
  private int used;
  private int live;

  public BandIndex(int expectedEntries) {
    int cap = Integer.highestOneBit(Math.max(16, expectedEntries * 4 / 3)) * 2;
    slots = new long[cap];
    mask = cap - 1;
  }

  private static int fold(long bandKey) {
    return (int) (bandKey ^ (bandKey >>> 31)) | 1;
  }

  private static int home(int key31, int mask) {
    // The top 32 bits of the product: enough for any table up to 2^31 slots. (Taking 24 bits
    // here once made tables past 2^24 slots pile every entry into their first 16M slots.)
    return (int) ((key31 * 0x9E3779B97F4A7C15L) >>> 32) & mask;
  }

  /** Stores ordinal (>= 0) under each of the keys. */
  public void add(long[] bandKeys, int ordinal) {
    for (long k : bandKeys) {
      add(k, ordinal);
    }
  }

  public void add(long bandKey, int ordinal) {
    if ((used + 1) * 4 > slots.length * 3) {
      rebuild(live * 2 + 1 > slots.length * 3 / 8 ? slots.length * 2 : slots.length);
    }
    int key = fold(bandKey);
    long entry = ((long) key << 32) | ((ordinal + 1L) & 0xFFFFFFFFL);
    int s = home(key, mask);
    while (slots[s] != 0) {
      s = (s + 1) & mask;
    }
    slots[s] = entry;
    used++;
    live++;
  }

  /** Removes one entry (bandKey, ordinal) for each key; returns how many were found. */
  public int remove(long[] bandKeys, int ordinal) {
    int removed = 0;
    for (long k : bandKeys) {
      int key = fold(k);
      long entry = ((long) key << 32) | ((ordinal + 1L) & 0xFFFFFFFFL);
      for (int s = home(key, mask); slots[s] != 0; s = (s + 1) & mask) {
        if (slots[s] == entry) {
          slots[s] = (long) key << 32; // tombstone: keeps the probe run intact
          live--;
          removed++;
          break;
        }
      }
    }
    return removed;
  }

  /**
   * Calls {@code out} with every ordinal stored under any of the keys; an ordinal under several of
   * them is reported once per key it shares.
   */
  public void forEach(long[] bandKeys, IntConsumer out) {
    for (long k : bandKeys) {
      int key = fold(k);
      for (int s = home(key, mask); slots[s] != 0; s = (s + 1) & mask) {
        long e = slots[s];
        if ((int) (e >>> 32) == key && (int) e != 0) {
          out.accept((int) e - 1);
        }
      }
    }
  }

  /** The number of (key, ordinal) entries. */
  public int size() {
    return live;
  }

  public long ramBytesUsed() {
    return 32 + slots.length * 8L;
  }

  private void rebuild(int capacity) {
    long[] old = slots;
    slots = new long[capacity];
    mask = capacity - 1;
    used = 0;
    for (long e : old) {
      if (e != 0 && (int) e != 0) {
        int s = home((int) (e >>> 32), mask);
        while (slots[s] != 0) {
          s = (s + 1) & mask;
        }
        slots[s] = e;
        used++;
      }
    }
    live = used;
  }

  @Override
  public String toString() {
    return "BandIndex{entries=" + live + ", slots=" + slots.length + "}";
  }
}
