// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

import java.util.Arrays;

/**
 * Positions of the entries removed from one segment or frozen buffer while a background job of a
 * {@link BlockPermutedIndex} reads it, in the order removed. The job carries them over into what it
 * builds before publishing it, so a remove made during a merge is not lost. Guarded by the index's
 * lock; 4 bytes per remove, for the duration of one job.
 */
final class RemovalLog {
  private int[] positions = new int[4];
  private int count;

  void add(int position) {
    if (count == positions.length) {
      positions = Arrays.copyOf(positions, count * 2);
    }
    positions[count++] = position;
  }

  int size() {
    return count;
  }

  int get(int i) {
    return positions[i];
  }
}
