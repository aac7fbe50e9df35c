// SPDX-License-Identifier: Apache-2.0
package org.neardup.text;

import java.util.Set;

/**
 * Removes the lines of a crawled page that change every time it is fetched while the page stays the
 * same: view, comment, reply and like counters, "posted"/"updated"/"last edited" stamps, dates and
 * times, forum floor numbers, "from iPhone client". {@code 发布时间：2020-01-11 02:03 阅读：10769 评论：2588},
 * {@code Posted 2014-06-26 11:53 · 63022 views · 578 comments}, {@code 第12楼 2019-03-02 10:11} and
 * {@code Last edited: 2018-05-15 17:31} are such lines.
 *
 * <p>A line is volatile when it is at most {@value #MAX_LINE} characters long, holds at least one
 * digit, every other word in it is a word of such metadata (the lists below, English and simplified
 * Chinese) or a number (digits with {@code , . : / -}, an optional unit such as {@code k} or {@code
 * 万}), and it holds at least one <em>field</em>: a counter or stamp word ({@code views}, {@code
 * edited}, {@code 阅读}, {@code 楼}, {@code 来自}, ...) or a time of day ({@code 10:15}). A line with
 * any other word ({@code (Genesis 9:3)}), a symbol of code or formulas ({@code = $ * ; < > " \ ^ _
 * { }}), or no field (a bare number, a list marker {@code 2.}, a date alone {@code 2003/05/13}, a
 * table row {@code 1930-06-21 01 +04}, a function name {@code days360}) is content and stays: help
 * pages, manuals and tables are full of such lines. Punctuation and separators ({@code · | • # : (
 * )}) count for nothing. After {@code by} (a byline), up to {@value #BYLINE_WORDS} words of a name
 * are allowed. When every non-blank line of a text is volatile, the text is left as it is: a text
 * is never emptied.
 *
 * <p>A counter bar is sometimes glued to the content on one line ({@code 67516人阅读 · 2806条评论车争险道…},
 * {@code Quote of the day: Views: 91254 | Replies: 43}) while another copy prints it on a line of
 * its own; removing it from one copy only would make the copies differ more than the page does. So
 * a run of metadata at the start or the end of a content line is removed too when it holds a digit
 * and at least {@value #SPAN_FIELDS} fields (two counters, or a stamp and a time); a single field
 * inside a sentence ({@code 2019年阅读量增长了30%}) is content.
 *
 * <p>Works on normalised text ({@link TextNormalizer}: lower case, half-width), with traditional
 * characters already folded when {@link HanFolder} is on. Stateless and thread-safe; allocates only
 * for texts that hold a digit, and then a few words' strings per line that holds one.
 */
public final class VolatileLines {
  /** Longer lines are content, whatever words they hold. */
  public static final int MAX_LINE = 160;

  /** Words of a name allowed after {@code by}. */
  static final int BYLINE_WORDS = 3;

  private static final Set<String> EN =
      Set.of(
          // what happened and when
          "posted",
          "published",
          "updated",
          "edited",
          "modified",
          "created",
          "last",
          "on",
          "at",
          "by",
          "in",
          "ago",
          "just",
          "now",
          "today",
          "yesterday",
          "and",
          // counters
          "views",
          "view",
          "viewed",
          "reads",
          "read",
          "comments",
          "comment",
          "replies",
          "reply",
          "likes",
          "like",
          "shares",
          "share",
          "shared",
          "votes",
          "vote",
          "points",
          "point",
          "favorites",
          "favourites",
          "retweets",
          "reposts",
          "hits",
          "clicks",
          "downloads",
          "answers",
          "followers",
          "times",
          "upvotes",
          "downvotes",
          "reactions",
          // time units and zones
          "seconds",
          "second",
          "secs",
          "sec",
          "minutes",
          "minute",
          "mins",
          "min",
          "hours",
          "hour",
          "hrs",
          "hr",
          "days",
          "day",
          "weeks",
          "week",
          "months",
          "month",
          "years",
          "year",
          "utc",
          "gmt",
          "am",
          "pm",
          "cst",
          "est",
          "edt",
          "pst",
          "pdt",
          "cet",
          "cest",
          "bst",
          "jst",
          "st",
          "nd",
          "rd",
          "th",
          // months and weekdays
          "january",
          "february",
          "march",
          "april",
          "may",
          "june",
          "july",
          "august",
          "september",
          "october",
          "november",
          "december",
          "jan",
          "feb",
          "mar",
          "apr",
          "jun",
          "jul",
          "aug",
          "sep",
          "sept",
          "oct",
          "nov",
          "dec",
          "monday",
          "tuesday",
          "wednesday",
          "thursday",
          "friday",
          "saturday",
          "sunday",
          "mon",
          "tue",
          "tues",
          "wed",
          "thu",
          "thur",
          "thurs",
          "fri",
          "sat",
          "sun",
          // where a post came from
          "via",
          "from",
          "sent",
          "my",
          "iphone",
          "ipad",
          "android",
          "mobile",
          "web",
          "app",
          "client");

  private static final Set<String> ZH =
      Set.of(
          // what happened and when
          "发布",
          "发表",
          "发帖",
          "发布于",
          "发表于",
          "时间",
          "日期",
          "更新",
          "更新于",
          "编辑",
          "编辑于",
          "最后",
          "修改",
          "修改于",
          "创建",
          "创建于",
          "于",
          "在",
          "前",
          "刚刚",
          "今天",
          "昨天",
          "前天",
          // counters
          "阅读",
          "阅读数",
          "阅读量",
          "浏览",
          "浏览量",
          "浏览数",
          "次数",
          "次",
          "人",
          "条",
          "个",
          "评论",
          "回复",
          "点赞",
          "赞",
          "喜欢",
          "收藏",
          "转发",
          "分享",
          "关注",
          "粉丝",
          "播放",
          "点击",
          "下载",
          "热度",
          "共",
          "已",
          "楼",
          "第",
          "数",
          "量",
          // dates and times
          "年",
          "月",
          "日",
          "号",
          "时",
          "分",
          "秒",
          "小时",
          "分钟",
          "天",
          "周",
          "星期",
          "上午",
          "下午",
          "凌晨",
          "晚上",
          "中午",
          // where a post came from
          "来自",
          "发自",
          "客户端",
          "手机",
          "网页版",
          "网页");

  /**
   * The words that make a line metadata rather than content: counters and "posted/edited" stamps.
   * The other words of the lists (dates, units, "on", "in", "第", "年") are as common in content.
   */
  private static final Set<String> EN_ANCHORS =
      Set.of(
          "posted",
          "published",
          "updated",
          "edited",
          "modified",
          "created",
          "ago",
          "views",
          "view",
          "viewed",
          "reads",
          "comments",
          "comment",
          "replies",
          "reply",
          "likes",
          "shares",
          "votes",
          "points",
          "favorites",
          "favourites",
          "retweets",
          "reposts",
          "hits",
          "clicks",
          "downloads",
          "answers",
          "followers",
          "upvotes",
          "downvotes",
          "reactions",
          "iphone",
          "ipad",
          "android",
          "client");

  private static final Set<String> ZH_ANCHORS =
      Set.of(
          "发布", "发表", "发帖", "发布于", "发表于", "更新", "更新于", "编辑", "编辑于", "修改", "修改于", "创建", "创建于", "前",
          "刚刚", "阅读", "阅读数", "阅读量", "浏览", "浏览量", "浏览数", "评论", "回复", "点赞", "赞", "喜欢", "收藏", "转发",
          "分享", "粉丝", "播放", "点击", "下载", "热度", "楼", "来自", "发自", "客户端");

  /** The first characters of {@link #ZH_ANCHORS}, to look words up only where one may start. */
  private static final String ZH_ANCHOR_FIRST;

  static {
    StringBuilder first = new StringBuilder();
    for (String w : ZH_ANCHORS) {
      if (first.indexOf(w.substring(0, 1)) < 0) {
        first.append(w.charAt(0));
      }
    }
    ZH_ANCHOR_FIRST = first.toString();
  }

  private static final int MAX_ZH_WORD = 3;

  /** {@link Run} fields, in a scratch {@code int[]}. */
  private static final int STOP = 0;

  private static final int LAST = 1;
  private static final int FIELDS = 2;
  private static final int DIGITS = 3;

  /** Fields a run glued to content at a line's start or end must hold (a bar of metadata). */
  static final int SPAN_FIELDS = 2;

  private VolatileLines() {}

  /**
   * Removes the volatile lines of {@code text[from, length)} in place, with their line break, and
   * the volatile runs glued to the start or end of a content line; no whole line when every
   * non-blank line is volatile.
   */
  public static void remove(TextBuffer text, int from) {
    char[] s = text.chars;
    int end = text.length;
    int contentLines = 0;
    if (!hasDigit(s, from, end)) {
      return;
    }
    int[] run = new int[4];
    boolean anyVolatile = false;
    for (int start = from; start < end; ) {
      int eol = lineEnd(s, start, end);
      if (!isBlank(s, start, eol)) {
        if (isVolatile(s, start, eol, run)) {
          anyVolatile = true;
        } else {
          contentLines++;
        }
      }
      start = eol + 1;
    }
    boolean dropLines = anyVolatile && contentLines > 0;
    int out = from;
    for (int start = from; start < end; ) {
      int eol = lineEnd(s, start, end);
      int next = Math.min(end, eol + 1);
      if (isBlank(s, start, eol)) {
        System.arraycopy(s, start, s, out, next - start);
        out += next - start;
      } else if (!isVolatile(s, start, eol, run)) {
        int keepStart = start;
        int keepEnd = eol;
        if (hasDigit(s, Math.max(start, eol - MAX_LINE), eol)) {
          keepStart = prefixEnd(s, start, eol, run);
          keepEnd = suffixStart(s, keepStart, eol, run);
        }
        System.arraycopy(s, keepStart, s, out, keepEnd - keepStart);
        out += keepEnd - keepStart;
        System.arraycopy(s, eol, s, out, next - eol);
        out += next - eol;
      } else if (!dropLines) {
        System.arraycopy(s, start, s, out, next - start);
        out += next - start;
      }
      start = next;
    }
    text.length = out;
  }

  /** Whether {@code s[start, end)}, one normalised line, is volatile. */
  static boolean isVolatile(char[] s, int start, int end) {
    return isVolatile(s, start, end, new int[4]);
  }

  private static boolean isVolatile(char[] s, int start, int end, int[] run) {
    while (start < end && isSpace(s[start])) {
      start++;
    }
    while (end > start && isSpace(s[end - 1])) {
      end--;
    }
    if (end - start > MAX_LINE || end == start) {
      return false;
    }
    scan(s, start, end, run);
    return run[STOP] == end && run[DIGITS] > 0 && run[FIELDS] > 0;
  }

  /**
   * Where the content of a content line starts: after a run of metadata at its start that holds a
   * digit and at least {@value #SPAN_FIELDS} fields ({@code 67516人阅读 · 2806条评论车争险道…}), else {@code
   * start}.
   */
  private static int prefixEnd(char[] s, int start, int end, int[] run) {
    scan(s, start, Math.min(end, start + MAX_LINE), run);
    return run[DIGITS] > 0 && run[FIELDS] >= SPAN_FIELDS ? run[LAST] : start;
  }

  /**
   * Where the content of a content line ends: before the longest run of metadata that ends it,
   * starts with a digit or a counter/stamp word, and holds a digit and at least {@value
   * #SPAN_FIELDS} fields ({@code Quote of the day: Views: 91254 | Replies: 43}), else {@code end}.
   */
  private static int suffixStart(char[] s, int start, int end, int[] run) {
    int e = end;
    while (e > start && isSpace(s[e - 1])) {
      e--;
    }
    for (int p = Math.max(start, e - MAX_LINE); p < e; p++) {
      if (!startsField(s, p, start, e)) {
        continue;
      }
      scan(s, p, e, run);
      if (run[STOP] == e && run[DIGITS] > 0 && run[FIELDS] >= SPAN_FIELDS) {
        return p > start && s[p - 1] == '第' ? p - 1 : p; // 第12楼: the floor's 第 goes with it
      }
    }
    return end;
  }

  /**
   * Whether a run may start at {@code p}: a counter/stamp word, or a number that is a time of day
   * or is followed by one or by a counter/stamp word ({@code 12,345 views}, {@code 67516人阅读},
   * {@code 2020-01-01 10:00}), so that content ending in a number ({@code 42 times}) stays whole.
   */
  private static boolean startsField(char[] s, int p, int start, int end) {
    char c = s[p];
    if (c >= '0' && c <= '9') {
      if (p > start && isWordChar(s[p - 1])) {
        return false;
      }
      int j = skipNumber(s, p, end);
      if (isClock(s, p, j)) {
        return true;
      }
      while (j < end && (isSpace(s[j]) || "人条次个".indexOf(s[j]) >= 0)) {
        j++;
      }
      if (j < end && isDigit(s[j])) {
        return isClock(s, j, skipNumber(s, j, end));
      }
      return j < end && isAnchorAt(s, j, end);
    }
    if (c >= 'a' && c <= 'z' && p > start && isWordChar(s[p - 1])) {
      return false;
    }
    return isAnchorAt(s, p, end);
  }

  /** Whether a counter/stamp word starts at {@code p}. */
  private static boolean isAnchorAt(char[] s, int p, int end) {
    char c = s[p];
    if (c >= 'a' && c <= 'z') {
      int j = p;
      while (j < end && s[j] >= 'a' && s[j] <= 'z') {
        j++;
      }
      return EN_ANCHORS.contains(new String(s, p, j - p));
    }
    if (ZH_ANCHOR_FIRST.indexOf(c) >= 0) {
      for (int n = Math.min(MAX_ZH_WORD, end - p); n > 0; n--) {
        if (ZH_ANCHORS.contains(new String(s, p, n))) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean hasDigit(char[] s, int start, int end) {
    for (int i = start; i < end; i++) {
      if (isDigit(s[i])) {
        return true;
      }
    }
    return false;
  }

  private static boolean isWordChar(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c == '.' || c == ',' || c == '_';
  }

  /**
   * Scans a run of metadata from {@code start}: numbers, words of the lists, punctuation. Stops at
   * the first other word or at a symbol of code, markup or formulas. Writes where it stopped, the
   * end of its last number or counter/stamp word, the count of fields (counter/stamp words and
   * times of day) and of numbers.
   */
  private static void scan(char[] s, int start, int end, int[] run) {
    int fields = 0;
    int numbers = 0;
    int last = start;
    int byline = 0;
    int i = start;
    scan:
    while (i < end) {
      char c = s[i];
      if (c >= '0' && c <= '9') {
        int j = skipNumber(s, i, end);
        if (isClock(s, i, j)) {
          fields++;
        }
        numbers++;
        byline = 0;
        last = j;
        i = j;
      } else if (c >= 'a' && c <= 'z') {
        int j = i;
        while (j < end && s[j] >= 'a' && s[j] <= 'z') {
          j++;
        }
        String w = new String(s, i, j - i);
        if (byline > 0) {
          byline--;
        } else if (!EN.contains(w)) {
          break;
        } else if (w.equals("by")) {
          byline = BYLINE_WORDS;
        }
        if (EN_ANCHORS.contains(w)) {
          fields++;
          last = j;
        }
        i = j;
      } else if (Character.isLetter(c)) {
        byline = 0;
        while (i < end && Character.isLetter(s[i]) && !(s[i] >= 'a' && s[i] <= 'z')) {
          int n = Math.min(MAX_ZH_WORD, end - i);
          while (n > 0 && !ZH.contains(new String(s, i, n))) {
            n--;
          }
          if (n == 0) {
            break scan;
          }
          if (ZH_ANCHORS.contains(new String(s, i, n))) {
            fields++;
            last = i + n;
          }
          i += n;
        }
      } else if (isCodeSymbol(c)) {
        break;
      } else {
        i++; // punctuation, separators, spaces
      }
    }
    run[STOP] = i;
    run[LAST] = last;
    run[FIELDS] = fields;
    run[DIGITS] = numbers;
  }

  /** Symbols of code, markup and formulas, which metadata lines do not hold. */
  private static boolean isCodeSymbol(char c) {
    return c == '=' || c == '$' || c == '{' || c == '}' || c == ';' || c == '\\' || c == '^'
        || c == '*' || c == '<' || c == '>' || c == '"' || c == '_';
  }

  /** Whether the number {@code s[start, end)} holds a time of day, {@code h:mm} with h < 24. */
  private static boolean isClock(char[] s, int start, int end) {
    for (int i = start + 1; i + 2 < end; i++) {
      if (s[i] != ':'
          || !isDigit(s[i + 1])
          || !isDigit(s[i + 2])
          || s[i + 1] > '5'
          || (i + 3 < end && isDigit(s[i + 3]))) {
        continue;
      }
      int k = i - 1;
      int hour = 0;
      int mul = 1;
      while (k >= start && isDigit(s[k]) && mul <= 100) {
        hour += (s[k] - '0') * mul;
        mul *= 10;
        k--;
      }
      if (mul <= 100 && (k < start || !isDigit(s[k])) && hour < 24) {
        return true;
      }
    }
    return false;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /**
   * After a digit: digits and separators ({@code t} too, as in ISO-8601's {@code
   * 2020-08-17t06:12}), then an optional unit (k, m, w, z, 万, 千, 亿, %, +).
   */
  private static int skipNumber(char[] s, int i, int end) {
    while (i < end) {
      char c = s[i];
      if (c >= '0' && c <= '9') {
        i++;
      } else if ((c == ',' || c == '.' || c == ':' || c == '/' || c == '-' || c == 't')
          && i + 1 < end
          && s[i + 1] >= '0'
          && s[i + 1] <= '9') {
        i++;
      } else {
        break;
      }
    }
    if (i < end) {
      char u = s[i];
      boolean unitEnds = i + 1 >= end || !(s[i + 1] >= 'a' && s[i + 1] <= 'z');
      if (((u == 'k' || u == 'm' || u == 'w' || u == 'z') && unitEnds)
          || u == '万'
          || u == '千'
          || u == '亿'
          || u == '%'
          || u == '+') {
        i++;
      }
    }
    return i;
  }

  private static int lineEnd(char[] s, int start, int end) {
    int i = start;
    while (i < end && s[i] != '\n') {
      i++;
    }
    return i;
  }

  private static boolean isBlank(char[] s, int start, int end) {
    for (int i = start; i < end; i++) {
      if (!isSpace(s[i])) {
        return false;
      }
    }
    return true;
  }

  private static boolean isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\u3000' || c == '\u00a0';
  }
}
