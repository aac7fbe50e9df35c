// SPDX-License-Identifier: Apache-2.0
package org.neardup.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Holds the shingler's selection (the distinct smallest {@code capacity} shingle hashes, found
 * through a buffer compacted as it fills) and its one-permutation MinHash bins (the minimum per
 * bin, empty bins densified) to a plain model, on random shingle hashes: repeats, texts far longer
 * than the capacity, and bins whose only value is the largest there is (which no flag but the
 * minimum itself tells apart from an empty bin).
 */
class ShinglerSelectionTest {

  @Test
  void sketchOfShingleHashes_randomHashes_sameAsSortedDistinctBottomAndBinMinima() {
    SplittableRandom r = new SplittableRandom(20261126);
    for (int round = 0; round < 3_000; round++) {
      int capacity = 16 + r.nextInt(200);
      BandScheme bands = BandScheme.of(1 + r.nextInt(8), 1 + r.nextInt(3));
      Shingler shingler = new Shingler(capacity, bands, false);
      long[] hashes = randomShingleHashes(r, capacity);
      Sketch got = shingler.sketchOfShingleHashes(hashes, ShingleSketch.Mode.CHARS);

      TreeSet<Long> distinct = new TreeSet<>();
      for (long h : hashes) {
        distinct.add(h >>> 32);
      }
      int[] bottom = distinct.stream().limit(capacity).mapToInt(Long::intValue).toArray();
      assertThat(got.shingles().hashes()).as("round %s", round).containsExactly(bottom);
      assertThat(got.shingles().complete()).isEqualTo(distinct.size() <= capacity);
      assertThat(got.bandKeys()).as("round %s", round).containsExactly(bandKeys(hashes, bands));
    }
  }

  /** Up to 6 capacities of hashes: some repeated, some with a high half of all ones. */
  private static long[] randomShingleHashes(SplittableRandom r, int capacity) {
    int n = r.nextInt(1 + 6 * capacity);
    long[] h = new long[n];
    for (int i = 0; i < n; i++) {
      int kind = r.nextInt(20);
      if (kind == 0 && i > 0) {
        h[i] = h[r.nextInt(i)]; // a repeated shingle
      } else if (kind == 1) {
        h[i] = 0xFFFFFFFF00000000L | (r.nextLong() & 0xFFFFFFFFL); // the largest value, any bin
      } else {
        h[i] = r.nextLong();
      }
    }
    return h;
  }

  /** The model of the bins: minimum of the high halves per bin, empty bins densified, folded. */
  private static long[] bandKeys(long[] hashes, BandScheme scheme) {
    int bins = scheme.values();
    long[] min = new long[bins];
    boolean[] taken = new boolean[bins];
    Arrays.fill(min, Long.MAX_VALUE);
    for (long h : hashes) {
      int bin = (int) (((h & 0xFFFFFFFFL) * bins) >>> 32);
      min[bin] = Math.min(min[bin], h >>> 32);
      taken[bin] = true;
    }
    if (hashes.length == 0) {
      return new long[0];
    }
    long[] keys = new long[scheme.bands()];
    for (int b = 0; b < keys.length; b++) {
      long k = b + 1;
      for (int row = 0; row < scheme.rows(); row++) {
        int bin = b * scheme.rows() + row;
        long value = taken[bin] ? min[bin] : min[donor(bin, taken)];
        k = Shingler.mix(Long.rotateLeft(k, 21) ^ value);
      }
      keys[b] = k;
    }
    return keys;
  }

  /** The bin an empty bin borrows from: the first taken one its seeded sequence reaches. */
  private static int donor(int bin, boolean[] taken) {
    for (long attempt = 1; ; attempt++) {
      long h = Shingler.mix(((long) bin << 32) ^ attempt ^ 0x5851F42D4C957F2DL);
      int other = (int) (((h & 0xFFFFFFFFL) * taken.length) >>> 32);
      if (taken[other]) {
        return other;
      }
    }
  }
}
