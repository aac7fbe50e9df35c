// SPDX-License-Identifier: Apache-2.0
package org.neardup.eval;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A word-level diff of two texts, for showing what differs between two near-duplicates: words (runs
 * of letters and digits), runs of whitespace and single punctuation marks are tokens, and every
 * Chinese, Japanese or Korean character is a token of its own (character-level diff for unspaced
 * scripts). The diff is a shortest edit script (Myers 1986, linear space), so what is marked is as
 * little as possible.
 *
 * <p>Stateless. Cost: O((N + M) D) time and O(N + M) space for N and M tokens and D differing
 * tokens.
 */
public final class WordDiff {
  /*
   * Myers, E. W. An O(ND) Difference Algorithm and Its Variations. Algorithmica 1 (1986), 251-266;
   * section 4b: find the middle snake of an optimal path from both ends, recurse on either side.
   * Invariant: keepA[i] and keepB[j] mark the tokens of one longest common subsequence, pairing
   * the t-th marked token of a with the t-th marked token of b.
   */

  /** What a span of tokens is. */
  public enum Op {
    /** In both texts. */
    SAME,
    /** Only in the first text. */
    DELETED,
    /** Only in the second text. */
    INSERTED
  }

  /**
   * Consecutive tokens with the same {@link Op}: {@code a} is their text in the first text, {@code
   * b} in the second ({@code a} and {@code b} differ only in whitespace for {@link Op#SAME}; one of
   * them is empty otherwise); {@code tokens} is how many tokens.
   */
  public record Span(Op op, String a, String b, int tokens) {
    /** The span's text: {@code b} for an insertion, else {@code a}. */
    public String text() {
      return op == Op.INSERTED ? b : a;
    }
  }

  private WordDiff() {}

  /** Splits a text into diff tokens; concatenated, they give the text back. */
  public static List<String> tokens(String text) {
    List<String> out = new ArrayList<>();
    int n = text.length();
    int i = 0;
    while (i < n) {
      int cp = text.codePointAt(i);
      int end = i + Character.charCount(cp);
      if (Character.isWhitespace(cp) || Character.isSpaceChar(cp)) {
        while (end < n) {
          int c = text.codePointAt(end);
          if (!Character.isWhitespace(c) && !Character.isSpaceChar(c)) {
            break;
          }
          end += Character.charCount(c);
        }
      } else if (isWordChar(cp) && !isUnspaced(cp)) {
        while (end < n) {
          int c = text.codePointAt(end);
          if (!(isWordChar(c) || isMark(c)) || isUnspaced(c)) {
            break;
          }
          end += Character.charCount(c);
        }
      }
      out.add(text.substring(i, end));
      i = end;
    }
    return out;
  }

  private static boolean isWordChar(int cp) {
    return Character.isLetterOrDigit(cp);
  }

  private static boolean isMark(int cp) {
    int t = Character.getType(cp);
    return t == Character.NON_SPACING_MARK
        || t == Character.COMBINING_SPACING_MARK
        || t == Character.ENCLOSING_MARK;
  }

  /** Scripts written without spaces between words: one token per character. */
  static boolean isUnspaced(int cp) {
    Character.UnicodeScript s = Character.UnicodeScript.of(cp);
    return s == Character.UnicodeScript.HAN
        || s == Character.UnicodeScript.HIRAGANA
        || s == Character.UnicodeScript.KATAKANA
        || s == Character.UnicodeScript.HANGUL
        || s == Character.UnicodeScript.THAI;
  }

  /**
   * The diff of two texts as spans in reading order: {@link Op#SAME} spans are in both, {@link
   * Op#DELETED} only in {@code a}, {@link Op#INSERTED} only in {@code b}. Runs of whitespace match
   * any other run of whitespace: neither neardup nor a reader cares how words are spaced. The
   * spans' {@code a} sides concatenate to {@code a}; their {@code b} sides to {@code b}.
   */
  public static List<Span> diff(String a, String b) {
    List<String> ta = tokens(a);
    List<String> tb = tokens(b);
    Map<String, Integer> ids = new HashMap<>();
    int[] x = intern(ta, ids);
    int[] y = intern(tb, ids);
    boolean[] keepA = new boolean[x.length];
    boolean[] keepB = new boolean[y.length];
    lcs(x, 0, x.length, y, 0, y.length, keepA, keepB);
    List<Span> out = new ArrayList<>();
    StringBuilder runA = new StringBuilder();
    StringBuilder runB = new StringBuilder();
    Op op = null;
    int count = 0;
    int i = 0;
    int j = 0;
    while (i < x.length || j < y.length) {
      Op next;
      if (i < x.length && !keepA[i]) {
        next = Op.DELETED;
      } else if (j < y.length && !keepB[j]) {
        next = Op.INSERTED;
      } else {
        next = Op.SAME;
      }
      if (next != op && op != null) {
        out.add(new Span(op, runA.toString(), runB.toString(), count));
        runA.setLength(0);
        runB.setLength(0);
        count = 0;
      }
      op = next;
      if (next != Op.INSERTED) {
        runA.append(ta.get(i++));
      }
      if (next != Op.DELETED) {
        runB.append(tb.get(j++));
      }
      count++;
    }
    if (op != null) {
      out.add(new Span(op, runA.toString(), runB.toString(), count));
    }
    return out;
  }

  /** Token ids; every run of whitespace gets the same id. */
  private static int[] intern(List<String> tokens, Map<String, Integer> ids) {
    int[] out = new int[tokens.size()];
    for (int i = 0; i < out.length; i++) {
      String t = tokens.get(i);
      out[i] = ids.computeIfAbsent(isSpace(t) ? " " : t, k -> ids.size());
    }
    return out;
  }

  /** Whether a token is a run of whitespace. */
  static boolean isSpace(String token) {
    int cp = token.codePointAt(0);
    return Character.isWhitespace(cp) || Character.isSpaceChar(cp);
  }

  /** Marks one longest common subsequence of a[aLo, aHi) and b[bLo, bHi). */
  static void lcs(
      int[] a, int aLo, int aHi, int[] b, int bLo, int bHi, boolean[] keepA, boolean[] keepB) {
    while (aLo < aHi && bLo < bHi && a[aLo] == b[bLo]) {
      keepA[aLo++] = true;
      keepB[bLo++] = true;
    }
    while (aLo < aHi && bLo < bHi && a[aHi - 1] == b[bHi - 1]) {
      keepA[--aHi] = true;
      keepB[--bHi] = true;
    }
    if (aLo == aHi || bLo == bHi) {
      return;
    }
    int[] s = middleSnake(a, aLo, aHi, b, bLo, bHi);
    boolean progress =
        !(s[0] == aLo && s[1] == bLo && s[2] == aLo && s[3] == bLo)
            && !(s[0] == aHi && s[1] == bHi);
    assert progress : "middle snake at an end of the range";
    if (!progress) {
      return; // cannot happen after trimming (D >= 2); never recurse forever
    }
    lcs(a, aLo, s[0], b, bLo, s[1], keepA, keepB);
    for (int i = s[0], j = s[1]; i < s[2]; i++, j++) {
      keepA[i] = true;
      keepB[j] = true;
    }
    lcs(a, s[2], aHi, b, s[3], bHi, keepA, keepB);
  }

  /**
   * The middle snake of an optimal edit path: {x0, y0, x1, y1}, absolute positions where a[x0, x1)
   * equals b[y0, y1) diagonally.
   */
  private static int[] middleSnake(int[] a, int aLo, int aHi, int[] b, int bLo, int bHi) {
    int n = aHi - aLo;
    int m = bHi - bLo;
    int delta = n - m;
    boolean odd = (delta & 1) != 0;
    int max = (n + m + 1) / 2;
    int off = max + 1;
    int[] vf = new int[2 * max + 3];
    int[] vb = new int[2 * max + 3];
    for (int d = 0; d <= max; d++) {
      for (int k = -d; k <= d; k += 2) {
        int x =
            k == -d || (k != d && vf[off + k - 1] < vf[off + k + 1])
                ? vf[off + k + 1]
                : vf[off + k - 1] + 1;
        int y = x - k;
        int x0 = x;
        int y0 = y;
        while (x < n && y < m && a[aLo + x] == b[bLo + y]) {
          x++;
          y++;
        }
        vf[off + k] = x;
        int kb = delta - k;
        if (odd && kb >= -(d - 1) && kb <= d - 1 && x + vb[off + kb] >= n) {
          return new int[] {aLo + x0, bLo + y0, aLo + x, bLo + y};
        }
      }
      for (int k = -d; k <= d; k += 2) {
        int x =
            k == -d || (k != d && vb[off + k - 1] < vb[off + k + 1])
                ? vb[off + k + 1]
                : vb[off + k - 1] + 1;
        int y = x - k;
        int x0 = x;
        int y0 = y;
        while (x < n && y < m && a[aHi - 1 - x] == b[bHi - 1 - y]) {
          x++;
          y++;
        }
        vb[off + k] = x;
        int kf = delta - k;
        if (!odd && kf >= -d && kf <= d && vf[off + kf] + x >= n) {
          return new int[] {aHi - x, bHi - y, aHi - x0, bHi - y0};
        }
      }
    }
    throw new IllegalStateException("no middle snake: n=" + n + " m=" + m);
  }
}
