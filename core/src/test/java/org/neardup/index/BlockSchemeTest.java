// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BlockSchemeTest {

  @Test
  void of_presets_haveTheDocumentedShape() {
    assertThat(BlockScheme.of(4, 1).tables()).isEqualTo(4);
    assertThat(BlockScheme.of(5, 2).tables()).isEqualTo(10);
    assertThat(BlockScheme.of(6, 3).tables()).isEqualTo(20);
    assertThat(BlockScheme.of(4, 1)).isSameAs(BlockScheme.DEFAULT);
    BlockScheme s = BlockScheme.of(5, 2);
    int[] widths = new int[5];
    for (int b = 0; b < 5; b++) {
      widths[b] = s.blockWidth(b);
    }
    assertThat(widths).containsExactly(13, 13, 13, 13, 12);
    assertThat(s.keyBits(0)).isEqualTo(26);
    assertThat(s.tableBlocks(9)).containsExactly(3, 4);
    assertThat(s.keyBits(9)).isEqualTo(25);
    assertThat(s.describe()).isEqualTo("5:2 (10 tables, blocks 13,13,13,13,12)");
    assertThat(BlockScheme.of(6, 3).exactUpTo()).isEqualTo(3);
  }

  @Test
  void parse_roundTripsToString() {
    for (String text : new String[] {"4:1", "5:2", "6:3", "3:1", "7:2", "64:1", "1:1"}) {
      assertThat(BlockScheme.parse(text).toString()).isEqualTo(text);
    }
    assertThat(BlockScheme.parse("5:2")).isEqualTo(BlockScheme.of(5, 2));
    assertThat(BlockScheme.parse("5:2").hashCode()).isEqualTo(BlockScheme.of(5, 2).hashCode());
  }

  @Test
  void parse_badText_namesTheFormAndTheText() {
    for (String text : new String[] {"", "4", "4x16", ":1", "4:", "a:b", "4:1:1", " 4:1", "-4:1"}) {
      assertThatThrownBy(() -> BlockScheme.parse(text))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("BLOCKS:REQUIRED")
          .hasMessageContaining("'" + text + "'");
    }
    assertThatThrownBy(() -> BlockScheme.parse("4:5"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("required must be in [1, blocks = 4], got 5");
    assertThatThrownBy(() -> BlockScheme.parse("65:1"))
        .hasMessage("blocks must be in [1, 64], got 65");
    assertThatThrownBy(() -> BlockScheme.of(0, 0)).hasMessage("blocks must be in [1, 64], got 0");
    assertThatThrownBy(() -> BlockScheme.of(40, 20))
        .hasMessageContaining("at most 1024 tables")
        .hasMessageContaining("C(40, 20)");
  }

  /**
   * e(k) is the largest possible sum of the r smallest of m non-negative integers adding up to k:
   * enumerate every such composition and compare.
   */
  @Test
  void keyErrors_matchesBruteForceOverCompositions() {
    for (int m = 1; m <= 7; m++) {
      for (int r = 1; r <= m; r++) {
        BlockScheme s = BlockScheme.of(m, r);
        for (int k = 0; k <= 14; k++) {
          int[] parts = new int[m];
          int worst = worst(parts, 0, k, r);
          assertThat(s.keyErrors(k)).as("m=%s r=%s k=%s", m, r, k).isEqualTo(worst);
        }
        assertThat(s.keyErrors(s.exactUpTo())).isZero();
        assertThat(s.keyErrors(s.exactUpTo() + 1)).isPositive();
      }
    }
  }

  private static int worst(int[] parts, int at, int left, int r) {
    if (at == parts.length - 1) {
      parts[at] = left;
      int[] sorted = parts.clone();
      Arrays.sort(sorted);
      int sum = 0;
      for (int i = 0; i < r; i++) {
        sum += sorted[i];
      }
      return sum;
    }
    int best = 0;
    for (int v = 0; v <= left; v++) {
      parts[at] = v;
      best = Math.max(best, worst(parts, at + 1, left - v, r));
    }
    return best;
  }

  /** The guarantee on real bits: some table's key differs in at most e(k) bits. */
  @Test
  void keyErrors_boundsTheBestKeyOfRandomPairs() {
    SplittableRandom random = new SplittableRandom(7);
    for (String text : new String[] {"4:1", "5:2", "6:3", "3:1", "7:2", "9:4"}) {
      BlockScheme s = BlockScheme.parse(text);
      for (int trial = 0; trial < 3000; trial++) {
        int k = random.nextInt(65);
        long a = random.nextLong();
        long diff = 0;
        while (Long.bitCount(diff) < k) {
          diff |= 1L << random.nextInt(64);
        }
        int best = 64;
        for (int t = 0; t < s.tables(); t++) {
          best = Math.min(best, Long.bitCount((a ^ (a ^ diff)) & s.keyMask(t)));
        }
        assertThat(best)
            .as("%s k=%s diff=%016x", text, k, diff)
            .isLessThanOrEqualTo(s.keyErrors(k));
      }
    }
  }

  @Test
  void permute_isABitPermutationWithTheKeyOnTop() {
    java.util.SplittableRandom random = new java.util.SplittableRandom(42);
    for (int i = 0; i < 300; i++) {
      permuteCase(random.nextInt(1, 13), random.nextInt(1, 13), random.nextLong());
    }
  }

  private static void permuteCase(int m, int r, long fp) {
    if (r > m || BlockScheme.binomial(m, r) > BlockScheme.MAX_TABLES) {
      return;
    }
    BlockScheme s = BlockScheme.of(m, r);
    for (int t = 0; t < s.tables(); t++) {
      long p = s.permute(t, fp);
      assertThat(s.unpermute(t, p)).isEqualTo(fp);
      assertThat(Long.bitCount(p)).isEqualTo(Long.bitCount(fp));
      int w = s.keyBits(t);
      // The key on top equals the concatenation of the table's blocks.
      long key = 0;
      for (int b : s.tableBlocks(t)) {
        key =
            (key << s.blockWidth(b))
                | ((fp >>> s.blockShift(b)) & BlockScheme.mask(s.blockWidth(b)));
      }
      assertThat(w == 64 ? p : p >>> (64 - w)).isEqualTo(key);
      assertThat(s.permute(t, s.keyMask(t))).isEqualTo(w == 64 ? -1L : -1L << (64 - w));
    }
    assertThat(s.permute(0, fp)).isEqualTo(fp);
  }

  @Test
  void keyErrors_badDistance_throws() {
    assertThatThrownBy(() -> BlockScheme.DEFAULT.keyErrors(65))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxDistance must be in [0, 64], got 65");
  }
}
