package org.neardup.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** CheckAndInsertBenchmark stores what it checks and finds the generator's copies. */
class CheckAndInsertBenchmarkTest {
  @Test
  void checkAndInsert_bothModes_storesEveryTextAndFindsCopies() throws IOException {
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
      // About 30% of generated texts are edited copies of recent ones; most are found.
      assertThat(duplicates).as("verify=%s", verify).isBetween(200, 900);
    }
  }
}
