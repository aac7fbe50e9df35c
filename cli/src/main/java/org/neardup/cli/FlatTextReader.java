// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import org.jspecify.annotations.Nullable;
import org.neardup.server.FlatObjectScanner;
import org.neardup.text.TextBuffer;

/**
 * dedup's reading of the commonest JSONL record from the decoded line's chars: the id as JSON, as
 * {@link FlatJson} gives it, and the text unescaped straight into a {@link TextBuffer}, which the
 * analysis reads as chars. No String is made of the line or of the text: for every Chinese text
 * each such String cost a failed Latin-1 compression (a byte per char) and two bytes per char, and
 * the text was then copied once more into the normaliser's buffer.
 *
 * <p>It takes less than {@link FlatJson} does, never more: one flat object whose field names need
 * no escapes, whose id (a string without escapes, or an integer of up to 18 digits) and text (a
 * string) each appear once, beside other fields whose values are strings, numbers, {@code true},
 * {@code false} or {@code null}, with nothing but whitespace after it. For anything else it gives
 * null, and the caller reads the line as before ({@link DocumentSource#parse}), which accepts or
 * reports it. For what it takes, the id and text are {@link FlatJson}'s ({@code
 * FlatTextReaderTest}). Not thread-safe; one instance per line.
 */
final class FlatTextReader extends FlatObjectScanner {
  private final char[] line;
  private final String idField;
  private final String textField;
  private final TextBuffer text;
  private @Nullable String idJson;
  private boolean textSeen;

  private FlatTextReader(
      char[] line, int from, int end, String idField, String textField, TextBuffer text) {
    super(from, end);
    this.line = line;
    this.idField = idField;
    this.textField = textField;
    this.text = text;
  }

  /**
   * Reads {@code line[from, end)}: the id as JSON, with the text appended to {@code text} (cleared
   * first); or null when this reader does not take the line ({@code text} then holds nothing
   * useful).
   */
  static @Nullable String read(
      char[] line, int from, int end, String idField, String textField, TextBuffer text) {
    text.clear();
    FlatTextReader r = new FlatTextReader(line, from, end, idField, textField, text);
    if (!r.members() || r.idJson == null || !r.textSeen) {
      return null;
    }
    return r.idJson;
  }

  @Override
  protected boolean member() {
    int nameStart = pos;
    if (!skipPlainString()) {
      return false; // a name with an escape is FlatJson's to read
    }
    int nameEnd = pos - 1; // at the closing quote
    if (!colon()) {
      return false;
    }
    if (named(idField, nameStart, nameEnd)) {
      if (idJson != null) {
        return false;
      }
      idJson = id();
      return idJson != null;
    }
    if (named(textField, nameStart, nameEnd)) {
      if (textSeen || !take('"')) {
        return false;
      }
      textSeen = true;
      return string(true);
    }
    if (take('"')) {
      return string(false);
    }
    return skipNumberOrLiteral();
  }

  /** Whether {@code line[start, end)} spells {@code name}. */
  private boolean named(String name, int start, int end) {
    if (end - start != name.length()) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      if (line[start + i] != name.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /** The id value as JSON: a string without escapes, or an integer that fits 18 digits. */
  private @Nullable String id() {
    int start = pos;
    if (take('"')) {
      return skipPlainString() ? new String(line, start, pos - start) : null;
    }
    return integerId();
  }

  /**
   * After an opening quote: reads the string up to and past its closing quote, unescaped into
   * {@link #text} when {@code keep}; false for a control character, a bad escape or no closing
   * quote. Runs without escapes go in at once.
   */
  private boolean string(boolean keep) {
    while (pos < end) {
      int run = pos;
      char c = 0;
      while (pos < end && (c = line[pos]) != '"' && c != '\\' && c >= 0x20) {
        pos++;
      }
      if (keep) {
        text.append(line, run, pos);
      }
      if (pos >= end || c < 0x20) {
        return false;
      }
      if (c == '"') {
        pos++;
        return true;
      }
      int e = escape();
      if (e < 0) {
        return false;
      }
      if (keep) {
        text.append((char) e);
      }
    }
    return false;
  }

  @Override
  public int unit(int index) {
    return line[index];
  }
}
