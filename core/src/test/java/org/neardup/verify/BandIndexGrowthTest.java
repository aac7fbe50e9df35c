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
      List<Integer> want = new ArrayList<>(oracle.getOrDefault(key, List.of()));
      // Exactly the key's: an unrelated key agrees in the 39 bits kept with probability 2^-39.
      got.sort(null);
      want.sort(null);
      assertThat(got).isEqualTo(want);
    }
    assertThat(index.toString()).doesNotContain("tables=1}");
  }

  /**
   * Small freeze and run sizes, so that a few thousand documents go through many freezes, merges,
   * run rewrites and dropped runs; ordinals ascend as a deduplicator's do, several keys each, and
   * removals take the oldest mostly (a retention window) but also random ones.
   */
  @Test
  void forEach_frozenRunsMergedAndShrunk_matchesMultimap() {
    SplittableRandom r = new SplittableRandom(21);
    BandIndex index = new BandIndex(0, 100, 800);
    Map<Long, List<Integer>> oracle = new HashMap<>();
    long[] keys = new long[3_000];
    for (int i = 0; i < keys.length; i++) {
      // A few keys sharing their top bits (one run bucket) and their low 16 bits.
      keys[i] = i < 20 ? (0x1234L << 48) | (i * 0x10000L) | 0x55 : r.nextLong();
    }
    java.util.ArrayDeque<long[]> stored = new java.util.ArrayDeque<>();
    int ordinal = 0;
    for (int step = 0; step < 30_000; step++) {
      int choice = r.nextInt(10);
      if (choice < 6 || stored.isEmpty()) {
        long[] doc = new long[1 + r.nextInt(4)];
        for (int b = 0; b < doc.length; b++) {
          doc[b] = keys[r.nextInt(keys.length)];
        }
        index.add(doc, ordinal);
        for (long k : doc) {
          oracle.computeIfAbsent(k, x -> new ArrayList<>()).add(ordinal);
        }
        long[] e = java.util.Arrays.copyOf(doc, doc.length + 1);
        e[doc.length] = ordinal++;
        stored.addLast(e);
      } else {
        long[] e;
        if (choice < 9) {
          e = stored.pollFirst();
        } else {
          List<long[]> all = new ArrayList<>(stored);
          e = all.get(r.nextInt(all.size()));
          stored.remove(e);
        }
        int o = (int) e[e.length - 1];
        assertThat(index.remove(e, 0, e.length - 1, o)).as("step %s", step).isEqualTo(e.length - 1);
        for (int b = 0; b < e.length - 1; b++) {
          oracle.get(e[b]).remove(Integer.valueOf(o));
        }
        assertThat(index.remove(e, 0, e.length - 1, o)).isZero();
      }
      if (step % 5_000 == 0) {
        index.checkInvariants();
      }
    }
    index.checkInvariants();
    assertThat(index.toString()).doesNotContain("runs=0,");
    int entries = 0;
    for (long key : keys) {
      List<Integer> got = new ArrayList<>();
      index.forEach(new long[] {key}, got::add);
      List<Integer> want = new ArrayList<>(oracle.getOrDefault(key, List.of()));
      entries += want.size();
      got.sort(null);
      want.sort(null);
      assertThat(got).as("key %s", key).isEqualTo(want);
    }
    assertThat(index.size()).isEqualTo(entries);
  }

  /** Frozen runs take 7 bytes per entry (with the tags): far less than the table's 11.7 to 22. */
  @Test
  void ramBytesUsed_pastManyFreezes_aboutSevenBytesPerEntry() {
    BandIndex index = new BandIndex(0);
    SplittableRandom r = new SplittableRandom(2);
    int n = 16 * BandIndex.FREEZE_AT;
    long[] doc = new long[6];
    for (int o = 0; o < n / 6; o++) {
      for (int b = 0; b < 6; b++) {
        doc[b] = r.nextLong();
      }
      index.add(doc, o);
    }
    index.checkInvariants();
    // Most entries are in runs (7 B + bucket bounds); the table holds at most FREEZE_AT (22 B).
    assertThat(index.ramBytesUsed()).isLessThan(n * 7L + 3 * 270_000L + BandIndex.FREEZE_AT * 23L);
  }

  @Test
  void remove_everything_thenAddAgain_reusesTombstonedSlots() {
    // Never frozen: every entry stays in the hash table.
    BandIndex index = new BandIndex(0, Integer.MAX_VALUE, Integer.MAX_VALUE);
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

  /** The same past many freezes: emptied runs are dropped, so memory does not grow either. */
  @Test
  void remove_everythingFrozen_thenAddAgain_dropsRuns() {
    BandIndex index = new BandIndex(0);
    long first = 0;
    for (int round = 0; round < 4; round++) {
      for (int i = 0; i < 200_000; i++) {
        index.add(i * 31L, i);
      }
      long full = index.ramBytesUsed();
      first = round == 0 ? full : first;
      assertThat(full).isLessThanOrEqualTo(first);
      for (int i = 0; i < 200_000; i++) {
        assertThat(index.remove(new long[] {i * 31L}, i)).isEqualTo(1);
      }
      assertThat(index.size()).isZero();
      index.checkInvariants();
      assertThat(index.toString()).contains("runs=0,");
    }
  }
}
