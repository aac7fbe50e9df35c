// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * FlatJsonBytes takes a line only when the line is strict UTF-8 and FlatJson takes its decoded
 * string, and then gives FlatJson's id and text: what dedup reads through it is what it read
 * before.
 */
class FlatJsonBytesTest {
  private static final FlatJsonBytes.Fields FIELDS = FlatJsonBytes.Fields.of("id", "text");

  /** Byte runs spliced into lines: valid multi-byte forms and each kind of malformed one. */
  private static final String[] BYTES = {
    "c3a9", // é
    "e4b8ad", // 中
    "f09f9880", // 😀
    "f48fbfbf", // U+10FFFF, the last
    "efbfbf", // U+FFFF, a noncharacter but valid
    "c080", // overlong '\0'
    "c1bf", // overlong
    "e08080", // overlong
    "e09fbf", // overlong
    "eda080", // a surrogate
    "edbfbf", // a surrogate
    "f08f8080", // overlong
    "f4908080", // past U+10FFFF
    "f5808080", // no such lead byte
    "ff",
    "80", // a lone continuation byte
    "c3", // cut short
    "e4b8", // cut short
    "f09f98", // cut short
    "e4c3a9", // a lead byte where a continuation should be
    "0a", // a raw line feed, JSON whitespace
    "09",
    "01", // a control character
    "5c", // a lone backslash
    "22" // a quote
  };

  /** A JSON string with a backslash in it, followed by a colon: a field name with an escape. */
  private static final java.util.regex.Pattern ESCAPED_NAME =
      java.util.regex.Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\\\\.(?:[^\"\\\\]|\\\\.)*\"\\s*:");

  private static String strict(byte[] b) throws CharacterCodingException {
    return StandardCharsets.UTF_8
        .newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT)
        .decode(ByteBuffer.wrap(b))
        .toString();
  }

  private static byte[] splice(byte[] line, Random r) {
    byte[] piece = HexFormat.of().parseHex(BYTES[r.nextInt(BYTES.length)]);
    int at = r.nextInt(line.length + 1);
    byte[] out = new byte[line.length + piece.length];
    System.arraycopy(line, 0, out, 0, at);
    System.arraycopy(piece, 0, out, at, piece.length);
    System.arraycopy(line, at, out, at + piece.length, line.length - at);
    return out;
  }

  @Test
  void read_randomLines_takesOnlyWhatFlatJsonTakesAndGivesTheSame() {
    Random r = new Random(2026_11_26L);
    int flatTook = 0;
    int bytesTook = 0;
    int malformed = 0;
    for (int i = 0; i < 60_000; i++) {
      byte[] line = PlainJsonTest.randomRecord(r).getBytes(StandardCharsets.UTF_8);
      for (int k = r.nextInt(3); k > 0; k--) {
        line = splice(line, r);
      }
      // Some lines sit at the start of a longer buffer, as LineReader's do.
      byte[] buffer = r.nextBoolean() ? line : java.util.Arrays.copyOf(line, line.length + 7);
      String[] fast = FlatJsonBytes.read(buffer, line.length, FIELDS);
      String decoded;
      try {
        decoded = strict(line);
      } catch (CharacterCodingException e) {
        malformed++;
        assertNull(fast, HexFormat.of().formatHex(line));
        continue;
      }
      String[] flat = FlatJson.read(decoded, "id", "text");
      if (flat != null) {
        flatTook++;
      }
      if (fast != null) {
        bytesTook++;
        assertArrayEquals(flat, fast, decoded);
      } else if (flat != null) {
        // Left only for an escape in a field name: with none, the line is taken.
        assertTrue(ESCAPED_NAME.matcher(decoded).find(), decoded);
      }
    }
    // FlatJson takes names with escapes, which this reader leaves (a third of the random records
    // have a field named by a random string); every other line it takes.
    assertTrue(malformed > 5_000, "malformed lines: " + malformed);
    assertTrue(
        flatTook > 2_000 && bytesTook > flatTook * 3 / 4,
        "FlatJson took " + flatTook + ", FlatJsonBytes " + bytesTook);
  }

  @Test
  void valid_randomBytes_sameAsTheStrictDecoder() {
    Random r = new Random(7);
    for (int i = 0; i < 200_000; i++) {
      byte[] b = new byte[r.nextInt(12)];
      for (int k = 0; k < b.length; k++) {
        // Mostly bytes near the edges of the ranges, where the rules are.
        b[k] =
            (byte)
                (r.nextInt(4) == 0
                    ? 0x80 + r.nextInt(0x80)
                    : new int[] {
                          0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF,
                          0xE0, 0xED, 0xEE, 0xEF, 0xF0, 0xF3, 0xF4, 0xF5, 0xFF
                        }
                        [r.nextInt(21)]);
      }
      String want;
      try {
        want = strict(b);
      } catch (CharacterCodingException e) {
        want = null;
      }
      int from = b.length == 0 ? 0 : r.nextInt(2);
      byte[] shifted = new byte[b.length + from];
      System.arraycopy(b, 0, shifted, from, b.length);
      boolean valid = FlatJsonBytes.Utf8.valid(shifted, from, shifted.length);
      assertEquals(want != null, valid, HexFormat.of().formatHex(b));
      if (valid) {
        char[] out = new char[b.length + 1];
        int n = FlatJsonBytes.Utf8.decode(shifted, from, shifted.length, out, 1);
        assertEquals(want, new String(out, 1, n - 1), HexFormat.of().formatHex(b));
      }
    }
  }

  @Test
  void valid_longAsciiRunsAroundAMalformedByte() {
    byte[] b = "abcdefghijklmnopqrstuvwxyz0123456789".getBytes(StandardCharsets.US_ASCII);
    assertTrue(FlatJsonBytes.Utf8.valid(b, 0, b.length));
    for (int at = 0; at < b.length; at++) {
      byte[] c = b.clone();
      c[at] = (byte) 0x80;
      assertTrue(!FlatJsonBytes.Utf8.valid(c, 0, c.length), "at " + at);
      assertTrue(FlatJsonBytes.Utf8.valid(c, 0, at), "before " + at);
    }
  }

  @Test
  void read_commonRecords() {
    byte[] line =
        "{\"id\":\"dv1\",\"text\":\"第一行\\n第二行 \\\"q\\\" \\u00e9😀\",\"lang\":\"zh\",\"n\":-1.5e3}"
            .getBytes(StandardCharsets.UTF_8);
    String[] got = FlatJsonBytes.read(line, line.length, FIELDS);
    assertNotNull(got);
    assertEquals("\"dv1\"", got[0]);
    assertEquals("第一行\n第二行 \"q\" é😀", got[1]);
    byte[] number = "{\"text\":\"x\",\"id\":-0}".getBytes(StandardCharsets.UTF_8);
    assertArrayEquals(new String[] {"0", "x"}, FlatJsonBytes.read(number, number.length, FIELDS));
    assertNull(FlatJsonBytes.Fields.of("i\ud800d", "text"));
  }
}
