// SPDX-License-Identifier: Apache-2.0
package org.neardup.text;

/**
 * The classes of code points that tokenisation and shingling see, after normalisation: {@link #HAN}
 * (Chinese characters), {@link #WORD} (every other letter, digit, letter number or combining mark)
 * and {@link #SEPARATOR} (everything else). One table lookup for BMP characters.
 */
public final class CharClass {
  public static final byte SEPARATOR = 0;
  public static final byte HAN = 1;
  public static final byte WORD = 2;
  private static final byte[] CLASS = new byte[65536];

  static {
    for (int c = 0; c < 65536; c++) {
      CLASS[c] = Character.isSurrogate((char) c) ? SEPARATOR : compute(c);
    }
  }

  private CharClass() {}

  /** The class of a code point. */
  public static byte classify(int cp) {
    return cp < 65536 ? CLASS[cp] : compute(cp);
  }

  private static byte compute(int cp) {
    int type = Character.getType(cp);
    boolean letterLike =
        Character.isLetterOrDigit(cp)
            || type == Character.LETTER_NUMBER
            || type == Character.NON_SPACING_MARK
            || type == Character.COMBINING_SPACING_MARK;
    if (!letterLike) {
      return SEPARATOR;
    }
    return Character.UnicodeScript.of(cp) == Character.UnicodeScript.HAN ? HAN : WORD;
  }

  /** The class of the code point starting at {@code text[i]} (a lone surrogate separates). */
  public static byte at(char[] text, int i, int end) {
    char c = text[i];
    if (!Character.isHighSurrogate(c)) {
      return CLASS[c];
    }
    if (i + 1 < end && Character.isLowSurrogate(text[i + 1])) {
      return classify(Character.toCodePoint(c, text[i + 1]));
    }
    return SEPARATOR;
  }

  /** The number of chars of the code point starting at {@code text[i]}: 1 or 2. */
  public static int width(char[] text, int i, int end) {
    return Character.isHighSurrogate(text[i])
            && i + 1 < end
            && Character.isLowSurrogate(text[i + 1])
        ? 2
        : 1;
  }
}
