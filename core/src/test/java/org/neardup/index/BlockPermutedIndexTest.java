// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Unit checks that need no generators; the oracle tests live in testkit. */
class BlockPermutedIndexTest {

  @Test
  void search_badArguments_namesTheParameterRuleAndValue() {
    for (HammingIndex index :
        new HammingIndex[] {BlockPermutedIndex.create(), new LinearScanIndex()}) {
      assertThatThrownBy(() -> index.search(1, -1, (id, fp, d) -> {}))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("maxDistance must be in [0, 64], got -1");
      assertThatThrownBy(() -> index.search(1, 65, (id, fp, d) -> {}))
          .hasMessage("maxDistance must be in [0, 64], got 65");
      assertThatThrownBy(() -> index.nearest(1, 70, (id, fp, d) -> {}))
          .hasMessage("maxDistance must be in [0, 64], got 70");
      assertThatThrownBy(() -> index.any(1, -3))
          .hasMessage("maxDistance must be in [0, 64], got -3");
      assertThatThrownBy(() -> index.search(1, 3, null))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("out must not be null");
      assertThatThrownBy(() -> index.nearest(1, 3, null)).hasMessage("out must not be null");
    }
  }

  @Test
  void addAll_mismatchedArrays_throws() {
    BlockPermutedIndex index = BlockPermutedIndex.create();
    assertThatThrownBy(() -> index.addAll(new long[3], new long[2], 0, 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("fingerprints.length must equal docIds.length, got 3 and 2");
    assertThatThrownBy(() -> index.addAll(new long[3], new long[3], 2, 1))
        .hasMessage("need 0 <= from <= to <= length (3), got from = 2, to = 1");
    assertThatThrownBy(() -> index.addAll(new long[3], new long[3], 0, 4))
        .hasMessage("need 0 <= from <= to <= length (3), got from = 0, to = 4");
    assertThatThrownBy(() -> index.addAll(null, new long[3], 0, 0))
        .hasMessage("fingerprints must not be null");
    assertThatThrownBy(() -> new LinearScanIndex().addAll(new long[1], new long[2], 0, 1))
        .hasMessage("fingerprints.length must equal docIds.length, got 1 and 2");
    assertThatThrownBy(() -> BlockPermutedIndex.create(null)).hasMessage("scheme must not be null");
    assertThat(index.size()).isZero();
  }

  @Test
  void search_exactDuplicatesAcrossBufferAndSegments_reportsEachEntryOnce() {
    BlockPermutedIndex index = BlockPermutedIndex.create(BlockScheme.of(5, 2), 4);
    long fp = 0x0123_4567_89AB_CDEFL;
    for (int i = 0; i < 11; i++) {
      index.add(fp, i % 3); // docIds 0, 1, 2 repeat
    }
    index.add(fp ^ 1, 99);
    List<Long> ids = new ArrayList<>();
    assertThat(index.search(fp, 1, (id, f, d) -> ids.add(id))).isEqualTo(12);
    assertThat(ids).containsExactlyInAnyOrder(0L, 1L, 2L, 0L, 1L, 2L, 0L, 1L, 2L, 0L, 1L, 99L);
    assertThat(index.remove(fp, 1)).isTrue();
    assertThat(index.search(fp, 0, (id, f, d) -> {})).isEqualTo(10);
    long[] nearest = new long[3];
    assertThat(index.nearest(fp ^ 1, 3, (id, f, d) -> nearest[0] = id)).isZero();
    assertThat(nearest[0]).isEqualTo(99);
    assertThat(index.nearest(fp ^ 3, 3, (id, f, d) -> nearest[0] = id)).isEqualTo(1);
    assertThat(nearest[0]).isEqualTo(99); // ties at distance 1: docId 99 (fp ^ 1 ^ 3 = fp ^ 2)
    index.checkInvariants();
  }

  @Test
  void ramBytesUsed_bulkLoadedDenseIds_isAbout21BytesPerEntry() {
    double perEntry = bulkLoadedBytesPerEntry(i -> 1_000_000_000_000L + i);
    // 8 (fingerprint) + 4 (docId offset) + 3 x 3 (tags) + 4 directories of 256 KiB over 1M entries
    assertThat(perEntry).isBetween(21.0, 23.0);
  }

  @Test
  void ramBytesUsed_bulkLoadedIdsSpreadBeyond32Bits_isAbout25BytesPerEntry() {
    double perEntry = bulkLoadedBytesPerEntry(i -> i * 0x1_0000_0001L - (1L << 40));
    // docIds in 8 bytes when they span more than 2^32
    assertThat(perEntry).isBetween(25.0, 27.0);
  }

  private static double bulkLoadedBytesPerEntry(java.util.function.IntToLongFunction id) {
    int n = 1 << 20;
    long[] fps = new long[n];
    long[] ids = new long[n];
    long x = 1;
    for (int i = 0; i < n; i++) {
      x = x * 0x9E37_79B9_7F4A_7C15L + 1; // a full-period LCG: distinct, well spread
      fps[i] = Long.rotateLeft(x, 29) ^ x;
      ids[i] = id.applyAsLong(i);
    }
    BlockPermutedIndex index = BlockPermutedIndex.create();
    index.addAll(fps, ids, 0, n);
    assertThat(index.segmentCount()).isEqualTo(1);
    index.checkInvariants();
    for (int i = 0; i < n; i += 4099) { // every docId comes back as it went in
      long fp = fps[i];
      long want = ids[i];
      long[] got = new long[1];
      assertThat(index.search(fp, 0, (docId, f, d) -> got[0] = docId)).isEqualTo(1);
      assertThat(got[0]).isEqualTo(want);
    }
    return (double) index.ramBytesUsed() / n;
  }
}
