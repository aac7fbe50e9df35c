// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

import java.util.ArrayList;
import java.util.List;

/**
 * Chooses the background merges of a {@link BlockPermutedIndex}: leveled by size, so an index holds
 * a big base segment and one or two small ones instead of a logarithmic tail.
 *
 * <p>Rule, over the segments no job is reading, sorted by live entries, largest first: going up
 * from the smallest, a segment merges with the next larger one when it holds at least {@code 1 /
 * RATIO} of its entries; any other segment with more dead than live entries is compacted. Merges
 * cascade as their outputs arrive, so a stream of full buffers (2^15 entries) grows one small
 * segment until it reaches 1/RATIO of the base, and then joins the base.
 */
final class MergePolicy {
  /*
   * Why 8. Each segment beyond the first costs a query about as much as scanning one bucket per
   * table: measured at 10M entries (4:1, k = 3, shared 2-core box, min of 7 alternating passes)
   * one segment answered in 2.1 us, with a second of 131K or 1M entries in 2.6-3.1 us, with two
   * more in 3.9 us, with five more in 4.8 us. Simulating 2^17-entry freezes, the add buffer's size then
   * (it is 2^15 now; not simulated again), every entry rewritten once per merge it takes part in:
   *
   *   ratio   10M base + 2M adds    50M base + 5M adds    0 -> 50M adds
   *           rewrites  segments    rewrites  segments    rewrites  segments
   *     1       2.2     3.1 (max 5)   4.5     3.5 (max 6)   7.0     4.2 (max 8)
   *     4       4.7     2.4 (max 3)   5.6     2.7 (max 4)   9.7     2.7 (max 4)
   *     8      10.0     2.0 (max 3)   7.4     2.5 (max 3)  14.7     2.2 (max 3)
   *    16      13.9     1.9 (max 2)  19.5     2.1 (max 3)  20.6     1.9 (max 3)
   *
   * (segments: mean after each freeze). Ratio 1 is the old binary counter. 8 keeps about two
   * segments at twice to three times ratio 1's merge work, which a background thread absorbs
   * at 20-40M rewritten entries per second; 16 saves little more and doubles the work again.
   */
  static final int RATIO = 8;

  private MergePolicy() {}

  /**
   * The merges to start among idle segments with {@code live[i]} live entries out of {@code
   * size[i]} (none empty): each group is two indices to merge, or one to compact.
   */
  static List<int[]> select(int[] live, int[] size, long maxSize) {
    int n = live.length;
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    // largest first; ties by index, so the choice is deterministic
    java.util.Arrays.sort(
        order, (x, y) -> live[x] != live[y] ? Integer.compare(live[y], live[x]) : x - y);
    List<int[]> out = new ArrayList<>();
    boolean[] used = new boolean[n];
    for (int p = n - 1; p >= 1; p--) {
      int small = order[p];
      int large = order[p - 1];
      if ((long) live[small] * RATIO >= live[large]
          && (long) live[small] + live[large] <= maxSize) {
        out.add(new int[] {large, small});
        used[small] = true;
        used[large] = true;
        p--;
      }
    }
    for (int i = 0; i < n; i++) {
      if (!used[i] && (long) (size[i] - live[i]) * 2 > size[i]) {
        out.add(new int[] {i});
      }
    }
    return out;
  }
}
