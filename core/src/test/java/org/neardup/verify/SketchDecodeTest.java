// SPDX-License-Identifier: Apache-2.0
package org.neardup.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link ShingleSketch#decode} reads eight bytes at a time; {@link ShingleSketch#decodeBytewise} is
 * the byte-by-byte decoder it replaced. On every input, valid or corrupt, the two must agree: the
 * same sketch, or an IllegalArgumentException with the same message.
 */
class SketchDecodeTest {
  /** Sorted distinct hashes with deltas of every varint length (1 to 5 bytes). */
  private static int[] hashes(SplittableRandom r, int n) {
    long[] v = new long[n];
    long x = r.nextInt(4) == 0 ? 0 : r.nextLong(1L << r.nextInt(1, 33));
    for (int i = 0; i < n; i++) {
      v[i] = x;
      x += 1 + r.nextLong(1L << r.nextInt(0, 29));
    }
    int[] h = new int[n];
    int m = 0;
    for (int i = 0; i < n && v[i] <= 0xFFFFFFFFL; i++) {
      h[m++] = (int) v[i];
    }
    return Arrays.copyOf(h, m);
  }

  private static String outcome(byte[] in, int off, int len, boolean fast) {
    try {
      ShingleSketch s =
          fast ? ShingleSketch.decode(in, off, len) : ShingleSketch.decodeBytewise(in, off, len);
      return s.mode() + " " + s.complete() + " " + Arrays.toString(s.hashesView());
    } catch (IllegalArgumentException e) {
      return "IAE " + e.getMessage();
    } catch (ArrayIndexOutOfBoundsException | NegativeArraySizeException e) {
      return "bad " + e;
    }
  }

  @Test
  void decode_validAndCorrupt_sameAsBytewise() {
    SplittableRandom r = new SplittableRandom(20261125);
    int corruptThrown = 0;
    for (int round = 0; round < 20_000; round++) {
      int[] h = hashes(r, r.nextInt(r.nextInt(8) == 0 ? 700 : 40));
      ShingleSketch s =
          ShingleSketch.of(ShingleSketch.Mode.values()[r.nextInt(3)], h, r.nextBoolean());
      byte[] e = s.encode();
      // Inside a larger array, at an offset, so reads near the end of the sketch's bytes must not
      // look past them.
      int off = r.nextInt(4);
      byte[] buf = new byte[off + e.length + r.nextInt(12)];
      Arrays.fill(buf, (byte) 0x81);
      System.arraycopy(e, 0, buf, off, e.length);
      assertThat(outcome(buf, off, e.length, true)).isEqualTo(outcome(buf, off, e.length, false));
      assertThat(ShingleSketch.decode(buf, off, e.length)).isEqualTo(s);
      // Corrupt: flipped bytes, a cut or a longer window.
      byte[] bad = buf.clone();
      int len = e.length;
      switch (r.nextInt(3)) {
        case 0 -> {
          for (int k = r.nextInt(1, 4); k > 0; k--) {
            bad[off + r.nextInt(e.length)] ^= (byte) (1 << r.nextInt(8));
          }
        }
        case 1 -> len = r.nextInt(e.length);
        default -> len = Math.min(bad.length - off, e.length + r.nextInt(1, 10));
      }
      String fast = outcome(bad, off, len, true);
      assertThat(fast).as("round %s", round).isEqualTo(outcome(bad, off, len, false));
      assertThat(fast).doesNotStartWith("bad ");
      if (fast.startsWith("IAE")) {
        corruptThrown++;
      }
    }
    // Most corruptions are caught (a flipped bit in a delta can leave a valid sketch).
    assertThat(corruptThrown).isGreaterThan(10_000);
  }
}
