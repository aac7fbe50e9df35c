// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PairSpillTest {
  @TempDir Path tmp;

  /** A pair as the oracle holds it: distance and similarity by key. */
  private record Value(int distance, double similarity) {}

  @Test
  void cursor_manyRunsFromSeveralThreads_returnsEveryPairOnceInOrder() throws Exception {
    for (long seed = 1; seed <= 5; seed++) {
      for (boolean similarities : new boolean[] {true, false}) {
        check(seed, similarities, 1 + (int) seed * 37, 2_000 + (int) seed * 1_000);
      }
    }
  }

  @Test
  void cursor_fewerPairsThanAChunk_touchesNoDisk() throws Exception {
    check(9, true, 1 << 16, 5_000);
    assertThat(tmp.resolve("p9true")).doesNotExist();
  }

  @Test
  void cursor_noPairs_isEmpty() throws IOException {
    try (PairSpill p = new PairSpill(tmp.resolve("empty"), true, 4)) {
      p.finish();
      try (PairSpill.Cursor c = p.cursor()) {
        assertThat(c.next()).isFalse();
        assertThat(c.next()).isFalse();
      }
      assertThat(p.size()).isZero();
    }
  }

  @Test
  void accept_afterFinish_fails() {
    PairSpill p = new PairSpill(tmp.resolve("x"), false, 4);
    p.finish();
    assertThatThrownBy(() -> p.accept(1, 2, 0, Double.NaN))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("after finish");
  }

  @Test
  void close_deletesTheRuns() throws IOException {
    Path dir = tmp.resolve("runs");
    PairSpill p = new PairSpill(dir, false, 3);
    for (int i = 0; i < 10; i++) {
      p.accept(i, i + 1, 1, Double.NaN);
    }
    p.finish();
    assertThat(p.runCount()).isEqualTo(3);
    p.close();
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files).isEmpty();
    }
  }

  /**
   * Two threads report distinct random pairs (either order of i and j, as a sink may receive them);
   * the cursor must return each exactly once, as (min, max), in key order, with its own distance
   * and similarity, at every chunk size.
   */
  private void check(long seed, boolean similarities, int chunk, int count) throws Exception {
    SplittableRandom r = new SplittableRandom(seed);
    TreeMap<Long, Value> expected = new TreeMap<>();
    List<int[]> pairs = new ArrayList<>();
    while (expected.size() < count) {
      // Ordinals across the whole int range, so keys need every varint width.
      int a = r.nextInt(10) == 0 ? Integer.MAX_VALUE - r.nextInt(3) : r.nextInt(1 << r.nextInt(31));
      int b = r.nextInt(1 << r.nextInt(31));
      if (a == b) {
        continue;
      }
      long key = ((long) Math.min(a, b) << 32) | Math.max(a, b);
      if (expected.containsKey(key)) {
        continue;
      }
      int d = r.nextInt(65);
      double s = similarities ? r.nextDouble() : Double.NaN;
      expected.put(key, new Value(d, s));
      pairs.add(new int[] {a, b, d});
    }
    Path dir = tmp.resolve("p" + seed + similarities);
    try (PairSpill spill = new PairSpill(dir, similarities, chunk)) {
      Thread[] threads = new Thread[2];
      for (int t = 0; t < threads.length; t++) {
        int first = t;
        threads[t] =
            new Thread(
                () -> {
                  for (int k = first; k < pairs.size(); k += 2) {
                    int[] p = pairs.get(k);
                    long key = ((long) Math.min(p[0], p[1]) << 32) | Math.max(p[0], p[1]);
                    spill.accept(p[0], p[1], p[2], expected.get(key).similarity());
                  }
                });
        threads[t].start();
      }
      for (Thread t : threads) {
        t.join();
      }
      spill.finish();
      assertThat(spill.size()).isEqualTo(count);
      assertThat(spill.runCount()).isEqualTo((count - 1) / chunk);
      for (int pass = 0; pass < 2; pass++) {
        List<Long> seen = new ArrayList<>(count);
        try (PairSpill.Cursor c = spill.cursor()) {
          while (c.next()) {
            long key = ((long) c.first() << 32) | c.second();
            Value v = expected.get(key);
            assertThat(v)
                .as("seed %s: unexpected pair %s %s", seed, c.first(), c.second())
                .isNotNull();
            assertThat(c.first()).isLessThan(c.second());
            assertThat(c.distance()).isEqualTo(v.distance());
            if (similarities) {
              assertThat(c.similarity()).isEqualTo(v.similarity());
            } else {
              assertThat(c.similarity()).isNaN();
            }
            seen.add(key);
          }
        }
        assertThat(seen)
            .as("seed %s, pass %s", seed, pass)
            .containsExactlyElementsOf(expected.keySet());
      }
    }
  }
}
