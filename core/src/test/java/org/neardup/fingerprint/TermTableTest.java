// SPDX-License-Identifier: Apache-2.0
package org.neardup.fingerprint;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TermTableTest {
  /**
   * countOrFreeSlot counts exactly the terms added since the last clear, at the index they were
   * given, and names a free slot for the others, where addAt puts them, across rehashes and clears
   * (the fingerprinter counts a repeat through it without looking its IDF up again, so a wrong
   * index would weigh the wrong term); increment agrees with the two.
   */
  @Test
  void countOrFreeSlot_afterAddsAndClears_matchesAMap() {
    long seed = 20261125L;
    SplittableRandom random = new SplittableRandom(seed);
    TermTable table = new TermTable();
    for (int text = 0; text < 50; text++) {
      Map<Long, Integer> expected = new HashMap<>();
      Map<Long, Integer> occurrences = new HashMap<>();
      int words = random.nextInt(1, 3000);
      for (int w = 0; w < words; w++) {
        // Few distinct values so that repeats are common (0 is left out: it shares a key with 1).
        long hash =
            random.nextInt(4) == 0 ? random.nextInt(1, 4) : random.nextLong(1, words) * 7919;
        Integer known = expected.get(hash);
        int index;
        if (random.nextBoolean()) {
          index = table.countOrFreeSlot(hash);
          if (known == null) {
            assertThat(index).as("seed %s", seed).isNegative();
            index = table.addAt(-index - 1, hash, 1f);
          }
        } else {
          index = table.increment(hash, 1f);
        }
        assertThat(index).as("seed %s", seed).isEqualTo(known != null ? known : table.size - 1);
        expected.put(hash, index);
        assertThat(table.counts[index]).isEqualTo(occurrences.merge(hash, 1, Integer::sum));
        assertThat(table.hashOfIndex[index]).isEqualTo(hash);
      }
      table.clear();
      assertThat(table.size).isZero();
      for (long hash : expected.keySet()) {
        assertThat(table.countOrFreeSlot(hash)).isNegative();
      }
    }
  }
}
