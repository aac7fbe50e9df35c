// SPDX-License-Identifier: Apache-2.0
package org.neardup.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * News-length articles and their reposts made on the fly, for loads too large for a corpus file
 * (50M documents of {@link NewsCorpus} would be ~200 GB of JSON): document {@code i} is a function
 * of (seed, i) alone, so memory is the base corpus, whatever the count. The first {@code docs * (1
 * - share)} documents are articles (real texts of one language from the base corpus joined and cut
 * to MIN-MAX characters, zh and en alternating, as {@link NewsCorpus} makes them); the rest are
 * reposts of them in the same order, mutated as {@link MutatedCorpus#mutate} mutates. Same
 * arguments, same documents; not the same bytes as {@link NewsCorpus}, which draws its articles
 * from one random sequence.
 *
 * <p>Not thread-safe: one reader; {@link #text} may be called from several threads at once.
 */
final class NewsStream {
  private final List<String> zh = new ArrayList<>();
  private final List<String> en = new ArrayList<>();
  private final long docs;
  private final long articles;
  private final long seed;
  private final int min;
  private final int max;

  NewsStream(List<MutatedCorpus.Base> base, long docs, long seed, int min, int max, double share) {
    if (docs < 1 || min < 1 || max < min || share < 0 || share >= 1) {
      throw new IllegalArgumentException(
          "need docs >= 1, 1 <= min <= max and 0 <= share < 1, got "
              + docs
              + ", "
              + min
              + ", "
              + max
              + ", "
              + share);
    }
    for (MutatedCorpus.Base b : base) {
      String t = b.text().strip();
      if (!t.isEmpty() && !t.startsWith("<")) {
        ("zh".equals(b.lang()) ? zh : en).add(t);
      }
    }
    if (zh.isEmpty() && en.isEmpty()) {
      throw new IllegalArgumentException("the base corpus has no plain text");
    }
    this.docs = docs;
    this.articles = Math.max(1, (long) Math.ceil(docs * (1 - share)));
    this.seed = seed;
    this.min = min;
    this.max = max;
  }

  long size() {
    return docs;
  }

  /** Document i's id: {@code news-A} for article A, {@code news-A~R} for its R-th repost. */
  String id(long i) {
    return i < articles ? "news-" + i : "news-" + (i % articles) + "~" + (i / articles);
  }

  /** Document i's text; {@code scratch} is reused. */
  String text(long i, StringBuilder scratch) {
    String article = article(i % articles, scratch);
    return i < articles ? article : MutatedCorpus.mutate(article, seed, i, scratch);
  }

  private String article(long a, StringBuilder sb) {
    SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L ^ (a + 1));
    List<String> from = (a % 2 == 0 && !zh.isEmpty()) || en.isEmpty() ? zh : en;
    int target = min + random.nextInt(max - min + 1);
    sb.setLength(0);
    while (sb.length() < target) {
      if (sb.length() > 0) {
        sb.append('\n');
      }
      sb.append(from.get(random.nextInt(from.size())));
    }
    int cut = target;
    if (Character.isHighSurrogate(sb.charAt(cut - 1))) {
      cut--;
    }
    sb.setLength(cut);
    return sb.toString();
  }
}
