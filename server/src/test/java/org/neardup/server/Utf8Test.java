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

  /** Where the JDK's strict decoder finds the first malformed byte of {@code b}, or -1. */
  private static int jdkProblemAt(byte[] b) {
    ByteBuffer in = ByteBuffer.wrap(b);
    java.nio.CharBuffer out = java.nio.CharBuffer.allocate(b.length + 1);
    java.nio.charset.CoderResult res =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT)
            .decode(in, out, true);
    return res.isError() || res.isUnderflow() && in.hasRemaining() ? in.position() : -1;
  }

  /**
   * Property: long texts (where the eight-byte ASCII step and the three-byte step run) of ASCII,
   * Latin, Chinese and emoji, some with one byte replaced anywhere: valid exactly when the JDK says
   * so, and the problem reported at the offset where the JDK's decoder stops.
   */
  @Test
  public void longTextsAgreeWithTheJdkDecoderToTheOffset() {
    SplittableRandom r = new SplittableRandom(20261125);
    String[] pieces = {"abcdefgh ", "{\"id\":\"x\"}", "é", "中文字", "😀", "\u0800", "\uffff", "a"};
    int invalid = 0;
    for (int n = 0; n < 20_000; n++) {
      StringBuilder sb = new StringBuilder();
      int parts = r.nextInt(1, 40);
      for (int p = 0; p < parts; p++) {
        sb.append(pieces[r.nextInt(pieces.length)]);
      }
      byte[] b = sb.toString().getBytes(StandardCharsets.UTF_8);
      if (r.nextBoolean()) {
        b[r.nextInt(b.length)] = (byte) r.nextInt(256);
      }
      int from = b.length > 2 && r.nextInt(4) == 0 ? 1 : 0;
      byte[] slice = java.util.Arrays.copyOfRange(b, from, b.length);
      String problem = Utf8.problem(b, from, b.length);
      int at = jdkProblemAt(slice);
      String what = java.util.HexFormat.of().formatHex(slice);
      if (at < 0) {
        assertThat(problem).as(what).isNull();
      } else {
        invalid++;
        assertThat(problem).as(what).contains(" at offset " + (from + at) + " ");
      }
    }
    assertThat(invalid).isBetween(2_000, 18_000); // both outcomes were exercised
  }

  /**
   * {@link Utf8#sequence} accepts exactly the characters {@link Utf8#problem} accepts, with their
   * length: every lead byte above ASCII, every second byte, the third and fourth at the edges of
   * their ranges, and every length the data may be cut at.
   */
  @Test
  public void sequence_everyLeadAndFollowingBytes_agreesWithProblem() {
    int[] edges = {0x41, 0x80, 0xBF, 0xC0}; // the second byte's range is what differs by lead
    byte[] b = new byte[4];
    int accepted = 0;
    for (int lead = 0x80; lead <= 0xFF; lead++) {
      for (int second = 0; second <= 0xFF; second++) {
        for (int third : edges) {
          for (int fourth : edges) {
            b[0] = (byte) lead;
            b[1] = (byte) second;
            b[2] = (byte) third;
            b[3] = (byte) fourth;
            for (int to = 1; to <= 4; to++) {
              int expected = -1;
              for (int m = 2; m <= to && expected < 0; m++) {
                if (Utf8.problem(b, 0, m) == null) {
                  expected = m;
                }
              }
              int got = Utf8.sequence(b, 0, to);
              if (got != expected) {
                assertThat(got)
                    .as("%02x %02x %02x %02x cut at %d", lead, second, third, fourth, to)
                    .isEqualTo(expected);
              }
              accepted += got > 0 ? 1 : 0;
            }
          }
        }
      }
    }
    assertThat(accepted).isGreaterThan(50_000); // both outcomes were exercised
  }

  private static byte[] bytes(int... v) {
    byte[] b = new byte[v.length];
    for (int i = 0; i < v.length; i++) {
      b[i] = (byte) v[i];
    }
    return b;
  }
}
