// SPDX-License-Identifier: Apache-2.0
package org.neardup.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link ShingleSketch#encodeFixed} and {@link ShingleSketch#decodeFixed}: every sketch comes back
 * equal to itself and to what {@link ShingleSketch#decode} makes of {@link ShingleSketch#encode};
 * bytes that are not the fixed form of a sketch (wrong length, bad header, hashes out of unsigned
 * order or repeated) are refused with an IllegalArgumentException, never decoded. The same from a
 * {@link java.nio.ByteBuffer}, heap or direct, as from a byte[].
 */
class SketchFixedFormTest {
  /** Sorted distinct hashes over the whole unsigned range, top bit included. */
  private static int[] hashes(SplittableRandom r, int n) {
    return r.longs(n * 2L, 0, 1L << 32)
        .distinct()
        .limit(n)
        .sorted()
        .mapToInt(v -> (int) v)
        .toArray();
  }

  @Test
  void decodeFixed_anySketch_roundTripsAndMatchesVarintForm() {
    SplittableRandom r = new SplittableRandom(20261125);
    for (int round = 0; round < 20_000; round++) {
      ShingleSketch s =
          ShingleSketch.of(
              ShingleSketch.Mode.values()[r.nextInt(3)],
              hashes(r, r.nextInt(r.nextInt(8) == 0 ? 600 : 40)),
              r.nextBoolean());
      byte[] e = s.encodeFixed();
      assertThat(e).hasSize(1 + 4 * s.size());
      int off = r.nextInt(5);
      byte[] buf = new byte[off + e.length + r.nextInt(9)];
      Arrays.fill(buf, (byte) 0x81);
      System.arraycopy(e, 0, buf, off, e.length);
      ShingleSketch back = ShingleSketch.decodeFixed(buf, off, e.length);
      assertThat(back).isEqualTo(s);
      // From a buffer, heap or direct (as a memory map is), whatever its position and order.
      ByteBuffer direct = ByteBuffer.allocateDirect(buf.length).put(buf);
      for (ByteBuffer in : new ByteBuffer[] {ByteBuffer.wrap(buf), direct}) {
        in.position(r.nextInt(buf.length)).order(ByteOrder.BIG_ENDIAN);
        ShingleSketch fromBuffer = ShingleSketch.decodeFixed(in, off, e.length);
        assertThat(fromBuffer).isEqualTo(s);
        assertThat(fromBuffer.complete()).isEqualTo(s.complete());
      }
      assertThat(back.complete()).isEqualTo(s.complete());
      byte[] v = s.encode();
      assertThat(back).isEqualTo(ShingleSketch.decode(v, 0, v.length));
    }
  }

  @Test
  void decodeFixed_corrupt_refused() {
    SplittableRandom r = new SplittableRandom(7);
    int refused = 0;
    for (int round = 0; round < 20_000; round++) {
      int n = 2 + r.nextInt(60);
      byte[] e =
          ShingleSketch.of(ShingleSketch.Mode.WORDS, hashes(r, n), r.nextBoolean()).encodeFixed();
      byte[] bad = e.clone();
      int len = e.length;
      switch (r.nextInt(4)) {
        case 0 -> len = e.length - 1 - r.nextInt(3); // not 1 + 4n bytes
        case 1 -> bad[0] = (byte) (6 + r.nextInt(250)); // mode past WORDS, or negative
        case 2 -> { // two hashes swapped: out of order
          int i = r.nextInt(n - 1);
          System.arraycopy(e, 1 + 4 * (i + 1), bad, 1 + 4 * i, 4);
          System.arraycopy(e, 1 + 4 * i, bad, 1 + 4 * (i + 1), 4);
        }
        default -> { // a hash repeated
          int i = r.nextInt(n - 1);
          System.arraycopy(e, 1 + 4 * i, bad, 1 + 4 * (i + 1), 4);
        }
      }
      int l = len;
      assertThatThrownBy(() -> ShingleSketch.decodeFixed(bad, 0, l))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("corrupt sketch");
      assertThatThrownBy(() -> ShingleSketch.decodeFixed(ByteBuffer.wrap(bad), 0, l))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("corrupt sketch");
      refused++;
    }
    assertThat(refused).isEqualTo(20_000);
    assertThatThrownBy(() -> ShingleSketch.decodeFixed(new byte[0], 0, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
