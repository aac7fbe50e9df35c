// SPDX-License-Identifier: Apache-2.0
package org.neardup.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LongIntMapTest {
  @Test
  void operations_randomSequence_agreeWithHashMap() {
    SplittableRandom r = new SplittableRandom(9);
    LongIntMap map = new LongIntMap(4);
    Map<Long, Integer> oracle = new HashMap<>();
    for (int step = 0; step < 200_000; step++) {
      long key = r.nextInt(5000) * 0x9E3779B97F4A7C15L; // clustered keys stress probing
      switch (r.nextInt(4)) {
        case 0 -> {
          assertThat(map.put(key, step)).isEqualTo(oracle.getOrDefault(key, -1));
          oracle.put(key, step);
        }
        case 3 -> {
          assertThat(map.putIfAbsent(key, step)).isEqualTo(oracle.getOrDefault(key, -1));
          oracle.putIfAbsent(key, step);
        }
        case 1 ->
            assertThat(map.remove(key))
                .isEqualTo(oracle.containsKey(key) ? oracle.remove(key) : -1);
        default -> assertThat(map.get(key)).isEqualTo(oracle.getOrDefault(key, -1));
      }
    }
    assertThat(map.size()).isEqualTo(oracle.size());
    oracle.forEach((k, v) -> assertThat(map.get(k)).isEqualTo(v));
    map.checkInvariants();
  }

  /** Growth across many sub-table splits and directory doublings, with removals in between. */
  @Test
  void operations_growingPastManySplits_agreeWithHashMap() {
    for (long seed = 1; seed <= 3; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      LongIntMap map = new LongIntMap(0);
      Map<Long, Integer> oracle = new HashMap<>();
      // Sequential keys (docIds) for one seed, random for the others.
      for (int step = 0; step < 600_000; step++) {
        long key = seed == 1 ? step : r.nextLong();
        if (r.nextInt(8) == 0 && !oracle.isEmpty()) {
          long victim = seed == 1 ? r.nextInt(step) : key;
          assertThat(map.remove(victim))
              .as("seed %s step %s", seed, step)
              .isEqualTo(oracle.containsKey(victim) ? oracle.remove(victim) : -1);
        } else {
          assertThat(map.put(key, step)).isEqualTo(oracle.getOrDefault(key, -1));
          oracle.put(key, step);
        }
      }
      map.checkInvariants();
      assertThat(map.size()).isEqualTo(oracle.size());
      for (Map.Entry<Long, Integer> e : oracle.entrySet()) {
        assertThat(map.get(e.getKey()))
            .as("seed %s key %s", seed, e.getKey())
            .isEqualTo(e.getValue());
      }
      for (int i = 0; i < 10_000; i++) {
        long absent = r.nextLong() | Long.MIN_VALUE;
        if (!oracle.containsKey(absent)) {
          assertThat(map.get(absent)).isEqualTo(-1);
        }
      }
      // Past 2^16 slots the map is several sub-tables; memory stays near 18 bytes per entry.
      assertThat((double) map.ramBytesUsed() / map.size()).isBetween(12.0, 40.0);
    }
  }

  @Test
  void constructor_presized_holdsExpectedWithoutSplitting() {
    LongIntMap map = new LongIntMap(300_000);
    long before = map.ramBytesUsed();
    for (int i = 0; i < 300_000; i++) {
      map.put(i, i);
    }
    assertThat(map.ramBytesUsed()).isEqualTo(before);
    map.checkInvariants();
  }
}
