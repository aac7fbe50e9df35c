// SPDX-License-Identifier: Apache-2.0
package org.neardup.internal;

import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * The directory of an extendible hash table [1]: 2^depth references to sub-tables, indexed by the
 * top {@code depth} bits of a key's 64-bit hash. Hash tables that must never stall on growth
 * ({@link LongIntMap}, the band index, the embedded store's id table) keep their slots in small
 * sub-tables behind one of these, so that growing moves one sub-table's entries, never all of them.
 * The sub-tables themselves (layout, probing, what "full" means) are the owner's; this class keeps
 * the references, doubles itself when a sub-table of full depth splits, and checks its invariant.
 *
 * <p>Not thread-safe: the owner's lock guards it. Cost: {@link #at} is one shift and one array
 * load; the directory holds one 4-byte reference per 2^(depth - local depth) sub-table run, a few
 * KiB for tens of millions of entries.
 *
 * <p>[1] Fagin, Nievergelt, Pippenger, Strong. Extendible hashing: a fast access method for dynamic
 * files. ACM TODS 4(3), 1979.
 *
 * @param <T> the owner's sub-table type
 */
public final class HashDirectory<T extends HashDirectory.Table> {
  /*
   * Invariant (checkInvariants): a sub-table of local depth d <= depth is referenced by exactly the
   * 2^(depth - d) consecutive entries that share its d-bit prefix, and by no other; `tables` counts
   * the distinct sub-tables.
   */

  /** The largest sub-table the owners use: 2^16 slots (512 KiB of longs), split beyond that. */
  public static final int MAX_SLOTS = 1 << 16;

  /** A sub-table: the number of hash bits that select it (its local depth). */
  public abstract static class Table {
    public final int depth;

    protected Table(int depth) {
      this.depth = depth;
    }
  }

  private Table[] refs;
  private int depth;
  private int tables;

  /**
   * A directory of depth {@link #depthFor depthFor(wantSlots, maxDepth)} whose every entry is a
   * fresh sub-table from {@code make} (called with that depth).
   */
  public HashDirectory(long wantSlots, int maxDepth, IntFunction<T> make) {
    int d = depthFor(wantSlots, maxDepth);
    refs = new Table[1 << d];
    for (int i = 0; i < refs.length; i++) {
      refs[i] = make.apply(d);
    }
    depth = d;
    tables = refs.length;
  }

  /** The smallest depth whose sub-tables of at most {@link #MAX_SLOTS} hold wantSlots slots. */
  public static int depthFor(long wantSlots, int maxDepth) {
    int d = 0;
    while ((wantSlots >> d) > MAX_SLOTS && d < maxDepth) {
      d++;
    }
    return d;
  }

  /** The power-of-two capacity of each of the 2^depth initial sub-tables for wantSlots slots. */
  public static int capacityFor(long wantSlots, int depth) {
    return (int) Math.min(MAX_SLOTS, Long.highestOneBit((wantSlots >> depth) * 2 - 1));
  }

  /** The directory index of a hash: its top {@code depth} bits. */
  public int index(long hash) {
    return (int) ((hash >>> 32) >>> (32 - depth));
  }

  /** The sub-table of a hash. */
  @SuppressWarnings("unchecked")
  public T at(long hash) {
    return (T) refs[index(hash)];
  }

  /** The sub-table at directory index j. */
  @SuppressWarnings("unchecked")
  public T get(int j) {
    return (T) refs[j];
  }

  /**
   * Readies the split of {@code t}, the sub-table at index j, into two of depth {@code t.depth +
   * 1}: doubles the directory when t already uses every bit of it. Returns t's index afterwards
   * (doubling moves it), to pass to {@link #replace}. The hash bit that will tell the halves apart
   * is {@code 63 - t.depth}.
   */
  public int prepareSplit(int j, T t) {
    if (t.depth < depth) {
      return j;
    }
    Table[] next = new Table[refs.length * 2];
    for (int i = 0; i < next.length; i++) {
      next[i] = refs[i >> 1];
    }
    refs = next;
    depth++;
    return j * 2;
  }

  /**
   * Points every entry that referenced {@code old} (one of them is j) at {@code low} (the first
   * half of its run) and {@code high} (the second half): the two halves of a split, or the same
   * table twice for a sub-table rebuilt or grown in place.
   */
  public void replace(int j, T old, T low, T high) {
    int span = 1 << (depth - old.depth);
    int start = j & -span;
    for (int i = start; i < start + span; i++) {
      refs[i] = i < start + span / 2 ? low : high;
    }
    if (low != high) {
      tables++;
    }
  }

  /** The number of directory entries, 2^depth. */
  public int length() {
    return refs.length;
  }

  /** The number of distinct sub-tables. */
  public int tables() {
    return tables;
  }

  /** Bytes of the directory itself (not the sub-tables). */
  public long ramBytesUsed() {
    return 32 + 16 + refs.length * 4L;
  }

  /**
   * Checks the invariant and calls {@code each} once per distinct sub-table, for the owner's own
   * checks of its sub-tables; for tests.
   */
  @SuppressWarnings("unchecked")
  public void checkInvariants(Consumer<T> each) {
    int distinct = 0;
    for (int i = 0; i < refs.length; i++) {
      Table t = refs[i];
      Checks.checkState(t.depth <= depth, "table at %s deeper than the directory", i);
      int span = 1 << (depth - t.depth);
      Checks.checkState(refs[i & -span] == t, "table at %s not referenced by its run", i);
      if ((i & (span - 1)) == 0) {
        distinct++;
        each.accept((T) t);
      }
    }
    Checks.checkState(distinct == tables, "%s tables counted, %s distinct", tables, distinct);
  }
}
