// SPDX-License-Identifier: Apache-2.0
package org.neardup.text;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The visible text of an HTML page, for texts that look like HTML.
 *
 * <p>{@link #looksLikeHtml} says a text is HTML when it has {@code <!DOCTYPE html} or one of the
 * tags html, body, p, div, br, article, span, h1-h6. {@link #extract} then drops comments, the
 * {@code head}, {@code script}, {@code style}, {@code template} and {@code noscript} elements and
 * every tag, puts a line break where a block-level tag was (so words from two paragraphs never
 * fuse, and the lines of a page stay lines), and decodes character references (all HTML5 named
 * references, decimal and hexadecimal ones). In {@link Mode#MAIN} it also drops navigation,
 * headers, footers, asides, forms and buttons, and when the page has an {@code article} or {@code
 * main} element keeps only what is inside them.
 *
 * <p>A streaming scanner, not a DOM: one pass over a char array, no allocation per tag; malformed
 * markup degrades to "text between tags". jsoup is the reference it is tested against. Stateless
 * and thread-safe.
 */
public final class HtmlText {

  /** What to keep of a page. */
  public enum Mode {
    /** Everything a browser would show. */
    VISIBLE,
    /** The page's main content: without navigation, header, footer and asides. */
    MAIN
  }

  private static final int MAX_ENTITY = 40;

  /**
   * The 2,231 named references, loaded when a page first has one to decode: {@link #looksLikeHtml}
   * runs on every text, plain ones too, and must not pay for the table (11-12 ms of a process's
   * start, docs/BENCHMARKS.md).
   */
  private static final class Entities {
    static final Map<String, String> MAP = loadEntities();

    private Entities() {}
  }

  private HtmlText() {}

  /** Whether {@code text} looks like HTML (see the class comment). */
  public static boolean looksLikeHtml(CharSequence text) {
    return looksLikeHtml(chars(text), 0, text.length());
  }

  /** Whether {@code text[from, to)} looks like HTML (see the class comment). */
  public static boolean looksLikeHtml(char[] text, int from, int to) {
    for (int i = from; i < to; i++) {
      if (text[i] != '<') {
        continue;
      }
      int j = i + 1;
      if (j < to && text[j] == '!') {
        if (regionMatchesIgnoreCase(text, j + 1, to, "doctype")) {
          int k = j + 8;
          while (k < to && isSpace(text[k])) {
            k++;
          }
          if (regionMatchesIgnoreCase(text, k, to, "html")) {
            return true;
          }
        }
        continue;
      }
      if (j < to && text[j] == '/') {
        continue;
      }
      int end = j;
      while (end < to && end - j < 8 && isAsciiLetterOrDigit(text[end])) {
        end++;
      }
      if (end == j || end == to || !(isSpace(text[end]) || text[end] == '>' || text[end] == '/')) {
        continue;
      }
      if ((kind(nameKey(text, j, end)) & DETECT) != 0) {
        return true;
      }
    }
    return false;
  }

  /** Returns the text of {@code html} in the given mode. */
  public static String extract(CharSequence html, Mode mode) {
    TextBuffer out = new TextBuffer(html.length() / 2 + 16);
    extract(html, mode, out);
    return out.toString();
  }

  /** Appends the text of {@code html} in the given mode to {@code out}. */
  public static void extract(CharSequence html, Mode mode, TextBuffer out) {
    extract(chars(html), 0, html.length(), mode, out);
  }

  /** Appends the text of {@code html[from, to)} in the given mode to {@code out}. */
  public static void extract(char[] html, int from, int to, Mode mode, TextBuffer out) {
    if (mode == Mode.MAIN) {
      long range = mainRange(html, from, to);
      if (range >= 0) {
        scan(html, (int) (range >>> 32), (int) range, true, out);
        return;
      }
    }
    scan(html, from, to, mode == Mode.MAIN, out);
  }

  /** The chars of {@code text} in [0, length()): its own array when it is a TextBuffer. */
  private static char[] chars(CharSequence text) {
    return text instanceof TextBuffer ? ((TextBuffer) text).chars : text.toString().toCharArray();
  }

  /**
   * The span from the first {@code <article>} or {@code <main>} start tag to the end of the last
   * matching end tag, as start << 32 | end, or -1 when the page has neither.
   */
  private static long mainRange(char[] s, int from, int to) {
    int start = -1;
    int end = -1;
    for (long name : new long[] {ARTICLE, MAIN}) {
      int open = findTag(s, from, to, name, false);
      if (open < 0) {
        continue;
      }
      int close = -1;
      for (int at = open; (at = findTag(s, at + 1, to, name, true)) >= 0; ) {
        close = at;
      }
      if (close < 0) {
        close = to;
      }
      if (start < 0 || open < start) {
        start = open;
      }
      end = Math.max(end, close);
    }
    return start < 0 ? -1 : (long) start << 32 | Math.max(start, end);
  }

  /**
   * Index of the next {@code <name} (or {@code </name} when closing) tag at or after from, where
   * name is a {@link #nameKey} and the name is followed by a space, '>', '/' or the end.
   */
  private static int findTag(char[] s, int from, int to, long name, boolean closing) {
    for (int i = from; i < to; i++) {
      if (s[i] != '<') {
        continue;
      }
      int j = i + 1;
      if (closing) {
        if (j >= to || s[j] != '/') {
          continue;
        }
        j++;
      }
      int k = j;
      while (k < to && isAsciiLetter(s[k])) {
        k++;
      }
      if (nameKey(s, j, k) == name && (k >= to || isSpace(s[k]) || s[k] == '>' || s[k] == '/')) {
        return i;
      }
    }
    return -1;
  }

  /*
   * The scanner works on a char[] with plain loops: on a CharSequence (a String or a TextBuffer)
   * with String.regionMatches-like helpers, C2 compiled it four times in one process, each after a
   * profile_predicate trap in the helpers' loops on the first page with another shape of tag
   * (7.9 s of compile wall in a 105 MB run, docs/BENCHMARKS.md). A tag name is matched by its
   * nameKey in one table, not by string switches.
   */
  private static void scan(char[] s, int from, int to, boolean main, TextBuffer out) {
    int i = from;
    while (i < to) {
      char c = s[i];
      if (c == '&') {
        i = decodeReference(s, i, to, out);
        continue;
      }
      if (c != '<') {
        out.append(c);
        i++;
        continue;
      }
      // c == '<'
      if (i + 3 < to && s[i + 1] == '!' && s[i + 2] == '-' && s[i + 3] == '-') {
        int close = indexOfCommentEnd(s, i + 4, to);
        i = close < 0 ? to : close + 3;
        continue;
      }
      if (i + 1 < to && (s[i + 1] == '!' || s[i + 1] == '?')) {
        i = skipTag(s, i + 1, to);
        continue;
      }
      boolean closing = i + 1 < to && s[i + 1] == '/';
      int nameStart = closing ? i + 2 : i + 1;
      if (nameStart >= to || !isAsciiLetter(s[nameStart])) {
        out.append(c); // a literal '<', as in "a < b"
        i++;
        continue;
      }
      int nameEnd = nameStart;
      while (nameEnd < to && isTagNameChar(s[nameEnd])) {
        nameEnd++;
      }
      long name = nameKey(s, nameStart, nameEnd);
      int kind = kind(name);
      int after = skipTag(s, nameEnd, to);
      if (!closing && ((kind & RAW) != 0 || (main && (kind & BOILERPLATE) != 0))) {
        after = skipElement(s, after, to, name, (kind & RAW) != 0);
      }
      // A line break, so that the lines of a page stay lines (VolatileLines works on lines).
      if ((kind & BLOCK) != 0 && out.length > 0 && !isSpace(out.chars[out.length - 1])) {
        out.append('\n');
      }
      i = after;
    }
  }

  /**
   * From just after a tag name, returns the index after the tag's closing '>', honouring quotes.
   */
  private static int skipTag(char[] s, int i, int to) {
    char quote = 0;
    for (; i < to; i++) {
      char c = s[i];
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        }
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '>') {
        return i + 1;
      }
    }
    return to;
  }

  /**
   * Skips the content of the element named {@code name} (a {@link #nameKey}) whose start tag ended
   * at {@code i}: to just after its end tag, counting nested elements of the same name unless it is
   * raw text, or to {@code to} if it is never closed.
   */
  private static int skipElement(char[] s, int i, int to, long name, boolean raw) {
    int depth = 1;
    while (i < to) {
      int lt = i;
      while (lt < to && s[lt] != '<') {
        lt++;
      }
      if (lt == to) {
        return to;
      }
      boolean closing = lt + 1 < to && s[lt + 1] == '/';
      int nameStart = closing ? lt + 2 : lt + 1;
      int k = nameStart;
      while (k < to && isTagNameChar(s[k])) {
        k++;
      }
      if (k > nameStart && nameKey(s, nameStart, k) == name) {
        if (closing) {
          depth--;
          if (depth == 0) {
            return skipTag(s, k, to);
          }
        } else if (!raw) {
          depth++;
        }
      }
      i = lt + 1;
    }
    return to;
  }

  /** Index of the next "-->" at or after from that ends before to, or -1. */
  private static int indexOfCommentEnd(char[] s, int from, int to) {
    for (int i = from; i + 2 < to; i++) {
      if (s[i] == '-' && s[i + 1] == '-' && s[i + 2] == '>') {
        return i;
      }
    }
    return -1;
  }

  /** Decodes the character reference at s[i] == '&'; returns the index after it. */
  private static int decodeReference(char[] s, int i, int to, TextBuffer out) {
    int j = i + 1;
    if (j < to && s[j] == '#') {
      int k = j + 1;
      boolean hex = k < to && (s[k] == 'x' || s[k] == 'X');
      if (hex) {
        k++;
      }
      int digitsStart = k;
      long cp = 0;
      while (k < to && k - digitsStart < 8) {
        int d = asciiDigit(s[k], hex);
        if (d < 0) {
          break;
        }
        cp = cp * (hex ? 16 : 10) + d;
        k++;
      }
      if (k == digitsStart) {
        out.append('&');
        return i + 1;
      }
      if (k < to && s[k] == ';') {
        k++;
      }
      appendCodePoint(cp, out);
      return k;
    }
    // Named: the longest name in the table that starts here.
    int limit = Math.min(to, j + MAX_ENTITY);
    int end = j;
    while (end < limit && isAsciiLetterOrDigit(s[end])) {
      end++;
    }
    if (end < limit && s[end] == ';') {
      end++;
    }
    for (int e = end; e > j; e--) {
      String value = Entities.MAP.get(new String(s, j, e - j));
      if (value != null) {
        out.append(value, 0, value.length());
        return e;
      }
    }
    out.append('&');
    return i + 1;
  }

  private static void appendCodePoint(long cp, TextBuffer out) {
    if (cp == 0 || cp > Character.MAX_CODE_POINT || (cp >= 0xD800 && cp <= 0xDFFF)) {
      out.append('\uFFFD');
    } else if (cp < 0x10000) {
      out.append((char) cp);
    } else {
      out.append(Character.highSurrogate((int) cp));
      out.append(Character.lowSurrogate((int) cp));
    }
  }

  private static int asciiDigit(char c, boolean hex) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (hex && c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    if (hex && c >= 'A' && c <= 'F') {
      return c - 'A' + 10;
    }
    return -1;
  }

  /*
   * Tag names as keys: nameKey packs a name of at most 10 ASCII letters and digits, case folded,
   * 6 bits per char (digits 1-10, letters 11-36; no char packs to 0, so names of different lengths
   * never share a key) into a long; any other name is -1, which no table entry has. KEYS is sorted
   * and KINDS[i] holds the flags of KEYS[i]: what scan does with the element.
   */
  private static final int RAW = 1; // its content is not text: skipped with the element
  private static final int BOILERPLATE = 2; // skipped in Mode.MAIN
  private static final int BLOCK = 4; // ends a line
  private static final int DETECT = 8; // makes looksLikeHtml say yes

  private static final long[] KEYS;
  private static final byte[] KINDS;
  private static final long ARTICLE = nameKey("article");
  private static final long MAIN = nameKey("main");

  static {
    String[][] kinds = {
      {"script", "style", "head", "template", "noscript", "textarea", "title"},
      {"nav", "header", "footer", "aside", "form", "button", "select", "menu"},
      {
        "p",
        "div",
        "br",
        "li",
        "ul",
        "ol",
        "tr",
        "td",
        "th",
        "table",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "article",
        "section",
        "main",
        "header",
        "footer",
        "nav",
        "aside",
        "blockquote",
        "pre",
        "hr",
        "dl",
        "dt",
        "dd",
        "figure",
        "figcaption",
        "form",
        "option",
        "address",
        "body",
        "html",
        "title",
        "head",
        "img"
      },
      {"p", "br", "h1", "h2", "h3", "h4", "h5", "h6", "div", "html", "body", "span", "article"}
    };
    Map<Long, Integer> flags = new HashMap<>();
    for (int k = 0; k < kinds.length; k++) {
      for (String name : kinds[k]) {
        flags.merge(nameKey(name), 1 << k, (a, b) -> a | b);
      }
    }
    KEYS = flags.keySet().stream().mapToLong(Long::longValue).sorted().toArray();
    KINDS = new byte[KEYS.length];
    for (int k = 0; k < KEYS.length; k++) {
      KINDS[k] = (byte) (int) flags.get(KEYS[k]);
    }
  }

  private static long nameKey(String name) {
    return nameKey(name.toCharArray(), 0, name.length());
  }

  /** The key of the name s[start, end) (see above), or -1 if no tag of the table can have it. */
  static long nameKey(char[] s, int start, int end) {
    if (end - start > 10 || end <= start) {
      return -1;
    }
    long key = 0;
    for (int i = start; i < end; i++) {
      char c = s[i];
      int v;
      if (c >= 'a' && c <= 'z') {
        v = c - 'a' + 11;
      } else if (c >= 'A' && c <= 'Z') {
        v = c - 'A' + 11;
      } else if (c >= '0' && c <= '9') {
        v = c - '0' + 1;
      } else {
        return -1;
      }
      key = key << 6 | v;
    }
    return key;
  }

  /** The flags of the tag whose {@link #nameKey} is {@code key}; 0 for any other name. */
  private static int kind(long key) {
    int at = Arrays.binarySearch(KEYS, key);
    return at < 0 ? 0 : KINDS[at];
  }

  private static boolean isTagNameChar(char c) {
    return isAsciiLetterOrDigit(c) || c == '-' || c == ':' || c == '_';
  }

  private static boolean isAsciiLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  private static boolean isAsciiLetterOrDigit(char c) {
    return isAsciiLetter(c) || (c >= '0' && c <= '9');
  }

  private static boolean isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
  }

  /** Whether s[at, at + lowerWhat.length()) ends by {@code to} and is lowerWhat, ignoring case. */
  private static boolean regionMatchesIgnoreCase(char[] s, int at, int to, String lowerWhat) {
    int n = lowerWhat.length();
    if (at < 0 || at + n > to) {
      return false;
    }
    for (int k = 0; k < n; k++) {
      char c = s[at + k];
      if ((c >= 'A' && c <= 'Z' ? (char) (c + 32) : c) != lowerWhat.charAt(k)) {
        return false;
      }
    }
    return true;
  }

  private static Map<String, String> loadEntities() {
    Map<String, String> map = new HashMap<>(4096);
    try (InputStream in = HtmlText.class.getResourceAsStream("html-entities.txt")) {
      if (in == null) {
        throw new IllegalStateException("html-entities.txt missing from the neardup-core jar");
      }
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      String line;
      while ((line = r.readLine()) != null) {
        if (line.isEmpty() || line.charAt(0) == '#') {
          continue;
        }
        String[] parts = line.split(" ");
        StringBuilder value = new StringBuilder(2);
        for (int k = 1; k < parts.length; k++) {
          value.appendCodePoint(Integer.parseInt(parts[k], 16));
        }
        map.put(parts[0], value.toString());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return map;
  }
}
