// SPDX-License-Identifier: Apache-2.0
package org.neardup.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** BandIndex against a HashMap multimap while it grows through many sub-table splits. */
class BandIndexGrowthTest {
  @Test
  void forEach_growingPastManySplitsWithRemovals_matchesMultimap() {
    SplittableRandom r = new SplittableRandom(5);
    BandIndex index = new BandIndex(0);
    Map<Long, List<Integer>> oracle = new HashMap<>();
    long[] keys = new long[50_000];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = r.nextLong();
    }
    List<long[]> added = new ArrayList<>();
    for (int step = 0; step < 700_000; step++) {
      if (r.nextInt(5) > 0 || added.isEmpty()) {
        long key = keys[r.nextInt(keys.length)];
        index.add(key, step);
        oracle.computeIfAbsent(key, k -> new ArrayList<>()).add(step);
        added.add(new long[] {key, step});
      } else {
        int victim = r.nextInt(added.size());
        long[] e = added.get(victim);
        added.set(victim, added.get(added.size() - 1));
        added.remove(added.size() - 1);
        assertThat(index.remove(new long[] {e[0]}, (int) e[1])).isEqualTo(1);
        oracle.get(e[0]).remove(Integer.valueOf((int) e[1]));
      }
    }
    index.checkInvariants();
    assertThat(index.size()).isEqualTo(added.size());
    for (long key : keys) {
      List<Integer> got = new ArrayList<>();
      index.forEach(new long[] {key}, got::add);
      List<Integer> want = oracle.getOrDefault(key, List.of());
      // A folded-key collision may add ordinals of another key: a superset, barely larger.
      assertThat(got).containsAll(want);
      assertThat(got.size()).isLessThanOrEqualTo(want.size() + 40);
    }
    assertThat(index.toString()).doesNotContain("tables=1}");
  }

  @Test
  void remove_everything_thenAddAgain_reusesTombstonedSlots() {
    BandIndex index = new BandIndex(0);
    for (int round = 0; round < 5; round++) {
      for (int i = 0; i < 200_000; i++) {
        index.add(i * 31L, i);
      }
      long full = index.ramBytesUsed();
      for (int i = 0; i < 200_000; i++) {
        assertThat(index.remove(new long[] {i * 31L}, i)).isEqualTo(1);
      }
      assertThat(index.size()).isZero();
      index.checkInvariants();
      // Tombstones are purged in place: the table does not keep growing round after round.
      assertThat(index.ramBytesUsed()).isEqualTo(full);
    }
  }
}
