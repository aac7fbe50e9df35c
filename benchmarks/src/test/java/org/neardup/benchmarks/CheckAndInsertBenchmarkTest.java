// SPDX-License-Identifier: Apache-2.0
package org.neardup.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** CheckAndInsertBenchmark stores what it checks and finds the generator's copies. */
class CheckAndInsertBenchmarkTest {
  @Test
  void checkAndInsert_bothModes_storesEveryTextAndFindsCopies() throws IOException {
    int[] found = new int[2];
    for (boolean verify : new boolean[] {true, false}) {
      CheckAndInsertBenchmark b = new CheckAndInsertBenchmark();
      b.stored = 2000;
      b.verify = verify;
      b.textCount = 1 << 12;
      b.setUp();
      assertThat(b.dedup.size()).isEqualTo(2000);
      int duplicates = 0;
      for (int i = 0; i < 2000; i++) {
        duplicates += b.checkAndInsert() ? 0 : 1;
      }
      assertThat(b.dedup.size()).isEqualTo(4000);
      found[verify ? 0 : 1] = duplicates;
    }
    // About 30% of the generated texts (~600 here) are edited copies of earlier ones, but not
    // every edit keeps a copy at Jaccard >= 0.8: a replaced clause or a cut tail takes many short
    // copies below it. Verification finds those that stay above; the fingerprint alone, at k = 3,
    // finds fewer (seed 7 gives 282 and 143).
    assertThat(found[0]).as("verified").isBetween(200, 450);
    assertThat(found[1]).as("fingerprint only").isBetween(60, found[0]);
  }
}
