// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.neardup.internal.ScratchChars;
import org.neardup.server.FlatObjectScanner;

/**
 * Reads the commonest JSONL record without Jackson: one flat object whose id (a string needing no
 * escapes in JSON, or an integer of up to 18 digits) and text (a string) each appear once, beside
 * other fields whose values are strings, numbers, {@code true}, {@code false} or {@code null}, with
 * nothing but whitespace after it. Anything else (nested values, escapes in the id, big or
 * fractional ids, repeated or missing fields, any syntax error, trailing text) gives null and is
 * left to {@link DocumentSource}'s Jackson paths, which accept or report it as before; for what
 * this accepts it gives the id and text those paths give ({@code PlainJsonTest}). The object's walk
 * is {@link FlatObjectScanner}'s, shared with {@link SendRecord}; this reads the strings.
 *
 * <p>Why: on a 100 MB JSONL input on one core, Jackson's streaming parser and the C2 compilation of
 * the method that inlines it (about a third of all C2 time in that run, by JFR's jdk.Compilation
 * events) cost more than this loop over the line's chars. Thread-safe (each call reads with its own
 * instance); allocates the text (a substring when it has no escapes) and the id.
 */
final class FlatJson extends FlatObjectScanner {
  private final String line;
  private final String idField;
  private final String textField;
  private final Set<String> others;
  private @Nullable String idJson;
  private @Nullable String text;

  private FlatJson(String line, String idField, String textField, Set<String> others) {
    super(0, line.length());
    this.line = line;
    this.idField = idField;
    this.textField = textField;
    this.others = others;
  }

  /**
   * The id as JSON and the text of {@code line}, or null when this reader does not take the line.
   *
   * @return {@code {idJson, text}} or null
   */
  static String @Nullable [] read(String line, String idField, String textField) {
    return read(line, idField, textField, Set.of());
  }

  /**
   * As {@link #read(String, String, String)}, and null also when the object has a field named in
   * {@code others}: fields the caller reads itself (through the tree path).
   */
  static String @Nullable [] read(
      String line, String idField, String textField, Set<String> others) {
    FlatJson r = new FlatJson(line, idField, textField, others);
    if (!r.members() || r.idJson == null || r.text == null) {
      return null;
    }
    return new String[] {r.idJson, r.text};
  }

  @Override
  protected boolean member() {
    String name = string();
    if (name == null || !colon()) {
      return false;
    }
    if (name.equals(idField)) {
      if (idJson != null) {
        return false;
      }
      idJson = id();
      return idJson != null;
    }
    if (name.equals(textField)) {
      if (text != null || !take('"')) {
        return false;
      }
      text = string();
      return text != null;
    }
    return !others.contains(name) && skipValue();
  }

  /** The id value as JSON: a string without escapes, or an integer that fits 18 digits. */
  private @Nullable String id() {
    int start = pos;
    if (take('"')) {
      while (pos < end) {
        char c = line.charAt(pos++);
        if (c == '"') {
          return line.substring(start, pos);
        }
        if (c == '\\' || c < 0x20) {
          return null; // escaping is Jackson's to spell
        }
      }
      return null;
    }
    return integerId();
  }

  /** After an opening quote: the string's value up to and past its closing quote, or null. */
  private @Nullable String string() {
    int start = pos;
    int n = line.length();
    while (pos < n) {
      char c = line.charAt(pos);
      if (c == '"') {
        return line.substring(start, pos++);
      }
      if (c == '\\') {
        return escapedString(start);
      }
      if (c < 0x20) {
        return null;
      }
      pos++;
    }
    return null;
  }

  /**
   * The rest of a string that has an escape at {@code pos}, unescaped into this thread's char array
   * ({@link ScratchChars}) and copied once into the string. A StringBuilder cost about three times
   * the bytes: it starts with one byte per char, is inflated to two at the first char beyond
   * Latin-1 (every Chinese text), and its toString copies again; in a 105 MB zh run that was ~300
   * of the worker's 840 MB allocated (JFR allocation samples, docs/BENCHMARKS.md, the twelfth
   * session).
   */
  private @Nullable String escapedString(int start) {
    int n = line.length();
    // The unescaped string is never longer than the rest of the line.
    int most = n - start;
    char[] out = ScratchChars.atLeast(most);
    line.getChars(start, pos, out, 0);
    int k = pos - start;
    while (pos < n) {
      // The run up to the next quote, backslash or control character goes in at once (getChars)
      // rather than char by char: texts escape every line end, and this loop was ~2% of the 1M
      // realistic dedup's CPU samples.
      int run = pos;
      char c = 0;
      while (pos < n && (c = line.charAt(pos)) != '"' && c != '\\' && c >= 0x20) {
        pos++;
      }
      line.getChars(run, pos, out, k);
      k += pos - run;
      if (pos >= n) {
        return null;
      }
      pos++;
      if (c == '"') {
        return new String(out, 0, k);
      }
      if (c < 0x20) {
        return null;
      }
      if (pos >= n) {
        return null;
      }
      char e = line.charAt(pos++);
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out[k++] = e;
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
          if (pos + 4 > n) {
            return null;
          }
          int v = 0;
          for (int d = 0; d < 4; d++) {
            int digit = Character.digit(line.charAt(pos++), 16);
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

  /** Skips a string, number or literal; false for anything else (nested values included). */
  private boolean skipValue() {
    if (take('"')) {
      return string() != null;
    }
    return skipNumberOrLiteral();
  }

  @Override
  public int unit(int index) {
    return line.charAt(index);
  }
}
