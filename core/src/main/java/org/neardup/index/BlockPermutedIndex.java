package org.neardup.index;

import java.util.Arrays;
import org.jspecify.annotations.Nullable;
import org.neardup.internal.Checks;

/**
 * The fast {@link HammingIndex}: Manku's permuted sorted tables, one per block combination of a
 * {@link BlockScheme}, in immutable segments behind a small mutable add buffer.
 *
 * <p><b>Thread safety.</b> Exactly one writer thread at a time may call {@link #add}, {@link
 * #addAll}, {@link #remove} and {@link #forceMerge} (callers serialise writers themselves); any
 * number of reader threads may call {@link #search}, {@link #nearest}, {@link #any}, {@link #size}
 * and {@link #ramBytesUsed} concurrently with it, without locks. A reader sees every entry whose
 * add completed before its call began, never a half-written entry, and never an entry twice.
 *
 * <p><b>Cost</b>, n entries, T tables, default scheme and k = 3: a search looks up one key per
 * table and segment and compares about {@code T * n / 2^16} stored fingerprints (some 600 at 10M)
 * with one XOR and popcount each; it allocates one small object per call and nothing per match. For
 * k beyond {@link BlockScheme#exactUpTo()} it probes every key within {@link
 * BlockScheme#keyErrors(int)} flips, or scans when that would cost more. {@link #add} is amortised
 * O(1) (a buffer of up to 2^17 entries is frozen into a segment, and segments are merged in the
 * writer's thread like an LSM tree, so one add in a while pays for a merge). Memory: {@code 16 + 6
 * (T - 1)} bytes per entry, 34 for the default scheme, plus 256 KiB of directory per table and
 * segment, the add buffer, and for schemes with keys wider than 16 bits a fine directory of 2-4
 * bytes per entry and table in segments of 2M entries or more.
 */
public final class BlockPermutedIndex implements HammingIndex {
  /*
   * A state is (segments, buffer), published through the volatile field `state`. Segments are
   * immutable apart from tombstone bits; the buffer is append-only and publishes its size through
   * a volatile int. The writer builds new segments and buffers off to the side and swaps the state.
   *
   * Every match is reported exactly once: an entry x within k of query q is reported from table t
   * only if t is the first table whose key differs from q's in at most e = keyErrors(k) bits, the
   * same rule that decides whether table t's probes reach x [1]. In a segment, a match found in a
   * record table is reported once for all its copies (equal values are adjacent) by looking its
   * fingerprint up in table 0, which holds the docIds and tombstones.
   *
   * Invariants (checkInvariants): each segment's own invariants (see Segment); the buffer's (see
   * AddBuffer); size == sum of live entries; every segment holds at most Segment.MAX_SIZE entries.
   *
   * [1] Manku, Jain, Das Sarma. Detecting Near-Duplicates for Web Crawling. WWW 2007, section 3.
   */

  /**
   * Largest add buffer. 2^16, 2^17 and 2^18 were indistinguishable within the noise of a shared
   * 2-core box (5M adds: 0.7-2.3M/s, 1.4-1.7M/s and 0.6-1.6M/s); 2^17 varied least.
   */
  static final int DEFAULT_BUFFER_CAPACITY = 1 << 17;

  private static final int INITIAL_BUFFER_CAPACITY = 1 << 10;

  /** Cost of one probe (directory lookup + binary search) in units of one scanned entry. */
  private static final double PROBE_COST = 32;

  /** Two adjacent segments merge when the older holds at most this many times the newer's. */
  private static final int MERGE_RATIO = 1;

  private static final MatchConsumer NONE = (docId, fingerprint, distance) -> {};

  private final BlockScheme scheme;
  private final int tables;
  private final int[] keyBits;
  private final long[] keyMask;
  private final long[][] earlierMasks;
  private final double[] probes;
  private final double[] candidates;
  private final int maxBufferCapacity;
  private final boolean allKeysWide;
  private volatile State state;
  private volatile long size;

  private static final class State {
    final Segment[] segments;
    final AddBuffer buffer;

    State(Segment[] segments, AddBuffer buffer) {
      this.segments = segments;
      this.buffer = buffer;
    }
  }

  private BlockPermutedIndex(BlockScheme scheme, int maxBufferCapacity) {
    this.scheme = scheme;
    this.tables = scheme.tables();
    this.maxBufferCapacity = maxBufferCapacity;
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
    state =
        new State(
            new Segment[0],
            new AddBuffer(scheme, Math.min(INITIAL_BUFFER_CAPACITY, maxBufferCapacity)));
  }

  /** An empty index with the {@linkplain BlockScheme#DEFAULT default} scheme. */
  public static BlockPermutedIndex create() {
    return create(BlockScheme.DEFAULT);
  }

  /** An empty index with the given scheme. */
  public static BlockPermutedIndex create(BlockScheme scheme) {
    Checks.checkArgument(scheme != null, "scheme must not be null");
    return new BlockPermutedIndex(scheme, DEFAULT_BUFFER_CAPACITY);
  }

  /**
   * An empty index whose add buffer holds at most {@code bufferCapacity} entries before it becomes
   * a segment. Small buffers exercise segments and merges in tests.
   */
  static BlockPermutedIndex create(BlockScheme scheme, int bufferCapacity) {
    Checks.checkArgument(
        bufferCapacity >= 1 && Integer.bitCount(bufferCapacity) == 1,
        "bufferCapacity must be a power of two >= 1, got %s",
        (long) bufferCapacity);
    return new BlockPermutedIndex(scheme, bufferCapacity);
  }

  /** The scheme this index was created with. */
  public BlockScheme scheme() {
    return scheme;
  }

  /** The number of immutable segments (not counting the add buffer). */
  public int segmentCount() {
    return state.segments.length;
  }

  // ---------------------------------------------------------------------------------------------
  // Writer

  @Override
  public void add(long fingerprint, long docId) {
    AddBuffer b = state.buffer;
    if (b.size == b.capacity) {
      b = makeRoom();
    }
    b.append(scheme, fingerprint, docId);
    size = size + 1;
  }

  /**
   * Adds {@code fingerprints[i], docIds[i]} for {@code from <= i < to}. A large range is sorted
   * into a segment directly (radix sort, several million entries per second), much faster than
   * adding one by one.
   *
   * @throws IllegalArgumentException if the arrays' lengths differ or the range is out of bounds
   */
  @Override
  public void addAll(long[] fingerprints, long[] docIds, int from, int to) {
    checkBulk(fingerprints, docIds, from, to);
    if (to - from < maxBufferCapacity) {
      for (int i = from; i < to; i++) {
        add(fingerprints[i], docIds[i]);
      }
      return;
    }
    for (int start = from; start < to; ) {
      int end = (int) Math.min(to, (long) start + Segment.MAX_SIZE);
      Segment seg =
          Segment.build(
              scheme,
              Arrays.copyOfRange(fingerprints, start, end),
              Arrays.copyOfRange(docIds, start, end));
      State s = state;
      state = new State(append(s.segments, seg), s.buffer);
      size = size + (end - start);
      mergeTail();
      start = end;
    }
  }

  static void checkBulk(long[] fingerprints, long[] docIds, int from, int to) {
    Checks.checkArgument(fingerprints != null, "fingerprints must not be null");
    Checks.checkArgument(docIds != null, "docIds must not be null");
    Checks.checkArgument(
        fingerprints.length == docIds.length,
        "fingerprints.length must equal docIds.length, got %s and %s",
        (long) fingerprints.length,
        (long) docIds.length);
    Checks.checkArgument(
        from >= 0 && from <= to && to <= fingerprints.length,
        "need 0 <= from <= to <= length (%s), got from = %s, to = %s",
        (long) fingerprints.length,
        (long) from,
        (long) to);
  }

  @Override
  public boolean remove(long fingerprint, long docId) {
    State s = state;
    if (s.buffer.remove(scheme, fingerprint, docId)) {
      size = size - 1;
      return true;
    }
    Segment[] segs = s.segments;
    for (int i = segs.length - 1; i >= 0; i--) {
      Segment seg = segs[i];
      int at = seg.find(fingerprint, docId);
      if (at >= 0) {
        seg.markDead(at);
        size = size - 1;
        if (seg.deadCount * 2L > seg.size) {
          // Rewrite a mostly dead segment: amortised O(1) per removal.
          Segment compacted = seg.live() == 0 ? null : Segment.merge(scheme, seg, null);
          Segment[] next = compacted == null ? remove(segs, i) : segs.clone();
          if (compacted != null) {
            next[i] = compacted;
          }
          state = new State(next, s.buffer);
        }
        return true;
      }
    }
    return false;
  }

  /**
   * Merges every segment and the add buffer into one segment, which makes searches as fast as after
   * a bulk load. Writer only; costs O(n) time and a second copy of the index while it runs.
   */
  public void forceMerge() {
    State s = state;
    Segment frozen = freeze(s.buffer);
    Segment[] segs = frozen == null ? s.segments : append(s.segments, frozen);
    state = new State(segs, new AddBuffer(scheme, initialCapacity()));
    while (state.segments.length > 1) {
      Segment[] cur = state.segments;
      int n = cur.length;
      if ((long) cur[n - 2].live() + cur[n - 1].live() > Segment.MAX_SIZE) {
        return;
      }
      mergeLastTwo();
    }
  }

  private int initialCapacity() {
    return Math.min(INITIAL_BUFFER_CAPACITY, maxBufferCapacity);
  }

  private AddBuffer makeRoom() {
    State s = state;
    AddBuffer b = s.buffer;
    if (b.capacity < maxBufferCapacity) {
      AddBuffer grown = b.grow(scheme);
      state = new State(s.segments, grown);
      return grown;
    }
    Segment frozen = freeze(b);
    // This index has filled a buffer, so more adds are likely: skip the regrowth.
    AddBuffer fresh = new AddBuffer(scheme, maxBufferCapacity);
    state = new State(frozen == null ? s.segments : append(s.segments, frozen), fresh);
    mergeTail();
    return fresh;
  }

  private @Nullable Segment freeze(AddBuffer b) {
    return b.live() == 0 ? null : Segment.fromBuffer(scheme, b);
  }

  /** Merges the two newest segments while the older is not much larger: O(log n) segments. */
  private void mergeTail() {
    while (true) {
      Segment[] segs = state.segments;
      int n = segs.length;
      if (n < 2) {
        return;
      }
      long older = segs[n - 2].live();
      long newer = segs[n - 1].live();
      if (older > MERGE_RATIO * newer || older + newer > Segment.MAX_SIZE) {
        return;
      }
      mergeLastTwo();
    }
  }

  private void mergeLastTwo() {
    State s = state;
    Segment[] segs = s.segments;
    int n = segs.length;
    Segment merged = Segment.merge(scheme, segs[n - 2], segs[n - 1]);
    Segment[] next = Arrays.copyOf(segs, n - 1);
    next[n - 2] = merged;
    state = new State(next, s.buffer);
  }

  private static Segment[] append(Segment[] segs, Segment seg) {
    Segment[] next = Arrays.copyOf(segs, segs.length + 1);
    next[segs.length] = seg;
    return next;
  }

  private static Segment[] remove(Segment[] segs, int i) {
    Segment[] next = new Segment[segs.length - 1];
    System.arraycopy(segs, 0, next, 0, i);
    System.arraycopy(segs, i + 1, next, i, segs.length - i - 1);
    return next;
  }

  // ---------------------------------------------------------------------------------------------
  // Readers

  @Override
  public int search(long query, int maxDistance, MatchConsumer out) {
    Checks.checkMaxDistance(maxDistance, 64);
    Checks.checkArgument(out != null, "out must not be null");
    return run(query, maxDistance, out, Integer.MAX_VALUE);
  }

  @Override
  public int nearest(long query, int maxDistance, MatchConsumer out) {
    Checks.checkMaxDistance(maxDistance, 64);
    Checks.checkArgument(out != null, "out must not be null");
    Nearest best = new Nearest();
    run(query, maxDistance, best, Integer.MAX_VALUE);
    if (best.distance < 0) {
      return -1;
    }
    out.accept(best.docId, best.fingerprint, best.distance);
    return best.distance;
  }

  @Override
  public boolean any(long query, int maxDistance) {
    Checks.checkMaxDistance(maxDistance, 64);
    return run(query, maxDistance, NONE, 1) > 0;
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public long ramBytesUsed() {
    State s = state;
    long bytes = 128 + s.buffer.ramBytesUsed();
    for (Segment seg : s.segments) {
      bytes += seg.ramBytesUsed();
    }
    return bytes;
  }

  @Override
  public int maxSupportedDistance() {
    return 64;
  }

  /** Tracks the nearest match: smallest distance, then smallest docId, then fingerprint. */
  static final class Nearest implements MatchConsumer {
    int distance = -1;
    long docId;
    long fingerprint;

    @Override
    public void accept(long docId, long fingerprint, int distance) {
      if (this.distance < 0
          || distance < this.distance
          || (distance == this.distance
              && (docId < this.docId
                  || (docId == this.docId
                      && Long.compareUnsigned(fingerprint, this.fingerprint) < 0)))) {
        this.distance = distance;
        this.docId = docId;
        this.fingerprint = fingerprint;
      }
    }
  }

  /** One search: the query in every table's permutation, and the running count. */
  private static final class Query {
    final long q;
    final int k;
    final int e;
    final long[] qp;
    final MatchConsumer out;
    final int limit;
    final int[] from;
    final int[] to;
    int count;
    long touched;

    Query(BlockScheme scheme, long q, int k, MatchConsumer out, int limit) {
      this.q = q;
      this.k = k;
      this.e = scheme.keyErrors(k);
      this.out = out;
      this.limit = limit;
      qp = new long[scheme.tables()];
      from = new int[qp.length];
      to = new int[qp.length];
      for (int t = 0; t < qp.length; t++) {
        qp[t] = scheme.permute(t, q);
      }
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

  private int run(long q, int k, MatchConsumer out, int limit) {
    State s = state;
    AddBuffer buffer = s.buffer;
    int n = buffer.size; // volatile read: entries [0, n) are fully written
    Query query = new Query(scheme, q, k, out, limit);
    for (Segment seg : s.segments) {
      searchSegment(seg, query);
      if (query.done()) {
        return query.count;
      }
    }
    if (n > 0) {
      searchBuffer(buffer, n, query);
    }
    return query.count;
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
    for (int t = 0; t < tables; t++) {
      int f = from[t];
      int l = to[t];
      if (f < l) {
        if (t == 0) {
          long[] fps = seg.fps;
          for (int i = f; i < l; i += 8) {
            touched += fps[i];
          }
        } else {
          int[] hi = seg.records[t].hi;
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
        scanTable0(seg, f, l, query);
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
        scanTable0(seg, from, to, query);
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

  private static void scanTable0(Segment seg, int from, int to, Query query) {
    long q = query.q;
    int k = query.k;
    long[] fps = seg.fps;
    for (int i = from; i < to; i++) {
      int d = Long.bitCount(fps[i] ^ q);
      if (d <= k && !seg.isDead(i) && query.report(seg.ids[i], fps[i], d)) {
        return;
      }
    }
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
    int qHi = (int) (qp >>> 16);
    long top = (long) bucket << 48;
    Segment.Records r = seg.records[t];
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
    long[] fps = seg.fps;
    for (int i = seg.lowerBound0(dir[b], dir[b + 1], fp); i < fps.length && fps[i] == fp; i++) {
      if (!seg.isDead(i) && query.report(seg.ids[i], fp, d)) {
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

  // ---------------------------------------------------------------------------------------------

  /**
   * Checks every invariant of the index and its parts; tests call it after each scenario. Writer
   * only (it reads writer-private counters). O(n log n) per table.
   *
   * @throws IllegalStateException describing the first broken invariant
   */
  void checkInvariants() {
    State s = state;
    long live = s.buffer.live();
    s.buffer.checkInvariants(scheme);
    for (Segment seg : s.segments) {
      seg.checkInvariants(scheme);
      live += seg.live();
      Checks.checkState(seg.size <= Segment.MAX_SIZE, "segment too large: %s", seg.size);
    }
    Checks.checkState(live == size, "size is %s but %s entries are live", size, live);
  }

  @Override
  public String toString() {
    State s = state;
    return "BlockPermutedIndex{scheme="
        + scheme
        + ", size="
        + size
        + ", segments="
        + s.segments.length
        + ", buffered="
        + s.buffer.size
        + "}";
  }
}
