// SPDX-License-Identifier: Apache-2.0
package org.neardup.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.jsoup.Jsoup;
import org.junit.jupiter.api.Test;

class HtmlTextTest {
  private static final String PAGE =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Title words</title>"
          + "<style>body{color:red}</style><script>var x = '<p>not text</p>';</script></head>\n"
          + "<body><header><nav><a href=\"/\">Home</a> <a href=\"/about\">About us</a></nav></header>"
          + "<main><article><h1>The headline</h1><p>First&nbsp;paragraph with <b>bold</b> &amp; "
          + "<i>italic</i> words&#33; &#x4E2D;&#25991; caf&eacute;</p><p>Second paragraph.</p>"
          + "<!-- a comment <p>hidden</p> --></article></main>"
          + "<footer><p>&copy; 2020 Site</p></footer></body></html>";

  private static List<String> words(String s) {
    return Arrays.stream(TextNormalizer.normalize(s).split("[^\\p{L}\\p{N}]+"))
        .filter(w -> !w.isEmpty())
        .toList();
  }

  @Test
  void looksLikeHtml_tagsAndDoctype_detected() {
    assertThat(HtmlText.looksLikeHtml(PAGE)).isTrue();
    assertThat(HtmlText.looksLikeHtml("<p>one paragraph")).isTrue();
    assertThat(HtmlText.looksLikeHtml("a <BR/> b")).isTrue();
    assertThat(HtmlText.looksLikeHtml("if a < b and c > d")).isFalse();
    assertThat(HtmlText.looksLikeHtml("<pre>code</pre> only")).isFalse();
    assertThat(HtmlText.looksLikeHtml("plain text")).isFalse();
  }

  @Test
  void extract_visible_sameWordsAsJsoupBodyText() {
    // jsoup is the reference: the words of the body's text, in order (the title is in <head>).
    String reference = Jsoup.parse(PAGE).body().text();
    assertThat(words(HtmlText.extract(PAGE, HtmlText.Mode.VISIBLE))).isEqualTo(words(reference));
  }

  @Test
  void extract_visible_dropsScriptsStylesCommentsAndDecodesEntities() {
    String text = HtmlText.extract(PAGE, HtmlText.Mode.VISIBLE);
    assertThat(text).doesNotContain("not text", "color:red", "hidden", "Title words", "<", "&amp;");
    assertThat(text).contains("First\u00A0paragraph", "bold & italic words! 中文 café");
  }

  @Test
  void extract_blockTags_separateWords() {
    assertThat(
            words(
                HtmlText.extract(
                    "<p>one</p><p>two</p><div>three<br>four</div>", HtmlText.Mode.VISIBLE)))
        .containsExactly("one", "two", "three", "four");
  }

  @Test
  void extract_main_keepsArticleOnly() {
    List<String> main = words(HtmlText.extract(PAGE, HtmlText.Mode.MAIN));
    assertThat(main).contains("headline", "paragraph").doesNotContain("home", "about", "site");
  }

  @Test
  void extract_main_withoutArticle_dropsNavigationAndFooter() {
    String page =
        "<body><nav>Menu items</nav><div>Real content here</div><footer>Legal</footer></body>";
    assertThat(words(HtmlText.extract(page, HtmlText.Mode.MAIN)))
        .containsExactly("real", "content", "here");
  }

  @Test
  void extract_malformed_degradesToTextBetweenTags() {
    assertThat(
            words(
                HtmlText.extract(
                    "<p>a < b <unclosed attr=\"x>y\" >c &bogus; &#xZZ;", HtmlText.Mode.VISIBLE)))
        .containsExactly("a", "b", "c", "bogus", "xzz");
    assertThat(HtmlText.extract("<script>never closed", HtmlText.Mode.VISIBLE)).isEmpty();
  }

  @Test
  void extract_sampleOfRealPages_agreesWithJsoupOnWords() {
    String[] pages = {
      "<html><body><div class=x><span>任三傑</span>，奉化（今屬浙江）人。</div><p>高宗紹興二十一年進士。</p></body></html>",
      "<body><table><tr><td>a&lt;b</td><td>c&gt;d</td></tr></table><ul><li>one<li>two</ul></body>",
      "<div><p>Tom &amp; Jerry&apos;s &quot;show&quot; &mdash; &hellip; &#8364;5</p></div>"
    };
    for (String p : pages) {
      assertThat(words(HtmlText.extract(p, HtmlText.Mode.VISIBLE)))
          .as(p)
          .isEqualTo(words(Jsoup.parse(p).body().text()));
    }
  }

  @Test
  void extract_rangeOfLargerArray_sameAsTheTextAlone() {
    // The fingerprinter passes its reused buffer's array: nothing outside [from, to) may be read,
    // though the chars around it (a tag, a comment, an end tag) would change the answer if it were.
    String[] parts = {
      "<",
      ">",
      "</",
      "<!--",
      "-->",
      "p",
      "DIV",
      "main",
      "article",
      "script",
      "nav",
      " ",
      "\"",
      "&",
      "&amp;",
      "&#x4e2d;",
      "中文",
      "text",
      "-",
      "h1",
      "/",
      "figcaption",
      "articles"
    };
    Random random = new Random(20);
    for (int t = 0; t < 20_000; t++) {
      StringBuilder page = new StringBuilder();
      for (int k = random.nextInt(30); k > 0; k--) {
        page.append(parts[random.nextInt(parts.length)]);
      }
      String text = page.toString();
      char[] around = ("<p>x<!--" + text + "--></main></article>").toCharArray();
      assertThat(HtmlText.looksLikeHtml(around, 8, 8 + text.length()))
          .as(text)
          .isEqualTo(HtmlText.looksLikeHtml(text));
      for (HtmlText.Mode mode : HtmlText.Mode.values()) {
        TextBuffer out = new TextBuffer();
        HtmlText.extract(around, 8, 8 + text.length(), mode, out);
        assertThat(out.toString()).as(text).isEqualTo(HtmlText.extract(text, mode));
      }
    }
  }

  @Test
  void tagNames_caseAndLengthAndOtherChars_keyedApart() {
    assertThat(HtmlText.extract("a<BR>b<Br/>c", HtmlText.Mode.VISIBLE)).isEqualTo("a\nb\nc");
    // Not block tags: longer, shorter or with other name chars than a known one.
    assertThat(HtmlText.extract("a<brx>b<b>c<br-x>d<figcaptionx>e", HtmlText.Mode.VISIBLE))
        .isEqualTo("abcde");
    assertThat(HtmlText.extract("a<script2>b</script2>c", HtmlText.Mode.VISIBLE)).isEqualTo("abc");
    assertThat(HtmlText.extract("<nav>x<nav>y</nav>z</nav>w", HtmlText.Mode.MAIN)).isEqualTo("w");
  }
}
