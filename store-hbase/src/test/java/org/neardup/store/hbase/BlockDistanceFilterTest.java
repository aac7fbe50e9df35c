// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.apache.hadoop.hbase.exceptions.DeserializationException;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/**
 * The region servers' distance filter drops exactly the rows under its prefixes that are more than
 * k bits from every asker, passes every other row, and reads back what it wrote.
 */
class BlockDistanceFilterTest {
  private static final int PREFIX = 10;

  /** A filter of random prefixes (few distinct bytes, so rows share them) and askers. */
  private static BlockDistanceFilter random(
      SplittableRandom r, int k, TreeMap<byte[], long[]> askers) {
    int n = 1 + r.nextInt(20);
    while (askers.size() < n) {
      byte[] prefix = new byte[PREFIX];
      for (int i = 0; i < PREFIX; i++) {
        prefix[i] = (byte) r.nextInt(3);
      }
      long[] fps = new long[1 + r.nextInt(3)];
      for (int i = 0; i < fps.length; i++) {
        fps[i] = r.nextLong();
      }
      askers.put(prefix, fps);
    }
    byte[] prefixes = new byte[n * PREFIX];
    int[] starts = new int[n + 1];
    List<Long> fps = new ArrayList<>();
    int p = 0;
    for (var e : askers.entrySet()) {
      System.arraycopy(e.getKey(), 0, prefixes, p * PREFIX, PREFIX);
      for (long fp : e.getValue()) {
        fps.add(fp);
      }
      starts[++p] = fps.size();
    }
    return new BlockDistanceFilter(
        k, PREFIX, prefixes, starts, fps.stream().mapToLong(Long::longValue).toArray());
  }

  @Test
  void drops_exactlyRowsUnderItsPrefixesFartherThanKFromEveryAsker() throws Exception {
    SplittableRandom r = new SplittableRandom(19);
    for (int round = 0; round < 200; round++) {
      int k = r.nextInt(8);
      TreeMap<byte[], long[]> askers = new TreeMap<>(Bytes.BYTES_COMPARATOR);
      BlockDistanceFilter filter = random(r, k, askers);
      BlockDistanceFilter read = BlockDistanceFilter.parseFrom(filter.toByteArray());
      assertThat(read).isEqualTo(filter);
      for (int i = 0; i < 200; i++) {
        byte[] prefix = new byte[PREFIX];
        for (int b = 0; b < PREFIX; b++) {
          prefix[b] = (byte) r.nextInt(3);
        }
        long[] mine = askers.get(prefix);
        // Rows near an asker, and random ones; some with a byte of padding in front.
        long fp =
            mine != null && r.nextBoolean()
                ? HBaseStoreFeaturesTest.flip(r, mine[r.nextInt(mine.length)], r.nextInt(2 * k + 2))
                : r.nextLong();
        int off = r.nextInt(3);
        byte[] row =
            ByteBuffer.allocate(off + PREFIX + 8).position(off).put(prefix).putLong(fp).array();
        boolean expected =
            mine != null && Arrays.stream(mine).allMatch(a -> Long.bitCount(a ^ fp) > k);
        assertThat(filter.drops(row, off, PREFIX + 8)).isEqualTo(expected);
        assertThat(read.drops(row, off, PREFIX + 8)).isEqualTo(expected);
        // A row shorter than a block row (not one of the index's) always passes.
        assertThat(filter.drops(row, off, PREFIX + 7)).isFalse();
      }
    }
  }

  @Test
  void parseFrom_truncatedOrUnknownBytes_throws() throws Exception {
    TreeMap<byte[], long[]> askers = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    byte[] bytes = random(new SplittableRandom(3), 3, askers).toByteArray();
    assertThatThrownBy(() -> BlockDistanceFilter.parseFrom(Arrays.copyOf(bytes, bytes.length - 1)))
        .isInstanceOf(DeserializationException.class);
    byte[] version = bytes.clone();
    version[0] = 9;
    assertThatThrownBy(() -> BlockDistanceFilter.parseFrom(version))
        .isInstanceOf(DeserializationException.class);
  }

  @Test
  void constructor_unsortedPrefixes_throws() {
    byte[] prefixes = new byte[2 * PREFIX];
    prefixes[0] = 1; // the first after the second
    assertThatThrownBy(
            () -> new BlockDistanceFilter(3, PREFIX, prefixes, new int[] {0, 1, 2}, new long[2]))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
