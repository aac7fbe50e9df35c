// SPDX-License-Identifier: Apache-2.0
package org.neardup.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The interleaved lookup of a query's keys ({@link BandIndex#forEach(long[],
 * java.util.function.IntConsumer, BandIndex.Lookup)}) against a brute-force multimap, over indexes
 * of many runs whose buckets are crowded and whose low bits are not spread evenly, so that the
 * search from the interpolated guess gallops far both ways.
 */
class BandIndexLookupTest {
  @Test
  void forEachAll_crowdedAndSkewedBuckets_matchesBruteForceMultimap() {
    for (int seed = 0; seed < 4; seed++) {
      runScenario(seed);
    }
  }

  private static void runScenario(int seed) {
    SplittableRandom r = new SplittableRandom(seed);
    // Small freezes and merges: a dozen runs or more, as a large index has.
    BandIndex index = new BandIndex(16, true, 64 + r.nextInt(64), 512 + r.nextInt(2048));
    long[] pool = keyPool(r);
    Map<Long, List<Integer>> oracle = new HashMap<>();
    List<long[]> added = new ArrayList<>();
    int ordinal = 0;
    for (int step = 0; step < 20_000; step++) {
      if (r.nextInt(5) > 0 || added.isEmpty()) {
        long key = pool[r.nextInt(pool.length)];
        index.add(key, ordinal);
        oracle.computeIfAbsent(key, k -> new ArrayList<>()).add(ordinal);
        added.add(new long[] {key, ordinal++});
      } else {
        long[] e = added.remove(r.nextInt(added.size()));
        assertThat(index.remove(new long[] {e[0]}, (int) e[1])).isEqualTo(1);
        oracle.get(e[0]).remove(Integer.valueOf((int) e[1]));
      }
    }
    index.checkInvariants();
    BandIndex.Lookup lookup = new BandIndex.Lookup();
    for (int q = 0; q < 2_000; q++) {
      long[] keys = new long[1 + r.nextInt(8)];
      List<Integer> want = new ArrayList<>();
      List<Integer> oneByOne = new ArrayList<>();
      for (int j = 0; j < keys.length; j++) {
        keys[j] = r.nextInt(4) == 0 ? r.nextLong() : pool[r.nextInt(pool.length)];
        want.addAll(oracle.getOrDefault(keys[j], List.of()));
        index.forEach(keys[j], oneByOne::add);
      }
      List<Integer> got = new ArrayList<>();
      index.forEach(keys, got::add, lookup, 0); // the same buffers for every query
      got.sort(null);
      want.sort(null);
      oneByOne.sort(null);
      assertThat(got).as("seed %s, query %s", seed, q).isEqualTo(want);
      assertThat(oneByOne).as("seed %s, query %s", seed, q).isEqualTo(want);
      // From an ordinal on: every one at or above it, and below it only ordinals that are there.
      int from = r.nextInt(ordinal + 1);
      List<Integer> since = new ArrayList<>();
      index.forEach(keys, since::add, lookup, from);
      since.sort(null);
      assertThat(since.stream().filter(o -> o >= from))
          .as("seed %s, query %s from %s", seed, q, from)
          .containsExactlyElementsOf(want.stream().filter(o -> o >= from).toList());
      assertThat(want).containsAll(since);
    }
  }

  /**
   * Keys below 2^31 fold to themselves (odd ones: the fold sets the low bit) with tag 0: a few
   * buckets (the folded key's top 16 bits) hold most of them, their low bits bunched at one end,
   * the other end or both, so the interpolated guess misses by up to the whole bucket; plus random
   * 64-bit keys.
   */
  private static long[] keyPool(SplittableRandom r) {
    long[] pool = new long[600];
    int[] buckets = {0, 1, 7, 0x7FFF};
    for (int i = 0; i < pool.length; i++) {
      int kind = r.nextInt(4);
      if (kind == 3) {
        pool[i] = r.nextLong();
        continue;
      }
      int low =
          kind == 0
              ? r.nextInt(64)
              : kind == 1 ? 0xFFFF - r.nextInt(64) : r.nextBoolean() ? r.nextInt(16) : 0xFFF0;
      pool[i] =
          ((long) buckets[r.nextInt(buckets.length)] << 16) | low | 1; // odd: one key per fold
    }
    return pool;
  }
}
