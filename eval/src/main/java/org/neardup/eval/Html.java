// SPDX-License-Identifier: Apache-2.0
package org.neardup.eval;

/** HTML text escaping. */
final class Html {
  private Html() {}

  /** Escapes {@code & < > " '} and drops control characters HTML does not allow. */
  static String escape(CharSequence s) {
    StringBuilder out = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> {
          if (c < 0x20 && c != '\n' && c != '\t' && c != '\r' || c == 0x7F) {
            out.append('\uFFFD');
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.toString();
  }
}
