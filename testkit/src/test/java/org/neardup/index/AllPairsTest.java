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
    int n = 200_000;
    long mask = BlockScheme.of(5, 2).keyMask(0); // share table 0's whole key
    for (double fraction : new double[] {0.01, 0.1}) {
      long[] fps = Fingerprints.skewed(random, n, fraction, mask);
      // a few hundred exact duplicates of one fingerprint, and near-duplicates of it
      for (int i = 0; i < 300; i++) {
        fps[random.nextInt(n)] = fps[0];
        fps[random.nextInt(n)] = Fingerprints.flip(random, fps[0], 1 + random.nextInt(3));
      }
      List<Pair> expected = pairsAmongSuspects(fps, 3, mask);
      long t0 = System.nanoTime();
      List<Pair> actual = collect(fps, 3, BlockScheme.of(5, 2), 2);
      double seconds = (System.nanoTime() - t0) / 1e9;
      assertThat(actual).as("fraction %s", fraction).isEqualTo(expected);
      assertThat(seconds).as("seconds").isLessThan(20);
      List<Pair> actual41 = collect(fps, 3, BlockScheme.DEFAULT, 1);
      assertThat(actual41).isEqualTo(expected);
    }
  }

  /**
   * Brute force restricted to what can match: fingerprints sharing the skewed key value, and the
   * duplicated fingerprint's neighbourhood; random 64-bit values elsewhere are never within 3.
   * Checked by a full linear scan of every suspect.
   */
  private static List<Pair> pairsAmongSuspects(long[] fps, int k, long mask) {
    LinearScanIndex all = new LinearScanIndex();
    for (int i = 0; i < fps.length; i++) {
      all.add(fps[i], i);
    }
    List<Pair> out = new ArrayList<>();
    long shared = mode(fps, mask);
    for (int i = 0; i < fps.length; i++) {
      int self = i;
      if ((fps[i] & mask) == shared || Long.bitCount(fps[i] ^ fps[0]) <= 2 * k || i % 997 == 0) {
        all.search(
            fps[i],
            k,
            (id, fp, d) -> {
              if (id > self) {
                out.add(new Pair(self, (int) id, d));
              }
            });
      }
    }
    Collections.sort(out);
    return out;
  }

  /** The most common value of {@code fp & mask}: the skewed block value. */
  private static long mode(long[] fps, long mask) {
    long[] masked = new long[fps.length];
    for (int i = 0; i < fps.length; i++) {
      masked[i] = fps[i] & mask;
    }
    java.util.Arrays.sort(masked);
    long best = masked[0];
    int bestRun = 0;
    for (int i = 0; i < masked.length; ) {
      int j = i;
      while (j < masked.length && masked[j] == masked[i]) {
        j++;
      }
      if (j - i > bestRun) {
        bestRun = j - i;
        best = masked[i];
      }
      i = j;
    }
    return best;
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
