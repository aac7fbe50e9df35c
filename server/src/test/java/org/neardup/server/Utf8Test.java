// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link Utf8} agrees with the JDK's strict UTF-8 decoder on every input. */
class Utf8Test {
  private static boolean jdkAccepts(byte[] b) {
    try {
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(b));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }

  @Test
  public void knownForms() {
    assertThat(Utf8.problem(bytes(0x78, 0xC0, 0xAF), 0, 3))
        .contains("0xc0 at offset 1", "overlong");
    assertThat(Utf8.problem(bytes(0xED, 0xA0, 0x80), 0, 3)).contains("surrogate");
    assertThat(Utf8.problem(bytes(0xF4, 0x90, 0x80, 0x80), 0, 4)).contains("above U+10FFFF");
    assertThat(Utf8.problem(bytes(0xE0, 0x80, 0xAF), 0, 3)).contains("overlong");
    assertThat(Utf8.problem(bytes(0xF0, 0x80, 0x80, 0xAF), 0, 4)).contains("overlong");
    assertThat(Utf8.problem(bytes(0xE2, 0x82), 0, 2)).contains("cut off");
    assertThat(Utf8.problem(bytes(0x80), 0, 1)).contains("continuation");
    assertThat(Utf8.problem(bytes(0xF5, 0x80, 0x80, 0x80), 0, 4)).isNotNull();
    byte[] ok = "héllo 中文 😀".getBytes(StandardCharsets.UTF_8);
    assertThat(Utf8.problem(ok, 0, ok.length)).isNull();
    assertThat(Utf8.loneSurrogate("col\ud800")).contains("\\ud800 at character 3");
    assertThat(Utf8.loneSurrogate("x\udc00y")).contains("\\udc00");
    assertThat(Utf8.loneSurrogate("ok 😀")).isNull();
  }

  /** Property: random byte strings, biased to the lead and continuation bytes that matter. */
  @Test
  public void agreesWithTheJdkDecoder() {
    SplittableRandom r = new SplittableRandom(17);
    int[] interesting = {
      0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1,
      0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF8, 0xFF
    };
    int invalid = 0;
    for (int n = 0; n < 200_000; n++) {
      byte[] b = new byte[r.nextInt(1, 8)];
      for (int i = 0; i < b.length; i++) {
        b[i] =
            (byte)
                (r.nextInt(4) == 0 ? r.nextInt(256) : interesting[r.nextInt(interesting.length)]);
      }
      boolean ours = Utf8.problem(b, 0, b.length) == null;
      assertThat(ours).as(java.util.HexFormat.of().formatHex(b)).isEqualTo(jdkAccepts(b));
      invalid += ours ? 0 : 1;
    }
    assertThat(invalid).isBetween(1000, 199_000); // both outcomes were exercised
  }

  private static byte[] bytes(int... v) {
    byte[] b = new byte[v.length];
    for (int i = 0; i < v.length; i++) {
      b[i] = (byte) v[i];
    }
    return b;
  }
}
