// SPDX-License-Identifier: Apache-2.0
package org.neardup.fingerprint;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TermTableTest {
  /**
   * indexOf finds exactly the terms counted since the last clear, at the index increment gave them,
   * across rehashes and clears (the fingerprinter counts a repeat through indexOf without looking
   * its IDF up again, so a wrong index would weigh the wrong term).
   */
  @Test
  void indexOf_afterIncrementsAndClears_matchesAMap() {
    long seed = 20261125L;
    SplittableRandom random = new SplittableRandom(seed);
    TermTable table = new TermTable();
    for (int text = 0; text < 50; text++) {
      Map<Long, Integer> expected = new HashMap<>();
      int words = random.nextInt(1, 3000);
      for (int w = 0; w < words; w++) {
        // Few distinct values so that repeats are common (0 is left out: it shares a key with 1).
        long hash =
            random.nextInt(4) == 0 ? random.nextInt(1, 4) : random.nextLong(1, words) * 7919;
        int before = table.indexOf(hash);
        assertThat(before).as("seed %s", seed).isEqualTo(expected.getOrDefault(hash, -1));
        int index = table.increment(hash, 1f);
        if (before >= 0) {
          assertThat(index).isEqualTo(before);
        } else {
          assertThat(index).isEqualTo(table.size - 1);
          expected.put(hash, index);
        }
      }
      table.clear();
      assertThat(table.size).isZero();
      for (long hash : expected.keySet()) {
        assertThat(table.indexOf(hash)).isEqualTo(-1);
      }
    }
  }
}
