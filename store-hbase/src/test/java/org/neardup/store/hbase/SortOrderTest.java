// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Comparator;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** SortOrder's orders equal a stable sort of boxed indices (the JDK's merge sort), seeded. */
class SortOrderTest {

  private static Integer[] expected(int n, Comparator<Integer> cmp) {
    Integer[] boxed = new Integer[n];
    for (int i = 0; i < n; i++) {
      boxed[i] = i;
    }
    Arrays.sort(boxed, cmp); // stable
    return boxed;
  }

  private static Integer[] boxed(int[] a) {
    return Arrays.stream(a).boxed().toArray(Integer[]::new);
  }

  @Test
  void byKey_anyBitsAndDuplicates_equalsStableUnsignedSort() {
    for (int seed = 0; seed < 200; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      int n = r.nextInt(0, 3000);
      int bits = 1 + r.nextInt(64);
      long mask = bits == 64 ? -1L : (1L << bits) - 1;
      long[] keys = new long[n + r.nextInt(3)]; // room after n, as LongList leaves
      int distinct = 1 + r.nextInt(n + 1);
      long[] pool = r.longs(distinct).toArray();
      for (int i = 0; i < n; i++) {
        // High bits beyond `bits` must not count; few distinct keys make ties.
        keys[i] = pool[r.nextInt(distinct)];
      }
      int[] got = SortOrder.byKey(SortOrder.identity(n), keys, bits);
      Integer[] want = expected(n, (a, b) -> Long.compareUnsigned(keys[a] & mask, keys[b] & mask));
      assertThat(boxed(got)).as("seed %s, n %s, bits %s", seed, n, bits).containsExactly(want);
    }
  }

  @Test
  void byKeyStrided_interleavedFields_equalsSortOfThatField() {
    for (int seed = 0; seed < 100; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      int n = r.nextInt(0, 2000);
      int stride = 1 + r.nextInt(5);
      int offset = r.nextInt(stride);
      int bits = 1 + r.nextInt(64);
      // The other fields hold noise that must not count; few distinct keys make ties.
      long[] data = r.longs((long) n * stride + r.nextInt(3)).toArray();
      long[] pool = r.longs(1 + r.nextInt(n + 1)).toArray();
      long[] keys = new long[n];
      for (int i = 0; i < n; i++) {
        keys[i] = pool[r.nextInt(pool.length)];
        data[i * stride + offset] = keys[i];
      }
      int[] got = SortOrder.byKey(SortOrder.identity(n), data, stride, offset, bits);
      int[] want = SortOrder.byKey(SortOrder.identity(n), keys, bits);
      assertThat(got)
          .as("seed %s, stride %s, offset %s", seed, stride, offset)
          .containsExactly(want);
    }
  }

  @Test
  void sort_byteArrays_equalsStableSort() {
    for (int seed = 0; seed < 100; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      int n = r.nextInt(0, 2000);
      byte[][] ids = new byte[n][];
      for (int i = 0; i < n; i++) {
        ids[i] = new byte[r.nextInt(0, 4)];
        for (int j = 0; j < ids[i].length; j++) {
          ids[i][j] = (byte) r.nextInt(-128, 128);
        }
      }
      int[] got = SortOrder.identity(n);
      SortOrder.sort(got, (a, b) -> Arrays.compareUnsigned(ids[a], ids[b]));
      Integer[] want = expected(n, (a, b) -> Arrays.compareUnsigned(ids[a], ids[b]));
      assertThat(boxed(got)).as("seed %s", seed).containsExactly(want);
    }
  }

  @Test
  void sortByPrefix_byteArraysWithSharedPrefixes_equalsStableSort() {
    for (int seed = 0; seed < 100; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      int n = r.nextInt(0, 2000);
      byte[][] ids = new byte[n][];
      long[] prefixes = new long[n];
      for (int i = 0; i < n; i++) {
        // Lengths 0-12 over 3 byte values: many ids share their first 8 bytes, some are equal.
        ids[i] = new byte[r.nextInt(0, 13)];
        for (int j = 0; j < ids[i].length; j++) {
          ids[i][j] = (byte) (r.nextInt(3) * 127);
        }
        prefixes[i] = SortOrder.prefix(ids[i]);
      }
      int[] got =
          SortOrder.sort(
              SortOrder.identity(n), prefixes, (a, b) -> Arrays.compareUnsigned(ids[a], ids[b]));
      Integer[] want = expected(n, (a, b) -> Arrays.compareUnsigned(ids[a], ids[b]));
      assertThat(boxed(got)).as("seed %s", seed).containsExactly(want);
    }
  }
}
