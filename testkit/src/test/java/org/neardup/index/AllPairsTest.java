// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.neardup.index.BlockPermutedIndexOracleTest.Shape;
import org.neardup.testkit.BruteForce;
import org.neardup.testkit.BruteForce.Pair;
import org.neardup.testkit.Fingerprints;

/** {@link AllPairs} reports exactly the brute-force pair list, once each, for every path. */
class AllPairsTest {

  @ParameterizedTest(name = "{0} k={1} threads={2}")
  @CsvSource({
    "4:1, 3, 1",
    "5:2, 3, 2",
    "6:3, 3, 1",
    "3:1, 2, 2",
    "7:2, 5, 1",
    "4:1, 0, 1",
    "5:2, 1, 2",
    // beyond the scheme's exact range: multi-probe queries on an index
    "4:1, 5, 2",
    "5:2, 8, 1",
    "4:1, 12, 2",
    // keys too wide to pack with a position: 2:2, and some tables of 6:5
    "2:2, 0, 1",
    "6:5, 1, 2",
  })
  void find_everyShape_matchesBruteForce(String schemeText, int k, int threads) {
    BlockScheme scheme = BlockScheme.parse(schemeText);
    long seed = 977L * k + schemeText.hashCode();
    for (Shape shape : Shape.values()) {
      SplittableRandom random = new SplittableRandom(seed + shape.ordinal());
      long[] fps = BlockPermutedIndexOracleTest.generate(random, shape, 1500);
      List<Pair> expected = BruteForce.pairs(fps, k);
      List<Pair> actual = collect(fps, k, scheme, threads);
      assertThat(actual)
          .as("scheme %s k %d shape %s seed %d", schemeText, k, shape, seed + shape.ordinal())
          .isEqualTo(expected);
    }
  }

  /** The rule the cli's --scheme help prints is the rule defaultScheme follows, at every k. */
  @Test
  void defaultScheme_followsItsRuleInWords() {
    assertThat(AllPairs.DEFAULT_SCHEME_RULE).contains("5:2 up to k = 3").contains("1024 tables");
    for (int k = 0; k <= 64; k++) {
      BlockScheme expected =
          k <= 3
              ? BlockScheme.of(5, 2)
              : (k + 2) * (k + 1) / 2 <= 1024
                  ? BlockScheme.of(k + 2, 2)
                  : BlockScheme.of(Math.min(64, k + 1), 1);
      assertThat(AllPairs.defaultScheme(k)).as("k = %s", k).isEqualTo(expected);
    }
  }

  @Test
  void find_defaultScheme_matchesBruteForceForSeveralK() {
    SplittableRandom random = new SplittableRandom(5);
    long[] fps = Fingerprints.clustered(random, 1200, 30, 12);
    for (int k : new int[] {0, 1, 3, 4, 6, 9}) {
      List<Pair> expected = BruteForce.pairs(fps, k);
      List<Pair> actual = new ArrayList<>();
      long count = AllPairs.find(fps, k, 1, (i, j, d) -> actual.add(new Pair(i, j, d)));
      Collections.sort(actual);
      assertThat(count).isEqualTo(expected.size());
      assertThat(actual).as("k %d", k).isEqualTo(expected);
    }
  }

  /**
   * Many exact duplicates and one block value shared by 1% (and 20%) of the input: the run
   * splitting must keep the work near the output size (this would take minutes if the 20k-entry run
   * were compared pairwise per table... it is 4x10^8 comparisons per table).
   */
  @Test
  void find_skewedAndDuplicated_agreesAndStaysFast() {
    SplittableRandom random = new SplittableRandom(99);
    int n = 100_000;
    long mask = BlockScheme.of(5, 2).keyMask(0); // share table 0's whole key
    for (double fraction : new double[] {0.01, 0.1}) {
      long[] fps = Fingerprints.skewed(random, n, fraction, mask);
      // a few hundred exact duplicates of one fingerprint, and near-duplicates of it
      for (int i = 0; i < 300; i++) {
        fps[random.nextInt(n)] = fps[0];
        fps[random.nextInt(n)] = Fingerprints.flip(random, fps[0], 1 + random.nextInt(3));
      }
      List<Pair> expected = BruteForce.pairsByPigeonhole(fps, 3);
      long t0 = System.nanoTime();
      List<Pair> actual = collect(fps, 3, BlockScheme.of(5, 2), 2);
      double seconds = (System.nanoTime() - t0) / 1e9;
      assertThat(actual).as("fraction %s", fraction).isEqualTo(expected);
      assertThat(seconds).as("seconds").isLessThan(20);
      List<Pair> actual41 = collect(fps, 3, BlockScheme.DEFAULT, 1);
      assertThat(actual41).isEqualTo(expected);
    }
  }

  static List<Pair> collect(long[] fps, int k, BlockScheme scheme, int threads) {
    List<Pair> out = Collections.synchronizedList(new ArrayList<>());
    long count = AllPairs.find(fps, k, scheme, threads, (i, j, d) -> out.add(new Pair(i, j, d)));
    List<Pair> sorted = new ArrayList<>(out);
    Collections.sort(sorted);
    assertThat(count).isEqualTo(sorted.size());
    return sorted;
  }

  @Test
  void find_badInput_namesTheParameter() {
    long[] fps = {1, 2, 3};
    assertThatThrownBy(() -> AllPairs.find(fps, -1, 1, (i, j, d) -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxDistance must be in [0, 64], got -1");
    assertThatThrownBy(() -> AllPairs.find(fps, 65, 1, (i, j, d) -> {}))
        .hasMessage("maxDistance must be in [0, 64], got 65");
    assertThatThrownBy(() -> AllPairs.find(fps, 3, 0, (i, j, d) -> {}))
        .hasMessage("threads must be in [1, 256], got 0");
    assertThatThrownBy(() -> AllPairs.find(fps, 3, 1, null)).hasMessage("out must not be null");
    assertThatThrownBy(() -> AllPairs.find(null, 3, 1, (i, j, d) -> {}))
        .hasMessage("fingerprints must not be null");
    assertThat(AllPairs.find(new long[] {7}, 3, 1, (i, j, d) -> {})).isZero();
  }

  @Test
  void pairsByPigeonhole_agreesWithQuadraticOracle() {
    SplittableRandom random = new SplittableRandom(8);
    long[] fps = Fingerprints.clustered(random, 2000, 20, 8);
    for (int k : new int[] {0, 2, 3, 7}) {
      assertThat(BruteForce.pairsByPigeonhole(fps, k)).isEqualTo(BruteForce.pairs(fps, k));
    }
  }

  @Test
  void subBlocks_cutsTheFreeBitsEvenly() {
    long[] parts = AllPairs.subBlocks(0xFFFF_0000_0000_00FFL, 4);
    assertThat(parts).hasSize(4);
    long union = 0;
    for (long p : parts) {
      assertThat(Long.bitCount(p)).isEqualTo(6);
      assertThat(union & p).isZero();
      union |= p;
    }
    assertThat(union).isEqualTo(0xFFFF_0000_0000_00FFL);
  }
}
