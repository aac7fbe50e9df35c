// SPDX-License-Identifier: Apache-2.0
package org.neardup.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class VolatileLinesTest {
  private static String drop(String text) {
    TextBuffer b = new TextBuffer();
    TextNormalizer.normalize(text, 0, text.length(), b);
    HanFolder.fold(b, 0);
    VolatileLines.remove(b, 0);
    return b.toString();
  }

  private static boolean isVolatile(String line) {
    TextBuffer b = new TextBuffer();
    TextNormalizer.normalize(line, 0, line.length(), b);
    HanFolder.fold(b, 0);
    return VolatileLines.isVolatile(b.array(), 0, b.length());
  }

  // Lines as news sites, blogs and forums print them around a post.
  @ParameterizedTest
  @ValueSource(
      strings = {
        "发布时间：2023-07-04 18:20　阅读：5310　评论：12",
        "发表于 2019年3月2日 10:11",
        "最后编辑于 2022-11-30 08:00",
        "第 37 楼 2021-05-06 20:15",
        "2024-01-02 09:03 来自 Android客户端",
        "阅读 1.2万 · 点赞 304 · 收藏 18",
        "浏览量：98,765",
        "3小时前",
        "閱讀 2481　評論 17", // traditional, folded first
        "Posted on March 3, 2021 at 4:15 pm",
        "Updated: 2020-08-17T06:12:44Z",
        "Last edited by jdoe on 2019-02-11 14:02",
        "12,345 views · 67 comments · 3.4k likes",
        "Views: 880 | Replies: 12",
        "Published 5 hours ago",
        "#128 · 2016-10-12 22:51",
        "Sent from my iPhone 12",
        "2014-04-16 11:09",
        "Updated 2020-08-17 06:12 UTC",
      })
  void isVolatile_metadataLine_true(String line) {
    assertThat(isVolatile(line)).as(line).isTrue();
  }

  // Content with numbers in it, and metadata-looking lines without any number.
  @ParameterizedTest
  @ValueSource(
      strings = {
        "Every moving thing that liveth shall be meat for you. (Genesis 9:3)",
        "公式 =(1+2)*3 与 =1+2*3 的计算结果是不同的。",
        "显示单元格 A1 内容的 50%。",
        "In 1969 two men walked on the moon.",
        "2024年春节，全家人在一起吃年夜饭。",
        "Posted by the editors",
        "阅读 评论 点赞",
        "",
        "Table 3.2. List of basic Unix commands",
        // No counter, stamp or time of day: lines of help pages, manuals and tables.
        "4",
        "-5",
        "2.",
        "(3)",
        "[1]",
        "3.14159265358979",
        "2003/05/13",
        "2002.01.27",
        "1930-06-21    01    +04",
        "DAYS360",
        "第222",
        "2019年3月",
        "September 15, 1842.",
        "in 3 days",
        "0 = Sunday",
        "\\$1\\$2",
        "(year) % 4 == 0",
        "<时> 0-23",
        "24:16",
      })
  void isVolatile_content_false(String line) {
    assertThat(isVolatile(line)).as(line).isFalse();
  }

  @Test
  void isVolatile_longLine_false() {
    String line = "views 1 ".repeat(30);
    assertThat(line.trim().length()).isGreaterThan(VolatileLines.MAX_LINE);
    assertThat(isVolatile(line)).isFalse();
  }

  @Test
  void remove_dropsOnlyVolatileLines() {
    String page =
        "Posted 2021-03-04 10:00 · 1,234 views\n"
            + "The council approved the budget on Tuesday.\n"
            + "\n"
            + "It adds 12 parks.\n"
            + "Last edited: 2021-03-05 11:00";
    assertThat(drop(page))
        .isEqualTo("the council approved the budget on tuesday.\n\nit adds 12 parks.\n");
  }

  @Test
  void remove_sameTextWithNewCounters_sameResult() {
    String a = "市议会周二晚间批准了新的年度预算。\n发布时间：2020-01-11 02:03　阅读：10769　评论：2588";
    String b = "阅读 35 · 点赞 2\n市议会周二晚间批准了新的年度预算。\n更新时间：2020-02-01 09:00";
    assertThat(drop(a)).isEqualTo(drop(b)).isEqualTo("市议会周二晚间批准了新的年度预算。\n");
  }

  // Counter bars glued to the text on one line, as the same bar on a line of its own elsewhere.
  @Test
  void remove_counterBarGluedToTheStart_removedLikeItsOwnLine() {
    String glued = "67516人阅读 · 2806条评论车争险道，马骋先鞭。";
    String own = "67516人阅读 · 2806条评论\n车争险道，马骋先鞭。";
    assertThat(drop(glued)).isEqualTo("车争险道,马骋先鞭。");
    assertThat(drop(own)).isEqualTo("车争险道,马骋先鞭。");
  }

  @Test
  void remove_counterBarGluedToTheEnd_removed() {
    assertThat(drop("Quote of the day: Views: 91254 | Replies: 43\nA fool and his money."))
        .isEqualTo("quote of the day: \na fool and his money.");
    assertThat(drop("#南山论坛# 75891人阅读 · 2487条评论\n正文")).isEqualTo("#南山论坛# \n正文");
  }

  // A word of code glued to a stamp word is code: last_updated is not "updated".
  @Test
  void remove_stampWordInsideAnIdentifier_staysContent() {
    String line = "print(item.last_updated: 12:30)";
    assertThat(drop(line + "\nmore")).isEqualTo(TextNormalizer.normalize(line + "\nmore"));
  }

  @Test
  void remove_oneFieldInsideASentence_staysContent() {
    for (String line :
        new String[] {
          "2019年阅读量增长了30%，读者更多了。",
          "The post was viewed 300 times and has 20 comments",
          "该文章共有1234次阅读和56条评论",
          "Posted on 2019-01-01 with a new look.",
        }) {
      assertThat(drop(line + "\n第二行")).as(line).isEqualTo(TextNormalizer.normalize(line + "\n第二行"));
    }
  }

  @Test
  void remove_everyLineVolatile_keepsTheText() {
    String text = "2020-01-11 10:00\n阅读 12";
    assertThat(drop(text)).isEqualTo(TextNormalizer.normalize(text));
  }

  @Test
  void remove_fromMark_leavesWhatIsBeforeIt() {
    TextBuffer b = new TextBuffer();
    b.append("views 12\n", 0, 9);
    int mark = b.length();
    String text = "a line of text\nviews 13\n";
    b.append(text, 0, text.length());
    VolatileLines.remove(b, mark);
    assertThat(b.toString()).isEqualTo("views 12\na line of text\n");
  }

  /**
   * Property: a counter bar glued to the start or end of a content line and the same bar on a line
   * of its own give the same words, and removing again changes nothing.
   */
  @Test
  void remove_randomGluedBars_sameAsOwnLine_idempotent() {
    String[] content = {
      "the quick brown fox 42 times", "他在 2019 年写了这首诗。", "plain words here", "车争险道，马骋先鞭。"
    };
    String[] bars = {
      "views: 12 | replies: 3",
      "2020-01-01 10:00 来自 iPhone客户端",
      "阅读 5 评论 6",
      "posted 3 days ago · 5 views",
      "67516人阅读 · 2806条评论",
      "第12楼 2019-03-02 10:11"
    };
    long seed = 20261125L;
    Random r = new Random(seed);
    for (int round = 0; round < 5000; round++) {
      String c = content[r.nextInt(content.length)];
      String b = bars[r.nextInt(bars.length)];
      String other = content[r.nextInt(content.length)];
      boolean start = r.nextBoolean();
      String glued = (start ? b + " " + c : c + " " + b) + "\n" + other;
      String apart = (start ? b + "\n" + c : c + "\n" + b) + "\n" + other;
      String once = drop(glued);
      assertThat(words(once))
          .as("seed %s round %s: %s", seed, round, glued)
          .isEqualTo(words(drop(apart)));
      assertThat(drop(once)).as("idempotent, seed %s round %s", seed, round).isEqualTo(once);
    }
  }

  private static String words(String s) {
    return s.replaceAll("[\\s\\p{P}]+", " ").strip();
  }

  /**
   * Property: on random texts of content and metadata lines, the result is the content lines in
   * order (metadata removed only when some content is left), and removing again changes nothing.
   */
  @Test
  void remove_randomTexts_keepsContentInOrder_idempotent() {
    String[] content = {
      "the quick brown fox 42 times", "他在 2019 年写了这首诗。", "plain words here", "第二段内容"
    };
    String[] meta = {"views: 12", "2020-01-01 10:00", "阅读 5 评论 6", "posted 3 days ago"};
    long seed = 20261124L;
    Random r = new Random(seed);
    for (int round = 0; round < 2000; round++) {
      List<String> lines = new ArrayList<>();
      List<String> kept = new ArrayList<>();
      int n = 1 + r.nextInt(6);
      for (int i = 0; i < n; i++) {
        if (r.nextBoolean()) {
          String c = content[r.nextInt(content.length)];
          lines.add(c);
          kept.add(c);
        } else {
          lines.add(meta[r.nextInt(meta.length)]);
        }
      }
      String text = String.join("\n", lines);
      String once = drop(text);
      String expected = kept.isEmpty() ? TextNormalizer.normalize(text) : String.join("\n", kept);
      assertThat(once.strip())
          .as("seed %s round %s: %s", seed, round, text)
          .isEqualTo(TextNormalizer.normalize(expected).strip());
      assertThat(drop(once)).as("idempotent, seed %s round %s", seed, round).isEqualTo(once);
    }
  }
}
