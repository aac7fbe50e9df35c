// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The branch-free bucket filters against the plain loops they stand for, and the tag layout. */
class IndexSearchTest {

  @Test
  void anyHighInRange_randomPairs_equalsThePlainRule() {
    SplittableRandom random = new SplittableRandom(2026);
    for (int round = 0; round < 20_000; round++) {
      int n = random.nextInt(40);
      int x = random.nextInt(1 << 16);
      int[] a = new int[n + 3];
      for (int i = 0; i < a.length; i++) {
        // each half near x (0-5 bits off) or random
        int h0 =
            random.nextBoolean()
                ? x ^ (bits(random, random.nextInt(6)) & 0xFFFF)
                : random.nextInt();
        int h1 =
            random.nextBoolean()
                ? x ^ (bits(random, random.nextInt(6)) & 0xFFFF)
                : random.nextInt();
        a[i] = (h0 & 0xFFFF) | (h1 << 16);
      }
      int from = random.nextInt(3);
      int to = from + n;
      int lower = random.nextInt(3);
      int upper = random.nextInt(5) - 1;
      boolean expected = false;
      for (int i = from; i < to; i++) {
        for (int half : new int[] {a[i] & 0xFFFF, a[i] >>> 16}) {
          int c = Integer.bitCount(half ^ x);
          expected |= c >= lower && c <= upper;
        }
      }
      assertThat(IndexSearch.anyHighInRange(a, from, to, x, lower, upper))
          .as("round %s", round)
          .isEqualTo(expected);
    }
  }

  @Test
  void anyWithinUncovered_randomBuckets_equalsThePlainRule() {
    SplittableRandom random = new SplittableRandom(2026);
    int[] masks = {0xFFFF_0000, 0x0000_FFFF, 0xFF00_FF00, 0x8000_0001, -1};
    for (int round = 0; round < 20_000; round++) {
      int n = random.nextInt(40);
      int x = random.nextInt();
      int[] a = new int[n + 3];
      for (int i = 0; i < a.length; i++) {
        // near x (0-5 bits off, often only inside or only outside a mask) or random
        a[i] = random.nextBoolean() ? x ^ bits(random, random.nextInt(6)) : random.nextInt();
        if (random.nextInt(8) == 0) {
          a[i] = x ^ (bits(random, 1 + random.nextInt(3)) & masks[random.nextInt(masks.length)]);
        }
      }
      int from = random.nextInt(3);
      int to = from + n;
      int budget = random.nextInt(4);
      int m1 = masks[random.nextInt(masks.length)];
      int m2 = random.nextBoolean() ? m1 : masks[random.nextInt(masks.length)];
      boolean expected = false;
      boolean within = false;
      for (int i = from; i < to; i++) {
        int v = a[i] ^ x;
        within |= Integer.bitCount(v) <= budget;
        expected |= Integer.bitCount(v) <= budget && (v & m1) != 0 && (v & m2) != 0;
      }
      assertThat(IndexSearch.anyWithinUncovered(a, from, to, x, budget, m1, m2))
          .as("round %s", round)
          .isEqualTo(expected);
      assertThat(IndexSearch.anyWithin(a, from, to, x, budget)).isEqualTo(within);
    }
  }

  @Test
  void anyWithin_randomBuckets_equalsThePlainRule() {
    SplittableRandom random = new SplittableRandom(7);
    for (int round = 0; round < 20_000; round++) {
      int n = random.nextInt(40);
      int x = random.nextInt();
      int[] a = new int[n + 3];
      for (int i = 0; i < a.length; i++) {
        a[i] = random.nextBoolean() ? x ^ bits(random, random.nextInt(6)) : random.nextInt();
      }
      int from = random.nextInt(3);
      int budget = random.nextInt(4);
      boolean within = false;
      for (int i = from; i < from + n; i++) {
        within |= Integer.bitCount(a[i] ^ x) <= budget;
      }
      assertThat(IndexSearch.anyWithin(a, from, from + n, x, budget)).isEqualTo(within);
    }
  }

  /**
   * The 4:1 bounds on the high tag half, which is table 0's key in tables 1-3: an entry reported
   * from table t >= 1 differs from the query on table 0's key (at least 1 bit there), and from
   * table 2 on also on table 1's key, from table 3 on also on table 2's, both outside the high
   * half.
   */
  @Test
  void highBounds_default_followFromTheEarlierKeys_splitTables2And3() {
    RecordLayout layout = new RecordLayout(BlockScheme.DEFAULT);
    assertThat(new int[] {layout.highLower(1), layout.highLower(2), layout.highLower(3)})
        .containsExactly(1, 1, 1);
    assertThat(new int[] {layout.highCut(1), layout.highCut(2), layout.highCut(3)})
        .containsExactly(0, 1, 2);
    // table 1's high halves pass too often to split its tags (1.1% of random entries at k = 3)
    assertThat(new boolean[] {layout.split(1), layout.split(2), layout.split(3)})
        .containsExactly(false, true, true);
  }

  /** Tags split into packed high halves and low halves read back as written, at odd offsets too. */
  @Test
  void splitPrefixRecords_setAndCopyAtAnyParity_readBackTheTags() {
    SplittableRandom random = new SplittableRandom(11);
    for (int round = 0; round < 2_000; round++) {
      int n = 1 + random.nextInt(70);
      SplitPrefixRecords r = new SplitPrefixRecords(n);
      long[] values = new long[n];
      for (int i = 0; i < n; i++) {
        values[i] = (random.nextLong() & 0xFFFF_FFFFL) << 16;
      }
      for (int i : random.ints(0, n).limit(n).toArray()) { // any order, overwrites included
        r.set(i, values[i]);
      }
      for (int i = 0; i < n; i++) {
        r.set(i, values[i]);
      }
      for (int i = 0; i < n; i++) {
        assertThat(r.get(i)).isEqualTo(values[i]);
        assertThat(r.tag(i)).isEqualTo((int) (values[i] >>> 16));
        assertThat(r.high(i)).isEqualTo((int) (values[i] >>> 32));
      }
      int m = 1 + random.nextInt(70);
      SplitPrefixRecords d = new SplitPrefixRecords(m);
      long[] want = new long[m];
      for (int i = 0; i < m; i++) {
        want[i] = (random.nextLong() & 0xFFFF_FFFFL) << 16;
        d.set(i, want[i]);
      }
      int from = random.nextInt(n);
      int to = random.nextInt(m);
      int len = random.nextInt(Math.min(n - from, m - to) + 1);
      r.copyTo(from, d, to, len);
      System.arraycopy(values, from, want, to, len);
      for (int i = 0; i < m; i++) {
        assertThat(d.get(i)).as("round %s entry %s", round, i).isEqualTo(want[i]);
      }
    }
  }

  private static int bits(SplittableRandom random, int count) {
    int v = 0;
    while (Integer.bitCount(v) < count) {
      v |= 1 << random.nextInt(32);
    }
    return v;
  }
}
