// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;
import org.neardup.internal.ScratchChars;

/**
 * {@link FlatJson}'s reader on a JSONL line's UTF-8 bytes instead of its decoded string: the same
 * records taken, the same id and text given, or null for a line {@code FlatJson} would not take and
 * for any line that is not strict UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing past
 * U+10FFFF), which the caller then reads through {@link DocumentSource#parse} as before (the
 * decoding error included). Field names with escapes also give null here. {@code FlatJsonBytesTest}
 * holds it to {@code FlatJson} after a strict decode on every line it draws.
 *
 * <p>Why: {@code neardup dedup} decoded each line into a string, walked it char by char to find the
 * fields and copied the text out of it, three passes over ~600 bytes per document of the 1M
 * realistic corpus (7% of the worker threads' JFR samples). Here one pass over the bytes checks
 * them and finds the fields, and the text is decoded once, straight into its string. JSON's
 * structure is ASCII and no byte of a multi-byte UTF-8 sequence is below 0x80, so the structure is
 * found on bytes alone. Thread-safe (each call reads with its own instance); allocates the text and
 * the id.
 */
final class FlatJsonBytes {
  private final byte[] line;
  private final int end;
  private int pos;

  private FlatJsonBytes(byte[] line, int end) {
    this.line = line;
    this.end = end;
  }

  /** The field names a reader looks for, as UTF-8; null when the bytes cannot stand for them. */
  static final class Fields {
    final byte[] id;
    final byte[] text;

    private Fields(byte[] id, byte[] text) {
      this.id = id;
      this.text = text;
    }

    /**
     * The names' bytes, or null when a name holds a surrogate: its UTF-8 form would not spell it,
     * so bytes could match a name that is not it.
     */
    static @Nullable Fields of(String idField, String textField) {
      for (String s : new String[] {idField, textField}) {
        for (int i = 0; i < s.length(); i++) {
          if (Character.isSurrogate(s.charAt(i))) {
            return null;
          }
        }
      }
      return new Fields(
          idField.getBytes(StandardCharsets.UTF_8), textField.getBytes(StandardCharsets.UTF_8));
    }
  }

  /**
   * The id as JSON and the text of the line {@code bytes[0, length)}, or null when this reader does
   * not take it.
   *
   * @return {@code {idJson, text}} or null
   */
  static String @Nullable [] read(byte[] bytes, int length, Fields fields) {
    if (!Utf8.valid(bytes, 0, length)) {
      return null;
    }
    return new FlatJsonBytes(bytes, length).object(fields.id, fields.text);
  }

  private String @Nullable [] object(byte[] idField, byte[] textField) {
    String idJson = null;
    String text = null;
    skipSpace();
    if (!take('{')) {
      return null;
    }
    skipSpace();
    if (peek() == '}') {
      return null; // no fields: the tree path says which one is missing
    }
    while (true) {
      if (!take('"')) {
        return null;
      }
      int nameStart = pos;
      if (!skipPlainString()) {
        return null; // escapes in a name: FlatJson's to unescape
      }
      int nameEnd = pos - 1;
      skipSpace();
      if (!take(':')) {
        return null;
      }
      skipSpace();
      if (nameIs(nameStart, nameEnd, idField)) {
        if (idJson != null) {
          return null;
        }
        idJson = id();
        if (idJson == null) {
          return null;
        }
      } else if (nameIs(nameStart, nameEnd, textField)) {
        if (text != null || !take('"')) {
          return null;
        }
        text = string();
        if (text == null) {
          return null;
        }
      } else if (!skipValue()) {
        return null;
      }
      skipSpace();
      if (take(',')) {
        skipSpace();
        continue;
      }
      if (!take('}')) {
        return null;
      }
      break;
    }
    skipSpace();
    if (pos != end || idJson == null || text == null) {
      return null;
    }
    return new String[] {idJson, text};
  }

  private boolean nameIs(int start, int stop, byte[] name) {
    return java.util.Arrays.equals(line, start, stop, name, 0, name.length);
  }

  /**
   * After an opening quote: moves past a string without escapes or control characters and its
   * closing quote; false for any other string.
   */
  private boolean skipPlainString() {
    while (pos < end) {
      byte c = line[pos++];
      if (c == '"') {
        return true;
      }
      if (c == '\\' || (c >= 0 && c < 0x20)) {
        return false;
      }
    }
    return false;
  }

  /** The id value as JSON: a string without escapes, or an integer that fits 18 digits. */
  private @Nullable String id() {
    int start = pos;
    if (take('"')) {
      if (!skipPlainString()) {
        return null; // escaping is Jackson's to spell
      }
      return new String(line, start, pos - start, StandardCharsets.UTF_8);
    }
    boolean negative = take('-');
    int digits = pos;
    if (!integerPart()) {
      return null;
    }
    if (pos - digits > 18
        || (pos < end && (line[pos] == 'e' || line[pos] == 'E' || line[pos] == '.'))) {
      return null;
    }
    long v = 0;
    for (int i = digits; i < pos; i++) {
      v = v * 10 + (line[i] - '0');
    }
    return Long.toString(negative ? -v : v);
  }

  /** After an opening quote: the string's value up to and past its closing quote, or null. */
  private @Nullable String string() {
    int start = pos;
    while (pos < end) {
      byte c = line[pos];
      if (c == '"') {
        return new String(line, start, pos++ - start, StandardCharsets.UTF_8);
      }
      if (c == '\\') {
        return escapedString(start);
      }
      if (c >= 0 && c < 0x20) {
        return null;
      }
      pos++;
    }
    return null;
  }

  /**
   * The rest of a string that has an escape at {@code pos}, decoded and unescaped into this
   * thread's char array ({@link ScratchChars}) and copied once into the string, as {@link FlatJson}
   * does.
   */
  private @Nullable String escapedString(int start) {
    // Never more chars than bytes: each UTF-8 sequence gives at most one char per byte.
    char[] out = ScratchChars.atLeast(end - start);
    int k = Utf8.decode(line, start, pos, out, 0);
    while (pos < end) {
      int run = pos;
      byte c = 0;
      while (pos < end && (c = line[pos]) != '"' && c != '\\' && (c < 0 || c >= 0x20)) {
        pos++;
      }
      k = Utf8.decode(line, run, pos, out, k);
      if (pos >= end) {
        return null;
      }
      pos++;
      if (c == '"') {
        return new String(out, 0, k);
      }
      if (c < 0x20) {
        return null;
      }
      if (pos >= end) {
        return null;
      }
      byte e = line[pos++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out[k++] = (char) e;
          break;
        case 'b':
          out[k++] = '\b';
          break;
        case 'f':
          out[k++] = '\f';
          break;
        case 'n':
          out[k++] = '\n';
          break;
        case 'r':
          out[k++] = '\r';
          break;
        case 't':
          out[k++] = '\t';
          break;
        case 'u':
          if (pos + 4 > end) {
            return null;
          }
          int v = 0;
          for (int d = 0; d < 4; d++) {
            int digit = hexDigit(line[pos++]);
            if (digit < 0) {
              return null;
            }
            v = v << 4 | digit;
          }
          out[k++] = (char) v;
          break;
        default:
          return null;
      }
    }
    return null;
  }

  /**
   * An ASCII hex digit's value, else -1: of the chars {@code Character.digit(c, 16)} takes,
   * FlatJson meets only ASCII ones here, since a char past ASCII is never one byte of a valid line.
   */
  private static int hexDigit(byte b) {
    if (b >= '0' && b <= '9') {
      return b - '0';
    }
    if (b >= 'a' && b <= 'f') {
      return b - 'a' + 10;
    }
    if (b >= 'A' && b <= 'F') {
      return b - 'A' + 10;
    }
    return -1;
  }

  /** Skips a string, number or literal; false for anything else (nested values included). */
  private boolean skipValue() {
    byte c = peek();
    if (c == '"') {
      pos++;
      return string() != null;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      take('-');
      if (!integerPart()) {
        return false;
      }
      if (take('.') && !digits()) {
        return false;
      }
      if (take('e') || take('E')) {
        if (!take('+')) {
          take('-');
        }
        return digits();
      }
      return true;
    }
    return literal("true") || literal("false") || literal("null");
  }

  /** 0, or a non-zero digit and more digits: JSON has no leading zeros. */
  private boolean integerPart() {
    if (take('0')) {
      return pos >= end || !isDigit(line[pos]);
    }
    return digits();
  }

  private boolean digits() {
    int start = pos;
    while (pos < end && isDigit(line[pos])) {
      pos++;
    }
    return pos > start;
  }

  private static boolean isDigit(byte c) {
    return c >= '0' && c <= '9';
  }

  private boolean literal(String word) {
    int n = word.length();
    if (end - pos < n) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      if (line[pos + i] != word.charAt(i)) {
        return false;
      }
    }
    pos += n;
    return true;
  }

  private byte peek() {
    return pos < end ? line[pos] : 0;
  }

  private boolean take(char c) {
    if (pos < end && line[pos] == c) {
      pos++;
      return true;
    }
    return false;
  }

  /** JSON whitespace: space, tab, line feed, carriage return. */
  private void skipSpace() {
    while (pos < end) {
      byte c = line[pos];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      pos++;
    }
  }

  /** Strict UTF-8 (RFC 3629), checked and decoded by hand. */
  static final class Utf8 {
    private Utf8() {}

    /**
     * Whether {@code b[from, to)} is strict UTF-8: what a decoder set to report malformed input
     * decodes without an error. Eight ASCII bytes at a time while they are ASCII.
     */
    static boolean valid(byte[] b, int from, int to) {
      int i = from;
      while (i < to) {
        if (to - i >= 8 && ((long) LONG.get(b, i) & 0x8080808080808080L) == 0) {
          i += 8;
          continue;
        }
        int c = b[i] & 0xFF;
        if (c < 0x80) {
          i++;
          continue;
        }
        int n;
        int lo = 0x80;
        int hi = 0xBF;
        if (c >= 0xC2 && c <= 0xDF) {
          n = 1;
        } else if (c >= 0xE0 && c <= 0xEF) {
          n = 2;
          if (c == 0xE0) {
            lo = 0xA0; // no overlong forms
          } else if (c == 0xED) {
            hi = 0x9F; // no surrogates
          }
        } else if (c >= 0xF0 && c <= 0xF4) {
          n = 3;
          if (c == 0xF0) {
            lo = 0x90;
          } else if (c == 0xF4) {
            hi = 0x8F; // nothing past U+10FFFF
          }
        } else {
          return false;
        }
        if (to - i <= n) {
          return false;
        }
        int second = b[i + 1] & 0xFF;
        if (second < lo || second > hi) {
          return false;
        }
        for (int k = 2; k <= n; k++) {
          if ((b[i + k] & 0xC0) != 0x80) {
            return false;
          }
        }
        i += n + 1;
      }
      return true;
    }

    /**
     * Decodes {@code b[from, to)}, which {@link #valid} accepted, into {@code out} from {@code k};
     * returns the index after the last char written.
     */
    static int decode(byte[] b, int from, int to, char[] out, int k) {
      int i = from;
      while (i < to) {
        int c = b[i];
        if (c >= 0) {
          out[k++] = (char) c;
          i++;
        } else if ((c & 0xE0) == 0xC0) {
          out[k++] = (char) ((c & 0x1F) << 6 | (b[i + 1] & 0x3F));
          i += 2;
        } else if ((c & 0xF0) == 0xE0) {
          out[k++] = (char) ((c & 0x0F) << 12 | (b[i + 1] & 0x3F) << 6 | (b[i + 2] & 0x3F));
          i += 3;
        } else {
          int cp =
              (c & 0x07) << 18
                  | (b[i + 1] & 0x3F) << 12
                  | (b[i + 2] & 0x3F) << 6
                  | (b[i + 3] & 0x3F);
          out[k++] = Character.highSurrogate(cp);
          out[k++] = Character.lowSurrogate(cp);
          i += 4;
        }
      }
      return k;
    }

    private static final java.lang.invoke.VarHandle LONG =
        java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
            long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
  }
}
