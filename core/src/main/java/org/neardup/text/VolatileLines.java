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
 * digit, and every other word in it is a word of such metadata (the lists below, English and
 * simplified Chinese) or a number (digits with {@code , . : / -}, an optional unit such as {@code
 * k} or {@code 万}). A line with any other word ({@code (Genesis 9:3)}, {@code 公式 =(1+2)*3}) is
 * content and stays. Punctuation and symbols ({@code · | • # : ( )}) separate words and count for
 * nothing. After {@code by} (a byline), up to {@value #BYLINE_WORDS} words of a name are allowed.
 * When every non-blank line of a text is volatile, the text is left as it is: a text is never
 * emptied.
 *
 * <p>Works on normalised text ({@link TextNormalizer}: lower case, half-width), with traditional
 * characters already folded when {@link HanFolder} is on. Stateless and thread-safe; allocates only
 * for lines that hold a digit.
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

  private static final int MAX_ZH_WORD = 3;

  private VolatileLines() {}

  /**
   * Removes the volatile lines of {@code text[from, length)} in place, with their line break;
   * nothing when every non-blank line is volatile.
   */
  public static void remove(TextBuffer text, int from) {
    char[] s = text.chars;
    int end = text.length;
    int contentLines = 0;
    boolean anyVolatile = false;
    for (int start = from; start < end; ) {
      int eol = lineEnd(s, start, end);
      if (!isBlank(s, start, eol)) {
        if (isVolatile(s, start, eol)) {
          anyVolatile = true;
        } else {
          contentLines++;
        }
      }
      start = eol + 1;
    }
    if (!anyVolatile || contentLines == 0) {
      return;
    }
    int out = from;
    for (int start = from; start < end; ) {
      int eol = lineEnd(s, start, end);
      int next = Math.min(end, eol + 1);
      if (isBlank(s, start, eol) || !isVolatile(s, start, eol)) {
        System.arraycopy(s, start, s, out, next - start);
        out += next - start;
      }
      start = next;
    }
    text.length = out;
  }

  /** Whether {@code s[start, end)}, one normalised line, is volatile. */
  static boolean isVolatile(char[] s, int start, int end) {
    while (start < end && isSpace(s[start])) {
      start++;
    }
    while (end > start && isSpace(s[end - 1])) {
      end--;
    }
    if (end - start > MAX_LINE || end == start) {
      return false;
    }
    boolean digit = false;
    for (int i = start; i < end; i++) {
      if (s[i] >= '0' && s[i] <= '9') {
        digit = true;
        break;
      }
    }
    if (!digit) {
      return false;
    }
    int byline = 0;
    int i = start;
    while (i < end) {
      char c = s[i];
      if (c >= '0' && c <= '9') {
        i = skipNumber(s, i, end);
        byline = 0;
      } else if (c >= 'a' && c <= 'z') {
        int j = i;
        while (j < end && s[j] >= 'a' && s[j] <= 'z') {
          j++;
        }
        String w = new String(s, i, j - i);
        if (byline > 0) {
          byline--;
        } else if (!EN.contains(w)) {
          return false;
        } else if (w.equals("by")) {
          byline = BYLINE_WORDS;
        }
        i = j;
      } else if (Character.isLetter(c)) {
        int j = i;
        while (j < end && Character.isLetter(s[j]) && !(s[j] >= 'a' && s[j] <= 'z')) {
          j++;
        }
        if (!allZhWords(s, i, j)) {
          return false;
        }
        byline = 0;
        i = j;
      } else {
        i++; // punctuation, symbols, spaces
      }
    }
    return true;
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

  /** Whether a run of non-ASCII letters splits entirely into words of the Chinese list. */
  private static boolean allZhWords(char[] s, int start, int end) {
    int i = start;
    while (i < end) {
      int n = Math.min(MAX_ZH_WORD, end - i);
      while (n > 0 && !ZH.contains(new String(s, i, n))) {
        n--;
      }
      if (n == 0) {
        return false;
      }
      i += n;
    }
    return true;
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
