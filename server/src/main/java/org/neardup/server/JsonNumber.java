// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

/**
 * JSON's number grammar (RFC 8259, section 6) for the flat readers ({@link FlatObjectScanner}'s
 * subclasses, over chars or bytes), which hand their units over through {@link Units}, so the
 * grammar is written once and none copies its input.
 */
public final class JsonNumber {
  private JsonNumber() {}

  /** A line's units by index: chars, or bytes as unsigned values (no digit or sign above 0x7F). */
  public interface Units {
    int unit(int index);
  }

  /**
   * The index after the number that starts at {@code from}: an optional minus, an integer part, an
   * optional fraction and an optional exponent; -1 when no number starts there.
   */
  public static int end(Units line, int from, int end) {
    int at = from < end && line.unit(from) == '-' ? from + 1 : from;
    at = integerEnd(line, at, end);
    if (at < 0) {
      return -1;
    }
    if (at < end && line.unit(at) == '.') {
      at = digitsEnd(line, at + 1, end);
      if (at < 0) {
        return -1;
      }
    }
    if (at < end && (line.unit(at) == 'e' || line.unit(at) == 'E')) {
      at++;
      if (at < end && (line.unit(at) == '+' || line.unit(at) == '-')) {
        at++;
      }
      return digitsEnd(line, at, end);
    }
    return at;
  }

  /**
   * The index after the integer part at {@code from}: 0, or a non-zero digit and more digits (JSON
   * has no leading zeros); -1 when there is none.
   */
  public static int integerEnd(Units line, int from, int end) {
    if (from < end && line.unit(from) == '0') {
      return from + 1 < end && isDigit(line.unit(from + 1)) ? -1 : from + 1;
    }
    return digitsEnd(line, from, end);
  }

  /** The index after one or more digits at {@code from}, or -1 when there is no digit there. */
  private static int digitsEnd(Units line, int from, int end) {
    int at = from;
    while (at < end && isDigit(line.unit(at))) {
      at++;
    }
    return at > from ? at : -1;
  }

  private static boolean isDigit(int c) {
    return c >= '0' && c <= '9';
  }
}
