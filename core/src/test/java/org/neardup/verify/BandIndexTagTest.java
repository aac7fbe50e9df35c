// SPDX-License-Identifier: Apache-2.0
package org.neardup.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.neardup.internal.PagedLongArray;

/**
 * Property: a lookup reports exactly the ordinals stored under its full 64-bit key, in the table,
 * in frozen, merged and shrunk runs, and after bulk adds, even among keys made to fold to the same
 * 31 bits (they differ in the top byte, the tag). An index without tags reports those too. Seeded;
 * a failure names the seed.
 */
class BandIndexTagTest {
  /**
   * Keys in families of eight that fold alike: a random key, then the same with bit 63 flipped
   * (which the fold drops) or with bits 56..62 flipped together with bits 25..31 (which cancel in
   * the fold), so each family shares its 31 bits and differs only in the tag.
   */
  private static long[] collidingPool(SplittableRandom r, int families) {
    long[] pool = new long[families * 8];
    for (int f = 0; f < families; f++) {
      long base = r.nextLong();
      for (int j = 0; j < 8; j++) {
        long bits = r.nextInt(1 << 7); // bits 56..62, mirrored at 25..31
        long key = j == 0 ? base : base ^ (bits << 56) ^ (bits << 25) ^ ((long) (j & 1) << 63);
        pool[f * 8 + j] = key;
      }
    }
    return pool;
  }

  @Test
  void collidingPool_sharesTheFoldAndDiffersInTheTag() {
    long[] pool = collidingPool(new SplittableRandom(1), 50);
    for (int f = 0; f < 50; f++) {
      for (int j = 1; j < 8; j++) {
        assertThat(BandIndex.fold(pool[f * 8 + j])).isEqualTo(BandIndex.fold(pool[f * 8]));
      }
    }
  }

  @Test
  void forEach_keysFoldingAlike_reportsExactlyTheFullKeysOrdinals() {
    for (int seed = 0; seed < 20; seed++) {
      runScenario(seed, true);
    }
  }

  @Test
  void forEach_withoutTags_keysFoldingAlikeMeet() {
    for (int seed = 0; seed < 5; seed++) {
      runScenario(seed, false);
    }
  }

  /**
   * A run whose ordinals span 2^24 or more (a table entry far below a bulk batch) cannot carry its
   * tags in the sort's longs and takes the byte arrays instead: the same answers.
   */
  @Test
  void addAll_runSpanningPastPackedSpan_keepsTags() {
    SplittableRandom r = new SplittableRandom(9);
    BandIndex index = new BandIndex(0, 16, 1 << 12);
    long[] pool = collidingPool(r, 30);
    Map<Long, List<Integer>> oracle = new HashMap<>();
    List<long[]> stored = new ArrayList<>();
    for (int o = 0; o < 5; o++) { // stays in the table, then is carried into the bulk run
      long[] k = keysOf(r, pool);
      index.add(k, o);
      file(oracle, stored, o, k);
    }
    int first = BandRun.PACKED_SPAN + 100;
    PagedLongArray keys = new PagedLongArray();
    for (int i = 0; i < 200; i++) {
      long[] k = keysOf(r, pool);
      keys.append(k, 0, k.length);
      file(oracle, stored, first + i, k);
    }
    index.addAll(keys, 0, 3, first, 200);
    index.checkInvariants();
    assertThat(index.toString()).contains("runs=1,");
    for (long key : pool) {
      List<Integer> want = new ArrayList<>(oracle.getOrDefault(key, List.of()));
      want.sort(null);
      List<Integer> got = new ArrayList<>();
      index.forEach(key, got::add);
      got.sort(null);
      assertThat(got).as("key %s", key).isEqualTo(want);
    }
  }

  private static void runScenario(int seed, boolean tagged) {
    SplittableRandom r = new SplittableRandom(seed);
    BandIndex index = new BandIndex(0, tagged, 64, 512);
    long[] pool = collidingPool(r, 1 + r.nextInt(40));
    Map<Long, List<Integer>> oracle = new HashMap<>();
    List<long[]> stored = new ArrayList<>(); // {ordinal, keys...}
    int next = 0;
    for (int step = 0; step < 60; step++) {
      int what = r.nextInt(3);
      if (what == 0) {
        int docs = r.nextInt(1 + r.nextInt(3) * 100);
        PagedLongArray keys = new PagedLongArray();
        for (int i = 0; i < docs; i++) {
          long[] k = keysOf(r, pool);
          keys.append(k, 0, k.length);
          file(oracle, stored, next + i, k);
        }
        index.addAll(keys, 0, 3, next, docs);
        next += docs;
      } else if (what == 1) {
        for (int i = r.nextInt(60); i > 0; i--) {
          long[] k = keysOf(r, pool);
          index.add(k, next);
          file(oracle, stored, next++, k);
        }
      } else {
        for (int i = r.nextInt(1 + Math.min(40, stored.size() / 2)); i > 0; i--) {
          long[] e = stored.remove(r.nextInt(stored.size()));
          long[] k = java.util.Arrays.copyOfRange(e, 1, e.length);
          assertThat(index.remove(k, (int) e[0])).as("seed %s", seed).isEqualTo(k.length);
          for (long key : k) {
            oracle.get(key).remove(Integer.valueOf((int) e[0]));
          }
        }
      }
      index.checkInvariants();
      for (long key : pool) {
        List<Integer> want = new ArrayList<>();
        if (tagged) {
          want.addAll(oracle.getOrDefault(key, List.of()));
        } else {
          // Without tags, every key of the family (same fold) is met.
          for (long other : oracle.keySet()) {
            if (BandIndex.fold(other) == BandIndex.fold(key)) {
              want.addAll(oracle.getOrDefault(other, List.of()));
            }
          }
        }
        want.sort(null);
        List<Integer> got = new ArrayList<>();
        index.forEach(key, got::add);
        got.sort(null);
        assertThat(got).as("seed %s, step %s, key %s", seed, step, key).isEqualTo(want);
      }
    }
    assertThat(index.size()).isEqualTo(stored.size() * 3);
  }

  private static void file(
      Map<Long, List<Integer>> oracle, List<long[]> stored, int ordinal, long[] keys) {
    long[] e = new long[keys.length + 1];
    e[0] = ordinal;
    System.arraycopy(keys, 0, e, 1, keys.length);
    stored.add(e);
    for (long k : keys) {
      oracle.computeIfAbsent(k, x -> new ArrayList<>()).add(ordinal);
    }
  }

  /** Three keys, now and then two of them from one family (same fold, same ordinal). */
  private static long[] keysOf(SplittableRandom r, long[] pool) {
    long[] k = new long[3];
    for (int b = 0; b < 3; b++) {
      k[b] = pool[r.nextInt(pool.length)];
    }
    if (r.nextInt(4) == 0) {
      int f = r.nextInt(pool.length / 8) * 8;
      k[0] = pool[f + r.nextInt(8)];
      k[1] = pool[f + r.nextInt(8)];
    }
    return k;
  }
}
