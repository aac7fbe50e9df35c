// SPDX-License-Identifier: Apache-2.0
package org.neardup.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LineReaderTest {
  private static List<String> read(InputStream in, int maxBytes) throws IOException {
    LineReader r = new LineReader(in, maxBytes);
    List<String> out = new ArrayList<>();
    while (r.next()) {
      out.add(r.tooLong() ? "<" + r.byteLength() + ">" : r.decode());
    }
    return out;
  }

  private static List<String> read(String s, int maxBytes) throws IOException {
    return read(new ByteArrayInputStream(s.getBytes(StandardCharsets.UTF_8)), maxBytes);
  }

  @Test
  void next_crlfAndLastLineWithoutNewline_asDedupReadsThem() throws IOException {
    assertThat(read("a\r\nb\n\nc", 100)).containsExactly("a", "b", "", "c");
    assertThat(read("a\n", 100)).containsExactly("a");
    assertThat(read("", 100)).isEmpty();
  }

  @Test
  void next_lineOverTheLimit_isSkippedWithItsLength() throws IOException {
    assertThat(read("short\n" + "x".repeat(200_000) + "\nafter", 10))
        .containsExactly("short", "<200000>", "after");
  }

  @Test
  void decode_invalidUtf8_namesTheByteOffset() throws IOException {
    byte[] bad = {'a', 'b', (byte) 0xff, 'c', '\n'};
    LineReader r = new LineReader(new ByteArrayInputStream(bad), 100);
    assertThat(r.next()).isTrue();
    assertThatThrownBy(r::decode)
        .isInstanceOf(LineReader.InvalidUtf8Exception.class)
        .hasMessage("invalid UTF-8 at byte offset 2");
  }

  /** The input trickles in: reads of 1 to 7 bytes, so lines straddle every buffer boundary. */
  private static InputStream trickle(byte[] bytes, SplittableRandom r) {
    return new ByteArrayInputStream(bytes) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        return super.read(b, off, Math.min(len, 1 + r.nextInt(7)));
      }
    };
  }

  // position() is what a reader of file splits relies on: after each line it is the offset of the
  // next unread byte, whatever the reads of the underlying stream.
  @Test
  void position_afterEachLine_isTheOffsetOfTheNextLine() throws IOException {
    for (int seed = 0; seed < 50; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      StringBuilder s = new StringBuilder();
      List<Integer> ends = new ArrayList<>();
      int lines = r.nextInt(30);
      for (int i = 0; i < lines; i++) {
        s.append("é".repeat(r.nextInt(40)));
        if (r.nextInt(4) == 0) {
          s.append('\r');
        }
        s.append('\n');
        ends.add(s.toString().getBytes(StandardCharsets.UTF_8).length);
      }
      byte[] bytes = s.toString().getBytes(StandardCharsets.UTF_8);
      LineReader reader = new LineReader(trickle(bytes, r), 30);
      List<Long> positions = new ArrayList<>();
      while (reader.next()) {
        positions.add(reader.position());
      }
      assertThat(positions).as("seed %s", seed).containsExactlyElementsOf(longs(ends));
      assertThat(reader.position()).isEqualTo(bytes.length);
    }
  }

  private static List<Long> longs(List<Integer> ints) {
    List<Long> out = new ArrayList<>();
    ints.forEach(i -> out.add((long) i));
    return out;
  }

  @Test
  void decode_strictDecoder_givesTheText() throws IOException {
    byte[] b = "中文 text".getBytes(StandardCharsets.UTF_8);
    assertThat(
            LineReader.decode(
                StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT),
                b,
                0,
                b.length))
        .isEqualTo("中文 text");
  }

  private static java.nio.charset.CharsetDecoder strict() {
    return StandardCharsets.UTF_8
        .newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
  }

  /** The strict decoder's own answer: the text, or U+FFFF and the offset of the first bad byte. */
  private static String byDecoder(byte[] b, int off, int len) {
    java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(b, off, len);
    try {
      return strict().decode(in).toString();
    } catch (java.nio.charset.CharacterCodingException e) {
      return "\uFFFF" + (in.position() - off);
    }
  }

  private static String byLineReader(byte[] b, int off, int len) {
    try {
      return LineReader.decode(strict(), b, off, len);
    } catch (LineReader.InvalidUtf8Exception e) {
      return "\uFFFF" + e.offset();
    } catch (java.nio.charset.CharacterCodingException e) {
      throw new AssertionError(e);
    }
  }

  // decode goes through a reused char array instead of the decoder's own buffer: the answer must
  // be the strict decoder's in every case, well-formed or not, at any offset in the array.
  @Test
  void decode_anyBytes_givesTheStrictDecodersAnswer() {
    byte[][] pieces = {
      "a".getBytes(StandardCharsets.UTF_8),
      "é".getBytes(StandardCharsets.UTF_8),
      "中".getBytes(StandardCharsets.UTF_8),
      "\uFFFD".getBytes(StandardCharsets.UTF_8),
      "😀".getBytes(StandardCharsets.UTF_8),
      {(byte) 0xE4, (byte) 0xB8}, // a truncated 3-byte sequence
      {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, // an encoded surrogate
      {(byte) 0xC0, (byte) 0xAF}, // an overlong '/'
      {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, // above U+10FFFF
      {(byte) 0x80},
      {(byte) 0xFF},
    };
    int bad = 0;
    for (int seed = 0; seed < 20_000; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
      int n = r.nextInt(12);
      for (int i = 0; i < n; i++) {
        if (r.nextInt(8) == 0) {
          out.write(r.nextInt(256));
        } else {
          // Mostly well-formed pieces, the malformed ones rarer, so both outcomes are common.
          int k = r.nextInt(4) == 0 ? r.nextInt(pieces.length) : r.nextInt(5);
          out.writeBytes(pieces[k]);
        }
      }
      byte[] body = out.toByteArray();
      int off = r.nextInt(3);
      byte[] b = new byte[off + body.length + r.nextInt(3)];
      System.arraycopy(body, 0, b, off, body.length);
      String expected = byDecoder(b, off, body.length);
      assertThat(byLineReader(b, off, body.length)).as("seed %s", seed).isEqualTo(expected);
      bad += expected.startsWith("\uFFFF") ? 1 : 0;
    }
    assertThat(bad).isBetween(2_000, 18_000); // both outcomes were tested
  }
}
