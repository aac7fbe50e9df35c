// SPDX-License-Identifier: Apache-2.0
package org.neardup.text;

import java.text.Normalizer;
import java.util.BitSet;
import org.jspecify.annotations.Nullable;

/**
 * Unicode normalisation for matching: NFKC (which also maps full-width forms to half-width and the
 * ideographic space to a space), then simple lower-casing of each code point ({@link
 * Character#toLowerCase(int)}), and lone surrogates replaced by U+FFFD.
 *
 * <p>This is part of the fingerprint format. Stateless and thread-safe.
 *
 * <p>Cost: one table lookup per char for text made of characters that NFKC leaves as single,
 * non-combining characters (all of Chinese and English text, full-width forms included). A text
 * that holds a combining mark, a Hangul jamo or a character NFKC expands to several characters
 * takes {@link java.text.Normalizer} for the whole text, which is several times slower.
 */
public final class TextNormalizer {
  /*
   * FOLD[c] = lower(NFKC(c)) when that is one char and c can neither compose with its neighbours
   * nor expand; UNSAFE otherwise. For a text of safe chars, NFKC of the text equals the
   * concatenation of NFKC of each char, because canonical composition only joins a starter with a
   * following combining mark or Hangul jamo, and those are never safe.
   */
  private static final char UNSAFE = '\uFFFF';

  /*
   * FOLD is filled a block of 256 chars at a time, the first time normalize meets a char of the
   * block: until then the block's entries read UNSAFE, and the slow branch fills the block and
   * looks again. Building all 65,536 entries at class load took ~25 ms of CPU (interpreted, one
   * NFKC of 128K chars) at every start, while a text touches a few dozen blocks (the CJK
   * ideographs are 82). Races are harmless: every thread computes the same values; a char write
   * is atomic; an entry read as UNSAFE only sends a text to the slow path, whose output the table
   * agrees with; a thread that does not see FOLD_READY set fills the block again.
   */
  private static final int BLOCK_BITS = 8;
  private static final char[] FOLD = new char[65536];
  private static final boolean[] FOLD_READY = new boolean[65536 >>> BLOCK_BITS];

  /**
   * Supplementary code points of planes 1-2 that are safe in the same sense; built on first use.
   */
  private static volatile BitSet safeSupplementary;

  static {
    java.util.Arrays.fill(FOLD, UNSAFE);
  }

  private TextNormalizer() {}

  /** Fills {@code fold} for every char: what {@link #normalize} fills block by block. */
  static void buildFold(char[] fold) {
    for (int block = 0; block < FOLD_READY.length; block++) {
      fillFold(fold, block);
    }
  }

  /**
   * Fills {@code fold[block * 256, block * 256 + 256)}.
   *
   * <p>The block in one Normalizer call instead of one per char (65,536 calls took ~0.2 s of a
   * process's start, and C2 compiled the JDK's normaliser for them): every candidate char followed
   * by U+0000, normalised as one string. That gives each char's own NFKC between the separators:
   * decomposition is per char; U+0000 is a starter, so no reordering crosses it; nothing composes
   * with it on either side (no canonical composite starts or ends with U+0000, and no char's NFKC
   * contains it). Chars that compose with a neighbour are not candidates (isComposing), as in
   * computeFold. TextNormalizerTest checks the table against computeFold for every char.
   */
  private static void fillFold(char[] fold, int block) {
    int first = block << BLOCK_BITS;
    int last = first + (1 << BLOCK_BITS);
    char[] values = new char[1 << BLOCK_BITS];
    StringBuilder all = new StringBuilder(2 << BLOCK_BITS);
    for (int c = first; c < last; c++) {
      char ch = (char) c;
      if (Character.isSurrogate(ch) || ch == UNSAFE || ch == 0 || isComposing(ch)) {
        values[c - first] = UNSAFE;
      } else {
        values[c - first] = 0; // a candidate, decided below
        all.append(ch).append('\u0000');
      }
    }
    if (first == 0) {
      values[0] = computeFold('\u0000');
    }
    String n = Normalizer.normalize(all, Normalizer.Form.NFKC);
    int at = 0;
    for (int c = Math.max(1, first); c < last; c++) {
      if (values[c - first] == UNSAFE) {
        continue;
      }
      int end = n.indexOf('\u0000', at);
      if (end < 0) {
        throw new IllegalStateException("NFKC lost a separator at U+" + Integer.toHexString(c));
      }
      char m = n.charAt(at);
      values[c - first] = end - at != 1 || isComposing(m) ? UNSAFE : Character.toLowerCase(m);
      at = end + 1;
    }
    if (at != n.length()) {
      throw new IllegalStateException("NFKC left " + (n.length() - at) + " chars unread");
    }
    System.arraycopy(values, 0, fold, first, values.length);
  }

  /**
   * Whether FOLD's entry for {@code c} is its final value; if not, fills c's block first and
   * returns false, so the caller reads the entry again.
   */
  private static boolean foldFilled(char c) {
    int block = c >>> BLOCK_BITS;
    if (FOLD_READY[block]) {
      return true;
    }
    fillFold(FOLD, block);
    FOLD_READY[block] = true;
    return false;
  }

  /** FOLD's entry for one char, computed alone: what {@link #buildFold} must agree with. */
  static char computeFold(char c) {
    if (Character.isSurrogate(c) || c == UNSAFE || isComposing(c)) {
      return UNSAFE;
    }
    String n = Normalizer.normalize(String.valueOf(c), Normalizer.Form.NFKC);
    if (n.length() != 1) {
      return UNSAFE;
    }
    char m = n.charAt(0);
    if (isComposing(m)) {
      return UNSAFE;
    }
    return Character.toLowerCase(m);
  }

  private static boolean isComposing(int cp) {
    int type = Character.getType(cp);
    return type == Character.NON_SPACING_MARK
        || type == Character.COMBINING_SPACING_MARK
        || type == Character.ENCLOSING_MARK
        || (cp >= 0x1100 && cp <= 0x11FF)
        || (cp >= 0x3130 && cp <= 0x318F)
        || (cp >= 0xA960 && cp <= 0xA97F)
        || (cp >= 0xD7B0 && cp <= 0xD7FF)
        || (cp >= 0xFFA0 && cp <= 0xFFDC);
  }

  /** Returns the normalised form of {@code text} as a new string. */
  public static String normalize(CharSequence text) {
    TextBuffer out = new TextBuffer(text.length());
    normalize(text, 0, text.length(), out);
    return out.toString();
  }

  /** Appends the normalised form of {@code text[start, end)} to {@code out}. */
  public static void normalize(CharSequence text, int start, int end, TextBuffer out) {
    if (text instanceof TextBuffer) {
      normalize(((TextBuffer) text).chars, start, end, out);
    } else {
      char[] chars = new char[end - start];
      text.toString().getChars(start, end, chars, 0);
      normalize(chars, 0, chars.length, out);
    }
  }

  /**
   * Appends the normalised form of {@code text[start, end)} to {@code out}.
   *
   * <p>The hot path's form: on a CharSequence that was a String for plain texts and a TextBuffer
   * for pages, C2 compiled the loop five times in one process after profile_predicate traps on the
   * second type (docs/BENCHMARKS.md, the eleventh session).
   */
  public static void normalize(char[] text, int start, int end, TextBuffer out) {
    normalize(text, start, end, out, null);
  }

  /**
   * Appends the normalised form of {@code text[start, end)} to {@code out} with {@link HanFolder}'s
   * folding applied to it: what {@link #normalize(char[], int, int, TextBuffer)} and then {@link
   * HanFolder#fold(TextBuffer, int)} from the same mark give, in one pass over the text instead of
   * two (the fold's own pass was 2.4% of dedup's workers' JFR samples at 1M realistic documents).
   */
  public static void normalizeFolded(char[] text, int start, int end, TextBuffer out) {
    normalize(text, start, end, out, HanFolder.bmp());
  }

  /*
   * The fast path writes no surrogate but the pairs it writes whole (FOLD never maps to one; a lone
   * surrogate becomes U+FFFD), so folding each char it writes, or each pair's code point, is what
   * the fold's own pass over the output would do: that pass reads a code point at a time.
   */
  private static void normalize(
      char[] text, int start, int end, TextBuffer out, char @Nullable [] fold) {
    int mark = out.length;
    out.ensureSpare(end - start);
    char[] dst = out.chars;
    int n = mark;
    for (int i = start; i < end; i++) {
      char c = text[i];
      char f = FOLD[c];
      if (f != UNSAFE) {
        dst[n++] = fold == null ? f : fold[f];
      } else if (Character.isHighSurrogate(c)
          && i + 1 < end
          && Character.isLowSurrogate(text[i + 1])) {
        int cp = Character.toCodePoint(c, text[i + 1]);
        if (!isSafeSupplementary(cp)) {
          out.length = mark;
          slow(text, start, end, out);
          if (fold != null) {
            HanFolder.fold(out, mark);
          }
          return;
        }
        int lower = Character.toLowerCase(cp);
        if (fold != null) {
          lower = HanFolder.fold(lower);
        }
        if (lower < 0x10000) {
          dst[n++] = (char) lower; // a class with a BMP member folds to it
        } else {
          dst[n++] = Character.highSurrogate(lower);
          dst[n++] = Character.lowSurrogate(lower);
        }
        i++;
      } else if (Character.isSurrogate(c)) {
        dst[n++] = fold == null ? '\uFFFD' : fold['\uFFFD'];
      } else if (!foldFilled(c)) {
        i--; // c's block was just filled: read its entry again
      } else {
        out.length = mark;
        slow(text, start, end, out);
        if (fold != null) {
          HanFolder.fold(out, mark);
        }
        return;
      }
    }
    out.length = n;
  }

  private static void slow(char[] text, int start, int end, TextBuffer out) {
    StringBuilder clean = new StringBuilder(end - start);
    for (int i = start; i < end; i++) {
      char c = text[i];
      if (Character.isHighSurrogate(c) && i + 1 < end && Character.isLowSurrogate(text[i + 1])) {
        clean.append(c).append(text[++i]);
      } else {
        clean.append(Character.isSurrogate(c) ? '\uFFFD' : c);
      }
    }
    String n = Normalizer.normalize(clean, Normalizer.Form.NFKC);
    out.ensureSpare(n.length() * 2);
    for (int i = 0; i < n.length(); ) {
      int cp = n.codePointAt(i);
      i += Character.charCount(cp);
      int lower = Character.toLowerCase(cp);
      if (lower < 0x10000) {
        out.chars[out.length++] = (char) lower;
      } else {
        out.chars[out.length++] = Character.highSurrogate(lower);
        out.chars[out.length++] = Character.lowSurrogate(lower);
      }
    }
  }

  private static boolean isSafeSupplementary(int cp) {
    if (cp >= 0x30000) {
      return false;
    }
    BitSet safe = safeSupplementary;
    if (safe == null) {
      safe = buildSafeSupplementary();
      safeSupplementary = safe;
    }
    return safe.get(cp - 0x10000);
  }

  /** The safe supplementary code points, from one normalisation of all (as {@link #buildFold}). */
  static BitSet buildSafeSupplementary() {
    StringBuilder all = new StringBuilder(3 * 0x20000);
    for (int cp = 0x10000; cp < 0x30000; cp++) {
      if (Character.isDefined(cp) && !isComposing(cp)) {
        all.appendCodePoint(cp).append('\u0000');
      }
    }
    String n = Normalizer.normalize(all, Normalizer.Form.NFKC);
    BitSet safe = new BitSet(0x20000);
    int at = 0;
    for (int cp = 0x10000; cp < 0x30000; cp++) {
      if (!Character.isDefined(cp) || isComposing(cp)) {
        continue;
      }
      int end = n.indexOf('\u0000', at);
      if (end < 0) {
        throw new IllegalStateException("NFKC lost a separator at U+" + Integer.toHexString(cp));
      }
      if (end - at == 2 && n.codePointAt(at) == cp && Character.toLowerCase(cp) >= 0x10000) {
        safe.set(cp - 0x10000);
      }
      at = end + 1;
    }
    return safe;
  }

  /** {@link #buildSafeSupplementary} one code point at a time: what it must agree with. */
  static BitSet buildSafeSupplementaryOneByOne() {
    BitSet safe = new BitSet(0x20000);
    for (int cp = 0x10000; cp < 0x30000; cp++) {
      if (!Character.isDefined(cp) || isComposing(cp)) {
        continue;
      }
      String s = new String(Character.toChars(cp));
      if (Normalizer.normalize(s, Normalizer.Form.NFKC).equals(s)) {
        int lower = Character.toLowerCase(cp);
        if (lower >= 0x10000) {
          safe.set(cp - 0x10000);
        }
      }
    }
    return safe;
  }
}
