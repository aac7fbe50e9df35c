// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** What {@link SketchPolicy} folds, over long runs of simulated compactions. */
class SketchPolicyTest {
  private static final long FRAME = SnapshotFormat.SKETCH_HEADER + SnapshotFormat.SKETCH_FOOTER;

  @Test
  void mostlyDeadFile_isFolded_halfDeadIsKept() {
    long[] sizes = {FRAME + 1000, FRAME + 1000};
    assertThat(SketchPolicy.fold(sizes, new long[] {499, 1000}, 0)).containsExactly(true, false);
    assertThat(SketchPolicy.fold(sizes, new long[] {500, 1000}, 0)).containsExactly(false, false);
    assertThat(SketchPolicy.fold(sizes, new long[] {1000, 0}, 0)).containsExactly(false, true);
  }

  @Test
  void smallNewerFiles_areFoldedUpToTheFirstLargerOne() {
    long[] sizes = {FRAME + 1_000_000, FRAME + 300, FRAME + 100};
    long[] live = {1_000_000, 300, 100};
    // 250 new bytes: the 100 goes (100 <= 250), then the 300 (300 <= 350), not the million.
    assertThat(SketchPolicy.fold(sizes, live, 250)).containsExactly(false, true, true);
    assertThat(SketchPolicy.fold(sizes, live, 50)).containsExactly(false, false, false);
  }

  /**
   * Property: over random runs of compactions that add entries and remove random ones, the files
   * never hold more than about twice the live bytes plus what the last rounds added, their number
   * stays logarithmic, and each added byte is copied a bounded number of times on average.
   */
  @Test
  void randomRuns_boundDeadBytesFileCountAndCopies() {
    for (long seed = 1; seed <= 20; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      List<long[]> files = new ArrayList<>(); // {size of entries, live}
      long added = 0;
      long copied = 0;
      files.add(new long[] {50_000_000, 50_000_000}); // a bulk load
      added += 50_000_000;
      for (int round = 0; round < 500; round++) {
        // removals since the last snapshot, counted in that snapshot's footer by now
        for (long[] f : files) {
          f[1] -= (long) (f[1] * r.nextDouble() * 0.05);
        }
        long adding = 10_000 + r.nextInt(200_000);
        long[] sizes = new long[files.size()];
        long[] live = new long[files.size()];
        for (int i = 0; i < sizes.length; i++) {
          sizes[i] = files.get(i)[0] + FRAME;
          live[i] = files.get(i)[1];
        }
        boolean[] fold = SketchPolicy.fold(sizes, live, adding);
        List<long[]> next = new ArrayList<>();
        long own = adding;
        for (int i = 0; i < fold.length; i++) {
          if (fold[i]) {
            own += live[i];
            copied += live[i];
          } else {
            next.add(files.get(i));
          }
        }
        next.add(new long[] {own, own});
        files = next;
        added += adding;
        long total = 0;
        long liveAll = 0;
        for (long[] f : files) {
          total += f[0];
          liveAll += f[1];
        }
        assertThat(files.size()).as("seed %s round %s", seed, round).isLessThanOrEqualTo(40);
        assertThat(total)
            .as("seed %s round %s", seed, round)
            .isLessThanOrEqualTo(2 * liveAll + 2 * 210_000);
      }
      // Copying every sketch at each compaction would copy ~500 times the live bytes.
      assertThat(copied).as("seed %s", seed).isLessThan(10 * added);
    }
  }
}
