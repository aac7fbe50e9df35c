// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;
import org.neardup.client.Doc;
import org.neardup.server.FlatObjectScanner;
import org.neardup.server.Utf8;

/**
 * Reads {@code neardup send}'s commonest JSONL record from its bytes, without decoding it: the
 * records {@link FlatJson} takes for send (a flat object, an id that needs no escapes or an integer
 * of up to 18 digits, a text, no {@code fingerprint} or {@code timestamp} field), whose text is
 * then sent as the record spells it ({@link Doc#textJson}), a JSON string literal copied into the
 * request. Anything else gives null, and the caller reads the record as every command does ({@link
 * DocumentSource#parse}), which accepts or reports it as before; so this takes only records that
 * path would send, with the same id and the same text once the service reads the literal ({@code
 * SendRecordTest}). Records it does not take: invalid UTF-8 anywhere in the line, escapes in a
 * field name, a {@code \\u} escape with other than ASCII hex digits in a string, a lone surrogate's
 * escape in the text, a text with no letter or digit.
 *
 * <p>Why: decoding each line to a String, and encoding its text back to UTF-8 with its escapes for
 * the request, were ~40% of send's own Java samples for short texts (docs/BENCHMARKS.md, the
 * thirteenth session). Here the line is checked as strict UTF-8 (the check the service makes of
 * every body) and the text is scanned for its end and its first letter in one walk over its bytes;
 * the rest of the line is checked after the walk. Thread-safe (each call reads with its own
 * instance). The object's walk is {@link FlatObjectScanner}'s, shared with {@link FlatJson}; this
 * reads the strings as bytes.
 */
final class SendRecord extends FlatObjectScanner {
  /** A record taken: the id's JSON (as {@link InputDocument#idJson}) and the document to send. */
  record Read(String idJson, Doc doc) {}

  private static final byte[] FINGERPRINT = name("fingerprint");
  private static final byte[] TIMESTAMP = name("timestamp");

  private final byte[] line;
  private final byte[] idField;
  private final byte[] textField;
  private @Nullable String idJson;
  private @Nullable String id;
  private int textFrom = -1;
  private int textTo = -1;

  private SendRecord(byte[] line, byte[] idField, byte[] textField) {
    super(0, line.length);
    this.line = line;
    this.idField = idField;
    this.textField = textField;
  }

  /** The record of {@code line} (one JSONL line's bytes), or null when this reader leaves it. */
  static @Nullable Read read(byte[] line, byte[] idField, byte[] textField) {
    SendRecord r = new SendRecord(line, idField, textField);
    if (!r.members() || r.idJson == null || r.id == null || r.textFrom < 0) {
      return null;
    }
    // The text's characters were checked as strict UTF-8 by its walk (text()); the rest of the
    // line is checked here. A line that is not valid UTF-8 anywhere is left to the decoder, which
    // says what is wrong.
    if (Utf8.problem(line, 0, r.textFrom) != null
        || Utf8.problem(line, r.textTo, line.length) != null) {
      return null;
    }
    return new Read(r.idJson, Doc.textJson(r.id, Arrays.copyOfRange(line, r.textFrom, r.textTo)));
  }

  /** A field name as this reader compares it. */
  static byte[] name(String field) {
    return field.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  protected boolean member() {
    int nameFrom = pos;
    if (!skipPlainString()) {
      return false;
    }
    int nameTo = pos - 1;
    if (!colon()) {
      return false;
    }
    if (is(nameFrom, nameTo, idField)) {
      return idJson == null && id();
    }
    if (is(nameFrom, nameTo, textField)) {
      if (textFrom >= 0 || peek() != '"') {
        return false;
      }
      textFrom = pos;
      if (!text()) {
        return false;
      }
      textTo = pos;
      return true;
    }
    return !is(nameFrom, nameTo, FINGERPRINT) && !is(nameFrom, nameTo, TIMESTAMP) && skipValue();
  }

  /** The id's value: a string without escapes (Jackson's to spell otherwise) or an integer. */
  private boolean id() {
    int from = pos;
    if (take('"')) {
      if (!skipPlainString()) {
        return false;
      }
      idJson = new String(line, from, pos - from, StandardCharsets.UTF_8);
      id = idJson.substring(1, idJson.length() - 1);
      return true;
    }
    id = integerId();
    idJson = id;
    return id != null;
  }

  private boolean is(int from, int to, byte[] name) {
    return Arrays.equals(line, from, to, name, 0, name.length);
  }

  /**
   * At the text's opening quote: past its closing quote, if it is a string as FlatJson reads it and
   * holds a letter or digit ({@link FingerprintCommand#hasLetters} of what it stands for).
   */
  private boolean text() {
    // The walk keeps the array, position and end in locals and writes pos back around escape():
    // send runs C1 only, which reloads and stores a field on every step of a loop. Per news text
    // (~4 KB) the UTF-8 check and this walk cost 15.7 us in two passes, 13.3 as one walk over the
    // fields, 11.7 as this one in locals (one JVM with send's flags; docs/BENCHMARKS.md, the
    // twentieth session).
    byte[] b = line;
    int e = end;
    int p = pos + 1;
    boolean letters = false;
    while (p < e) {
      int c = b[p];
      if (c < 0) {
        // A character of two to four bytes, checked as strict UTF-8 here rather than in a pass of
        // its own over the line: the text is most of a record's bytes. Three bytes from E1..EF but
        // ED (Chinese) are tested in place, as Utf8.problem tests them first: one such character
        // until a letter is found (whether it is one is asked below), then a whole run of them in
        // this loop, without the general step's branches per character.
        int lead = c & 0xFF;
        int q = p;
        while (e - q >= 3) {
          int l = b[q] & 0xFF;
          if (l < 0xE1
              || l > 0xEF
              || l == 0xED
              || (b[q + 1] & 0xC0) != 0x80
              || (b[q + 2] & 0xC0) != 0x80) {
            break;
          }
          q += 3;
          if (!letters) {
            break;
          }
        }
        int n;
        if (q > p) {
          if (letters) {
            p = q;
            continue;
          }
          n = 3;
        } else {
          n = Utf8.sequence(b, p, e);
          if (n < 0) {
            return false; // not UTF-8: the decoder says what is wrong
          }
        }
        if (!letters) {
          int cp = lead & (0x7F >> n);
          for (int k = 1; k < n; k++) {
            cp = cp << 6 | (b[p + k] & 0x3F);
          }
          letters = Character.isLetterOrDigit(cp);
        }
        p += n;
        continue;
      }
      if (c >= 0x20 && c != '"' && c != '\\') {
        if (letters) {
          // and so is a run of plain ASCII (a negative byte, below 0x20, ends it too)
          p++;
          while (p < e) {
            int x = b[p];
            if (x < 0x20 || x == '"' || x == '\\') {
              break;
            }
            p++;
          }
          continue;
        }
        letters = isAsciiLetterOrDigit(c);
        p++;
        continue;
      }
      if (c == '"') {
        pos = p + 1;
        return letters;
      }
      if (c < 0x20) {
        return false;
      }
      pos = p; // at a backslash
      int v = escape();
      if (Character.isHighSurrogate((char) v) && peek() == '\\') {
        int low = escape(); // a character outside the BMP, as its two surrogates' escapes
        v = Character.isLowSurrogate((char) low) ? Character.toCodePoint((char) v, (char) low) : -1;
      }
      if (v < 0 || (v <= Character.MAX_VALUE && Character.isSurrogate((char) v))) {
        return false; // a lone surrogate: the usual reading's to send
      }
      letters = letters || Character.isLetterOrDigit(v);
      p = pos;
    }
    pos = p;
    return false;
  }

  private static boolean isAsciiLetterOrDigit(int c) {
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
  }

  /** Skips a string, number or literal as FlatJson does; false for anything else. */
  private boolean skipValue() {
    if (take('"')) {
      while (pos < end) {
        int b = line[pos];
        if (b == '"') {
          pos++;
          return true;
        }
        if (b == '\\') {
          if (escape() < 0) {
            return false;
          }
          continue;
        }
        if (b >= 0 && b < 0x20) {
          return false;
        }
        pos++;
      }
      return false;
    }
    return skipNumberOrLiteral();
  }

  @Override
  public int unit(int index) {
    return line[index] & 0xFF;
  }
}
