// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import com.fasterxml.jackson.core.JsonToken;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;
import org.neardup.internal.ScratchChars;

/**
 * Reads a request document's commonest JSON from its bytes without Jackson: one object whose
 * members are among {@code id}, {@code text} and {@code fingerprint} (strings) and {@code
 * timestamp} (a string, or an integer of up to 18 digits without a sign), each at most once, with
 * names that need no escapes and whitespace around it. Anything else (another field, another type,
 * a repeated field, a negative or fractional timestamp, any syntax error, data after the object)
 * gives null, and {@link Json} reads the document with Jackson as before, which accepts or refuses
 * it with its own message. What this takes it reads into the same {@link Json.RawDoc} as Jackson's
 * streaming read ({@code FlatDocumentTest}), so every check after it is unchanged.
 *
 * <p>Why: parsing each document of a batch with a Jackson parser of its own (its construction, its
 * field names, its strings decoded through its buffer) was ~10% of a warm server's worker samples
 * for short texts (docs/BENCHMARKS.md, the seventeenth session). The body has been checked as
 * strict UTF-8 before it is read ({@link Utf8#problem}), so this decodes without checking again.
 * The object's walk is {@link FlatObjectScanner}'s, shared with cli's flat readers; this reads the
 * strings. Not thread-safe: each call reads with its own instance.
 */
final class FlatDocument extends FlatObjectScanner {
  private final byte[] body;
  private final Json.RawDoc doc = new Json.RawDoc();

  private FlatDocument(byte[] body, int from, int to) {
    super(from, to);
    this.body = body;
  }

  /**
   * The document at {@code body[from, to)}, which must be valid UTF-8; null when this reader leaves
   * it to Jackson.
   */
  static Json.@Nullable RawDoc read(byte[] body, int from, int to) {
    FlatDocument r = new FlatDocument(body, from, to);
    return r.members() ? r.doc : null;
  }

  @Override
  protected boolean member() {
    int nameFrom = pos;
    if (!skipPlainString()) {
      return false;
    }
    int nameLength = pos - 1 - nameFrom;
    if (!colon()) {
      return false;
    }
    Json.RawDoc d = doc;
    if (is(nameFrom, nameLength, "id")) {
      if (d.idToken != null || (d.id = stringValue()) == null) {
        return false;
      }
      d.idToken = JsonToken.VALUE_STRING;
      d.unknownInCheck = d.unknownInCheck == null ? "id" : d.unknownInCheck;
      return true;
    }
    if (is(nameFrom, nameLength, "text")) {
      if (d.textToken != null || (d.text = stringValue()) == null) {
        return false;
      }
      d.textToken = JsonToken.VALUE_STRING;
      return true;
    }
    if (is(nameFrom, nameLength, "fingerprint")) {
      if (d.fingerprintToken != null || (d.fingerprint = stringValue()) == null) {
        return false;
      }
      d.fingerprintToken = JsonToken.VALUE_STRING;
      return true;
    }
    if (is(nameFrom, nameLength, "timestamp")) {
      if (d.timestampToken != null || !timestamp(d)) {
        return false;
      }
      d.unknownInCheck = d.unknownInCheck == null ? "timestamp" : d.unknownInCheck;
      return true;
    }
    return false; // another field: Jackson's read names it in its message
  }

  /** A string, or a plain non-negative integer of up to 18 digits (as Jackson's long). */
  private boolean timestamp(Json.RawDoc d) {
    int c = peek();
    if (c == '"') {
      d.timestampText = stringValue();
      d.timestampToken = JsonToken.VALUE_STRING;
      return d.timestampText != null;
    }
    if (c < '0' || c > '9') {
      return false; // a sign, a literal, anything else
    }
    int digits = pos;
    int at = JsonNumber.end(this, pos, end);
    if (at < 0 || at - digits > 18) {
      return false;
    }
    long v = 0;
    for (int i = digits; i < at; i++) {
      int u = body[i];
      if (u < '0' || u > '9') {
        return false; // a fraction or an exponent: Jackson's token is a float
      }
      v = v * 10 + (u - '0');
    }
    pos = at;
    d.timestampToken = JsonToken.VALUE_NUMBER_INT;
    d.timestampFitsLong = true;
    d.timestamp = v;
    return true;
  }

  private boolean is(int from, int length, String name) {
    if (length != name.length()) {
      return false;
    }
    for (int i = 0; i < length; i++) {
      if (body[from + i] != name.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /**
   * A string value, decoded, from its opening quote through its closing one; null when none starts
   * here or it holds what JSON does not allow (a control character, an unknown escape).
   */
  private @Nullable String stringValue() {
    if (!take('"')) {
      return null;
    }
    int from = pos;
    while (pos < end) {
      int c = body[pos];
      if (c == '"') {
        pos++;
        return new String(body, from, pos - 1 - from, StandardCharsets.UTF_8);
      }
      if (c == '\\') {
        return escapedString(from);
      }
      if (c >= 0 && c < 0x20) {
        return null;
      }
      pos++;
    }
    return null;
  }

  /**
   * The string that starts at {@code from} and has an escape: read again from its start, UTF-8
   * decoded to UTF-16 by hand (the bytes are valid; Chinese, three bytes a char, on its own path)
   * and escapes as Jackson reads them (a lone surrogate's escape gives that char, as there).
   */
  private @Nullable String escapedString(int from) {
    byte[] b = body;
    char[] out = ScratchChars.atLeast(end - from); // at most a char per byte
    int n = 0;
    int i = from;
    while (i < end) {
      int c = b[i];
      if (c >= 0x20) { // ASCII but a control character
        if (c == '"') {
          pos = i + 1;
          return new String(out, 0, n);
        }
        if (c == '\\') {
          pos = i;
          int v = escape();
          if (v < 0) {
            return null;
          }
          out[n++] = (char) v;
          i = pos;
        } else {
          out[n++] = (char) c;
          i++;
        }
        continue;
      }
      if (c >= 0) {
        return null; // a control character
      }
      int lead = c & 0xFF;
      if (lead >= 0xE0 && lead < 0xF0 && i + 3 <= end) {
        out[n++] = (char) ((lead & 0x0F) << 12 | (b[i + 1] & 0x3F) << 6 | (b[i + 2] & 0x3F));
        i += 3;
      } else if (lead < 0xE0 && i + 2 <= end) {
        out[n++] = (char) ((lead & 0x1F) << 6 | (b[i + 1] & 0x3F));
        i += 2;
      } else if (lead >= 0xF0 && i + 4 <= end) {
        int cp =
            (lead & 0x07) << 18
                | (b[i + 1] & 0x3F) << 12
                | (b[i + 2] & 0x3F) << 6
                | (b[i + 3] & 0x3F);
        n += Character.toChars(cp, out, n);
        i += 4;
      } else {
        return null; // cut short: not the valid UTF-8 this is given
      }
    }
    return null;
  }

  @Override
  public int unit(int index) {
    return body[index] & 0xFF;
  }
}
