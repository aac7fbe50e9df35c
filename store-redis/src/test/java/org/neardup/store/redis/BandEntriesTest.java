// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BandEntriesTest {
  /**
   * Property: grouping keeps every key's (bucket, rest) exactly once, buckets in first-key order
   * and rests in key order, whatever the repeats (seeded; the seed is in the failure message).
   */
  @Test
  void group_randomKeysWithRepeats_eachBucketAndRestOnceInKeyOrder() {
    for (long seed = 0; seed < 2000; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      BandEntries bands = new BandEntries(8 + r.nextInt(Layout.MAX_BAND_BITS - 7));
      long[] keys = new long[r.nextInt(DocRecord.MAX_BANDS + 1)];
      for (int i = 0; i < keys.length; i++) {
        // Repeats, and keys that share a bucket (top bits) or only a rest (low bytes).
        keys[i] =
            i > 0 && r.nextInt(4) == 0
                ? keys[r.nextInt(i)] ^ (r.nextBoolean() ? 1L << 30 : 0)
                : r.nextLong();
      }
      Map<Integer, Set<Integer>> expected = new LinkedHashMap<>();
      for (long k : keys) {
        expected
            .computeIfAbsent(bands.bucket(k), b -> new LinkedHashSet<>())
            .add(BandEntries.rest(k));
      }
      BandEntries.Grouped g = bands.group(keys);
      Map<Integer, Set<Integer>> actual = new LinkedHashMap<>();
      for (int i = 0; i < g.buckets().length; i++) {
        Set<Integer> rests = new LinkedHashSet<>();
        for (int rest : g.rests()[i]) {
          rests.add(rest);
          assertThat(g.has(i, rest)).isTrue();
        }
        assertThat(rests).as("seed %s", seed).hasSize(g.rests()[i].length);
        actual.put(g.buckets()[i], rests);
      }
      assertThat(actual).as("seed %s", seed).containsExactlyEntriesOf(expected);
      assertThat(actual.keySet()).as("seed %s", seed).containsExactlyElementsOf(expected.keySet());
    }
  }

  @Test
  void entries_ordinalThenLowBytes_bigEndian() {
    BandEntries bands = new BandEntries(16);
    long key = 0xABCD_0000_0012_3456L;
    assertThat(bands.bucket(key)).isEqualTo(0xABCD);
    BandEntries.Grouped g = bands.group(new long[] {key, key});
    byte[] e = g.entries(0, 0x01_0203_0405L);
    assertThat(e).containsExactly(1, 2, 3, 4, 5, 0x12, 0x34, 0x56);
    assertThat(BlockEntries.ordinal(e, 0)).isEqualTo(0x01_0203_0405L);
    assertThat(BandEntries.rest(e, 0)).isEqualTo(0x123456);
    assertThat(g.allRestBytes()).containsExactly(0x12, 0x34, 0x56);
    assertThat(g.restCount(0)).isEqualTo(1);
  }

  @Test
  void allRestBytes_groupByGroup_countsSayWhereEachEnds() {
    BandEntries bands = new BandEntries(16);
    long[] keys = {0xABCD_0000_0012_3456L, 0x1111_0000_0000_0001L, 0xABCD_0000_0065_4321L};
    BandEntries.Grouped g = bands.group(keys);
    assertThat(g.buckets()).containsExactly(0xABCD, 0x1111);
    assertThat(g.restCount(0)).isEqualTo(2);
    assertThat(g.restCount(1)).isEqualTo(1);
    assertThat(g.allRestBytes())
        .containsExactly(0x12, 0x34, 0x56, 0x65, 0x43, 0x21, 0x00, 0x00, 0x01);
  }

  @Test
  void share_anyEqualKey() {
    assertThat(BandEntries.share(new long[] {1, 2, 3}, new long[] {9, 3})).isTrue();
    assertThat(BandEntries.share(new long[] {1, 2, 3}, new long[] {9, 4})).isFalse();
    assertThat(BandEntries.share(new long[0], new long[] {9})).isFalse();
  }
}
