// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import org.jspecify.annotations.Nullable;

/**
 * The walk of one flat JSON object that the flat readers share: cli's {@code FlatJson} over a JSONL
 * line's chars and {@code SendRecord} over its UTF-8 bytes ({@code neardup send}), and the server's
 * {@link FlatDocument} over a request document's bytes. This owns the position and the grammar's
 * steps that look the same in chars and bytes (whitespace, punctuation, the member list, numbers,
 * literals, an integer id); each reader walks its own strings, where they differ (a String's
 * escapes are unescaped, send's byte line's are only checked and its text kept as spelled, a
 * request's decoded from its bytes). In the server module, which cli depends on, so that all three
 * share it.
 *
 * <p>Not thread-safe: one instance reads one object, once. The steps read units through {@link
 * #unit}; a process loads at most two of the readers (a {@code neardup} command the cli's two, the
 * service only its own), so its call sites stay at most bimorphic, which C2 inlines.
 */
public abstract class FlatObjectScanner implements JsonNumber.Units {
  /*
   * Invariant: from <= pos <= end. A step that says no leaves pos where it was, except members()
   * and member(): after those refuse a record its reader gives null and is dropped.
   */
  /** The index of the next unit to read. */
  protected int pos;

  /** Where the walk ends (exclusive), in units. */
  protected final int end;

  /** A walk of the units [from, end): {@code from} is where the object (or whitespace) starts. */
  protected FlatObjectScanner(int from, int end) {
    this.pos = from;
    this.end = end;
  }

  /**
   * Reads one member from just past the opening quote of its name through its value; false when the
   * reader refuses the record.
   */
  protected abstract boolean member();

  /**
   * Walks {@code {member, member, ...}} with whitespace around it and nothing after it, calling
   * {@link #member} for each; false for anything else, an empty object included (the usual reading
   * says which field is missing).
   */
  protected final boolean members() {
    skipSpace();
    if (!take('{')) {
      return false;
    }
    skipSpace();
    while (take('"') && member()) {
      // Between members: whitespace, then a comma and more, or the end of the object.
      skipSpace();
      if (take(',')) {
        skipSpace();
        continue;
      }
      if (!take('}')) {
        return false;
      }
      skipSpace();
      return pos == end;
    }
    return false;
  }

  /** After a member's name: whitespace, the colon, whitespace; false when there is no colon. */
  protected final boolean colon() {
    skipSpace();
    if (!take(':')) {
      return false;
    }
    skipSpace();
    return true;
  }

  /**
   * An integer id as both readers take it, up to 18 digits with no fraction or exponent, as its
   * decimal form ({@code -0} is {@code 0}, as the usual reading's long is); null for anything else.
   */
  protected final @Nullable String integerId() {
    boolean negative = take('-');
    int digits = pos;
    if (!skipTo(JsonNumber.integerEnd(this, pos, end))) {
      return null;
    }
    int c = peek();
    if (pos - digits > 18 || c == 'e' || c == 'E' || c == '.') {
      return null;
    }
    long v = 0;
    for (int i = digits; i < pos; i++) {
      v = v * 10 + (unit(i) - '0');
    }
    return Long.toString(negative ? -v : v);
  }

  /** Skips a number or {@code true}, {@code false} or {@code null}; false for anything else. */
  protected final boolean skipNumberOrLiteral() {
    int c = peek();
    if (c == '-' || (c >= '0' && c <= '9')) {
      return skipTo(JsonNumber.end(this, pos, end));
    }
    return literal("true") || literal("false") || literal("null");
  }

  /** Moves to {@code at}, a grammar's end; false (staying put) when it found nothing (-1). */
  private boolean skipTo(int at) {
    if (at < 0) {
      return false;
    }
    pos = at;
    return true;
  }

  private boolean literal(String word) {
    int n = word.length();
    if (end - pos < n) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      if (unit(pos + i) != word.charAt(i)) {
        return false;
      }
    }
    pos += n;
    return true;
  }

  /**
   * After an opening quote: past the closing one of a string without escapes or control characters
   * (a field name, an id as {@code neardup send} takes it), else false.
   */
  protected final boolean skipPlainString() {
    while (pos < end) {
      int c = unit(pos++);
      if (c == '"') {
        return true;
      }
      if (c == '\\' || c < 0x20) {
        return false;
      }
    }
    return false;
  }

  /**
   * At a backslash in a string: past its escape, returning the char it stands for; -1 for an escape
   * JSON does not have, and for a {@code \\u} without four ASCII hex digits (which the readers
   * leave to Jackson's reading).
   */
  protected final int escape() {
    pos++;
    if (pos >= end) {
      return -1;
    }
    int e = unit(pos++);
    switch (e) {
      case '"', '\\', '/' -> {
        return e;
      }
      case 'b' -> {
        return '\b';
      }
      case 'f' -> {
        return '\f';
      }
      case 'n' -> {
        return '\n';
      }
      case 'r' -> {
        return '\r';
      }
      case 't' -> {
        return '\t';
      }
      case 'u' -> {
        if (pos + 4 > end) {
          return -1;
        }
        int v = 0;
        for (int d = 0; d < 4; d++) {
          int digit = hex(unit(pos++));
          if (digit < 0) {
            return -1;
          }
          v = v << 4 | digit;
        }
        return v;
      }
      default -> {
        return -1;
      }
    }
  }

  private static int hex(int c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
      return c - 'A' + 10;
    }
    return -1;
  }

  /** The unit at {@code pos}, or 0 at the end of the line (0 never starts anything here). */
  protected final int peek() {
    return pos < end ? unit(pos) : 0;
  }

  /** Steps over {@code c} if it is next. */
  protected final boolean take(char c) {
    if (pos < end && unit(pos) == c) {
      pos++;
      return true;
    }
    return false;
  }

  /** JSON whitespace: space, tab, line feed, carriage return. */
  protected final void skipSpace() {
    while (pos < end) {
      int c = unit(pos);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      pos++;
    }
  }
}
