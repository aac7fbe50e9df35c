// SPDX-License-Identifier: Apache-2.0
package org.neardup.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * NewsStream makes document i from (seed, i) alone: the same text whatever order it is asked in,
 * articles of the asked length, and reposts close to (but not the same as) their article.
 */
class NewsStreamTest {
  private static List<MutatedCorpus.Base> base() {
    List<MutatedCorpus.Base> b = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      b.add(new MutatedCorpus.Base("z" + i, "新闻报道第" + i + "段，内容关于城市交通和天气变化。", "zh"));
      b.add(
          new MutatedCorpus.Base(
              "e" + i, "Paragraph " + i + " of a report on city traffic.", "en"));
    }
    b.add(new MutatedCorpus.Base("h", "<html><p>left out</p></html>", "en"));
    return b;
  }

  @Test
  public void text_anyOrder_sameDocuments() {
    NewsStream s = new NewsStream(base(), 1000, 7, 300, 600, 0.4);
    StringBuilder sb = new StringBuilder();
    List<String> forward = new ArrayList<>();
    for (long i = 0; i < s.size(); i++) {
      forward.add(s.text(i, sb));
    }
    NewsStream again = new NewsStream(base(), 1000, 7, 300, 600, 0.4);
    for (long i = s.size() - 1; i >= 0; i--) {
      assertThat(again.text(i, new StringBuilder()))
          .as("document %s", i)
          .isEqualTo(forward.get((int) i));
    }
    for (int i = 0; i < 600; i++) {
      String t = forward.get(i);
      assertThat(t.length()).as("article %s", i).isBetween(299, 600);
      assertThat(t).doesNotContain("<html>");
      assertThat(s.id(i)).isEqualTo("news-" + i);
    }
  }

  @Test
  public void text_repost_isAMutatedCopyOfItsArticle() {
    NewsStream s = new NewsStream(base(), 1000, 7, 300, 600, 0.4);
    for (long i = 600; i < 1000; i++) {
      String article = s.text(i - 600, new StringBuilder());
      String repost = s.text(i, new StringBuilder());
      assertThat(s.id(i)).isEqualTo("news-" + (i - 600) + "~1");
      assertThat(repost).isNotEqualTo(article);
      // 1-5% of characters edited, and perhaps a credit or counter line added.
      assertThat(Math.abs(repost.length() - article.length()))
          .isLessThan(article.length() / 5 + 60);
    }
  }
}
