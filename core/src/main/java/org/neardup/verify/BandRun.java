// SPDX-License-Identifier: Apache-2.0
package org.neardup.verify;

import java.util.Arrays;
import java.util.function.IntConsumer;
import org.neardup.internal.Checks;

/**
 * A frozen, sorted run of {@link BandIndex} entries: (folded key, ordinal) pairs in 6 bytes each,
 * where the hash table they came from needs 10.7 to 21. Read-only but for removals, which mark an
 * entry in place; readers under the owner's read lock share it.
 *
 * <p>Layout: entries sorted by key (unsigned), then ordinal. The key's top 16 bits are implicit:
 * bucket b's entries are {@code [starts[b], starts[b + 1])}; {@code lows} holds each key's low 16
 * bits and {@code ords} its ordinal + 1, negated when removed (so the order by ordinal survives
 * removal). A lookup reads one bucket bound and binary-searches a bucket of n / 2^16 entries: at
 * 300M entries (50M documents of 6 bands) split in runs of at most 2^23, about 7 steps per run.
 * Memory: 6 bytes per entry plus 256 KiB of bucket bounds per run.
 */
final class BandRun {
  /*
   * Invariants (checkInvariants): starts is non-decreasing, starts[0] == 0, starts[BUCKETS] ==
   * size; within a bucket, (lows[i] unsigned, |ords[i]|) non-decreasing; ords[i] != 0; live ==
   * the count of positive ords; every |ords[i]| - 1 is in [minOrdinal, maxOrdinal].
   */
  static final int BUCKETS = 1 << 16;

  private final int[] starts;
  private final char[] lows;
  private final int[] ords;
  final int minOrdinal;
  final int maxOrdinal;
  int live;

  private BandRun(int[] starts, char[] lows, int[] ords, int minOrdinal, int maxOrdinal) {
    this.starts = starts;
    this.lows = lows;
    this.ords = ords;
    this.minOrdinal = minOrdinal;
    this.maxOrdinal = maxOrdinal;
    this.live = lows.length;
  }

  /**
   * A run of {@code entries[0, n)}, each {@link BandIndex}'s slot form {@code key << 32 | (ordinal
   * + 1)} (live entries only); sorts {@code entries} in place.
   */
  static BandRun of(long[] entries, int n) {
    // Flipping the key's sign bit makes the signed order of the longs the key's unsigned order.
    int min = Integer.MAX_VALUE;
    int max = -1;
    for (int i = 0; i < n; i++) {
      entries[i] ^= Long.MIN_VALUE;
      int o = (int) entries[i] - 1;
      min = Math.min(min, o);
      max = Math.max(max, o);
    }
    Arrays.sort(entries, 0, n);
    int[] starts = new int[BUCKETS + 1];
    char[] lows = new char[n];
    int[] ords = new int[n];
    for (int i = 0; i < n; i++) {
      long e = entries[i] ^ Long.MIN_VALUE;
      int key = (int) (e >>> 32);
      starts[(key >>> 16) + 1]++;
      lows[i] = (char) key;
      ords[i] = (int) e;
    }
    for (int b = 0; b < BUCKETS; b++) {
      starts[b + 1] += starts[b];
    }
    return new BandRun(starts, lows, ords, min, max);
  }

  /** Entries for {@link #ofOrdered}, in slot form, in ascending ordinal order. */
  interface Source {
    int size();

    /**
     * Entries {@code [from, from + count)} in slot form, {@code key << 32 | (ordinal + 1)}, into
     * {@code out[0, count)}: in chunks, so a run costs one call per chunk rather than per entry.
     */
    void entries(int from, long[] out, int count);
  }

  /** Entries ofOrdered reads from its source at a time: 32 KiB, well inside the L1/L2 caches. */
  private static final int CHUNK = 1 << 12;

  /**
   * A run of {@code source}'s entries (slot form, live, at least one, in ascending ordinal order).
   * Sorts without comparisons: two stable counting passes, by the folded key's low 16 bits and then
   * by its top 16 (the bucket), so within a key the ordinals stay ascending, as {@link #of}'s full
   * sort leaves them. Reads each entry twice, a chunk at a time; linear in the entries; holds 14
   * bytes per entry while it works (the first pass's arrays and the run's), 6 once made.
   */
  static BandRun ofOrdered(Source source) {
    int n = source.size();
    long[] chunk = new long[Math.min(n, CHUNK)];
    // Pass 1: stable by the low 16 bits.
    int[] at = new int[BUCKETS];
    for (int from = 0; from < n; from += CHUNK) {
      int len = Math.min(CHUNK, n - from);
      source.entries(from, chunk, len);
      for (int k = 0; k < len; k++) {
        at[(int) (chunk[k] >>> 32) & 0xFFFF]++;
      }
    }
    toStarts(at);
    int[] keys1 = new int[n];
    int[] ords1 = new int[n];
    int min = 0;
    int max = 0;
    for (int from = 0; from < n; from += CHUNK) {
      int len = Math.min(CHUNK, n - from);
      source.entries(from, chunk, len);
      if (from == 0) {
        min = (int) chunk[0] - 1;
      }
      if (from + len == n) {
        max = (int) chunk[len - 1] - 1;
      }
      for (int k = 0; k < len; k++) {
        long e = chunk[k];
        int key = (int) (e >>> 32);
        int p = at[key & 0xFFFF]++;
        keys1[p] = key;
        ords1[p] = (int) e;
      }
    }
    // Pass 2: stable by the top 16 bits, into the run's buckets.
    int[] starts = new int[BUCKETS + 1];
    for (int i = 0; i < n; i++) {
      starts[(keys1[i] >>> 16) + 1]++;
    }
    for (int b = 0; b < BUCKETS; b++) {
      starts[b + 1] += starts[b];
    }
    System.arraycopy(starts, 0, at, 0, BUCKETS);
    char[] lows = new char[n];
    int[] ords = new int[n];
    for (int i = 0; i < n; i++) {
      int key = keys1[i];
      int p = at[key >>> 16]++;
      lows[p] = (char) key;
      ords[p] = ords1[i];
    }
    return new BandRun(starts, lows, ords, min, max);
  }

  /** Turns per-bucket counts into each bucket's first position, in place. */
  private static void toStarts(int[] counts) {
    int sum = 0;
    for (int b = 0; b < counts.length; b++) {
      int count = counts[b];
      counts[b] = sum;
      sum += count;
    }
  }

  /**
   * The live entries of {@code older} and {@code newer} (whose ordinals are all above older's) as
   * one run, in one pass over both.
   */
  static BandRun merge(BandRun older, BandRun newer) {
    int n = older.live + newer.live;
    int[] starts = new int[BUCKETS + 1];
    char[] lows = new char[n];
    int[] ords = new int[n];
    int out = 0;
    for (int b = 0; b < BUCKETS; b++) {
      int i = older.starts[b];
      int iEnd = older.starts[b + 1];
      int j = newer.starts[b];
      int jEnd = newer.starts[b + 1];
      while (i < iEnd || j < jEnd) {
        // Equal keys: older's ordinals are all lower, so older goes first.
        boolean takeOlder = j >= jEnd || (i < iEnd && older.lows[i] <= newer.lows[j]);
        BandRun from = takeOlder ? older : newer;
        int at = takeOlder ? i++ : j++;
        if (from.ords[at] > 0) {
          lows[out] = from.lows[at];
          ords[out] = from.ords[at];
          out++;
        }
      }
      starts[b + 1] = out;
    }
    return new BandRun(
        starts,
        lows,
        ords,
        Math.min(older.minOrdinal, newer.minOrdinal),
        Math.max(older.maxOrdinal, newer.maxOrdinal));
  }

  /** This run without its removed entries. */
  BandRun compacted() {
    return merge(this, of(new long[0], 0));
  }

  int size() {
    return lows.length;
  }

  /** The first position in key's bucket whose low bits are >= key's, and the bucket's end. */
  private int lowerBound(int key, int end) {
    char low = (char) key;
    int lo = starts[key >>> 16];
    int hi = end;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (lows[mid] < low) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** Calls {@code out} with every live ordinal stored under the folded key. */
  void forEach(int key, IntConsumer out) {
    int end = starts[(key >>> 16) + 1];
    char low = (char) key;
    for (int i = lowerBound(key, end); i < end && lows[i] == low; i++) {
      int o = ords[i];
      if (o > 0) {
        out.accept(o - 1);
      }
    }
  }

  /** Marks (key, ordinal) removed; returns whether it was there and live. */
  boolean remove(int key, int ordinal) {
    if (ordinal < minOrdinal || ordinal > maxOrdinal) {
      return false;
    }
    int end = starts[(key >>> 16) + 1];
    char low = (char) key;
    int want = ordinal + 1;
    int lo = lowerBound(key, end);
    int hi = lo;
    while (hi < end && lows[hi] == low) {
      hi++;
    }
    // Within one key the ordinals ascend (by absolute value): binary search.
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      int o = Math.abs(ords[mid]);
      if (o < want) {
        lo = mid + 1;
      } else if (o > want) {
        hi = mid;
      } else {
        // The same (key, ordinal) twice (two bands folding to one key): take a live one.
        int first = mid;
        while (first > lo && Math.abs(ords[first - 1]) == want) {
          first--;
        }
        for (int i = first; i < hi && Math.abs(ords[i]) == want; i++) {
          if (ords[i] > 0) {
            ords[i] = -want;
            live--;
            return true;
          }
        }
        return false;
      }
    }
    return false;
  }

  long ramBytesUsed() {
    return 64 + 16 + 4L * starts.length + 16 + 2L * lows.length + 16 + 4L * ords.length;
  }

  void checkInvariants() {
    Checks.checkState(starts[0] == 0 && starts[BUCKETS] == lows.length, "run bounds are off");
    int alive = 0;
    for (int b = 0; b < BUCKETS; b++) {
      Checks.checkState(starts[b] <= starts[b + 1], "bucket %s ends before it starts", b);
      for (int i = starts[b]; i < starts[b + 1]; i++) {
        Checks.checkState(ords[i] != 0, "entry %s has no ordinal", i);
        int o = Math.abs(ords[i]) - 1;
        Checks.checkState(o >= minOrdinal && o <= maxOrdinal, "ordinal %s outside the run", o);
        if (i > starts[b]) {
          boolean ordered =
              lows[i - 1] < lows[i]
                  || (lows[i - 1] == lows[i] && Math.abs(ords[i - 1]) <= Math.abs(ords[i]));
          Checks.checkState(ordered, "entries %s and %s out of order", i - 1, i);
        }
        alive += ords[i] > 0 ? 1 : 0;
      }
    }
    Checks.checkState(alive == live, "run live %s, counted %s", live, alive);
  }
}
