// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Strict UTF-8 (RFC 3629) and well-formed UTF-16 checks for what clients send. Jackson's parser
 * lets some invalid UTF-8 through (overlong forms such as {@code C0 AF} decode to '/', encoded
 * surrogates, code points above U+10FFFF) and accepts lone surrogate escapes ({@code "\ud800"})
 * whose UTF-8 form is '?'; stored, such an id names another document or none. So bodies are checked
 * here before they are parsed, and ids after. Public for {@code neardup send}, which checks a
 * record's bytes with {@link #problem} before it sends them as they are.
 */
public final class Utf8 {
  private Utf8() {}

  /**
   * The first problem of {@code b[from, to)} as strict UTF-8, e.g. {@code "byte 0xc0 at offset 7
   * starts an overlong encoding"}, or null when it is valid.
   */
  public static @Nullable String problem(byte[] b, int from, int to) {
    int i = from;
    while (i < to) {
      // Eight ASCII bytes at a time (JSON's syntax, ids, Latin text), then the three-byte form of
      // U+1000..U+CFFF and U+E000..U+FFFF (Chinese) in one test: every body is checked before it
      // is parsed, and byte by byte this was ~3% of a warm server's CPU per short text. Anything
      // else takes the general path below, which also says what is wrong.
      if (to - i >= 8 && ((long) LONG_LE.get(b, i) & 0x8080_8080_8080_8080L) == 0) {
        i += 8;
        continue;
      }
      int c = b[i];
      if (c >= 0) {
        i++;
        continue;
      }
      c &= 0xFF;
      if (c >= 0xE1
          && c <= 0xEF
          && c != 0xED
          && to - i >= 3
          && (b[i + 1] & 0xC0) == 0x80
          && (b[i + 2] & 0xC0) == 0x80) {
        i += 3;
        continue;
      }
      int n; // continuation bytes
      int lo = 0x80; // the range of the second byte
      int hi = 0xBF;
      if (c < 0xC2) {
        return at(
            b,
            i,
            c < 0xC0 ? "is a continuation byte with no lead byte" : "starts an overlong form");
      } else if (c < 0xE0) {
        n = 1;
      } else if (c < 0xF0) {
        n = 2;
        if (c == 0xE0) {
          lo = 0xA0; // E0 80..9F would be overlong
        } else if (c == 0xED) {
          hi = 0x9F; // ED A0..BF would be a surrogate, U+D800..DFFF
        }
      } else if (c < 0xF5) {
        n = 3;
        if (c == 0xF0) {
          lo = 0x90; // F0 80..8F would be overlong
        } else if (c == 0xF4) {
          hi = 0x8F; // F4 90.. would be above U+10FFFF
        }
      } else {
        return at(b, i, "cannot start a character (above U+10FFFF)");
      }
      if (i + n >= to) {
        return at(b, i, "starts a character cut off by the end of the data");
      }
      int second = b[i + 1] & 0xFF;
      if (second < lo || second > hi) {
        String why =
            second < 0x80 || second > 0xBF
                ? "is not followed by a continuation byte"
                : c == 0xED
                    ? "starts an encoded surrogate (U+D800..U+DFFF are not characters)"
                    : c == 0xF4 ? "starts a code point above U+10FFFF" : "starts an overlong form";
        return at(b, i, why);
      }
      for (int k = 2; k <= n; k++) {
        int cb = b[i + k] & 0xFF;
        if (cb < 0x80 || cb > 0xBF) {
          return at(b, i, "is not followed by a continuation byte");
        }
      }
      i += n + 1;
    }
    return null;
  }

  /**
   * The length in bytes of the character of two to four bytes that starts at {@code b[i]}, when
   * {@code b[i, to)} starts with one in strict UTF-8, else -1 (as {@link #problem} would report a
   * problem there; an ASCII byte is not such a character). For readers that walk the bytes anyway
   * and check each character as they pass it instead of in a pass of their own ({@code neardup
   * send}'s record reader); {@code Utf8Test} holds it to {@link #problem} over every sequence.
   */
  public static int sequence(byte[] b, int i, int to) {
    int lead = b[i] & 0xFF;
    if (lead < 0x80) {
      return -1;
    }
    // The length the lead byte claims; problem() then holds the bytes to strict UTF-8, so the two
    // share one set of rules (a wrong lead, a cut-off or a bad following byte: -1 here).
    int n = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
    return problem(b, i, Math.min(to, i + n)) == null ? n : -1;
  }

  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private static String at(byte[] b, int i, String why) {
    return String.format(Locale.ROOT, "byte 0x%02x at offset %d %s", b[i] & 0xFF, i, why);
  }

  /**
   * The first unpaired surrogate of {@code s} as a message, e.g. {@code "a lone surrogate \ud800 at
   * character 3"}, or null when {@code s} is well-formed UTF-16 (every string that came from valid
   * UTF-8 is).
   */
  static @Nullable String loneSurrogate(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)) {
        if (i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
          i++;
          continue;
        }
      } else if (!Character.isLowSurrogate(c)) {
        continue;
      }
      return String.format(Locale.ROOT, "a lone surrogate \\u%04x at character %d", (int) c, i);
    }
    return null;
  }
}
