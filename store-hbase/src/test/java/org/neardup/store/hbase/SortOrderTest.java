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
  void carry_keysWithPayloads_equalsTheStableOrderApplied() {
    for (int seed = 0; seed < 200; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      int n = r.nextInt(0, 5000);
      int bits = 1 + r.nextInt(64);
      // Few distinct keys make ties; bits above `bits` must not count.
      long[] pool = r.longs(1 + r.nextInt(n + 1)).toArray();
      long[] keys = new long[n + r.nextInt(3)]; // room after n, as LongList leaves
      for (int i = 0; i < n; i++) {
        keys[i] = pool[r.nextInt(pool.length)];
      }
      long[][] longs = new long[r.nextInt(3)][];
      for (int j = 0; j < longs.length; j++) {
        longs[j] = r.longs(n).toArray();
      }
      int[] ints = r.ints(n).toArray();
      int[] order = SortOrder.byKey(SortOrder.identity(n), keys, bits);
      long[] wantKeys = new long[n];
      long[][] wantLongs = new long[longs.length][n];
      int[] wantInts = new int[n];
      for (int i = 0; i < n; i++) {
        wantKeys[i] = keys[order[i]];
        for (int j = 0; j < longs.length; j++) {
          wantLongs[j][i] = longs[j][order[i]];
        }
        wantInts[i] = ints[order[i]];
      }
      SortOrder.Carried got = SortOrder.carry(keys, longs, ints, n, bits);
      String as = "seed " + seed + ", n " + n + ", bits " + bits;
      assertThat(Arrays.copyOf(got.keys(), n)).as(as).containsExactly(wantKeys);
      assertThat(Arrays.copyOf(got.ints(), n)).as(as).containsExactly(wantInts);
      assertThat(got.longs().length).as(as).isEqualTo(longs.length);
      for (int j = 0; j < longs.length; j++) {
        assertThat(Arrays.copyOf(got.longs()[j], n)).as(as).containsExactly(wantLongs[j]);
      }
    }
  }

  @Test
  void bitsOf_strided_coversTheLargestValue() {
    long[] v = {5, -1, 3, -1, 1L << 40, -1};
    assertThat(SortOrder.bitsOf(v, 2, 0, 3)).isEqualTo(41);
    assertThat(SortOrder.bitsOf(v, 2, 1, 3)).isEqualTo(64);
    assertThat(SortOrder.bitsOf(new long[] {0, 0}, 1, 0, 2)).isEqualTo(1);
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
      // Two payloads, each a function of its element, must stay with it through the ties' sort.
      long[] first = new long[n];
      long[] second = new long[n];
      for (int i = 0; i < n; i++) {
        first[i] = 3L * i + 1;
        second[i] = ~(long) i;
      }
      SortOrder.Carried sorted =
          SortOrder.sort(
              SortOrder.identity(n),
              prefixes,
              new long[][] {first, second},
              (a, b) -> Arrays.compareUnsigned(ids[a], ids[b]));
      int[] got = sorted.ints();
      Integer[] want = expected(n, (a, b) -> Arrays.compareUnsigned(ids[a], ids[b]));
      assertThat(boxed(got)).as("seed %s", seed).containsExactly(want);
      for (int p = 0; p < n; p++) {
        assertThat(sorted.longs()[0][p]).as("seed %s at %s", seed, p).isEqualTo(3L * got[p] + 1);
        assertThat(sorted.longs()[1][p]).as("seed %s at %s", seed, p).isEqualTo(~(long) got[p]);
      }
    }
  }
}
