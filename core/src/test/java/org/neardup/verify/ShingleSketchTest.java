// SPDX-License-Identifier: Apache-2.0
package org.neardup.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ShingleSketchTest {
  private static int[] sortedDistinct(SplittableRandom r, int n) {
    Set<Integer> s = new HashSet<>();
    while (s.size() < n) {
      s.add(r.nextInt());
    }
    return s.stream()
        .mapToInt(Integer::intValue)
        .boxed()
        .sorted(Integer::compareUnsigned)
        .mapToInt(Integer::intValue)
        .toArray();
  }

  @Test
  void encode_decode_roundTrips() {
    SplittableRandom r = new SplittableRandom(1);
    for (int round = 0; round < 500; round++) {
      int[] h = sortedDistinct(r, r.nextInt(300));
      ShingleSketch s =
          ShingleSketch.of(
              r.nextBoolean() ? ShingleSketch.Mode.CHARS : ShingleSketch.Mode.WORDS,
              h,
              r.nextBoolean());
      byte[] e = s.encode();
      assertThat(e.length).isEqualTo(s.encodedSize());
      assertThat(ShingleSketch.decode(e, 0, e.length)).isEqualTo(s);
    }
  }

  @Test
  void decode_corruptBytes_rejectedClearly() {
    byte[] e = ShingleSketch.of(ShingleSketch.Mode.WORDS, new int[] {1, 5, 9}, true).encode();
    assertThatThrownBy(() -> ShingleSketch.decode(e, 0, e.length - 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("corrupt sketch");
    byte[] trailing = Arrays.copyOf(e, e.length + 1);
    assertThatThrownBy(() -> ShingleSketch.decode(trailing, 0, trailing.length))
        .hasMessageContaining("trailing");
    assertThatThrownBy(() -> ShingleSketch.decode(new byte[] {(byte) 0xFF}, 0, 1))
        .hasMessageContaining("corrupt sketch");
  }

  @Test
  void of_unsorted_rejected() {
    assertThatThrownBy(() -> ShingleSketch.of(ShingleSketch.Mode.WORDS, new int[] {5, 1}, true))
        .hasMessageContaining("sorted");
  }

  @Test
  void jaccard_completeSketches_isExact() {
    SplittableRandom r = new SplittableRandom(2);
    for (int round = 0; round < 300; round++) {
      int[] all = sortedDistinct(r, 200);
      Set<Integer> a = new HashSet<>();
      Set<Integer> b = new HashSet<>();
      for (int h : all) {
        int where = r.nextInt(3);
        if (where != 1) {
          a.add(h);
        }
        if (where != 2) {
          b.add(h);
        }
      }
      Set<Integer> inter = new HashSet<>(a);
      inter.retainAll(b);
      Set<Integer> union = new HashSet<>(a);
      union.addAll(b);
      double exact = (double) inter.size() / union.size();
      assertThat(ShingleSketch.jaccard(sketch(a, true), sketch(b, true))).isEqualTo(exact);
    }
  }

  @Test
  void jaccard_bottomK_estimatesWithinFewStandardErrors() {
    // Two sets of 5000 with Jaccard 0.8, kept as bottom-256: the estimate's standard error is
    // sqrt(0.8 * 0.2 / 256) = 0.025; allow 4 of them.
    SplittableRandom r = new SplittableRandom(5);
    int[] all = sortedDistinct(r, 5556);
    Set<Integer> a = new HashSet<>();
    Set<Integer> b = new HashSet<>();
    // Assign members by a random permutation, so shared and unshared hashes interleave.
    int[] role = new int[all.length];
    for (int i = 0; i < role.length; i++) {
      role[i] = i < 4444 ? 0 : i < 5000 ? 1 : 2;
    }
    for (int i = role.length - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      int t = role[i];
      role[i] = role[j];
      role[j] = t;
    }
    for (int i = 0; i < all.length; i++) {
      if (role[i] != 2) {
        a.add(all[i]);
      }
      if (role[i] != 1) {
        b.add(all[i]);
      }
    }
    double est = ShingleSketch.jaccard(bottom(a, 256), bottom(b, 256));
    assertThat(est).isBetween(0.8 - 0.1, 0.8 + 0.1);
  }

  @Test
  void jaccard_differentModesOrEmpty_isZero() {
    ShingleSketch w = ShingleSketch.of(ShingleSketch.Mode.WORDS, new int[] {1, 2}, true);
    ShingleSketch c = ShingleSketch.of(ShingleSketch.Mode.CHARS, new int[] {1, 2}, true);
    assertThat(ShingleSketch.jaccard(w, c)).isZero();
    assertThat(ShingleSketch.jaccard(ShingleSketch.empty(), ShingleSketch.empty())).isZero();
    assertThat(ShingleSketch.jaccard(w, w)).isEqualTo(1.0);
  }

  private static ShingleSketch sketch(Set<Integer> s, boolean complete) {
    return ShingleSketch.of(
        ShingleSketch.Mode.WORDS,
        s.stream().sorted(Integer::compareUnsigned).mapToInt(Integer::intValue).toArray(),
        complete);
  }

  private static ShingleSketch bottom(Set<Integer> s, int k) {
    int[] sorted =
        s.stream().sorted(Integer::compareUnsigned).mapToInt(Integer::intValue).toArray();
    return ShingleSketch.of(
        ShingleSketch.Mode.WORDS,
        Arrays.copyOf(sorted, Math.min(k, sorted.length)),
        sorted.length <= k);
  }

  /** validate accepts exactly what decode accepts, on valid and damaged encodings. */
  @Test
  void validate_randomDamage_agreesWithDecode() {
    SplittableRandom r = new SplittableRandom(31);
    for (int round = 0; round < 20_000; round++) {
      int[] hashes = r.ints(r.nextInt(40), 0, Integer.MAX_VALUE).distinct().sorted().toArray();
      byte[] e = ShingleSketch.of(ShingleSketch.Mode.WORDS, hashes, r.nextBoolean()).encode();
      int len = e.length;
      switch (r.nextInt(4)) {
        case 0 -> e[r.nextInt(e.length)] = (byte) r.nextInt(256);
        case 1 -> len = r.nextInt(e.length + 1);
        case 2 -> e[r.nextInt(e.length)] |= (byte) 0x80;
        default -> {}
      }
      boolean decodes;
      try {
        ShingleSketch.decode(e, 0, len);
        decodes = true;
      } catch (IllegalArgumentException ex) {
        decodes = false;
      }
      boolean valid;
      try {
        ShingleSketch.validate(e, 0, len);
        valid = true;
      } catch (IllegalArgumentException ex) {
        valid = false;
      }
      assertThat(valid).as("round %s: %s of %s", round, Arrays.toString(e), len).isEqualTo(decodes);
    }
  }
}
