// SPDX-License-Identifier: Apache-2.0
package org.neardup.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BandIndexTest {
  @Test
  void forEach_afterAddsAndRemoves_matchesBruteForceMultimap() {
    SplittableRandom r = new SplittableRandom(11);
    BandIndex index = new BandIndex(16);
    Map<Long, List<Integer>> oracle = new HashMap<>();
    long[] pool = new long[300];
    for (int i = 0; i < pool.length; i++) {
      pool[i] = r.nextLong();
    }
    List<long[]> added = new ArrayList<>();
    for (int step = 0; step < 20_000; step++) {
      if (r.nextInt(4) > 0 || added.isEmpty()) {
        long key = pool[r.nextInt(pool.length)];
        int ordinal = step;
        index.add(key, ordinal);
        oracle.computeIfAbsent(key, k -> new ArrayList<>()).add(ordinal);
        added.add(new long[] {key, ordinal});
      } else {
        long[] e = added.remove(r.nextInt(added.size()));
        assertThat(index.remove(new long[] {e[0]}, (int) e[1])).isEqualTo(1);
        oracle.get(e[0]).remove(Integer.valueOf((int) e[1]));
      }
    }
    for (long key : pool) {
      List<Integer> got = new ArrayList<>();
      index.forEach(new long[] {key}, got::add);
      List<Integer> want = new ArrayList<>(oracle.getOrDefault(key, List.of()));
      // Exactly the key's: an unrelated key agrees in the 39 bits kept with probability 2^-39.
      got.sort(null);
      want.sort(null);
      assertThat(got).isEqualTo(want);
    }
    assertThat(index.size()).isEqualTo(added.size());
  }

  @Test
  void remove_missing_returnsZero() {
    BandIndex index = new BandIndex(4);
    index.add(new long[] {1, 2}, 7);
    assertThat(index.remove(new long[] {1, 2}, 8)).isZero();
    assertThat(index.remove(new long[] {1, 2}, 7)).isEqualTo(2);
    List<Integer> got = new ArrayList<>();
    index.forEach(new long[] {1, 2}, got::add);
    assertThat(got).isEmpty();
  }

  /**
   * Issue found in the service at 10M documents: home slots were taken from 24 bits of the hash, so
   * a table past 2^24 slots used only its first 2^24 as homes and adds went quadratic. Home slots
   * must spread over the whole table.
   */
  @Test
  void home_bigTable_usesItsWholeRange() throws Exception {
    java.lang.reflect.Method home = BandIndex.class.getDeclaredMethod("home", int.class, int.class);
    home.setAccessible(true);
    int mask = (1 << 26) - 1;
    int highest = 0;
    java.util.SplittableRandom r = new java.util.SplittableRandom(3);
    for (int i = 0; i < 10_000; i++) {
      highest = Math.max(highest, (int) home.invoke(null, r.nextInt() | 1, mask));
    }
    assertThat(highest).isGreaterThan(1 << 25);
  }
}
