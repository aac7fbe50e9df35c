// SPDX-License-Identifier: Apache-2.0
package org.neardup.benchmarks;

import org.neardup.index.BlockPermutedIndex;
import org.neardup.index.BlockScheme;
import org.neardup.index.HammingIndex;
import org.neardup.index.LinearScanIndex;

/** The indexes the benchmarks compare. */
public enum IndexKind {
  LINEAR_SCAN(null),
  BLOCK_PERMUTED_4_1(BlockScheme.of(4, 1)),
  BLOCK_PERMUTED_5_2(BlockScheme.of(5, 2)),
  BLOCK_PERMUTED_6_3(BlockScheme.of(6, 3));

  private final BlockScheme scheme;

  IndexKind(BlockScheme scheme) {
    this.scheme = scheme;
  }

  /** An index of this kind bulk-loaded with {@code fps[i], docId i}. */
  HammingIndex load(long[] fps) {
    long[] ids = new long[fps.length];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = i;
    }
    if (scheme == null) {
      LinearScanIndex index = new LinearScanIndex();
      index.addAll(fps, ids, 0, fps.length);
      return index;
    }
    BlockPermutedIndex index = BlockPermutedIndex.create(scheme);
    index.addAll(fps, ids, 0, fps.length);
    return index;
  }

  /** An empty index of this kind. */
  HammingIndex empty() {
    return scheme == null ? new LinearScanIndex() : BlockPermutedIndex.create(scheme);
  }
}
