// SPDX-License-Identifier: Apache-2.0
package org.neardup.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BytePoolTest {
  @Test
  void get_afterManyAdds_returnsEachEntry() {
    SplittableRandom r = new SplittableRandom(4);
    BytePool pool = new BytePool();
    List<byte[]> oracle = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      byte[] b = new byte[r.nextInt(400)];
      r.nextBytes(b);
      assertThat(pool.add(b, 0, b.length)).isEqualTo(i);
      oracle.add(b);
    }
    for (int i = 0; i < oracle.size(); i++) {
      assertThat(pool.get(i)).isEqualTo(oracle.get(i));
    }
  }

  @Test
  void compact_afterClears_keepsLiveEntries() {
    BytePool pool = new BytePool();
    byte[] big = new byte[300_000];
    for (int i = 0; i < 40; i++) {
      big[0] = (byte) i;
      pool.add(big, 0, big.length);
    }
    for (int i = 0; i < 40; i += 2) {
      pool.clear(i);
    }
    pool.compact();
    for (int i = 1; i < 40; i += 2) {
      assertThat(pool.get(i)[0]).isEqualTo((byte) i);
    }
    assertThat(pool.length(0)).isZero();
  }
}
