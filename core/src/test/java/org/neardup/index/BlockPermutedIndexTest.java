// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Unit checks that need no generators; the oracle tests live in testkit. */
class BlockPermutedIndexTest {

  @Test
  void search_badArguments_namesTheParameterRuleAndValue() {
    for (HammingIndex index :
        new HammingIndex[] {BlockPermutedIndex.create(), new LinearScanIndex()}) {
      assertThatThrownBy(() -> index.search(1, -1, (id, fp, d) -> {}))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("maxDistance must be in [0, 64], got -1");
      assertThatThrownBy(() -> index.search(1, 65, (id, fp, d) -> {}))
          .hasMessage("maxDistance must be in [0, 64], got 65");
      assertThatThrownBy(() -> index.nearest(1, 70, (id, fp, d) -> {}))
          .hasMessage("maxDistance must be in [0, 64], got 70");
      assertThatThrownBy(() -> index.any(1, -3))
          .hasMessage("maxDistance must be in [0, 64], got -3");
      assertThatThrownBy(() -> index.search(1, 3, null))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("out must not be null");
      assertThatThrownBy(() -> index.nearest(1, 3, null)).hasMessage("out must not be null");
    }
  }

  @Test
  void addAll_mismatchedArrays_throws() {
    BlockPermutedIndex index = BlockPermutedIndex.create();
    assertThatThrownBy(() -> index.addAll(new long[3], new long[2], 0, 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("fingerprints.length must equal docIds.length, got 3 and 2");
    assertThatThrownBy(() -> index.addAll(new long[3], new long[3], 2, 1))
        .hasMessage("need 0 <= from <= to <= length (3), got from = 2, to = 1");
    assertThatThrownBy(() -> index.addAll(new long[3], new long[3], 0, 4))
        .hasMessage("need 0 <= from <= to <= length (3), got from = 0, to = 4");
    assertThatThrownBy(() -> index.addAll(null, new long[3], 0, 0))
        .hasMessage("fingerprints must not be null");
    assertThatThrownBy(() -> new LinearScanIndex().addAll(new long[1], new long[2], 0, 1))
        .hasMessage("fingerprints.length must equal docIds.length, got 1 and 2");
    assertThatThrownBy(() -> BlockPermutedIndex.create(null)).hasMessage("scheme must not be null");
    assertThat(index.size()).isZero();
  }

  /**
   * addAllOwned (the open's one build) answers as the linear scan does, for a range large enough to
   * become a segment at once and for a small one that goes through the add buffer, on an index that
   * held entries before; and it checks its arguments as addAll does.
   */
  @Test
  void addAllOwned_largeOrSmall_answersAsTheLinearScan() throws InterruptedException {
    java.util.SplittableRandom r = new java.util.SplittableRandom(1218);
    BlockPermutedIndex index = BlockPermutedIndex.create(BlockScheme.DEFAULT, 1 << 10);
    LinearScanIndex oracle = new LinearScanIndex();
    long next = 0;
    for (int n : new int[] {300, 5_000, 40}) {
      long[] fps = new long[n];
      long[] ids = new long[n];
      for (int i = 0; i < n; i++) {
        fps[i] = i > 0 && i % 5 == 0 ? fps[i - 1] ^ (1L << r.nextInt(64)) : r.nextLong();
        ids[i] = next++;
        oracle.add(fps[i], ids[i]);
      }
      long[] queries = fps.clone();
      index.addAllOwned(fps, ids);
      assertThat(index.size()).isEqualTo(next);
      for (int q = 0; q < queries.length; q += 7) {
        long query = queries[q] ^ (1L << r.nextInt(64)) ^ (1L << r.nextInt(64));
        List<Long> got = new ArrayList<>();
        List<Long> want = new ArrayList<>();
        index.search(query, 3, (id, f, d) -> got.add(id));
        oracle.search(query, 3, (id, f, d) -> want.add(id));
        assertThat(got).as("query %016x", query).containsExactlyInAnyOrderElementsOf(want);
      }
    }
    index.awaitMerges();
    index.checkInvariants();
    assertThatThrownBy(() -> index.addAllOwned(new long[3], new long[2]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("fingerprints.length must equal docIds.length, got 3 and 2");
    assertThatThrownBy(() -> index.addAllOwned(null, new long[2]))
        .hasMessage("fingerprints must not be null");
  }

  @Test
  void search_exactDuplicatesAcrossBufferAndSegments_reportsEachEntryOnce() {
    BlockPermutedIndex index = BlockPermutedIndex.create(BlockScheme.of(5, 2), 4);
    long fp = 0x0123_4567_89AB_CDEFL;
    for (int i = 0; i < 11; i++) {
      index.add(fp, i % 3); // docIds 0, 1, 2 repeat
    }
    index.add(fp ^ 1, 99);
    List<Long> ids = new ArrayList<>();
    assertThat(index.search(fp, 1, (id, f, d) -> ids.add(id))).isEqualTo(12);
    assertThat(ids).containsExactlyInAnyOrder(0L, 1L, 2L, 0L, 1L, 2L, 0L, 1L, 2L, 0L, 1L, 99L);
    assertThat(index.remove(fp, 1)).isTrue();
    assertThat(index.search(fp, 0, (id, f, d) -> {})).isEqualTo(10);
    long[] nearest = new long[3];
    assertThat(index.nearest(fp ^ 1, 3, (id, f, d) -> nearest[0] = id)).isZero();
    assertThat(nearest[0]).isEqualTo(99);
    assertThat(index.nearest(fp ^ 3, 3, (id, f, d) -> nearest[0] = id)).isEqualTo(1);
    assertThat(nearest[0]).isEqualTo(99); // ties at distance 1: docId 99 (fp ^ 1 ^ 3 = fp ^ 2)
    index.checkInvariants();
  }

  @Test
  void ramBytesUsed_bulkLoadedDenseIds_isAbout22BytesPerEntry() {
    double perEntry = bulkLoadedBytesPerEntry(i -> 1_000_000_000_000L + i);
    // 6 (fingerprint below its bucket) + 4 (docId offset) + 3 x 4 (tags) + 4 directories of
    // 256 KiB over 1M entries
    assertThat(perEntry).isBetween(22.0, 24.0);
  }

  @Test
  void ramBytesUsed_bulkLoadedIdsSpreadBeyond32Bits_isAbout26BytesPerEntry() {
    double perEntry = bulkLoadedBytesPerEntry(i -> i * 0x1_0000_0001L - (1L << 40));
    // docIds in 8 bytes when they span more than 2^32
    assertThat(perEntry).isBetween(26.0, 28.0);
  }

  private static double bulkLoadedBytesPerEntry(java.util.function.IntToLongFunction id) {
    int n = 1 << 20;
    long[] fps = new long[n];
    long[] ids = new long[n];
    long x = 1;
    for (int i = 0; i < n; i++) {
      x = x * 0x9E37_79B9_7F4A_7C15L + 1; // a full-period LCG: distinct, well spread
      fps[i] = Long.rotateLeft(x, 29) ^ x;
      ids[i] = id.applyAsLong(i);
    }
    BlockPermutedIndex index = BlockPermutedIndex.create();
    index.addAll(fps, ids, 0, n);
    assertThat(index.segmentCount()).isEqualTo(1);
    index.checkInvariants();
    for (int i = 0; i < n; i += 4099) { // every docId comes back as it went in
      long fp = fps[i];
      long want = ids[i];
      long[] got = new long[1];
      assertThat(index.search(fp, 0, (docId, f, d) -> got[0] = docId)).isEqualTo(1);
      assertThat(got[0]).isEqualTo(want);
    }
    return (double) index.ramBytesUsed() / n;
  }

  /**
   * The edges of the int-scan layout (table 0 as bits 47..16 plus 16 low bits, 32-bit tags, one
   * vectorised pass per bucket before the scalar one): a table-0 bucket holding every entry (the
   * largest bucket), buckets of 1 to 40 entries (every length of a vector's tail), matches at the
   * first and last entry of a bucket, empty buckets, exact duplicates, keys from a few values in
   * every table; as a bulk-loaded segment, as merged segments with tombstones, and at every k path
   * (one key per table, probed keys, whole-table scans across buckets).
   */
  @Test
  void search_bucketEdges_matchLinearScan() {
    java.util.SplittableRandom random = new java.util.SplittableRandom(5);
    for (int shape = 0; shape < 3; shape++) {
      int n = 6000;
      long[] fps = new long[n];
      long[] ids = new long[n];
      for (int i = 0; i < n; i++) {
        long x = random.nextLong();
        if (shape == 0) { // one table-0 bucket holds everything
          x = (0xBEEFL << 48) | (x >>> 16);
        } else if (shape == 1) { // each 16-bit block from 3 values: few, large buckets per table
          x = 0;
          for (int b = 0; b < 4; b++) {
            x |= (long) (0x1111 * (1 + random.nextInt(3))) << (16 * b);
          }
          x ^= 1L << random.nextInt(64); // and one bit anywhere
        } else { // buckets of 1..40 entries in table 0 (then again from 41 on)
          int bucket = 0;
          for (int c = i; c >= bucket + 1; bucket++) {
            c -= bucket + 1;
          }
          x = ((long) (bucket % 40) << 48) | (x >>> 16);
        }
        fps[i] = x;
        ids[i] = i % 7 == 0 ? i / 7 : i;
        if (i > 0 && i % 11 == 0) { // an exact (fingerprint, docId) duplicate
          fps[i] = fps[i - 1];
          ids[i] = ids[i - 1];
        }
      }
      BlockPermutedIndex index = BlockPermutedIndex.create(BlockScheme.DEFAULT, 1024);
      LinearScanIndex oracle = new LinearScanIndex();
      index.addAll(fps, ids, 0, n / 2); // one segment
      oracle.addAll(fps, ids, 0, n / 2);
      compareEdges(index, oracle, fps, random, shape);
      index.addAll(fps, ids, n / 2, n); // a second one, merged in the background
      oracle.addAll(fps, ids, n / 2, n);
      for (int i = 0; i < n; i += 5) {
        assertThat(index.remove(fps[i], ids[i])).isEqualTo(oracle.remove(fps[i], ids[i]));
      }
      compareEdges(index, oracle, fps, random, shape);
      index.forceMerge();
      index.checkInvariants();
      compareEdges(index, oracle, fps, random, shape);
    }
  }

  private static void compareEdges(
      BlockPermutedIndex index,
      LinearScanIndex oracle,
      long[] fps,
      java.util.SplittableRandom random,
      int shape) {
    for (int qi = 0; qi < 150; qi++) {
      long q = fps[qi % 3 == 0 ? qi % fps.length : random.nextInt(fps.length)];
      for (int f = random.nextInt(6); f > 0; f--) {
        q ^= 1L << random.nextInt(64);
      }
      if (qi % 10 == 9) {
        q = random.nextLong(); // mostly empty buckets
      }
      // k = 9 and 64 (whole-table scans across buckets) answer with thousands: every 10th query
      int[] ks = qi % 10 == 0 ? new int[] {0, 1, 2, 3, 4, 6, 9, 64} : new int[] {0, 1, 2, 3, 4, 6};
      for (int k : ks) {
        assertThat(collectSorted(index, q, k))
            .as("shape %d query %016x k %d", shape, q, k)
            .isEqualTo(collectSorted(oracle, q, k));
      }
    }
  }

  private static List<String> collectSorted(HammingIndex index, long q, int k) {
    List<String> out = new ArrayList<>();
    index.search(q, k, (id, fp, d) -> out.add(id + ":" + Long.toHexString(fp) + ":" + d));
    out.sort(null);
    return out;
  }

  /**
   * A search allocates nothing: allocation in the search loop filled the young generation, and the
   * collections it caused stopped single searches of the 10M benchmark for 50-160 ms.
   */
  @Test
  @SuppressForbidden(reason = "com.sun.management.ThreadMXBean counts a thread's allocated bytes")
  void search_warm_allocatesNothing() {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
    long thread = Thread.currentThread().getId();
    java.util.SplittableRandom random = new java.util.SplittableRandom(20);
    long[] fps = new long[50_000];
    long[] ids = new long[fps.length];
    for (int i = 0; i < fps.length; i++) {
      fps[i] = random.nextLong();
      ids[i] = i;
    }
    for (BlockScheme scheme : new BlockScheme[] {BlockScheme.DEFAULT, BlockScheme.of(5, 2)}) {
      BlockPermutedIndex index = BlockPermutedIndex.create(scheme);
      index.addAll(fps, ids, 0, fps.length - 100); // a segment
      index.addAll(fps, ids, fps.length - 100, fps.length); // and the add buffer
      long[] q = BenchmarkQueries.of(random, fps, 2_000, 3);
      long[] sink = new long[1];
      MatchConsumer consumer = (id, fp, d) -> sink[0] += d;
      // First searches initialise classes and the thread's Query; the JIT can only remove
      // allocations, so no warm-up beyond that is needed.
      for (int i = 0; i < 10; i++) {
        index.search(q[i], 3, consumer);
        index.search(q[i], 5, consumer);
      }
      long before = threads.getThreadAllocatedBytes(thread);
      for (long query : q) {
        index.search(query, 3, consumer);
        index.search(query, 5, consumer); // beyond the exact range: probes
      }
      long allocated = threads.getThreadAllocatedBytes(thread) - before;
      // One Query object per search was ~200 bytes: 800 KB here. Allow a few stray objects.
      assertThat(allocated)
          .as("bytes allocated by %s searches, %s", 2 * q.length, scheme)
          .isLessThan(4096);
      assertThat(sink[0]).isPositive();
    }
  }

  @Test
  void search_fromWithinConsumer_innerSearchKeepsOuterState() {
    BlockPermutedIndex index = BlockPermutedIndex.create();
    long fp = 0x0123_4567_89AB_CDEFL;
    index.add(fp, 1);
    index.add(fp ^ 3, 2);
    index.add(~fp, 3);
    List<Long> outer = new ArrayList<>();
    List<Long> inner = new ArrayList<>();
    int n =
        index.search(
            fp,
            3,
            (id, f, d) -> {
              outer.add(id);
              index.search(~fp, 0, (id2, f2, d2) -> inner.add(id2));
            });
    assertThat(n).isEqualTo(2);
    assertThat(outer).containsExactlyInAnyOrder(1L, 2L);
    assertThat(inner).containsExactly(3L, 3L);
  }
}
