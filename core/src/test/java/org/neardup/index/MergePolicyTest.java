// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MergePolicyTest {
  private static final int BUFFER = 1 << 17;

  @Test
  void select_smallSegmentNextToABigOne_waits() {
    assertThat(
            MergePolicy.select(
                new int[] {10_000_000, BUFFER}, new int[] {10_000_000, BUFFER}, Segment.MAX_SIZE))
        .isEmpty();
  }

  @Test
  void select_twoSmallAndABase_mergesTheSmallPairOnly() {
    int[] live = {BUFFER, 10_000_000, BUFFER};
    List<int[]> groups = MergePolicy.select(live, live.clone(), Segment.MAX_SIZE);
    assertThat(groups).hasSize(1);
    assertThat(groups.get(0)).containsExactlyInAnyOrder(0, 2);
  }

  @Test
  void select_withinRatio_mergesIntoTheBase() {
    int[] live = {1_250_000, 10_000_000};
    List<int[]> groups = MergePolicy.select(live, live.clone(), Segment.MAX_SIZE);
    assertThat(groups).hasSize(1);
    assertThat(groups.get(0)).containsExactly(1, 0);
  }

  @Test
  void select_pairBeyondMaxSize_waits() {
    int[] live = {1000, 900};
    assertThat(MergePolicy.select(live, live.clone(), 1500)).isEmpty();
  }

  @Test
  void select_mostlyDeadSegmentWithoutPartner_isCompacted() {
    List<int[]> groups =
        MergePolicy.select(
            new int[] {10_000_000, 400}, new int[] {10_000_000, 1000}, Segment.MAX_SIZE);
    assertThat(groups).hasSize(1);
    assertThat(groups.get(0)).containsExactly(1);
  }

  /**
   * The figures of MergePolicy's design note, for ratio 8: full buffers arriving one at a time on a
   * 10M base keep at most 3 segments (2 on average), and rewrite each added entry about 10 times.
   */
  @Test
  void select_streamOfBuffersOntoABase_keepsFewSegmentsAndBoundedRewrites() {
    List<Integer> segs = new ArrayList<>(List.of(10_000_000));
    long rewritten = 0;
    long segmentsSeen = 0;
    int max = 0;
    int freezes = 2_000_000 / BUFFER;
    for (int f = 0; f < freezes; f++) {
      segs.add(BUFFER);
      while (true) {
        int[] live = segs.stream().mapToInt(Integer::intValue).toArray();
        List<int[]> groups = MergePolicy.select(live, live.clone(), Segment.MAX_SIZE);
        if (groups.isEmpty()) {
          break;
        }
        List<Integer> next = new ArrayList<>();
        boolean[] used = new boolean[live.length];
        for (int[] g : groups) {
          int sum = 0;
          for (int i : g) {
            sum += live[i];
            used[i] = true;
          }
          rewritten += sum;
          next.add(sum);
        }
        for (int i = 0; i < live.length; i++) {
          if (!used[i]) {
            next.add(live[i]);
          }
        }
        segs = next;
      }
      segmentsSeen += segs.size();
      max = Math.max(max, segs.size());
    }
    assertThat(max).isLessThanOrEqualTo(3);
    assertThat((double) segmentsSeen / freezes).isLessThanOrEqualTo(2.1);
    assertThat((double) rewritten / (freezes * (long) BUFFER)).isBetween(5.0, 15.0);
  }
}
