// SPDX-License-Identifier: Apache-2.0
package org.neardup.verify;

import java.io.IOException;
import java.util.function.IntConsumer;
import org.jspecify.annotations.Nullable;
import org.neardup.internal.ArrayInput;
import org.neardup.internal.ArrayOutput;
import org.neardup.internal.Checks;

/**
 * A frozen, sorted run of {@link BandIndex} entries: (folded key, tag, ordinal) triples in 7 bytes
 * each (6 in an index without tags), where the hash table they came from needs 11.7 to 22.
 * Read-only but for removals, which mark an entry in place; readers under the owner's read lock
 * share it.
 *
 * <p>Layout: entries sorted by folded key (unsigned), then ordinal. The key's top 16 bits are
 * implicit: bucket b's entries are {@code [starts[b], starts[b + 1])}; {@code lows} holds each
 * key's low 16 bits, {@code tags} its tag (the band key's top byte, see {@link BandIndex}; null in
 * an index without tags, where every tag is 0) and {@code ords} its ordinal + 1, negated when
 * removed (so the order by ordinal survives removal). A lookup reads one bucket bound,
 * binary-searches a bucket of n / 2^16 entries (at 300M entries, 50M documents of 6 bands, split in
 * runs of at most 2^23, about 7 steps per run) and reports the entries of its folded key whose tag
 * is its own. Memory: 7 (or 6) bytes per entry plus 256 KiB of bucket bounds per run.
 */
final class BandRun {
  /*
   * Invariants (checkInvariants): starts is non-decreasing, starts[0] == 0, starts[BUCKETS] ==
   * size; within a bucket, (lows[i] unsigned, |ords[i]|) non-decreasing; ords[i] != 0; live ==
   * the count of positive ords; every |ords[i]| - 1 is in [minOrdinal, maxOrdinal]; tags is null
   * or as long as lows. The tag is not part of the order: a folded key's entries are ~1 in a run
   * (n / 2^31 others at n entries), so a lookup compares their tags one by one.
   */
  static final int BUCKETS = 1 << 16;

  private final int[] starts;
  private final char[] lows;
  private final int[] ords;
  private final byte @Nullable [] tags;
  final int minOrdinal;
  final int maxOrdinal;
  int live;

  private BandRun(
      int[] starts,
      char[] lows,
      int[] ords,
      byte @Nullable [] tags,
      int minOrdinal,
      int maxOrdinal) {
    this.starts = starts;
    this.lows = lows;
    this.ords = ords;
    this.tags = tags;
    this.minOrdinal = minOrdinal;
    this.maxOrdinal = maxOrdinal;
    this.live = lows.length;
  }

  /** A run without entries, with tags when {@code tagged}. */
  static BandRun empty(boolean tagged) {
    return new BandRun(
        new int[BUCKETS + 1],
        new char[0],
        new int[0],
        tagged ? new byte[0] : null,
        Integer.MAX_VALUE,
        -1);
  }

  /** Entries for {@link #ofOrdered}, in slot form, in ascending ordinal order. */
  interface Source {
    int size();

    /**
     * Entries {@code [from, from + count)} in slot form, {@code key << 32 | (ordinal + 1)}, into
     * {@code out[off, off + count)}, and their tags into {@code tags[off, off + count)} unless
     * {@code tags} is null: in chunks, so a run costs one call per chunk rather than per entry.
     */
    void entries(int from, long[] out, byte @Nullable [] tags, int off, int count);
  }

  /** Entries ofOrdered takes from its source per call. */
  private static final int CHUNK = 1 << 12;

  /**
   * A run of {@code source}'s entries (slot form, live, at least one, in ascending ordinal order),
   * with their tags when {@code tagged}. Sorts without comparisons: four stable counting passes by
   * the folded key's bytes, low first, so within a key the ordinals stay ascending; one pass before
   * them counts every digit and the run's buckets. 8-bit digits scatter to 256 places, which the
   * caches and TLB hold, where the two 16-bit passes this replaced scattered to 65,536: about half
   * the time for a run of 2^23 entries (one JVM, alternating, on the loaded 2-core box: 0.15-0.58
   * of the 16-bit passes' time). Linear in the entries; holds 23 bytes per entry while it works
   * (two long arrays, the source's tags and the run's), 7 once made (22 and 6 without tags).
   */
  static BandRun ofOrdered(Source source, boolean tagged) {
    int n = source.size();
    long[] a = new long[n];
    byte[] ta = tagged ? new byte[n] : null;
    for (int from = 0; from < n; from += CHUNK) {
      int len = Math.min(CHUNK, n - from);
      source.entries(from, a, ta, from, len);
    }
    return ofSlots(a, ta, n);
  }

  /**
   * As {@link #ofOrdered} for the entries {@code a[0, n)} (slot form, live, at least one, in
   * ascending ordinal order) with their tags {@code ta[0, n)} (null: a run without tags). Uses
   * {@code a} as work space: its first n longs are garbage after.
   */
  static BandRun ofSlots(long[] a, byte @Nullable [] ta, int n) {
    boolean tagged = ta != null;
    int min = (int) a[0] - 1;
    int max = (int) a[n - 1] - 1;
    // The tags ride in the entries' low 32 bits, beside the ordinal less min, when it fits in 24
    // bits (always, for the runs of a restore or a compaction: at most 2^23 entries of consecutive
    // ordinals); else in byte arrays beside the longs, moved in every pass (the whole build took
    // ~1.45x the time when every run did so, docs/BENCHMARKS.md).
    boolean packed = ta != null && max - min < PACKED_SPAN;
    // One pass counts every digit: the key's four bytes, low first, and the buckets (top 16 bits).
    int[][] counts = new int[DIGITS][256];
    int[] starts = new int[BUCKETS + 1];
    for (int i = 0; i < n; i++) {
      int key = (int) (a[i] >>> 32);
      counts[0][key & 0xFF]++;
      counts[1][(key >>> 8) & 0xFF]++;
      counts[2][(key >>> 16) & 0xFF]++;
      counts[3][key >>> 24]++;
      starts[(key >>> 16) + 1]++;
    }
    for (int b = 0; b < BUCKETS; b++) {
      starts[b + 1] += starts[b];
    }
    for (int[] c : counts) {
      toStarts(c);
    }
    // Three stable passes by the low three bytes between two long arrays, the fourth (the top
    // byte) straight into the run's arrays: entries in (key, ordinal) order.
    long[] src = a;
    long[] dst = new long[n];
    byte[] tsrc = packed ? null : ta;
    byte[] tdst = tsrc == null ? null : new byte[n];
    for (int d = 0; d < DIGITS - 1; d++) {
      int[] at = counts[d];
      int shift = 32 + d * 8;
      if (d == 0 && packed && ta != null) {
        // The first pass packs each entry's tag beside its ordinal less min as it moves it.
        for (int i = 0; i < n; i++) {
          long e = src[i];
          dst[at[(int) (e >>> shift) & 0xFF]++] =
              e & 0xFFFFFFFF00000000L | (ta[i] & 0xFFL) << 24 | ((int) e - 1 - min);
        }
      } else if (tsrc == null || tdst == null) {
        for (int i = 0; i < n; i++) {
          long e = src[i];
          dst[at[(int) (e >>> shift) & 0xFF]++] = e;
        }
      } else {
        for (int i = 0; i < n; i++) {
          long e = src[i];
          int p = at[(int) (e >>> shift) & 0xFF]++;
          dst[p] = e;
          tdst[p] = tsrc[i];
        }
        byte[] t = tsrc;
        tsrc = tdst;
        tdst = t;
      }
      long[] t = src;
      src = dst;
      dst = t;
    }
    char[] lows = new char[n];
    int[] ords = new int[n];
    byte[] tags = tagged ? new byte[n] : null;
    int[] at = counts[DIGITS - 1];
    if (packed && tags != null) {
      int ordinalBase = min + 1;
      for (int i = 0; i < n; i++) {
        long e = src[i];
        int p = at[(int) (e >>> 56) & 0xFF]++;
        lows[p] = (char) (e >>> 32);
        ords[p] = ((int) e & (PACKED_SPAN - 1)) + ordinalBase;
        tags[p] = (byte) (e >>> 24);
      }
    } else {
      for (int i = 0; i < n; i++) {
        long e = src[i];
        int p = at[(int) (e >>> 56) & 0xFF]++;
        lows[p] = (char) (e >>> 32);
        ords[p] = (int) e;
        if (tags != null && tsrc != null) {
          tags[p] = tsrc[i];
        }
      }
    }
    return new BandRun(starts, lows, ords, tags, min, max);
  }

  /** Ordinals a run may span for ofOrdered to carry the tags in its longs: 2^24. */
  static final int PACKED_SPAN = 1 << 24;

  /** The key's bytes, each a counting pass of {@link #ofOrdered}. */
  private static final int DIGITS = 4;

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
   * The live entries of {@code older} and {@code newer} (whose ordinals are all above older's; both
   * with tags or both without) as one run, in one pass over both.
   */
  static BandRun merge(BandRun older, BandRun newer) {
    Checks.checkArgument(
        (older.tags == null) == (newer.tags == null), "cannot merge runs with and without tags");
    int n = older.live + newer.live;
    int[] starts = new int[BUCKETS + 1];
    char[] lows = new char[n];
    int[] ords = new int[n];
    byte[] tags = older.tags == null ? null : new byte[n];
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
          if (tags != null && from.tags != null) {
            tags[out] = from.tags[at];
          }
          out++;
        }
      }
      starts[b + 1] = out;
    }
    return new BandRun(
        starts,
        lows,
        ords,
        tags,
        Math.min(older.minOrdinal, newer.minOrdinal),
        Math.max(older.maxOrdinal, newer.maxOrdinal));
  }

  /** This run without its removed entries. */
  BandRun compacted() {
    return merge(this, empty(tags != null));
  }

  int size() {
    return lows.length;
  }

  /** Whether the run keeps its entries' tags. */
  boolean tagged() {
    return tags != null;
  }

  /**
   * Where {@code low} would sit in a bucket {@code [from, end)} (not empty) whose low bits were
   * spread evenly, as those of hashed keys are: the search starts there (see lowerBound).
   */
  private static int guess(char low, int from, int end) {
    return from + (int) (((long) low * (end - from)) >>> 16);
  }

  /**
   * The first position in the bucket {@code [from, end)} (not empty) whose low bits are >= {@code
   * low}, or end; {@code atGuess} is {@code lows[guess(low, from, end)]}. The low bits of hashed
   * keys spread evenly over a bucket, so the entry sought is usually within a few places of the
   * guess, in its cache line: the search gallops from it (1, 2, 4, ... places) and ends with a
   * binary search of the last step, O(log distance) for any keys. The binary search of the whole
   * bucket this replaced touched 3-4 cache lines of a bucket of 128 entries (a run of 2^23), one
   * dependent miss after another: 37% of a warm server's worker samples on short texts at 10M
   * documents (docs/BENCHMARKS.md, the twenty-first session).
   */
  private int lowerBound(char low, int from, int end, char atGuess) {
    int g = guess(low, from, end);
    int lo;
    int hi;
    if (atGuess < low) { // the answer is above g
      lo = g + 1;
      hi = end;
      for (int step = 1; ; step <<= 1) {
        int p = g + step;
        if (p >= end) {
          break;
        }
        if (lows[p] >= low) {
          hi = p;
          break;
        }
        lo = p + 1;
      }
    } else { // the answer is g or below
      lo = from;
      hi = g;
      for (int step = 1; ; step <<= 1) {
        int p = g - step;
        if (p < from) {
          break;
        }
        if (lows[p] < low) {
          lo = p + 1;
          break;
        }
        hi = p;
      }
    }
    while (lo < hi) { // the answer is in [lo, hi]
      int mid = (lo + hi) >>> 1;
      if (lows[mid] < low) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** {@link #lowerBound(char, int, int, char)} of key's low bits in its bucket [from, end). */
  private int lowerBound(int key, int from, int end) {
    if (from == end) {
      return end;
    }
    char low = (char) key;
    return lowerBound(low, from, end, lows[guess(low, from, end)]);
  }

  /** Whether entry i's tag is {@code tag} (always, in a run without tags: every tag is 0). */
  private boolean tagged(int i, byte tag) {
    return tags == null || tags[i] == tag;
  }

  /** Calls {@code out} with every live ordinal stored under the folded key and tag. */
  void forEach(int key, byte tag, IntConsumer out) {
    int b = key >>> 16;
    int end = starts[b + 1];
    report(lowerBound(key, starts[b], end), end, (char) key, tag, out);
  }

  /** Calls {@code out} with the live ordinals of [i, end) under low and tag: those from i on. */
  private void report(int i, int end, char low, byte tag, IntConsumer out) {
    for (; i < end && lows[i] == low; i++) {
      int o = ords[i];
      if (o > 0 && tagged(i, tag)) {
        out.accept(o - 1);
      }
    }
  }

  /**
   * {@link #forEach(int, byte, IntConsumer)} of each of the folded keys {@code keys[0, n)} with its
   * tag {@code tags[j]} in each of the runs from {@code runs[first]} on, the ordinals reported run
   * by run. The lookups run phase by phase, each phase over all of them (the buckets' bounds, the
   * entry at each guess, the rest of each search, the ordinals and tags), so that the cache misses
   * of one phase, which do not depend on each other, overlap: one after another, a query's 6 keys
   * in ~8-15 runs (10M documents) waited for ~3 misses each, ~150 in a row. {@code lookup} holds
   * the phases' state.
   */
  static void forEachAll(
      BandRun[] runs, int first, int[] keys, byte[] tags, int n, IntConsumer out, Lookup lookup) {
    lookup.ensure(runs.length * n);
    int[] at = lookup.at;
    int[] end = lookup.end;
    char[] peek = lookup.peek;
    for (int r = first, x = 0; r < runs.length; r++) {
      int[] starts = runs[r].starts;
      for (int j = 0; j < n; j++, x++) {
        int b = keys[j] >>> 16;
        at[x] = starts[b];
        end[x] = starts[b + 1];
      }
    }
    for (int r = first, x = 0; r < runs.length; r++) {
      char[] lows = runs[r].lows;
      for (int j = 0; j < n; j++, x++) {
        if (at[x] < end[x]) {
          peek[x] = lows[guess((char) keys[j], at[x], end[x])];
        }
      }
    }
    for (int r = first, x = 0; r < runs.length; r++) {
      BandRun run = runs[r];
      for (int j = 0; j < n; j++, x++) {
        if (at[x] < end[x]) {
          at[x] = run.lowerBound((char) keys[j], at[x], end[x], peek[x]);
        }
      }
    }
    for (int r = first, x = 0; r < runs.length; r++) {
      BandRun run = runs[r];
      for (int j = 0; j < n; j++, x++) {
        run.report(at[x], end[x], (char) keys[j], tags[j], out);
      }
    }
  }

  /** The state of {@link #forEachAll}'s phases: one per thread, reused. */
  static final class Lookup {
    int[] at = new int[0];
    int[] end = new int[0];
    char[] peek = new char[0];

    void ensure(int m) {
      if (at.length < m) {
        int size = Math.max(m, at.length * 2);
        at = new int[size];
        end = new int[size];
        peek = new char[size];
      }
    }
  }

  /** Marks (key, tag, ordinal) removed; returns whether it was there and live. */
  boolean remove(int key, byte tag, int ordinal) {
    if (ordinal < minOrdinal || ordinal > maxOrdinal) {
      return false;
    }
    int end = starts[(key >>> 16) + 1];
    char low = (char) key;
    int want = ordinal + 1;
    int lo = lowerBound(key, starts[key >>> 16], end);
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
        // The same (key, ordinal) twice (two bands folding to one key, their tags alike or not):
        // take a live one of the tag.
        int first = mid;
        while (first > lo && Math.abs(ords[first - 1]) == want) {
          first--;
        }
        for (int i = first; i < hi && Math.abs(ords[i]) == want; i++) {
          if (ords[i] > 0 && tagged(i, tag)) {
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

  /**
   * Writes the run (live entries only: a run of a {@link BandImage} has no removed ones): Entries,
   * MinOrdinal, MaxOrdinal, starts, lows, ords, tags (see {@link BandImage}).
   */
  void write(ArrayOutput out) throws IOException {
    Checks.checkState(live == lows.length && tags != null, "only a whole tagged run is written");
    out.writeInt(lows.length);
    out.writeInt(minOrdinal);
    out.writeInt(maxOrdinal);
    out.writeInts(starts, 0, starts.length);
    out.writeChars(lows, 0, lows.length);
    out.writeInts(ords, 0, ords.length);
    out.writeBytes(tags, 0, tags.length);
  }

  /**
   * Reads a run {@link #write} wrote, after its Entries ({@code n}, at least 1), checking what a
   * lookup relies on for memory safety and the ordinals' range (every entry live, its ordinal in
   * [MinOrdinal, MaxOrdinal], those in [0, {@code positions})); the file's checksum guards the
   * order.
   *
   * @throws IOException if the file ends early or the run's shape is wrong
   */
  static BandRun read(ArrayInput in, int n, int positions) throws IOException {
    int min = in.readInt(0, positions - 1, "a run's lowest ordinal");
    int max = in.readInt(min, positions - 1, "a run's highest ordinal");
    int[] starts = new int[BUCKETS + 1];
    in.readInts(starts);
    if (starts[0] != 0 || starts[BUCKETS] != n) {
      throw new IOException("a run's buckets do not span its " + n + " entries");
    }
    for (int b = 0; b < BUCKETS; b++) {
      if (starts[b] > starts[b + 1]) {
        throw new IOException("a run's buckets decrease at " + b);
      }
    }
    char[] lows = new char[n];
    in.readChars(lows);
    int[] ords = new int[n];
    in.readInts(ords);
    for (int o : ords) {
      if (o <= min || o > max + 1) {
        throw new IOException(
            "a run's ordinal " + (o - 1) + " is outside [" + min + ", " + max + "]");
      }
    }
    byte[] tags = new byte[n];
    in.readBytes(tags);
    return new BandRun(starts, lows, ords, tags, min, max);
  }

  /**
   * This run with ordinal p turned into p minus the skipped positions below it and the entries of
   * skipped positions left out, or null when none is left. {@code below[w]} counts the set bits of
   * {@code words[0, w)}. For a run whose entries are all live.
   */
  @Nullable BandRun renumbered(long[] words, int[] below) {
    int n = lows.length;
    int[] newStarts = new int[BUCKETS + 1];
    char[] newLows = new char[n];
    int[] newOrds = new int[n];
    byte[] newTags = tags == null ? null : new byte[n];
    int out = 0;
    int newMin = Integer.MAX_VALUE;
    int newMax = -1;
    for (int b = 0; b < BUCKETS; b++) {
      for (int i = starts[b]; i < starts[b + 1]; i++) {
        int p = ords[i] - 1;
        int w = p >>> 6;
        int skippedBelow;
        if (w < words.length) {
          if ((words[w] & (1L << p)) != 0) {
            continue;
          }
          skippedBelow = below[w] + Long.bitCount(words[w] & ((1L << p) - 1));
        } else {
          skippedBelow = below[words.length];
        }
        int o = p - skippedBelow;
        newLows[out] = lows[i];
        newOrds[out] = o + 1;
        if (newTags != null && tags != null) {
          newTags[out] = tags[i];
        }
        newMin = Math.min(newMin, o);
        newMax = Math.max(newMax, o);
        out++;
      }
      newStarts[b + 1] = out;
    }
    if (out == 0) {
      return null;
    }
    if (out < n) {
      newLows = java.util.Arrays.copyOf(newLows, out);
      newOrds = java.util.Arrays.copyOf(newOrds, out);
      newTags = newTags == null ? null : java.util.Arrays.copyOf(newTags, out);
    }
    return new BandRun(newStarts, newLows, newOrds, newTags, newMin, newMax);
  }

  long ramBytesUsed() {
    long bytes = 72 + 16 + 4L * starts.length + 16 + 2L * lows.length + 16 + 4L * ords.length;
    return tags == null ? bytes : bytes + 16 + tags.length;
  }

  void checkInvariants() {
    Checks.checkState(starts[0] == 0 && starts[BUCKETS] == lows.length, "run bounds are off");
    Checks.checkState(tags == null || tags.length == lows.length, "run tags are off");
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
