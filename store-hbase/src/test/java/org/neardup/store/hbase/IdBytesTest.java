// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class IdBytesTest {
  /** Ids of 1 to 4096 bytes, mostly short, many sharing prefixes, some with zero bytes. */
  private static byte[][] ids(long seed, int n) {
    SplittableRandom r = new SplittableRandom(seed);
    byte[][] out = new byte[n][];
    for (int i = 0; i < n; i++) {
      int len = r.nextInt(10) == 0 ? 1 + r.nextInt(4096) : 1 + r.nextInt(20);
      byte[] b = new byte[len];
      for (int j = 0; j < len; j++) {
        b[j] = (byte) (r.nextBoolean() ? "ab\0\u00ff".charAt(r.nextInt(4)) : r.nextInt(256));
      }
      out[i] = b;
    }
    return out;
  }

  @Test
  void add_manyIdsAcrossChunks_readBackAsGivenAndOrderAsArrays() {
    for (long seed = 0; seed < 5; seed++) {
      byte[][] ids = ids(seed, 6000); // ~1.3 MB: several chunks, ids ending at their edges
      IdBytes store = new IdBytes();
      long[] refs = new long[ids.length];
      for (int i = 0; i < ids.length; i++) {
        refs[i] = store.add(ids[i]);
      }
      assertThat(store.ramBytes()).isGreaterThanOrEqualTo(2L * IdBytes.CHUNK);
      SplittableRandom r = new SplittableRandom(seed);
      for (int i = 0; i < ids.length; i++) {
        assertThat(store.bytes(refs[i])).as("seed %s id %s", seed, i).isEqualTo(ids[i]);
        assertThat(IdBytes.length(refs[i])).isEqualTo(ids[i].length);
        assertThat(store.prefix(refs[i])).isEqualTo(SortOrder.prefix(ids[i]));
        int j = r.nextInt(10) == 0 ? i : r.nextInt(ids.length);
        assertThat(Integer.signum(store.compare(refs[i], refs[j])))
            .as("seed %s ids %s, %s", seed, i, j)
            .isEqualTo(Integer.signum(Arrays.compareUnsigned(ids[i], ids[j])));
        assertThat(store.equal(refs[i], refs[j])).isEqualTo(Arrays.equals(ids[i], ids[j]));
      }
    }
  }

  @Test
  void compare_idAndItsExtension_ordersTheShorterFirst() {
    IdBytes store = new IdBytes();
    long a = store.add(new byte[] {'x', 0});
    long b = store.add(new byte[] {'x'});
    long c = store.add(new byte[] {'x', 0});
    assertThat(store.compare(b, a)).isNegative();
    assertThat(store.equal(a, b)).isFalse();
    assertThat(store.equal(a, c)).isTrue();
    assertThat(store.prefix(a)).isEqualTo(store.prefix(b)); // ties left to compare
  }

  @Test
  void add_emptyOrTooLong_throws() {
    IdBytes store = new IdBytes();
    assertThatThrownBy(() -> store.add(new byte[0])).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.add(new byte[4097]))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
