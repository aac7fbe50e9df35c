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
      switch (r.nextInt(3)) {
        case 0 -> {
          assertThat(map.put(key, step)).isEqualTo(oracle.getOrDefault(key, -1));
          oracle.put(key, step);
        }
        case 1 ->
            assertThat(map.remove(key))
                .isEqualTo(oracle.containsKey(key) ? oracle.remove(key) : -1);
        default -> assertThat(map.get(key)).isEqualTo(oracle.getOrDefault(key, -1));
      }
    }
    assertThat(map.size()).isEqualTo(oracle.size());
    oracle.forEach((k, v) -> assertThat(map.get(k)).isEqualTo(v));
  }
}
