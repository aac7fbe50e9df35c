// SPDX-License-Identifier: Apache-2.0
package org.neardup.text;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Folds traditional Chinese characters (and their Taiwan and Hong Kong variant forms) to simplified
 * ones, character by character, with OpenCC's tables ({@code han-fold.txt}, derived from Debian's
 * libopencc-data by {@code core/data/update-han-fold.sh}; licence in {@code OPENCC-NOTICE.txt}), so
 * that a text and its conversion by {@code opencc -c s2t.json} (or s2tw, s2hk) fold to the same
 * characters.
 *
 * <p>Stateless and thread-safe. Cost: one array read per char (a 128 KB table); a binary search
 * only for surrogate pairs. Folding never makes a text longer.
 */
public final class HanFolder {
  /*
   * 4,115 characters fold (2,967 of them BMP to BMP): each traditional character to OpenCC's first
   * t2s candidate, each TW/HK variant to what its standard form folds to (unless the variant is
   * itself simplified, like 么), chains followed, so fold(fold(x)) = fold(x). A class whose
   * simplified form is a surrogate pair and has a BMP member folds to that member instead, so the
   * folded text is never longer and folding works in place.
   *
   * Only characters, not phrases: OpenCC's t2s adds TSPhrases (277 phrases) to choose among
   * one-to-many characters. Folding needs one form per class, not the correct simplified text, so
   * any consistent choice does; measured on the dev set's zh documents converted with opencc s2t,
   * s2tw and s2hk and folded back, see docs/BENCHMARKS.md.
   *
   * Invariants: BMP[c] == c for every char that does not fold, including every surrogate;
   * SUPPLEMENTARY_FROM is sorted; no entry maps a BMP char to a supplementary one.
   */
  static final String TABLE = "han-fold.txt";

  private static final char[] BMP = new char[65536];
  private static final int[] SUPPLEMENTARY_FROM;
  private static final int[] SUPPLEMENTARY_TO;
  private static final int SIZE;

  static {
    for (int c = 0; c < BMP.length; c++) {
      BMP[c] = (char) c;
    }
    int[] from = new int[2048];
    int[] to = new int[2048];
    int n = 0;
    int size = 0;
    // The whole file decoded at once and split here: a BufferedReader over an InputStreamReader
    // decoded it char by char in the interpreter, ~20 ms of CPU at every start (docs/BENCHMARKS.md,
    // the fifteenth session).
    String all;
    try (InputStream raw = HanFolder.class.getResourceAsStream(TABLE)) {
      if (raw == null) {
        throw new IOException(
            "resource org/neardup/text/" + TABLE + " is missing; the jar is broken");
      }
      all = new String(raw.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    for (int start = 0; start < all.length(); ) {
      int newline = all.indexOf('\n', start);
      int next = newline < 0 ? all.length() : newline + 1;
      int end = newline < 0 ? all.length() : newline;
      if (end > start && all.charAt(end - 1) == '\r') {
        end--; // a line as BufferedReader.readLine ends it
      }
      String line = all.substring(start, end);
      start = next;
      int tab = line.indexOf('\t');
      int a = line.codePointAt(0);
      int b = line.codePointAt(tab + 1);
      if (tab != Character.charCount(a) || tab + 1 + Character.charCount(b) != line.length()) {
        throw new IllegalStateException(TABLE + ": malformed line '" + line + "'");
      }
      if (a < 0x10000) {
        if (b >= 0x10000) {
          throw new IllegalStateException(TABLE + ": a BMP char would grow: '" + line + "'");
        }
        BMP[a] = (char) b;
      } else {
        if (n == from.length) {
          from = Arrays.copyOf(from, n * 2);
          to = Arrays.copyOf(to, n * 2);
        }
        from[n] = a;
        to[n] = b;
        n++;
      }
      size++;
    }
    for (int i = 1; i < n; i++) {
      if (from[i - 1] >= from[i]) {
        throw new IllegalStateException(TABLE + ": not sorted at line " + i);
      }
    }
    SUPPLEMENTARY_FROM = Arrays.copyOf(from, n);
    SUPPLEMENTARY_TO = Arrays.copyOf(to, n);
    SIZE = size;
  }

  private HanFolder() {}

  /** The number of characters that fold to another. */
  public static int size() {
    return SIZE;
  }

  /** The fold of every BMP char, indexed by it; read only: shared, never copied. */
  static char[] bmp() {
    return BMP;
  }

  /** The folded form of one code point. */
  public static int fold(int cp) {
    if (cp < 0x10000) {
      return BMP[cp];
    }
    int i = Arrays.binarySearch(SUPPLEMENTARY_FROM, cp);
    return i >= 0 ? SUPPLEMENTARY_TO[i] : cp;
  }

  /** The folded form of a text. */
  public static String fold(String text) {
    TextBuffer b = new TextBuffer(text.length());
    b.append(text, 0, text.length());
    fold(b, 0);
    return b.toString();
  }

  /** Folds {@code buffer[from, length())} in place; the buffer may get shorter. */
  public static void fold(TextBuffer buffer, int from) {
    char[] c = buffer.chars;
    int end = buffer.length;
    char[] table = BMP;
    int w = from;
    for (int r = from; r < end; r++) {
      char ch = c[r];
      if (!Character.isHighSurrogate(ch) || r + 1 == end || !Character.isLowSurrogate(c[r + 1])) {
        c[w++] = table[ch];
        continue;
      }
      int folded = fold(Character.toCodePoint(ch, c[r + 1]));
      r++;
      if (folded < 0x10000) {
        c[w++] = (char) folded;
      } else {
        c[w++] = Character.highSurrogate(folded);
        c[w++] = Character.lowSurrogate(folded);
      }
    }
    buffer.length = w;
  }
}
