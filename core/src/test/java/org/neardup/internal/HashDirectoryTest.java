// SPDX-License-Identifier: Apache-2.0
package org.neardup.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class HashDirectoryTest {
  /** A sub-table that only remembers its prefix: the hash bits above its depth it stands for. */
  private static final class Prefix extends HashDirectory.Table {
    final long prefix;

    Prefix(int depth, long prefix) {
      super(depth);
      this.prefix = prefix;
    }

    boolean owns(long hash) {
      return depth == 0 || hash >>> (64 - depth) == prefix;
    }
  }

  @Test
  void sizing_smallAndLarge_givesDepthAndCapacity() {
    assertThat(HashDirectory.depthFor(16, 32)).isZero();
    assertThat(HashDirectory.capacityFor(16, 0)).isEqualTo(16);
    assertThat(HashDirectory.capacityFor(17, 0)).isEqualTo(32);
    assertThat(HashDirectory.depthFor(HashDirectory.MAX_SLOTS, 32)).isZero();
    assertThat(HashDirectory.depthFor(HashDirectory.MAX_SLOTS + 1L, 32)).isEqualTo(1);
    assertThat(HashDirectory.depthFor(15_000_000, 32)).isEqualTo(8);
    assertThat(HashDirectory.capacityFor(15_000_000, 8)).isEqualTo(HashDirectory.MAX_SLOTS);
    assertThat(HashDirectory.depthFor(Long.MAX_VALUE, 16)).isEqualTo(16);
  }

  /**
   * Random splits, each of the sub-table a random hash selects: afterwards every hash still maps to
   * the one sub-table whose prefix it has, and the invariant holds throughout.
   */
  @Test
  void splits_randomOrder_everyHashFindsItsPrefix() {
    for (long seed = 1; seed <= 20; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      HashDirectory<Prefix> dir = new HashDirectory<>(1 << 17, 32, d -> new Prefix(d, 0));
      // Depth 1 from the start: two entries, but the factory gave both prefix 0; the second is
      // replaced in place (the same table as both halves) by one with its true prefix.
      assertThat(dir.length()).isEqualTo(2);
      Prefix one = new Prefix(1, 1);
      dir.replace(1, dir.get(1), one, one);
      for (int step = 0; step < 300; step++) {
        long h = r.nextLong();
        int j = dir.index(h);
        Prefix t = dir.get(j);
        assertThat(t.owns(h)).as("seed %s step %s", seed, step).isTrue();
        j = dir.prepareSplit(j, t);
        Prefix low = new Prefix(t.depth + 1, t.prefix << 1);
        Prefix high = new Prefix(t.depth + 1, (t.prefix << 1) | 1);
        dir.replace(j, t, low, high);
        List<Prefix> seen = new ArrayList<>();
        dir.checkInvariants(seen::add);
        assertThat(seen).hasSize(dir.tables());
        for (int probe = 0; probe < 50; probe++) {
          long x = r.nextLong();
          assertThat(dir.at(x).owns(x)).as("seed %s step %s", seed, step).isTrue();
          assertThat(dir.get(dir.index(x))).isSameAs(dir.at(x));
        }
      }
      assertThat(dir.tables()).isEqualTo(302);
    }
  }

  @Test
  void checkInvariants_brokenRun_fails() {
    HashDirectory<Prefix> dir = new HashDirectory<>(1 << 18, 32, d -> new Prefix(d, 0));
    assertThat(dir.length()).isEqualTo(4);
    Prefix t = dir.get(0);
    int j = dir.prepareSplit(0, t);
    // Half-finished split: only one half replaced by hand.
    dir.replace(j, t, new Prefix(t.depth + 1, 0), new Prefix(t.depth + 1, 1));
    Prefix shallow = new Prefix(1, 0);
    dir.replace(2, dir.get(2), shallow, shallow); // claims entries 0-3, but sits at 2-3 only
    assertThatThrownBy(() -> dir.checkInvariants(x -> {}))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("not referenced by its run");
  }
}
