// SPDX-License-Identifier: Apache-2.0
package org.neardup.text;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
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
 * <p>A streaming scanner, not a DOM: one pass, no allocation per tag beyond a reused name buffer;
 * malformed markup degrades to "text between tags". jsoup is the reference it is tested against.
 * Stateless and thread-safe.
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
    int n = text.length();
    for (int i = 0; i < n; i++) {
      if (text.charAt(i) != '<') {
        continue;
      }
      int j = i + 1;
      if (j < n && text.charAt(j) == '!') {
        if (regionMatchesIgnoreCase(text, j + 1, "doctype")) {
          int k = j + 8;
          while (k < n && isSpace(text.charAt(k))) {
            k++;
          }
          if (regionMatchesIgnoreCase(text, k, "html")) {
            return true;
          }
        }
        continue;
      }
      if (j < n && text.charAt(j) == '/') {
        continue;
      }
      int end = j;
      while (end < n && end - j < 8 && isAsciiLetterOrDigit(text.charAt(end))) {
        end++;
      }
      if (end == j
          || (end < n
              && !(isSpace(text.charAt(end))
                  || text.charAt(end) == '>'
                  || text.charAt(end) == '/'))) {
        continue;
      }
      if (end == n) {
        continue;
      }
      if (isDetectTag(text, j, end)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isDetectTag(CharSequence s, int start, int end) {
    int len = end - start;
    char a = lower(s.charAt(start));
    switch (len) {
      case 1:
        return a == 'p';
      case 2:
        char b = lower(s.charAt(start + 1));
        return (a == 'b' && b == 'r') || (a == 'h' && b >= '1' && b <= '6');
      case 3:
        return regionMatchesIgnoreCase(s, start, "div");
      case 4:
        return regionMatchesIgnoreCase(s, start, "html")
            || regionMatchesIgnoreCase(s, start, "body")
            || regionMatchesIgnoreCase(s, start, "span");
      case 7:
        return regionMatchesIgnoreCase(s, start, "article");
      default:
        return false;
    }
  }

  /** Returns the text of {@code html} in the given mode. */
  public static String extract(CharSequence html, Mode mode) {
    TextBuffer out = new TextBuffer(html.length() / 2 + 16);
    extract(html, mode, out);
    return out.toString();
  }

  /** Appends the text of {@code html} in the given mode to {@code out}. */
  public static void extract(CharSequence html, Mode mode, TextBuffer out) {
    if (mode == Mode.MAIN) {
      int[] range = mainRange(html);
      if (range != null) {
        scan(html, range[0], range[1], true, out);
        return;
      }
      scan(html, 0, html.length(), true, out);
    } else {
      scan(html, 0, html.length(), false, out);
    }
  }

  /**
   * The span from the first {@code <article>} or {@code <main>} start tag to the end of the last
   * matching end tag, or null when the page has neither.
   */
  private static int[] mainRange(CharSequence s) {
    int start = -1;
    int end = -1;
    for (String name : new String[] {"article", "main"}) {
      int open = findTag(s, 0, name, false);
      if (open < 0) {
        continue;
      }
      int close = -1;
      for (int at = open; (at = findTag(s, at + 1, name, true)) >= 0; ) {
        close = at;
      }
      if (close < 0) {
        close = s.length();
      }
      if (start < 0 || open < start) {
        start = open;
      }
      end = Math.max(end, close);
    }
    return start < 0 ? null : new int[] {start, Math.max(start, end)};
  }

  /** Index of the next {@code <name} (or {@code </name} when closing) tag at or after from. */
  private static int findTag(CharSequence s, int from, String name, boolean closing) {
    int n = s.length();
    for (int i = from; i < n; i++) {
      if (s.charAt(i) != '<') {
        continue;
      }
      int j = i + 1;
      if (closing) {
        if (j >= n || s.charAt(j) != '/') {
          continue;
        }
        j++;
      }
      if (regionMatchesIgnoreCase(s, j, name)) {
        int k = j + name.length();
        if (k >= n || isSpace(s.charAt(k)) || s.charAt(k) == '>' || s.charAt(k) == '/') {
          return i;
        }
      }
    }
    return -1;
  }

  private static void scan(CharSequence s, int from, int to, boolean main, TextBuffer out) {
    StringBuilder name = new StringBuilder(16);
    int i = from;
    while (i < to) {
      char c = s.charAt(i);
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
      if (regionMatches(s, i, "<!--")) {
        int close = indexOf(s, "-->", i + 4, to);
        i = close < 0 ? to : close + 3;
        continue;
      }
      if (i + 1 < to && (s.charAt(i + 1) == '!' || s.charAt(i + 1) == '?')) {
        i = skipTag(s, i + 1, to);
        continue;
      }
      boolean closing = i + 1 < to && s.charAt(i + 1) == '/';
      int nameStart = closing ? i + 2 : i + 1;
      if (nameStart >= to || !isAsciiLetter(s.charAt(nameStart))) {
        out.append(c); // a literal '<', as in "a < b"
        i++;
        continue;
      }
      int nameEnd = nameStart;
      name.setLength(0);
      while (nameEnd < to && isTagNameChar(s.charAt(nameEnd))) {
        name.append(lower(s.charAt(nameEnd)));
        nameEnd++;
      }
      int after = skipTag(s, nameEnd, to);
      String tag = name.toString();
      if (!closing && (isRawText(tag) || (main && isBoilerplate(tag)))) {
        after = skipElement(s, after, to, tag);
      }
      // A line break, so that the lines of a page stay lines (VolatileLines works on lines).
      if (isBlock(tag) && out.length > 0 && !isSpace(out.chars[out.length - 1])) {
        out.append('\n');
      }
      i = after;
    }
  }

  /**
   * From just after a tag name, returns the index after the tag's closing '>', honouring quotes.
   */
  private static int skipTag(CharSequence s, int i, int to) {
    char quote = 0;
    for (; i < to; i++) {
      char c = s.charAt(i);
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
   * Skips the content of element {@code tag} whose start tag ended at {@code i}: to just after its
   * end tag, counting nested elements of the same name, or to {@code to} if it is never closed.
   */
  private static int skipElement(CharSequence s, int i, int to, String tag) {
    boolean raw = isRawText(tag);
    int depth = 1;
    while (i < to) {
      int lt = indexOf(s, "<", i, to);
      if (lt < 0) {
        return to;
      }
      boolean closing = lt + 1 < to && s.charAt(lt + 1) == '/';
      int nameStart = closing ? lt + 2 : lt + 1;
      if (regionMatchesIgnoreCase(s, nameStart, tag)) {
        int k = nameStart + tag.length();
        if (k >= to || !isTagNameChar(s.charAt(k))) {
          if (closing) {
            depth--;
            if (depth == 0) {
              return skipTag(s, k, to);
            }
          } else if (!raw) {
            depth++;
          }
        }
      }
      i = lt + 1;
    }
    return to;
  }

  /** Decodes the character reference at s[i] == '&'; returns the index after it. */
  private static int decodeReference(CharSequence s, int i, int to, TextBuffer out) {
    int j = i + 1;
    if (j < to && s.charAt(j) == '#') {
      int k = j + 1;
      boolean hex = k < to && (s.charAt(k) == 'x' || s.charAt(k) == 'X');
      if (hex) {
        k++;
      }
      int digitsStart = k;
      long cp = 0;
      while (k < to && k - digitsStart < 8) {
        int d = asciiDigit(s.charAt(k), hex);
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
      if (k < to && s.charAt(k) == ';') {
        k++;
      }
      appendCodePoint(cp, out);
      return k;
    }
    // Named: the longest name in the table that starts here.
    int limit = Math.min(to, j + MAX_ENTITY);
    int end = j;
    while (end < limit && isAsciiLetterOrDigit(s.charAt(end))) {
      end++;
    }
    if (end < limit && s.charAt(end) == ';') {
      end++;
    }
    for (int e = end; e > j; e--) {
      String value = Entities.MAP.get(s.subSequence(j, e).toString());
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

  private static boolean isRawText(String tag) {
    switch (tag) {
      case "script":
      case "style":
      case "head":
      case "template":
      case "noscript":
      case "textarea":
      case "title":
        return true;
      default:
        return false;
    }
  }

  private static boolean isBoilerplate(String tag) {
    switch (tag) {
      case "nav":
      case "header":
      case "footer":
      case "aside":
      case "form":
      case "button":
      case "select":
      case "menu":
        return true;
      default:
        return false;
    }
  }

  private static boolean isBlock(String tag) {
    switch (tag) {
      case "p":
      case "div":
      case "br":
      case "li":
      case "ul":
      case "ol":
      case "tr":
      case "td":
      case "th":
      case "table":
      case "h1":
      case "h2":
      case "h3":
      case "h4":
      case "h5":
      case "h6":
      case "article":
      case "section":
      case "main":
      case "header":
      case "footer":
      case "nav":
      case "aside":
      case "blockquote":
      case "pre":
      case "hr":
      case "dl":
      case "dt":
      case "dd":
      case "figure":
      case "figcaption":
      case "form":
      case "option":
      case "address":
      case "body":
      case "html":
      case "title":
      case "head":
      case "img":
        return true;
      default:
        return false;
    }
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

  private static char lower(char c) {
    return c >= 'A' && c <= 'Z' ? (char) (c + 32) : c;
  }

  private static boolean regionMatches(CharSequence s, int at, String what) {
    if (at < 0 || at + what.length() > s.length()) {
      return false;
    }
    for (int k = 0; k < what.length(); k++) {
      if (s.charAt(at + k) != what.charAt(k)) {
        return false;
      }
    }
    return true;
  }

  private static boolean regionMatchesIgnoreCase(CharSequence s, int at, String lowerWhat) {
    if (at < 0 || at + lowerWhat.length() > s.length()) {
      return false;
    }
    for (int k = 0; k < lowerWhat.length(); k++) {
      if (lower(s.charAt(at + k)) != lowerWhat.charAt(k)) {
        return false;
      }
    }
    return true;
  }

  private static int indexOf(CharSequence s, String what, int from, int to) {
    char first = what.charAt(0);
    int last = to - what.length();
    for (int i = from; i <= last; i++) {
      if (s.charAt(i) == first && regionMatches(s, i, what)) {
        return i;
      }
    }
    return -1;
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
