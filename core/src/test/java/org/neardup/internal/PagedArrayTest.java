// SPDX-License-Identifier: Apache-2.0
package org.neardup.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PagedArrayTest {
  /** forEachNear reports exactly the indices a get() loop finds, across page boundaries. */
  @Test
  void forEachNear_randomRanges_sameIndicesAsGetLoop() {
    SplittableRandom r = new SplittableRandom(5);
    PagedLongArray a = new PagedLongArray();
    long query = r.nextLong();
    int n = 3 * PagedLongArray.PAGE + 77;
    for (int i = 0; i < n; i++) {
      // One in four within 3 bits of the query, the rest random.
      a.append(
          r.nextInt(4) == 0 ? query ^ (1L << r.nextInt(64)) ^ (1L << r.nextInt(64)) : r.nextLong());
    }
    for (int trial = 0; trial < 200; trial++) {
      long from = r.nextLong(n + 1);
      long to = from + r.nextLong(n - from + 1);
      int k = r.nextInt(4);
      List<Long> want = new ArrayList<>();
      for (long i = from; i < to; i++) {
        if (Long.bitCount(a.get(i) ^ query) <= k) {
          want.add(i);
        }
      }
      List<Long> got = new ArrayList<>();
      a.forEachNear(from, to, query, k, got::add);
      assertThat(got).as("[%s, %s) k = %s", from, to, k).isEqualTo(want);
    }
  }

  @Test
  void operations_randomSequence_agreeWithArrayList() {
    SplittableRandom r = new SplittableRandom(21);
    PagedLongArray longs = new PagedLongArray();
    PagedIntArray ints = new PagedIntArray();
    List<Long> oracle = new ArrayList<>();
    // Past several page boundaries (2^16 entries each), with bulk appends and resizes crossing
    // them.
    while (oracle.size() < 5 * PagedLongArray.PAGE + 123) {
      switch (r.nextInt(10)) {
        case 0 -> {
          int n = r.nextInt(3000);
          long[] values = new long[n + 2];
          for (int i = 0; i < values.length; i++) {
            values[i] = r.nextLong();
          }
          long at = longs.append(values, 1, n);
          int[] asInts = new int[n + 2];
          for (int i = 0; i < values.length; i++) {
            asInts[i] = (int) values[i];
          }
          assertThat(ints.append(asInts, 1, n)).isEqualTo(at);
          assertThat(at).isEqualTo(oracle.size());
          for (int i = 1; i <= n; i++) {
            oracle.add(values[i]);
          }
        }
        case 1 -> {
          long newSize = oracle.size() + r.nextInt(500);
          longs.resize(newSize);
          ints.resize(newSize);
          while (oracle.size() < newSize) {
            oracle.add(0L);
          }
        }
        case 2 -> {
          if (!oracle.isEmpty()) {
            int i = r.nextInt(oracle.size());
            long v = r.nextLong();
            longs.set(i, v);
            ints.set(i, (int) v);
            oracle.set(i, v);
          }
        }
        default -> {
          long v = r.nextLong();
          assertThat(longs.append(v)).isEqualTo(oracle.size());
          assertThat(ints.append((int) v)).isEqualTo(oracle.size());
          oracle.add(v);
        }
      }
    }
    assertThat(longs.size()).isEqualTo(oracle.size());
    assertThat(ints.size()).isEqualTo(oracle.size());
    for (int i = 0; i < oracle.size(); i++) {
      assertThat(longs.get(i)).as("long %s", i).isEqualTo(oracle.get(i));
      assertThat(ints.get(i)).as("int %s", i).isEqualTo((int) (long) oracle.get(i));
    }
    long[] range = new long[1000];
    int from = PagedLongArray.PAGE - 500;
    longs.get(from, range, 0, range.length);
    for (int i = 0; i < range.length; i++) {
      assertThat(range[i]).isEqualTo(oracle.get(from + i));
    }
  }

  @Test
  void ramBytesUsed_smallArray_staysSmall() {
    PagedLongArray a = new PagedLongArray();
    for (int i = 0; i < 10; i++) {
      a.append(i);
    }
    // A first page of 64 entries, not a full 512 KiB page.
    assertThat(a.ramBytesUsed()).isLessThan(1024);
  }

  @Test
  void ramBytesUsed_manyPages_aboutEightBytesPerEntry() {
    PagedLongArray a = new PagedLongArray();
    a.resize(10L * PagedLongArray.PAGE);
    assertThat((double) a.ramBytesUsed() / a.size()).isBetween(8.0, 8.01);
  }

  @Test
  void constructor_negativeExpected_throwsNamingTheRule() {
    assertThatThrownBy(() -> new PagedLongArray(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expected must be >= 0, got -1");
  }
}
