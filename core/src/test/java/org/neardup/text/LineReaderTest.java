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
}
