// SPDX-License-Identifier: Apache-2.0
package org.neardup.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.neardup.testkit.BruteForce;
import org.neardup.testkit.Fingerprints;

/** Each benchmark's answer on a small input, so a fast benchmark of wrong code fails. */
class BenchmarkAnswersTest {

  @Test
  void hammingIndexBenchmark_everyKind_answersLikeBruteForce() {
    for (IndexKind kind : IndexKind.values()) {
      HammingIndexBenchmark b = new HammingIndexBenchmark();
      b.size = 20_000;
      b.kind = kind;
      b.k = 3;
      b.setup();
      long[] ids = new long[b.size];
      for (int i = 0; i < ids.length; i++) {
        ids[i] = i;
      }
      int withMatches = 0;
      for (int i = 0; i < 400; i++) {
        long q = b.queries[i & HammingIndexBenchmark.MASK];
        int expected = BruteForce.search(b.stored, ids, b.size, q, b.k).size();
        assertThat(b.search()).as("%s query %d", kind, i).isEqualTo(expected);
        withMatches += expected > 0 ? 1 : 0;
      }
      assertThat(withMatches).as("half the queries are near-duplicates").isGreaterThan(150);
      for (int i = 400; i < 800; i++) {
        long q = b.queries[i & HammingIndexBenchmark.MASK];
        assertThat(b.any()).isEqualTo(!BruteForce.search(b.stored, ids, b.size, q, b.k).isEmpty());
      }
      for (int i = 800; i < 1000; i++) {
        long q = b.queries[i & HammingIndexBenchmark.MASK];
        var expected = BruteForce.search(b.stored, ids, b.size, q, b.k);
        int best = expected.stream().mapToInt(BruteForce.Match::distance).min().orElse(-1);
        assertThat(b.nearest()).isEqualTo(best);
      }
    }
  }

  @Test
  void indexBuildBenchmark_everyKind_buildsEverything() {
    for (IndexKind kind :
        new IndexKind[] {IndexKind.BLOCK_PERMUTED_4_1, IndexKind.BLOCK_PERMUTED_5_2}) {
      IndexBuildBenchmark b = new IndexBuildBenchmark();
      b.size = 300_000;
      b.kind = kind;
      b.setup();
      assertThat(b.add()).isEqualTo(b.size);
      assertThat(b.bulkLoad()).isEqualTo(b.size);
    }
  }

  @Test
  void allPairsBenchmark_findsTheBruteForcePairs() {
    AllPairsBenchmark b = new AllPairsBenchmark();
    b.size = 4000;
    b.k = 3;
    b.threads = 2;
    for (String scheme : new String[] {"5:2", "4:1", "6:3"}) {
      b.scheme = scheme;
      b.setup();
      assertThat(b.find()).isEqualTo(BruteForce.pairs(b.fps, b.k).size()).isPositive();
    }
  }

  @Test
  void fingerprintsQueries_areHalfNearDuplicates() {
    long[] stored = Fingerprints.uniform(new SplittableRandom(1), 100);
    long[] q = Fingerprints.queries(new SplittableRandom(2), stored, 10, 3);
    long[] ids = new long[100];
    assertThat(BruteForce.search(stored, ids, 100, q[0], 3)).isNotEmpty();
  }
}
