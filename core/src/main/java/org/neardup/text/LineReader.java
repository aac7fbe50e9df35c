// SPDX-License-Identifier: Apache-2.0
package org.neardup.text;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.neardup.internal.ScratchChars;

/**
 * Reads '\n'-terminated lines as raw bytes with a size limit, and decodes them as strict UTF-8, as
 * every reader of JSONL and text input does ({@code neardup dedup}, the Spark job's splits): a
 * trailing '\r' is dropped, a last line without '\n' counts, and a line longer than the limit is
 * skipped to its end without being held in memory (only its length is kept). Not thread-safe.
 */
public final class LineReader {
  private final InputStream in;
  private final int maxBytes;
  private final byte[] buf = new byte[1 << 16];
  private int pos;
  private int lim;
  private byte[] line = new byte[1024];
  private int lineLength;
  private boolean tooLong;
  private long lineLengthTotal;
  private long lineNumber;
  private boolean eof;
  private long consumed; // bytes of the input before buf[0]
  private final CharsetDecoder decoder =
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT);

  /**
   * Reads {@code in} from where it is.
   *
   * @param maxBytes the longest line kept, in bytes; longer ones are {@link #tooLong()}
   */
  public LineReader(InputStream in, int maxBytes) {
    this.in = in;
    this.maxBytes = maxBytes;
  }

  /** Advances to the next line; false at the end of the input. */
  public boolean next() throws IOException {
    if (eof) {
      return false;
    }
    lineLength = 0;
    lineLengthTotal = 0;
    tooLong = false;
    boolean any = false;
    while (true) {
      if (pos == lim) {
        consumed += lim;
        lim = in.read(buf, 0, buf.length);
        pos = 0;
        if (lim <= 0) {
          lim = 0;
          eof = true;
          if (any) {
            lineNumber++;
            return true;
          }
          return false;
        }
      }
      any = true;
      int start = pos;
      while (pos < lim && buf[pos] != '\n') {
        pos++;
      }
      append(start, pos);
      if (pos < lim) {
        pos++; // the '\n'
        lineNumber++;
        if (lineLength > 0 && line[lineLength - 1] == '\r' && !tooLong) {
          lineLength--;
        }
        return true;
      }
    }
  }

  private void append(int start, int end) {
    int n = end - start;
    lineLengthTotal += n;
    if (tooLong || lineLengthTotal > maxBytes) {
      tooLong = true;
      return;
    }
    if (lineLength + n > line.length) {
      line = Arrays.copyOf(line, Math.max(lineLength + n, line.length * 2));
    }
    System.arraycopy(buf, start, line, lineLength, n);
    lineLength += n;
  }

  /** How many bytes of the input the lines read so far took, their '\n' included. */
  public long position() {
    return consumed + pos;
  }

  /** The number of the current line, from 1. */
  public long lineNumber() {
    return lineNumber;
  }

  /** Whether the current line exceeded the limit (its bytes were not kept). */
  public boolean tooLong() {
    return tooLong;
  }

  /** The current line's length in bytes, even when too long. */
  public long byteLength() {
    return lineLengthTotal;
  }

  /** Whether the current line holds only spaces and tabs. */
  public boolean blank() {
    for (int i = 0; i < lineLength; i++) {
      if (line[i] != ' ' && line[i] != '\t' && line[i] != '\r') {
        return false;
      }
    }
    return !tooLong;
  }

  /** A copy of the current line's bytes. */
  public byte[] copy() {
    return Arrays.copyOf(line, lineLength);
  }

  /**
   * Decodes the current line.
   *
   * @throws MalformedInputException naming the byte offset of the first invalid byte
   */
  public String decode() throws CharacterCodingException {
    return decode(decoder, line, 0, lineLength);
  }

  /**
   * Decodes {@code len} bytes as the decoder's charset (a strict UTF-8 decoder for inputs).
   *
   * @throws InvalidUtf8Exception naming the byte offset of the first invalid byte
   */
  public static String decode(CharsetDecoder decoder, byte[] bytes, int off, int len)
      throws CharacterCodingException {
    if (decoder.charset() == StandardCharsets.UTF_8 && len <= ScratchChars.RETAINED) {
      /*
       * Into this thread's char array, then one copy into the string: decoder.decode(ByteBuffer)
       * allocates a char buffer of one char per byte (three times too large for Chinese) before
       * that copy, and the String constructor on bytes allocates two bytes per input byte before
       * trimming. UTF-8 never gives more chars than bytes, so len chars always suffice.
       */
      char[] chars = ScratchChars.atLeast(len);
      int n = decodeChars(decoder, bytes, off, len, chars);
      if (n >= 0) {
        return new String(chars, 0, n);
      }
      // Anything else (a decoder set to report unmappable input) goes the general way below.
    }
    decoder.reset();
    ByteBuffer in = ByteBuffer.wrap(bytes, off, len);
    try {
      CharBuffer out = decoder.decode(in);
      return out.toString();
    } catch (MalformedInputException e) {
      throw new InvalidUtf8Exception(in.position() - off);
    }
  }

  /**
   * Decodes {@code len} bytes as the decoder's charset into {@code out} (at least {@code len} chars
   * for UTF-8, which never gives more chars than bytes), for a caller that reads the chars where
   * they are instead of making a String of them. Returns the number of chars, or -1 when the
   * decoder stopped for anything but the end of the input or malformed input (out of room, input it
   * reports as unmappable): {@link #decode} then takes the general way.
   *
   * @throws InvalidUtf8Exception naming the byte offset of the first invalid byte
   */
  public static int decodeChars(CharsetDecoder decoder, byte[] bytes, int off, int len, char[] out)
      throws InvalidUtf8Exception {
    decoder.reset();
    ByteBuffer in = ByteBuffer.wrap(bytes, off, len);
    CharBuffer chars = CharBuffer.wrap(out);
    CoderResult result = decoder.decode(in, chars, true);
    if (result.isUnderflow()) {
      result = decoder.flush(chars);
    }
    if (result.isMalformed()) {
      throw new InvalidUtf8Exception(in.position() - off);
    }
    return result.isUnderflow() ? chars.position() : -1;
  }

  /** Invalid UTF-8 at a byte offset. */
  public static final class InvalidUtf8Exception extends CharacterCodingException {
    private static final long serialVersionUID = 1L;
    private final long offset;

    /** The offset of the first invalid byte in the decoded bytes. */
    public long offset() {
      return offset;
    }

    InvalidUtf8Exception(long offset) {
      this.offset = offset;
    }

    @Override
    public String getMessage() {
      return "invalid UTF-8 at byte offset " + offset;
    }
  }
}
