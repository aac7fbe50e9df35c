// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

import org.jspecify.annotations.Nullable;

/**
 * Merges of {@link Segment}s: two into one, or one compacted (its tombstoned entries dropped), for
 * the background jobs of a {@link BlockPermutedIndex}. The output holds no tombstones; removes made
 * after the inputs' tombstones were read are the caller's to carry over ({@link
 * Segment#removeCopy}).
 */
final class SegmentMerge {
  private SegmentMerge() {}

  /**
   * Merges the live entries of {@code a} and {@code b} into a new segment; with {@code b == null}
   * compacts {@code a} (drops its tombstoned entries). Reads the tombstones as they are now: for
   * callers that no remove runs concurrently with.
   */
  static Segment merge(RecordLayout layout, Segment a, @Nullable Segment b) {
    return merge(
        layout, a, Segment.snapshot(a.dead), b, b == null ? null : Segment.snapshot(b.dead));
  }

  /**
   * Merges the entries of {@code a} and {@code b} that are live in the tombstone snapshots {@code
   * deadA} and {@code deadB} (see {@link Segment#snapshot}) into a new segment, which holds no
   * tombstones; with {@code b == null} compacts {@code a}. Tombstones set after the snapshots are
   * the caller's to carry over ({@link Segment#removeCopy}).
   */
  static Segment merge(
      RecordLayout layout, Segment a, long[] deadA, @Nullable Segment b, long @Nullable [] deadB) {
    int deadInA = Segment.popcount(deadA);
    int deadInB = b == null ? 0 : Segment.popcount(deadB);
    if (deadInA > 0 || deadInB > 0 || b == null) {
      return mergeLive(layout, a, deadA, deadInA, b, deadB, deadInB);
    }
    return mergeAll(layout, a, b);
  }

  /**
   * The common case, no tombstones: a two-way merge per directory bucket, comparing 48-bit records
   * and copying runs' tails with arraycopy. Measured at 10M adds (4:1): merging took 60% of the add
   * time with a per-entry cursor, and about a quarter of that with this loop.
   */
  private static Segment mergeAll(RecordLayout layout, Segment a, Segment b) {
    BlockScheme scheme = layout.scheme();
    int n = a.size + b.size;
    long[] fps = new long[n];
    long[] ids = new long[n];
    {
      // Per bucket, as the record tables below: table 0 keeps the bits below the bucket.
      WideRecords ra = a.table0;
      WideRecords rb = b.table0;
      DocIds ia = a.ids;
      DocIds ib = b.ids;
      int[] da = a.dirs[0];
      int[] db = b.dirs[0];
      int o = 0;
      for (int bucket = 0; bucket < Segment.BUCKETS; bucket++) {
        long top = (long) bucket << 48;
        int i = da[bucket];
        int ie = da[bucket + 1];
        int j = db[bucket];
        int je = db[bucket + 1];
        while (i < ie && j < je) {
          long x = ra.get(i);
          long y = rb.get(j);
          if (x < y || (x == y && ia.get(i) <= ib.get(j))) {
            fps[o] = top | x;
            ids[o++] = ia.get(i++);
          } else {
            fps[o] = top | y;
            ids[o++] = ib.get(j++);
          }
        }
        for (; i < ie; i++) {
          fps[o] = top | ra.get(i);
          ids[o++] = ia.get(i);
        }
        for (; j < je; j++) {
          fps[o] = top | rb.get(j);
          ids[o++] = ib.get(j);
        }
      }
      assert o == n;
    }
    int tables = scheme.tables();
    TableRecords[] records = new TableRecords[tables];
    int[][] dirs = new int[tables][];
    dirs[0] = Segment.directory(fps, n);
    for (int t = 1; t < tables; t++) {
      TableRecords ra = a.records[t];
      TableRecords rb = b.records[t];
      int[] da = a.dirs[t];
      int[] db = b.dirs[t];
      TableRecords r = TableRecords.create(layout, n);
      int[] dir = new int[Segment.BUCKETS + 1];
      int o = 0;
      for (int bucket = 0; bucket < Segment.BUCKETS; bucket++) {
        int i = da[bucket];
        int ie = da[bucket + 1];
        int j = db[bucket];
        int je = db[bucket + 1];
        if (i < ie && j < je) {
          long x = Segment.read48(ra, i);
          long y = Segment.read48(rb, j);
          while (true) {
            if (x <= y) {
              r.set(o++, x);
              if (++i == ie) {
                break;
              }
              x = Segment.read48(ra, i);
            } else {
              r.set(o++, y);
              if (++j == je) {
                break;
              }
              y = Segment.read48(rb, j);
            }
          }
        }
        ra.copyTo(i, r, o, ie - i);
        o += ie - i;
        rb.copyTo(j, r, o, je - j);
        o += je - j;
        dir[bucket + 1] = o;
      }
      assert o == n;
      records[t] = r;
      dirs[t] = dir;
    }
    return new Segment(layout, n, fps, ids, records, dirs);
  }

  /** Merges with tombstones: cursors skip dead entries of table 0 and dead values elsewhere. */
  private static Segment mergeLive(
      RecordLayout layout,
      Segment a,
      long[] deadA,
      int deadInA,
      @Nullable Segment b,
      long @Nullable [] deadB,
      int deadInB) {
    int n = a.size - deadInA + (b == null ? 0 : b.size - deadInB);
    long[] fps = new long[n];
    long[] ids = new long[n];
    Cursor0 ca = new Cursor0(a, deadA);
    Cursor0 cb = new Cursor0(b, deadB);
    for (int o = 0; o < n; o++) {
      Cursor0 c;
      if (!cb.has) {
        c = ca;
      } else if (!ca.has) {
        c = cb;
      } else {
        int cmp = Long.compareUnsigned(ca.fp, cb.fp);
        c = cmp < 0 || (cmp == 0 && ca.id <= cb.id) ? ca : cb;
      }
      fps[o] = c.fp;
      ids[o] = c.id;
      c.advance();
    }
    assert !ca.has && !cb.has;
    int tables = layout.scheme().tables();
    TableRecords[] records = new TableRecords[tables];
    int[][] dirs = new int[tables][];
    dirs[0] = Segment.directory(fps, n);
    for (int t = 1; t < tables; t++) {
      TableRecords r = TableRecords.create(layout, n);
      int[] dir = new int[Segment.BUCKETS + 1];
      Cursor cta = new Cursor(layout, a, deadA, deadInA, t);
      Cursor ctb = new Cursor(layout, b, deadB, deadInB, t);
      for (int o = 0; o < n; o++) {
        long v;
        if (!ctb.has || (cta.has && Long.compareUnsigned(cta.value, ctb.value) <= 0)) {
          v = cta.value;
          cta.advance();
        } else {
          v = ctb.value;
          ctb.advance();
        }
        r.set(o, v);
        dir[(int) (v >>> 48) + 1]++;
      }
      assert !cta.has && !ctb.has;
      for (int x = 0; x < Segment.BUCKETS; x++) {
        dir[x + 1] += dir[x];
      }
      records[t] = r;
      dirs[t] = dir;
    }
    return new Segment(layout, n, fps, ids, records, dirs);
  }

  /** Live entries of table 0 in order. */
  private static final class Cursor0 {
    private final Segment s;
    private final long[] dead;
    private int i = -1;
    private int bucket;
    boolean has = true;
    long fp;
    long id;

    Cursor0(@Nullable Segment s, long @Nullable [] dead) {
      this.s = s;
      this.dead = dead;
      if (s == null) {
        has = false;
      } else {
        advance();
      }
    }

    void advance() {
      do {
        i++;
      } while (i < s.size && Segment.isSet(dead, i));
      has = i < s.size;
      if (has) {
        int[] dir = s.dirs[0];
        while (dir[bucket + 1] <= i) {
          bucket++;
        }
        fp = s.fp(bucket, i);
        id = s.ids.get(i);
      }
    }
  }

  /** Live entries of a record table in order: the stored values minus the dead multiset. */
  private static final class Cursor {
    private final Segment s;
    private final TableRecords r;
    private final int[] dir;
    private final long[] deadValues;
    private int dp;
    private int i = -1;
    private int bucket;
    boolean has = true;
    long value;

    Cursor(RecordLayout layout, @Nullable Segment s, long @Nullable [] dead, int deadCount, int t) {
      this.s = s;
      if (s == null) {
        r = null;
        dir = null;
        deadValues = new long[0];
        has = false;
        return;
      }
      r = s.records[t];
      dir = s.dirs[t];
      deadValues = new long[deadCount];
      int d = 0;
      for (int w = 0; w < dead.length; w++) {
        for (long bits = dead[w]; bits != 0; bits &= bits - 1) {
          int i = (w << 6) + Long.numberOfTrailingZeros(bits);
          deadValues[d++] = layout.value(t, s.fp(i));
        }
      }
      assert d == deadValues.length;
      RadixSort.sortUnsigned(deadValues, d, new long[d]);
      advance();
    }

    void advance() {
      while (true) {
        i++;
        if (i >= s.size) {
          has = false;
          return;
        }
        while (dir[bucket + 1] <= i) {
          bucket++;
        }
        long v = Segment.full(r, bucket, i);
        if (dp < deadValues.length && deadValues[dp] == v) {
          dp++;
          continue;
        }
        value = v;
        return;
      }
    }
  }
}
