// SPDX-License-Identifier: Apache-2.0
package org.neardup.client;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * Writes request bodies: documents as JSON objects ({@code id}, then {@code text} or {@code
 * fingerprint}, then {@code timestamp} when set), the same bytes as Jackson's generator with its
 * defaults wrote them (held to it by {@code RequestWriterTest}); a text given as a JSON literal
 * ({@link Doc#textJson}) is copied as it is. Not thread-safe; one per body.
 *
 * <p>A text is encoded by the JDK ({@link String#getBytes}, a copy for a text of Latin-1
 * characters) and then copied with its escapes in one pass over the bytes, instead of a call per
 * character: the generator's string writing was a fifth of {@code neardup send}'s main thread
 * (docs/BENCHMARKS.md, the twelfth session). A text with a lone surrogate, which the encoder turns
 * into '?', is written again a character at a time.
 */
final class RequestWriter {
  private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

  private byte[] buf;
  private int size;

  RequestWriter(int capacity) {
    buf = new byte[Math.max(16, capacity)];
  }

  /**
   * Writes into {@code buf} (grown when it is too small) from {@code start}: the bytes before are
   * left for the transport to put the request's head in.
   */
  RequestWriter(byte[] buf, int start) {
    this.buf = buf;
    this.size = start;
  }

  /** One document, as a JSON object. */
  RequestWriter document(Doc d) {
    ascii("{\"id\":");
    string(d.id());
    String text = d.text();
    byte[] textJson = d.textJson();
    if (text != null) {
      ascii(",\"text\":");
      string(text);
    } else if (textJson != null) {
      ascii(",\"text\":");
      copy(textJson, 0, textJson.length); // a JSON string literal its caller checked
    } else {
      ascii(",\"fingerprint\":\"");
      ascii(NeardupClient.hex(Objects.requireNonNull(d.fingerprint())));
      put('"');
    }
    if (d.timestamp() != null) {
      ascii(",\"timestamp\":");
      ascii(Long.toString(d.timestamp().toEpochMilli()));
    }
    put('}');
    return this;
  }

  /** A newline (between the documents of an NDJSON batch). */
  RequestWriter newline() {
    put('\n');
    return this;
  }

  /**
   * A JSON string as Jackson writes it: quotes; escapes for quote, backslash and the characters
   * below U+0020; a character outside the BMP as its two surrogates' escapes ({@code
   * \uD83D\uDE00}), and a lone surrogate as its escape; other characters as UTF-8.
   */
  RequestWriter string(String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    int start = size;
    ensure(b.length + 2);
    buf[size++] = '"';
    int from = 0;
    boolean question = false;
    for (int i = 0; i < b.length; i++) {
      int c = b[i] & 0xff;
      if (c >= 0x20 && c != '"' && c != '\\' && c < 0xf0) {
        question |= c == '?';
        continue;
      }
      copy(b, from, i);
      if (c >= 0xf0) { // a 4-byte sequence: a character outside the BMP
        int cp =
            ((c & 0x07) << 18)
                | ((b[i + 1] & 0x3f) << 12)
                | ((b[i + 2] & 0x3f) << 6)
                | (b[i + 3] & 0x3f);
        unicode(Character.highSurrogate(cp));
        unicode(Character.lowSurrogate(cp));
        i += 3;
      } else {
        escape(c);
      }
      from = i + 1;
    }
    copy(b, from, b.length);
    put('"');
    if (question && hasLoneSurrogate(s)) {
      // The encoder wrote '?' for each lone surrogate: write the string again a char at a time.
      size = start;
      slowString(s);
    }
    return this;
  }

  byte[] toByteArray() {
    return Arrays.copyOf(buf, size);
  }

  /**
   * The array written into (not a copy: valid until the next write); its bytes up to {@link #size}.
   */
  byte[] buffer() {
    return buf;
  }

  int size() {
    return size;
  }

  private static boolean hasLoneSurrogate(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return true;
      }
    }
    return false;
  }

  private void slowString(String s) {
    put('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      ensure(6);
      if (c < 0x80) {
        if (c >= 0x20 && c != '"' && c != '\\') {
          buf[size++] = (byte) c;
        } else {
          escape(c);
        }
      } else if (c < 0x800) {
        buf[size++] = (byte) (0xc0 | (c >> 6));
        buf[size++] = (byte) (0x80 | (c & 0x3f));
      } else if (Character.isSurrogate(c)) {
        unicode(c);
      } else {
        buf[size++] = (byte) (0xe0 | (c >> 12));
        buf[size++] = (byte) (0x80 | ((c >> 6) & 0x3f));
        buf[size++] = (byte) (0x80 | (c & 0x3f));
      }
    }
    put('"');
  }

  private void unicode(char c) {
    ensure(6);
    buf[size++] = '\\';
    buf[size++] = 'u';
    buf[size++] = HEX[(c >> 12) & 0xf];
    buf[size++] = HEX[(c >> 8) & 0xf];
    buf[size++] = HEX[(c >> 4) & 0xf];
    buf[size++] = HEX[c & 0xf];
  }

  private void escape(int c) {
    ensure(6);
    buf[size++] = '\\';
    switch (c) {
      case '"', '\\' -> buf[size++] = (byte) c;
      case '\n' -> buf[size++] = 'n';
      case '\t' -> buf[size++] = 't';
      case '\r' -> buf[size++] = 'r';
      case '\b' -> buf[size++] = 'b';
      case '\f' -> buf[size++] = 'f';
      default -> {
        buf[size++] = 'u';
        buf[size++] = '0';
        buf[size++] = '0';
        buf[size++] = HEX[c >> 4];
        buf[size++] = HEX[c & 0xf];
      }
    }
  }

  private void copy(byte[] b, int from, int to) {
    int n = to - from;
    if (n > 0) {
      ensure(n);
      System.arraycopy(b, from, buf, size, n);
      size += n;
    }
  }

  private void ascii(String s) {
    int n = s.length();
    ensure(n);
    for (int i = 0; i < n; i++) {
      buf[size++] = (byte) s.charAt(i);
    }
  }

  private void put(char c) {
    ensure(1);
    buf[size++] = (byte) c;
  }

  private void ensure(int more) {
    if (buf.length - size < more) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
    }
  }
}
