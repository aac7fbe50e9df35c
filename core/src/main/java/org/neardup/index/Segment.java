// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;
import org.neardup.internal.TaskThread;

/**
 * An immutable, sorted part of a {@link BlockPermutedIndex}: every entry once per table, plus
 * tombstones for entries removed after the segment was built.
 *
 * <p>Layout, n entries and T tables:
 *
 * <pre>
 * Segment  --> Table0, Table1 .. Table(T-1), Tombstones
 * Table0   --> fingerprints, Ids, Directory                       sorted by (unsigned fp, docId)
 * fingerprints --> hi int[n], lo short[n]: bits 47..16 and 15..0 of fp; bits 63..48 are the
 *              entry's directory bucket
 * Ids      --> int[n] offsets from the smallest docId when all fit in 32 bits, else long[n]
 * Table t  --> records, Directory                                 sorted by value(t, fp)
 * records  --> prefix layout (every key 16 bits, 4:1): tag int[n], the 32-bit tag
 *              wide layout (other schemes): hi int[n], lo short[n], bits 47..16 and 15..0 of
 *              permute(t, fp); the top 16 bits of a value are its bucket ({@link RecordLayout})
 * Directory --> int[65537]: dir[b] = first entry whose top 16 bits are >= b; dir[65536] = n
 *               (+ FineDirectory, the same over the top f bits, when the table's key is wider
 *               than 16 bits and n >= 2^21: f = min(key bits, floor(log2 n) - 4, 26))
 * Tombstones --> long[ceil(n / 64)]: bit i set when table-0 entry i is removed
 * </pre>
 *
 * 6 + 4 + 4 (T - 1) bytes per entry for the default 4-table scheme, 22 (26 with 8-byte docIds; 34
 * before the prefix layout), plus 256 KiB of directory per table and segment; 6 + 8 + 6 (T - 1) for
 * wide schemes, plus 2-4 bytes per entry per table for fine directories. Every table, table 0
 * included, is scanned as an int[] (the bits below the bucket's 16), which the JIT vectorises. A
 * match found in table t is recovered by binary-searching table 0 for the prefix the record fixes:
 * the whole fingerprint for a wide record, the top 32 or more bits for a tag; that yields the
 * docIds.
 *
 * <p>Thread safety: all arrays except the tombstones are written before the segment is published
 * and never again. Tombstone bits are set under the index's lock (by the writer's removes, and by a
 * background job carrying removes over into the segment it built) with release stores; readers read
 * them with acquire loads, so a reader sees a removal either fully or not at all. A background
 * merge reads its inputs' tombstones once, as a {@linkplain #snapshot snapshot}, and uses that
 * snapshot for every table, so the tables of its output agree even while removes go on.
 */
final class Segment {
  /*
   * Invariants (checked by checkInvariants):
   * - table 0's fingerprints fp(i) sorted by Long.compareUnsigned, ties by docId (signed); ids[i]
   *   belongs to fp(i); records[0] holds their low 48 bits, the bucket the top 16.
   * - every table t >= 1 holds the multiset {value(t, fp(i))}, sorted unsigned.
   * - dirs[t][b] == number of entries of table t whose top 16 bits are < b.
   * - deadCount == popcount(dead); no bit at or beyond size is set.
   * - removals != null exactly while a background job of the index reads this segment.
   */
  static final int DIR_BITS = 16;
  static final int BUCKETS = 1 << DIR_BITS;
  static final long MASK48 = (1L << 48) - 1;
  static final int RECORD = 6;
  static final int PREFIX_RECORD = 4;

  /** Fine directories (keys wider than 16 bits) average 2^FINE_SHIFT entries per slot. */
  static final int FINE_SHIFT = 4;

  static final int MAX_FINE_BITS = 26;

  /** Entries a table-0 lookup first searches around its interpolated position. */
  static final int INTERPOLATION_WINDOW = 16;

  /** The most entries a segment holds: a third of the largest array, so merges stay allocatable. */
  static final int MAX_SIZE = (Integer.MAX_VALUE - 64) / 3;

  private static final VarHandle DEAD = MethodHandles.arrayElementVarHandle(long[].class);

  final int size;
  final WideRecords table0; // table 0: the low 48 bits of each fingerprint, records[0] too
  final DocIds ids;
  final TableRecords[] records;
  final int[][] dirs;
  final long[] dead;
  // Per table: bits of the fine directory (0 = none) and the directory itself.
  final int[] fineBits;
  final int[][] fineDirs;
  int deadCount; // guarded by the index's lock

  /** Removes made while a background job reads this segment; guarded by the index's lock. */
  @Nullable RemovalLog removals;

  Segment(
      RecordLayout layout, int size, long[] fps, long[] ids, TableRecords[] records, int[][] dirs) {
    this(layout, size, table0(fps, size), DocIds.of(ids), records, dirs);
  }

  private static WideRecords table0(long[] fps, int size) {
    WideRecords table0 = new WideRecords(size);
    for (int i = 0; i < size; i++) {
      table0.set(i, fps[i] & MASK48);
    }
    return table0;
  }

  /**
   * A segment from its sorted parts (an {@link IndexImage} read back): {@code records[0]} becomes
   * {@code table0}; the fine directories are derived again.
   */
  Segment(
      RecordLayout layout,
      int size,
      WideRecords table0,
      DocIds ids,
      TableRecords[] records,
      int[][] dirs) {
    BlockScheme scheme = layout.scheme();
    this.size = size;
    this.table0 = table0;
    records[0] = table0;
    this.ids = ids;
    this.records = records;
    this.dirs = dirs;
    this.dead = new long[(size + 63) >>> 6];
    int tables = dirs.length;
    fineBits = new int[tables];
    fineDirs = new int[tables][];
    int log = 31 - Integer.numberOfLeadingZeros(Math.max(1, size));
    for (int t = 0; t < tables; t++) {
      int bits = Math.min(scheme.keyBits(t), Math.min(MAX_FINE_BITS, log - FINE_SHIFT));
      if (bits > DIR_BITS) {
        fineBits[t] = bits;
        fineDirs[t] = fineDirectory(t, bits);
      }
    }
  }

  /**
   * A directory over the top {@code bits} (> 16) bits of table t: for keys wider than 16 bits it
   * narrows a lookup to about 2^FINE_SHIFT entries before the binary search, where the 16-bit
   * directory leaves n / 2^16 (763 at 50M entries: 72 cache lines to touch per table).
   */
  private int[] fineDirectory(int t, int bits) {
    int[] fine = new int[(1 << bits) + 1];
    int[] dir = dirs[t];
    int shift = 64 - bits;
    for (int b = 0; b < BUCKETS; b++) {
      long top = (long) b << 48;
      for (int i = dir[b]; i < dir[b + 1]; i++) {
        long v = top | records[t].get(i);
        fine[(int) (v >>> shift) + 1]++;
      }
    }
    for (int x = 0; x < fine.length - 1; x++) {
      fine[x + 1] += fine[x];
    }
    return fine;
  }

  int live() {
    return size - deadCount;
  }

  /** Table 0's fingerprint at i, which lies in directory bucket {@code bucket}. */
  long fp(int bucket, int i) {
    return ((long) bucket << 48) | table0.get(i);
  }

  /** Table 0's fingerprint at i; O(log buckets), for the rare lookups by position. */
  long fp(int i) {
    return fp(bucket0(i), i);
  }

  /** The directory bucket of table 0 that holds entry i. */
  int bucket0(int i) {
    int[] dir = dirs[0];
    int lo = 0;
    int hi = BUCKETS - 1;
    while (lo < hi) { // the last b with dir[b] <= i
      int mid = (lo + hi + 1) >>> 1;
      if (dir[mid] <= i) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  /** Every fingerprint of table 0 in order, in a new array (invariant checks, tests). */
  long[] fingerprints() {
    long[] out = new long[size];
    int[] dir = dirs[0];
    for (int b = 0; b < BUCKETS; b++) {
      for (int i = dir[b]; i < dir[b + 1]; i++) {
        out[i] = fp(b, i);
      }
    }
    return out;
  }

  static long read48(TableRecords records, int i) {
    return records.get(i);
  }

  /** The full permuted value of entry i in a record table, given its bucket. */
  static long full(TableRecords records, int bucket, int i) {
    return ((long) bucket << 48) | read48(records, i);
  }

  boolean isDead(int i) {
    return ((long) DEAD.getAcquire(dead, i >>> 6) & (1L << i)) != 0;
  }

  /** Under the index's lock. */
  void markDead(int i) {
    long word = dead[i >>> 6];
    assert (word & (1L << i)) == 0;
    DEAD.setRelease(dead, i >>> 6, word | (1L << i));
    deadCount++;
  }

  /**
   * A copy of tombstone bits {@code dead}, each word read with an acquire load: a set of removals
   * that were complete when it was read. O(n / 64).
   */
  static long[] snapshot(long[] dead) {
    long[] copy = new long[dead.length];
    for (int w = 0; w < dead.length; w++) {
      copy[w] = (long) DEAD.getAcquire(dead, w);
    }
    return copy;
  }

  static boolean isSet(long[] bits, int i) {
    return (bits[i >>> 6] & (1L << i)) != 0;
  }

  static int popcount(long[] bits) {
    int c = 0;
    for (long w : bits) {
      c += Long.bitCount(w);
    }
    return c;
  }

  /**
   * Marks one live entry (fp, docId) dead, under the index's lock: a remove that a background job
   * carries over from its inputs to the segment it built. Copies of one (fp, docId) pair are
   * interchangeable, so any live one will do.
   *
   * @return whether a live copy was found
   */
  boolean removeCopy(long fp, long docId) {
    int at = find(fp, docId);
    if (at < 0) {
      return false;
    }
    markDead(at);
    return true;
  }

  /**
   * Entries from which {@link #build} sorts the tables on two threads: 2^20, where the build takes
   * a few hundred milliseconds, far more than starting a thread.
   */
  static final int PARALLEL_BUILD_AT = 1 << 20;

  /**
   * Builds a segment from {@code fps[0, n)} and {@code ids[0, n)}, which it sorts in place (the
   * arrays must be exactly n long and not used by the caller afterwards). From {@link
   * #PARALLEL_BUILD_AT} entries on, with two processors or more, the upper half of the tables is
   * sorted on a second thread from a copy of the fingerprints, while this one sorts table 0 and the
   * lower half: the open of a store builds its whole index here (about a third of the open's CPU at
   * 10M documents), and the second core is idle then. That costs 3 * 8 bytes per entry more while
   * it runs.
   */
  static Segment build(RecordLayout layout, long[] fps, long[] ids) {
    BlockScheme scheme = layout.scheme();
    int n = fps.length;
    assert ids.length == n && n <= MAX_SIZE;
    int tables = scheme.tables();
    TableRecords[] records = new TableRecords[tables];
    int[][] dirs = new int[tables][];
    int split = tables;
    TaskThread helper = null;
    if (n >= PARALLEL_BUILD_AT && tables >= 3 && Runtime.getRuntime().availableProcessors() >= 2) {
      split = 1 + (tables - 1) / 2; // table 0 sorts ids too: this thread takes the lower half
      // Tables [split, T) from its own copy of the fingerprints; its writes to records and dirs are
      // seen here after finish (Thread.join).
      long[] copy = fps.clone();
      int from = split;
      helper =
          new TaskThread(
              "neardup-segment-build",
              () ->
                  buildTables(layout, copy, from, tables, records, dirs, new long[n], new long[n]));
      helper.start();
    }
    try {
      long[] scratch = new long[n];
      long[] scratch2 = new long[n];
      RadixSort.sortUnsigned(fps, ids, n, scratch, scratch2);
      sortIdsWithinEqualFingerprints(fps, ids, n);
      dirs[0] = directory(fps, n);
      buildTables(layout, fps, 1, split, records, dirs, scratch2, scratch);
    } finally {
      if (helper != null) {
        helper.finish();
      }
    }
    return new Segment(layout, n, fps, ids, records, dirs);
  }

  /**
   * Sorts tables {@code [from, to)} of the fingerprints {@code fps} (in any order) into records and
   * directories, using {@code permuted} and {@code scratch} (n long each) as work space.
   */
  private static void buildTables(
      RecordLayout layout,
      long[] fps,
      int from,
      int to,
      TableRecords[] records,
      int[][] dirs,
      long[] permuted,
      long[] scratch) {
    int n = fps.length;
    for (int t = from; t < to; t++) {
      for (int i = 0; i < n; i++) {
        permuted[i] = layout.value(t, fps[i]);
      }
      RadixSort.sortUnsigned(permuted, n, scratch);
      dirs[t] = directory(permuted, n);
      records[t] = toRecords(layout, permuted, n);
    }
  }

  static void sortIdsWithinEqualFingerprints(long[] fps, long[] ids, int n) {
    for (int i = 0; i < n; ) {
      int j = i + 1;
      while (j < n && fps[j] == fps[i]) {
        j++;
      }
      if (j - i > 1) {
        Arrays.sort(ids, i, j);
      }
      i = j;
    }
  }

  static int[] directory(long[] sorted, int n) {
    int[] dir = new int[BUCKETS + 1];
    for (int i = 0; i < n; i++) {
      dir[(int) (sorted[i] >>> 48) + 1]++;
    }
    for (int b = 0; b < BUCKETS; b++) {
      dir[b + 1] += dir[b];
    }
    return dir;
  }

  private static TableRecords toRecords(RecordLayout layout, long[] sorted, int n) {
    TableRecords r = TableRecords.create(layout, n);
    for (int i = 0; i < n; i++) {
      r.set(i, sorted[i]);
    }
    return r;
  }

  /**
   * Index of the first entry of table 0 in [from, to) whose fingerprint is >= fp, unsigned; [from,
   * to) lies in fp's directory bucket.
   */
  int lowerBound0(int from, int to, long fp) {
    long low48 = fp & MASK48;
    int n = to - from;
    if (n > 2 * INTERPOLATION_WINDOW) {
      // Fingerprints spread evenly below their bucket's 16 bits, so the answer is near the guess
      // (153 entries at 10M: off by about 6): search a window of 16 ints, one or two cache lines,
      // when its ends prove the answer inside, instead of some 5 dependent misses across the
      // bucket.
      int guess = from + (int) (((low48 >>> 16) * n) >>> 32);
      int lo = Math.max(from, guess - INTERPOLATION_WINDOW / 2);
      int hi = Math.min(to, guess + INTERPOLATION_WINDOW / 2);
      if ((lo == from || below0(lo - 1, low48)) && (hi == to || !below0(hi, low48))) {
        return lowerBound(0, lo, hi, low48);
      }
    }
    return lowerBound(0, from, to, low48);
  }

  /**
   * Loads what a match of table 0 near where fp sorts in [from, to) (fp's bucket) will need, its
   * low 16 bits, docId and tombstone word, at the position fp interpolates to ({@link
   * #lowerBound0}), and returns a sum of them for the caller to keep (so the loads stay). Issued
   * beside the bucket's own loads, these misses overlap them instead of following them as another
   * round: a match is within k bits of the query, so it usually sorts within a few entries of the
   * guess, on the lines loaded here.
   */
  long touch0(int from, int to, long fp) {
    int n = to - from;
    if (n <= 0) {
      return 0;
    }
    int guess = from + (int) ((((fp & MASK48) >>> 16) * n) >>> 32);
    return table0.lo[guess] + ids.get(guess) + dead[guess >>> 6];
  }

  /** Whether table 0's entry i is below low48 in its low 48 bits; reads the low 16 on a tie. */
  private boolean below0(int i, long low48) {
    int h = table0.hi[i] ^ Integer.MIN_VALUE;
    int target = (int) (low48 >>> 16) ^ Integer.MIN_VALUE;
    return h < target || (h == target && (table0.lo[i] & 0xFFFF) < (int) (low48 & 0xFFFF));
  }

  /** Index of the first record of table t in [from, to) whose low 48 bits are >= low48. */
  int lowerBound(int t, int from, int to, long low48) {
    if (low48 > MASK48) {
      return to; // the step past the last key of a bucket
    }
    // Compare the int part first: the short part (another cache line) only on a tie.
    WideRecords r = (WideRecords) records[t];
    int[] hi = r.hi;
    short[] lo = r.lo;
    int targetHi = (int) (low48 >>> 16) ^ Integer.MIN_VALUE;
    int targetLo = (int) (low48 & 0xFFFF);
    while (from < to) {
      int mid = (from + to) >>> 1;
      int h = hi[mid] ^ Integer.MIN_VALUE; // unsigned order
      if (h < targetHi || (h == targetHi && (lo[mid] & 0xFFFF) < targetLo)) {
        from = mid + 1;
      } else {
        to = mid;
      }
    }
    return from;
  }

  /** Position of a live entry (fp, docId) in table 0, or -1. */
  int find(long fp, long docId) {
    int b = (int) (fp >>> 48);
    int end = dirs[0][b + 1];
    int i = lowerBound0(dirs[0][b], end, fp);
    for (; i < end && fp(b, i) == fp; i++) {
      long id = ids.get(i);
      if (id == docId && !isDead(i)) {
        return i;
      }
      if (id > docId) {
        break;
      }
    }
    return -1;
  }

  /**
   * About what {@link #ramBytesUsed} will return for a segment of n entries (fine directories left
   * out): what a background job is about to allocate.
   */
  static long estimateBytes(RecordLayout layout, long n) {
    int tables = layout.scheme().tables();
    return 64
        + 14 * n
        + 32
        + (tables - 1) * (48 + (layout.prefix() ? PREFIX_RECORD : RECORD) * n)
        + tables * (16 + 4L * (BUCKETS + 1))
        + 16
        + n / 8
        + 16L * tables;
  }

  long ramBytesUsed() {
    long bytes = 64 + ids.ramBytesUsed(); // header, ids; table 0 is records[0]

    for (int t = 0; t < records.length; t++) {
      if (records[t] != null) {
        bytes += records[t].ramBytesUsed();
      }
      bytes += 16 + 4L * dirs[t].length;
      if (fineDirs[t] != null) {
        bytes += 16 + 4L * fineDirs[t].length;
      }
    }
    return bytes + 16 + 8L * dead.length + 16L * records.length;
  }

  /**
   * Builds a segment from the live entries of a full add buffer without a global sort: each table's
   * chains already group entries by the top 16 bits of the permuted fingerprint, so each table is
   * one walk over its 65,536 chains plus a sort of each (small) chain. Falls back to {@link #build}
   * when the buffer hashes on fewer than 16 bits.
   */
  static Segment fromBuffer(RecordLayout layout, AddBuffer buffer) {
    return fromBuffer(layout, buffer, snapshot(buffer.dead));
  }

  /**
   * As {@link #fromBuffer(BlockScheme, AddBuffer)}, with the entries live in the tombstone snapshot
   * {@code dead} of a buffer no longer appended to.
   */
  static Segment fromBuffer(RecordLayout layout, AddBuffer buffer, long[] dead) {
    BlockScheme scheme = layout.scheme();
    int n = buffer.size;
    int live = n - popcount(dead);
    int tables = scheme.tables();
    boolean chained = true;
    for (int t = 0; t < tables; t++) {
      chained &= buffer.hashBits[t] == DIR_BITS;
    }
    if (!chained) {
      long[] fps = new long[live];
      long[] ids = new long[live];
      int o = 0;
      for (int j = 0; j < n; j++) {
        if (!isSet(dead, j)) {
          fps[o] = buffer.fps[j];
          ids[o++] = buffer.ids[j];
        }
      }
      return build(layout, fps, ids);
    }
    long[] fps = new long[live];
    long[] ids = new long[live];
    TableRecords[] records = new TableRecords[tables];
    int[][] dirs = new int[tables][];
    long[] group = new long[64];
    long[] groupIds = new long[64];
    for (int t = 0; t < tables; t++) {
      int[] head = buffer.heads[t];
      int[] next = buffer.next[t];
      int[] dir = new int[BUCKETS + 1];
      TableRecords r = t == 0 ? null : TableRecords.create(layout, live);
      int o = 0;
      for (int bucket = 0; bucket < BUCKETS; bucket++) {
        int g = 0;
        for (int c = head[bucket]; c != 0; c = next[c - 1]) {
          int j = c - 1;
          if (isSet(dead, j)) {
            continue;
          }
          if (g == group.length) {
            group = Arrays.copyOf(group, g * 2);
            groupIds = Arrays.copyOf(groupIds, g * 2);
          }
          group[g] = layout.value(t, buffer.fps[j]);
          groupIds[g++] = buffer.ids[j];
        }
        // One bucket shares its top 16 bits, so signed order is unsigned order here.
        if (t == 0) {
          sortPairs(group, groupIds, g);
          System.arraycopy(group, 0, fps, o, g);
          System.arraycopy(groupIds, 0, ids, o, g);
        } else {
          if (g > 1) {
            Arrays.sort(group, 0, g);
          }
          for (int x = 0; x < g; x++) {
            r.set(o + x, group[x]);
          }
        }
        o += g;
        dir[bucket + 1] = o;
      }
      assert o == live;
      records[t] = r;
      dirs[t] = dir;
    }
    return new Segment(layout, live, fps, ids, records, dirs);
  }

  /** Sorts {@code (a[i], b[i])}, i < n, by a then b, signed (callers keep a's sign fixed). */
  private static void sortPairs(long[] a, long[] b, int n) {
    if (n <= 32) {
      for (int i = 1; i < n; i++) {
        long x = a[i];
        long y = b[i];
        int j = i - 1;
        while (j >= 0 && (a[j] > x || (a[j] == x && b[j] > y))) {
          a[j + 1] = a[j];
          b[j + 1] = b[j];
          j--;
        }
        a[j + 1] = x;
        b[j + 1] = y;
      }
      return;
    }
    RadixSort.sortUnsigned(a, b, n, new long[n], new long[n]);
    sortIdsWithinEqualFingerprints(a, b, n);
  }

  /** Throws IllegalStateException describing the first broken invariant. */
  void checkInvariants(RecordLayout layout) {
    BlockScheme scheme = layout.scheme();
    check(table0.size() == size && ids.length() == size, "table 0 arrays sized %s", size);
    check(records[0] == table0, "records[0] is not table 0", 0);
    checkDirectory(dirs[0], null, 0);
    long[] fps = fingerprints();
    for (int i = 1; i < size; i++) {
      int c = Long.compareUnsigned(fps[i - 1], fps[i]);
      check(c < 0 || (c == 0 && ids.get(i - 1) <= ids.get(i)), "table 0 unsorted at %s", i);
    }
    long[] expected = new long[size];
    long[] scratch = new long[size];
    for (int t = 1; t < scheme.tables(); t++) {
      TableRecords r = records[t];
      int[] dir = dirs[t];
      check(r.size() == size, "table %s records sized %s", t, r.size());
      checkDirectory(dir, null, t);
      long[] actual = new long[size];
      int bucket = 0;
      for (int i = 0; i < size; i++) {
        while (dir[bucket + 1] <= i) {
          bucket++;
        }
        actual[i] = full(r, bucket, i);
        check(i == 0 || Long.compareUnsigned(actual[i - 1], actual[i]) <= 0, "unsorted t%s", t);
      }
      for (int i = 0; i < size; i++) {
        expected[i] = layout.value(t, fps[i]);
      }
      RadixSort.sortUnsigned(expected, size, scratch);
      check(Arrays.equals(expected, actual), "table %s holds other fingerprints than table 0", t);
    }
    for (int t = 0; t < scheme.tables(); t++) {
      if (fineDirs[t] != null) {
        check(
            Arrays.equals(fineDirs[t], fineDirectory(t, fineBits[t])),
            "table %s fine directory inconsistent",
            t);
      }
    }
    int bits = 0;
    for (long w : dead) {
      bits += Long.bitCount(w);
    }
    check(bits == deadCount, "deadCount %s but %s tombstones", deadCount, bits);
    if ((size & 63) != 0 && dead.length > 0) {
      check(dead[dead.length - 1] >>> (size & 63) == 0, "tombstone beyond size %s", size);
    }
  }

  private void checkDirectory(int[] dir, java.util.function.IntToLongFunction top, int t) {
    check(dir.length == BUCKETS + 1 && dir[0] == 0 && dir[BUCKETS] == size, "dir %s ends", t);
    for (int b = 0; b < BUCKETS; b++) {
      check(dir[b] <= dir[b + 1], "table %s directory decreases at %s", t, b);
      if (top != null) {
        for (int i = dir[b]; i < dir[b + 1]; i++) {
          check(top.applyAsLong(i) == b, "table %s entry %s outside bucket %s", t, i, b);
        }
      }
    }
  }

  private static void check(boolean ok, String template, Object... args) {
    if (!ok) {
      throw new IllegalStateException(
          "Segment invariant broken: " + String.format(java.util.Locale.ROOT, template, args));
    }
  }
}
