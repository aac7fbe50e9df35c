// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

import org.jspecify.annotations.Nullable;

/**
 * The read side of a {@link BlockPermutedIndex}: searches the parts of one of its states (sorted
 * segments, then add buffers) for every entry within k bits of a query, reporting each match once.
 *
 * <p>In a segment: one directory lookup per table (or per probed key when k exceeds the scheme's
 * exact range, or a scan of table 0 when that costs less), a scan of the bucket's records, and a
 * lookup in table 0 for each record that passes, which yields the fingerprint, its docIds and
 * tombstones. In a buffer: its chains per table. An entry is reported from table t only when t is
 * the first table whose key is within e = keyErrors(k) bits of the query's.
 *
 * <p>Immutable and thread-safe; a search allocates nothing (each thread reuses one {@link Query}).
 */
final class IndexSearch {
  /** Cost of one probe (directory lookup + binary search) in units of one scanned entry. */
  private static final double PROBE_COST = 32;

  private final BlockScheme scheme;
  private final RecordLayout layout;
  private final int tables;
  private final int[] keyBits;
  private final long[] keyMask;
  private final long[][] earlierMasks;
  // Per table t (prefix layout): the key masks of earlier tables whose bits key and tag of t fix.
  private final long[][] knownEarlierMasks;
  // The same masks in table t's tag (at most two: with more, 0 = no filter in the scan).
  private final int[] tagEarlier1;
  private final int[] tagEarlier2;
  private final double[] probes;
  private final double[] candidates;
  private final boolean allKeysWide;

  IndexSearch(BlockScheme scheme, RecordLayout layout) {
    this.scheme = scheme;
    this.layout = layout;
    this.tables = scheme.tables();
    keyBits = new int[tables];
    keyMask = new long[tables];
    earlierMasks = new long[tables][];
    for (int t = 0; t < tables; t++) {
      keyBits[t] = scheme.keyBits(t);
      keyMask[t] = scheme.keyMask(t);
      earlierMasks[t] = new long[t];
      for (int u = 0; u < t; u++) {
        earlierMasks[t][u] = scheme.permute(t, scheme.keyMask(u));
      }
    }
    knownEarlierMasks = new long[tables][0];
    if (layout.prefix()) {
      for (int t = 1; t < tables; t++) {
        long[] m = new long[t];
        int c = 0;
        for (int u = 0; u < t; u++) {
          if ((keyMask[u] & ~layout.knownMask(t)) == 0) {
            m[c++] = keyMask[u];
          }
        }
        knownEarlierMasks[t] = java.util.Arrays.copyOf(m, c);
      }
    }
    tagEarlier1 = new int[tables];
    tagEarlier2 = new int[tables];
    for (int t = 1; t < tables; t++) {
      long[] m = knownEarlierMasks[t];
      if (m.length == 1 || m.length == 2) {
        tagEarlier1[t] = layout.tag(t, m[0]);
        tagEarlier2[t] = layout.tag(t, m[m.length - 1]);
      }
    }
    boolean wide = true;
    for (int t = 0; t < tables; t++) {
      wide &= keyBits[t] >= Segment.DIR_BITS;
    }
    allKeysWide = wide;
    probes = new double[65];
    candidates = new double[65];
    for (int e = 0; e <= 64; e++) {
      for (int t = 0; t < tables; t++) {
        double p = scheme.probes(t, e);
        probes[e] += p;
        candidates[e] += p / Math.pow(2, keyBits[t]);
      }
    }
  }

  /**
   * Searches the parts of one state of the index, segments first, then the frozen buffers, then the
   * active buffer's entries written before this call; stops after {@code limit} matches.
   */
  int run(
      Segment[] segments,
      AddBuffer[] frozen,
      AddBuffer buffer,
      long q,
      int k,
      MatchConsumer out,
      int limit) {
    int n = buffer.size; // volatile read: entries [0, n) are fully written
    Query query = Query.acquire(layout, q, k, out, limit);
    try {
      for (Segment seg : segments) {
        searchSegment(seg, query);
        if (query.done()) {
          return query.count;
        }
      }
      for (AddBuffer fb : frozen) {
        searchBuffer(fb, fb.size, query);
        if (query.done()) {
          return query.count;
        }
      }
      if (n > 0) {
        searchBuffer(buffer, n, query);
      }
      return query.count;
    } finally {
      query.release();
    }
  }

  /**
   * One search: the query in every table's permutation, and the running count. Each thread reuses
   * one (its arrays grow to the most tables it has seen), so a search allocates nothing: at 10M
   * entries a new Query per search filled the young generation every few hundred thousand searches,
   * and the collections it caused stopped single searches for tens of milliseconds. A consumer that
   * searches again from within {@link MatchConsumer#accept} gets a fresh Query for the inner
   * search.
   */
  private static final class Query {
    private static final MatchConsumer NONE = (docId, fingerprint, distance) -> {};
    private static final ThreadLocal<Query> REUSED = ThreadLocal.withInitial(Query::new);

    long q;
    int k;
    int e;
    long[] qp = new long[0];
    int @Nullable [] tags; // the query's tag per table, for the prefix layout
    int[] tagsArray = new int[0];
    MatchConsumer out = NONE;
    int limit;
    int[] from = new int[0];
    int[] to = new int[0];
    int count;
    long touched;
    boolean inUse;

    static Query acquire(RecordLayout layout, long q, int k, MatchConsumer out, int limit) {
      Query query = REUSED.get();
      if (query.inUse) {
        query = new Query(); // a search from within a consumer's accept
      }
      query.init(layout, q, k, out, limit);
      return query;
    }

    private void init(RecordLayout layout, long q, int k, MatchConsumer out, int limit) {
      BlockScheme scheme = layout.scheme();
      int tables = scheme.tables();
      if (qp.length < tables) {
        qp = new long[tables];
        from = new int[tables];
        to = new int[tables];
        tagsArray = new int[tables];
      }
      this.q = q;
      this.k = k;
      this.e = scheme.keyErrors(k);
      this.out = out;
      this.limit = limit;
      this.count = 0;
      for (int t = 0; t < tables; t++) {
        qp[t] = scheme.permute(t, q);
      }
      if (layout.prefix()) {
        tags = tagsArray;
        for (int t = 1; t < tables; t++) {
          tagsArray[t] = layout.tag(t, q);
        }
      } else {
        tags = null;
      }
      inUse = true;
    }

    void release() {
      out = NONE; // no reference to the caller's consumer outlives the search
      inUse = false;
    }

    /** Reports a match; returns true when the search should stop. */
    boolean report(long docId, long fingerprint, int distance) {
      out.accept(docId, fingerprint, distance);
      return ++count >= limit;
    }

    boolean done() {
      return count >= limit;
    }
  }

  // --- segments

  private void searchSegment(Segment seg, Query query) {
    int e = query.e;
    if (e == 0 && allKeysWide) {
      searchSegmentExact(seg, query);
      return;
    }
    if (e > 0 && probes[e] * PROBE_COST + candidates[e] * seg.size >= seg.size) {
      scanSegment(seg, query);
      return;
    }
    for (int t = 0; t < tables; t++) {
      long key = query.qp[t] >>> (64 - keyBits[t]);
      if (e == 0) {
        probeTable(seg, t, key, query);
      } else {
        probeAll(seg, t, key, 0, e, query);
      }
      if (query.done()) {
        return;
      }
    }
  }

  /**
   * The common case, one key per table: first load every table's directory entry and the start of
   * every bucket (independent loads the CPU overlaps), then binary-search and scan. Overlapping the
   * T cache misses cut the mean query at 10M entries (4:1, k = 3, on a shared 2-core box) from
   * 5.4-9.1 us to 3.9-5.8 us, and with -XX:+UseTransparentHugePages from 7.1-7.8 to 2.4-3.5 us.
   * Keys wider than 16 bits are binary-searched inside the bucket; touching the whole bucket first
   * still paid off there (5:2 at 10M, alternating passes in one JVM: 3.6-6.6 us against 5.0-7.6 us
   * when touching only the bucket's first line).
   */
  private void searchSegmentExact(Segment seg, Query query) {
    int[] from = query.from;
    int[] to = query.to;
    long touched = 0;
    for (int t = 0; t < tables; t++) {
      int fineBits = seg.fineBits[t];
      if (fineBits > 0) {
        int b = (int) (query.qp[t] >>> (64 - fineBits));
        int[] dir = seg.fineDirs[t];
        from[t] = dir[b];
        to[t] = dir[b + 1];
      } else {
        int b = (int) (query.qp[t] >>> (64 - Segment.DIR_BITS));
        int[] dir = seg.dirs[t];
        from[t] = dir[b];
        to[t] = dir[b + 1];
      }
    }
    if (seg.fineBits[0] == 0) {
      touched += seg.touch0(from[0], to[0], query.q);
    }
    for (int t = 0; t < tables; t++) {
      int f = from[t];
      int l = to[t];
      if (f < l) {
        if (seg.records[t] instanceof PrefixRecords) {
          int[] data = ((PrefixRecords) seg.records[t]).data;
          for (int i = f; i < l; i += 16) {
            touched += data[i];
          }
        } else {
          int[] hi = ((WideRecords) seg.records[t]).hi;
          for (int i = f; i < l; i += 16) {
            touched += hi[i];
          }
        }
      }
    }
    query.touched = touched;
    for (int t = 0; t < tables; t++) {
      int f = from[t];
      int l = to[t];
      if (f == l) {
        continue;
      }
      int w = keyBits[t];
      if (w > Math.max(Segment.DIR_BITS, seg.fineBits[t])) {
        // the 48 record bits of the smallest value with the query's key, and the key's step
        long low = query.qp[t] & (-1L << (64 - w)) & Segment.MASK48;
        f = seg.lowerBound(t, f, l, low);
        l = seg.lowerBound(t, f, l, low + (1L << (64 - w)));
      }
      if (t == 0) {
        scanBucket0(seg, (int) (query.q >>> 48), f, l, query);
      } else {
        scanRecords(seg, t, (int) (query.qp[t] >>> 48), f, l, query);
      }
      if (query.done()) {
        return;
      }
    }
  }

  /** Probes key and every key that differs from it in at most {@code flips} bits from start on. */
  private void probeAll(Segment seg, int t, long key, int start, int flips, Query query) {
    probeTable(seg, t, key, query);
    if (flips == 0) {
      return;
    }
    for (int bit = start; bit < keyBits[t] && !query.done(); bit++) {
      probeAll(seg, t, key ^ (1L << bit), bit + 1, flips - 1, query);
    }
  }

  /** Scans the entries of table t whose key equals {@code key}. */
  private void probeTable(Segment seg, int t, long key, Query query) {
    int w = keyBits[t];
    int[] dir = seg.dirs[t];
    if (w >= Segment.DIR_BITS) {
      int b = (int) (key >>> (w - Segment.DIR_BITS));
      int from = dir[b];
      int to = dir[b + 1];
      if (from == to) {
        return;
      }
      if (w > Segment.DIR_BITS) {
        int subBits = w - Segment.DIR_BITS;
        long sub = key & BlockScheme.mask(subBits);
        int shift = 48 - subBits;
        from = seg.lowerBound(t, from, to, sub << shift);
        if (sub + 1 < (1L << subBits)) {
          to = seg.lowerBound(t, from, to, (sub + 1) << shift);
        }
      }
      if (t == 0) {
        scanBucket0(seg, b, from, to, query);
      } else {
        scanRecords(seg, t, b, from, to, query);
      }
    } else {
      int first = (int) (key << (Segment.DIR_BITS - w));
      int last = (int) ((key + 1) << (Segment.DIR_BITS - w));
      if (t == 0) {
        scanTable0(seg, dir[first], dir[last], query);
      } else {
        for (int b = first; b < last && !query.done(); b++) {
          scanRecords(seg, t, b, dir[b], dir[b + 1], query);
        }
      }
    }
  }

  /** Scans table-0 entries [from, to), which may span buckets. */
  private static void scanTable0(Segment seg, int from, int to, Query query) {
    if (from >= to) {
      return;
    }
    int[] dir = seg.dirs[0];
    int b = seg.bucket0(from);
    while (!query.done()) {
      int end = Math.min(to, dir[b + 1]);
      scanBucket0(seg, b, from, end, query);
      from = end;
      if (from >= to) {
        return;
      }
      // the next bucket when it holds entries, else a jump over the empty ones (small segments
      // spread their few entries over the 2^16 buckets)
      b = dir[b + 2] > from ? b + 1 : seg.bucket0(from);
    }
  }

  /**
   * Scans table-0 entries [from, to) of bucket {@code bucket}: bits 47..16 (an int per entry)
   * filter first, in one vectorisable pass ({@link #anyWithin}); the 16 low bits are read only for
   * the entries that pass.
   */
  private static void scanBucket0(Segment seg, int bucket, int from, int to, Query query) {
    long q = query.q;
    int k = query.k;
    int budget = k - Long.bitCount(((long) bucket << 48 ^ q) >>> 48);
    int qHi = (int) (q >>> 16);
    int[] hi = seg.table0.hi;
    if (budget < 0 || !anyWithin(hi, from, to, qHi, budget)) {
      return;
    }
    for (int i = from; i < to; i++) {
      if (Integer.bitCount(hi[i] ^ qHi) > budget) {
        continue;
      }
      long fp = seg.fp(bucket, i);
      int d = Long.bitCount(fp ^ q);
      if (d <= k && !seg.isDead(i) && query.report(seg.ids.get(i), fp, d)) {
        return;
      }
    }
  }

  /**
   * Whether some {@code a[i]}, from <= i < to, is within {@code budget} bits of {@code x}. Written
   * without a branch or an early exit so that C2 vectorises it (popcount, subtract, or-reduce; with
   * AVX-512 VPOPCNTDQ on this machine): 0.19 ns per entry against 0.30 for the plain loop that
   * stops at the first hit (JDK 17, a 153-entry bucket, i.e. 10M stored), and against 0.86 per
   * entry for the whole scan of the 3-byte tags before.
   */
  static boolean anyWithin(int[] a, int from, int to, int x, int budget) {
    int acc = 0;
    int limit = budget + 1;
    for (int i = from; i < to; i++) {
      acc |= Integer.bitCount(a[i] ^ x) - limit;
    }
    return acc < 0;
  }

  /**
   * Scans entries [from, to) of record table t, all in directory bucket {@code bucket}. The 32 bits
   * below the bucket filter first: a match within k differs there in at most k bits, while a random
   * entry passes with probability about 10^-5 at k = 3, so the 16-bit tails are read only for
   * candidates. Scanning 4 bytes per entry instead of 6-byte records cut the mean query at 50M
   * entries (4:1, alternating runs) from 7.9-8.3 us to 5.3-5.9 us; 5:2, which scans about 25
   * entries per table after its fine directory, moved within noise (2.9-3.6 against 3.2-4.1 us).
   */
  private void scanRecords(Segment seg, int t, int bucket, int from, int to, Query query) {
    long qp = query.qp[t];
    int k = query.k;
    int budget = k - Long.bitCount((((long) bucket << 48) ^ qp) >>> 48);
    if (budget < 0) {
      return;
    }
    if (query.tags != null) {
      scanTags(seg, t, bucket, from, to, budget, query);
      return;
    }
    int qHi = (int) (qp >>> 16);
    long top = (long) bucket << 48;
    WideRecords r = (WideRecords) seg.records[t];
    int[] hi = r.hi;
    for (int i = from; i < to; i++) {
      if (Integer.bitCount(hi[i] ^ qHi) > budget) {
        continue;
      }
      long x = top | r.get(i);
      int d = Long.bitCount(x ^ qp);
      if (d <= k) {
        long low = x & Segment.MASK48;
        int j = i + 1;
        while (j < to && r.get(j) == low) {
          j++; // copies of the same fingerprint: reported together below
        }
        if (firstPermuted(t, x ^ qp, query.e) && reportAll(seg, scheme.unpermute(t, x), d, query)) {
          return;
        }
        i = j - 1;
      }
    }
  }

  /**
   * Scans entries [from, to) of prefix-layout table t, all in bucket {@code bucket}, whose keys
   * differ from the query's in k - budget bits: an entry whose tag is within budget bits of the
   * query's is looked up in table 0 by the fingerprint prefix its key and tag fix ({@link
   * #reportPrefix}). Equal tags are adjacent (a bucket is sorted) and looked up once.
   */
  private void scanTags(Segment seg, int t, int bucket, int from, int to, int budget, Query query) {
    int qTag = query.tags[t];
    int[] data = ((PrefixRecords) seg.records[t]).data;
    int m1 = tagEarlier1[t];
    int m2 = tagEarlier2[t];
    if (!anyWithin(data, from, to, qTag, budget)) {
      return;
    }
    if (query.e != 0 || m1 == 0) {
      m1 = 0; // no filter: keep every entry within budget
      m2 = 0;
    } else if (!anyWithinUncovered(data, from, to, qTag, budget, m1, m2)) {
      return; // every entry within budget was reported from an earlier table
    }
    for (int i = from; i < to; i++) {
      int tag = data[i];
      int x = tag ^ qTag;
      if (Integer.bitCount(x) > budget || (m1 != 0 && ((x & m1) == 0 || (x & m2) == 0))) {
        continue;
      }
      int j = i + 1;
      while (j < to && data[j] == tag) {
        j++;
      }
      if (reportPrefix(seg, t, bucket, tag, query)) {
        return;
      }
      i = j - 1;
    }
  }

  /**
   * As {@link #anyWithin}, counting only entries that differ from {@code x} somewhere in {@code m1}
   * and somewhere in {@code m2}: with e = 0, an entry whose tag equals the query's on an earlier
   * table's key was reported from that table, and {@link #reportPrefix} would skip it. Filtering
   * them in a second vectorised pass, run only on a bucket where {@link #anyWithin} found an entry,
   * spares the entry-by-entry rescan of a bucket that holds only such entries, which a
   * near-duplicate query caused in 1.7 of its tables on average (0.84 skipped lookups per query of
   * the half-near-duplicate mix); random queries, whose buckets hold no entry within budget, never
   * pay for it. Branch-free for C2's vectoriser: {@code v | -v} has its sign bit set iff v != 0.
   */
  static boolean anyWithinUncovered(int[] a, int from, int to, int x, int budget, int m1, int m2) {
    int acc = 0;
    int limit = budget + 1;
    for (int i = from; i < to; i++) {
      int v = a[i] ^ x;
      int v1 = v & m1;
      int v2 = v & m2;
      acc |= (Integer.bitCount(v) - limit) & (v1 | -v1) & (v2 | -v2);
    }
    return acc < 0;
  }

  /**
   * Reports the live table-0 entries that table t files under (bucket, tag), are within k of the
   * query and are reached by no earlier table; true when the search should stop.
   */
  private boolean reportPrefix(Segment seg, int t, int bucket, int tag, Query query) {
    long known = layout.known(t, bucket, tag);
    long q = query.q;
    int e = query.e;
    long[] masks = knownEarlierMasks[t];
    for (long m : masks) {
      if (Long.bitCount((known ^ q) & m) <= e) {
        return false; // an earlier table reaches every entry filed here: reported from there
      }
    }
    long knownMask = layout.knownMask(t);
    long prefixMask = -1L << (64 - layout.prefixBits(t));
    long prefix = known & prefixMask;
    int b = (int) (known >>> 48);
    int[] dir = seg.dirs[0];
    int end = dir[b + 1];
    int k = query.k;
    query.touched += seg.touch0(dir[b], end, prefix); // overlaps lowerBound0's first miss
    for (int i = seg.lowerBound0(dir[b], end, prefix); i < end; i++) {
      long fp = seg.fp(b, i);
      if ((fp & prefixMask) != prefix) {
        break;
      }
      if ((fp & knownMask) != known) {
        continue;
      }
      long diff = fp ^ q;
      int d = Long.bitCount(diff);
      if (d <= k
          && firstOriginal(t, diff, e)
          && !seg.isDead(i)
          && query.report(seg.ids.get(i), fp, d)) {
        return true;
      }
    }
    return false;
  }

  /** Whether no table before t reaches an entry whose table-t permuted difference is diff. */
  private boolean firstPermuted(int t, long diff, int e) {
    long[] masks = earlierMasks[t];
    for (long m : masks) {
      if (Long.bitCount(diff & m) <= e) {
        return false;
      }
    }
    return true;
  }

  /** Reports every live table-0 entry with this fingerprint; true when the search should stop. */
  private static boolean reportAll(Segment seg, long fp, int d, Query query) {
    int b = (int) (fp >>> 48);
    int[] dir = seg.dirs[0];
    int end = dir[b + 1];
    for (int i = seg.lowerBound0(dir[b], end, fp); i < end && seg.fp(b, i) == fp; i++) {
      if (!seg.isDead(i) && query.report(seg.ids.get(i), fp, d)) {
        return true;
      }
    }
    return false;
  }

  private static void scanSegment(Segment seg, Query query) {
    scanTable0(seg, 0, seg.size, query);
  }

  // --- buffer

  private void searchBuffer(AddBuffer buffer, int n, Query query) {
    int e = query.e;
    if (e > 0) {
      double cost = 0;
      for (int t = 0; t < tables; t++) {
        int h = buffer.hashBits[t];
        double p = 0;
        for (int i = 0; i <= Math.min(e, h); i++) {
          p += BlockScheme.binomial(h, i);
        }
        cost += p * (8 + n / Math.pow(2, h));
      }
      if (cost >= n) {
        scanBuffer(buffer, n, query);
        return;
      }
    }
    for (int t = 0; t < tables && !query.done(); t++) {
      int b = buffer.bucket(t, query.qp[t]);
      if (e == 0) {
        visitBucket(buffer, n, t, b, query);
      } else {
        visitBuckets(buffer, n, t, b, 0, Math.min(e, buffer.hashBits[t]), query);
      }
    }
  }

  private void visitBuckets(
      AddBuffer buffer, int n, int t, int b, int start, int flips, Query query) {
    visitBucket(buffer, n, t, b, query);
    if (flips == 0) {
      return;
    }
    for (int bit = start; bit < buffer.hashBits[t] && !query.done(); bit++) {
      visitBuckets(buffer, n, t, b ^ (1 << bit), bit + 1, flips - 1, query);
    }
  }

  private void visitBucket(AddBuffer buffer, int n, int t, int b, Query query) {
    long q = query.q;
    int k = query.k;
    int e = query.e;
    long mask = keyMask[t];
    int[] next = buffer.next[t];
    long[] fps = buffer.fps;
    for (int c = buffer.head(t, b); c != 0; c = next[c - 1]) {
      int j = c - 1;
      if (j >= n) {
        continue; // added after this search began
      }
      long diff = fps[j] ^ q;
      int d = Long.bitCount(diff);
      if (d <= k
          && Long.bitCount(diff & mask) <= e
          && firstOriginal(t, diff, e)
          && !buffer.isDead(j)
          && query.report(buffer.ids[j], fps[j], d)) {
        return;
      }
    }
  }

  private boolean firstOriginal(int t, long diff, int e) {
    for (int u = 0; u < t; u++) {
      if (Long.bitCount(diff & keyMask[u]) <= e) {
        return false;
      }
    }
    return true;
  }

  private static void scanBuffer(AddBuffer buffer, int n, Query query) {
    long q = query.q;
    int k = query.k;
    long[] fps = buffer.fps;
    for (int j = 0; j < n; j++) {
      int d = Long.bitCount(fps[j] ^ q);
      if (d <= k && !buffer.isDead(j) && query.report(buffer.ids[j], fps[j], d)) {
        return;
      }
    }
  }
}
