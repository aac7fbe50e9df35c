// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.util.Arrays;

/**
 * Sketch files laid end to end as one sequence of bytes: file i holds the bytes [{@link #start}(i),
 * start(i) + size(i)). A version 4 snapshot places each document's sketch entry by its offset in
 * the sequence of the sketch files it lists ({@link SnapshotFormat}), and a {@link SketchFile}
 * reads its base the same way, so an offset passes from one to the other unchanged. Immutable.
 */
final class SketchSpan {
  private final long[]
      starts; // starts[i] = the sum of the sizes before file i; one more at the end

  /** A span of files of these sizes, in this order. */
  SketchSpan(long[] sizes) {
    starts = new long[sizes.length + 1];
    for (int i = 0; i < sizes.length; i++) {
      if (sizes[i] < 0) {
        throw new IllegalArgumentException("file " + i + " has a negative size " + sizes[i]);
      }
      starts[i + 1] = starts[i] + sizes[i];
    }
  }

  int files() {
    return starts.length - 1;
  }

  long start(int i) {
    return starts[i];
  }

  long size(int i) {
    return starts[i + 1] - starts[i];
  }

  /** The sum of the sizes. */
  long length() {
    return starts[starts.length - 1];
  }

  /** The file that holds byte {@code at} of the sequence, or -1 when none does. */
  int fileOf(long at) {
    if (at < 0 || at >= length()) {
      return -1;
    }
    int i = Arrays.binarySearch(starts, at);
    if (i >= 0) {
      while (i + 1 < starts.length && starts[i + 1] == at) {
        i++; // empty files start where the next one does
      }
      return i;
    }
    return -i - 2;
  }
}
