// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SegmentTest {
  /**
   * The table-0 lookup guesses a position from the fingerprint's value and searches a window there
   * when the window's ends prove the answer inside: with evenly spread fingerprints (the guess's
   * case), clustered ones (its fallback) and duplicates, it returns the first entry not below the
   * target, as a linear scan does, for stored targets, their neighbours and random ones.
   */
  @Test
  void lowerBound0_evenOrClusteredBucket_isTheFirstEntryNotBelow() {
    RecordLayout layout = new RecordLayout(BlockScheme.DEFAULT);
    SplittableRandom random = new SplittableRandom(11);
    for (int shape = 0; shape < 3; shape++) {
      int n = 3000;
      long[] fps = new long[n];
      long[] ids = new long[n];
      for (int i = 0; i < n; i++) {
        long low =
            shape == 0
                ? random.nextLong() >>> 16 // even
                : shape == 1
                    ? (random.nextInt(5) * 0x0000_3000_0000_0000L)
                        + random.nextInt(1000) // clusters
                    : random.nextInt(40) * 0x0000_0400_0000_0000L; // few values, many duplicates
        fps[i] = (0x1234L << 48) | low;
        ids[i] = i;
      }
      Segment seg = Segment.build(layout, fps, ids);
      seg.checkInvariants(layout);
      long[] sorted = seg.fingerprints();
      int from = seg.dirs[0][0x1234];
      int to = seg.dirs[0][0x1235];
      assertThat(to - from).isEqualTo(n);
      for (int q = 0; q < 3000; q++) {
        long target = sorted[random.nextInt(n)];
        if (q % 3 == 1) {
          // a neighbour, kept in the bucket (the lookup's precondition)
          target = (0x1234L << 48) | ((target + random.nextInt(3) - 1) & Segment.MASK48);
        } else if (q % 3 == 2) {
          target = (0x1234L << 48) | (random.nextLong() >>> 16);
        }
        int expected = 0;
        while (expected < n && Long.compareUnsigned(sorted[expected], target) < 0) {
          expected++;
        }
        assertThat(seg.lowerBound0(from, to, target))
            .as("shape %d target %016x", shape, target)
            .isEqualTo(from + expected);
      }
    }
  }

  /**
   * A segment large enough to sort its upper tables on a second thread holds, in every table, the
   * fingerprints it was given, each with its docId: the invariants (each table sorted, the multiset
   * of table 0's values) and the (fingerprint, docId) pairs.
   */
  @Test
  void build_parallel_holdsEveryEntryInEveryTable() {
    for (BlockScheme scheme : new BlockScheme[] {BlockScheme.DEFAULT, BlockScheme.of(5, 2)}) {
      RecordLayout layout = new RecordLayout(scheme);
      SplittableRandom random = new SplittableRandom(18);
      int n = Segment.PARALLEL_BUILD_AT + 1001;
      long[] fps = new long[n];
      long[] ids = new long[n];
      for (int i = 0; i < n; i++) {
        // some duplicates, so that ids sort within equal fingerprints too
        fps[i] = i % 7 == 0 && i > 0 ? fps[i - 1] : random.nextLong();
        ids[i] = n - i;
      }
      long[] expectedFps = fps.clone();
      long[] expectedIds = ids.clone();
      RadixSort.sortUnsigned(expectedFps, expectedIds, n, new long[n], new long[n]);
      Segment.sortIdsWithinEqualFingerprints(expectedFps, expectedIds, n);
      Segment seg = Segment.build(layout, fps, ids);
      seg.checkInvariants(layout);
      long[] gotIds = new long[n];
      for (int i = 0; i < n; i++) {
        gotIds[i] = seg.ids.get(i);
      }
      // Arrays.equals: a failing assertion on the arrays themselves would print a million entries.
      assertThat(java.util.Arrays.equals(seg.fingerprints(), expectedFps))
          .as("scheme %s: table 0's fingerprints", scheme)
          .isTrue();
      assertThat(java.util.Arrays.equals(gotIds, expectedIds))
          .as("scheme %s: table 0's docIds", scheme)
          .isTrue();
    }
  }
}
