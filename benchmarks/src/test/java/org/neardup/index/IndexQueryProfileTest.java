// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class IndexQueryProfileTest {
  /** The profile's walk finds exactly the matches a linear scan finds, so its counts are real. */
  @Test
  void run_smallIndex_countsTheLinearScansMatches() {
    Map<String, Object> out = IndexQueryProfile.run(100_000, 1_000, false);
    assertThat((long) out.get("matches_total"))
        .isPositive()
        .isEqualTo((long) out.get("matches_brute_force"));
    // 100k entries over 2^16 buckets: 1.5 per table and query, plus the near-duplicates' source
    assertThat((double) out.get("t0_entries")).isBetween(1.5, 2.6);
    assertThat((double) out.get("tag_compares")).isBetween(4.5, 7.8);
  }
}
