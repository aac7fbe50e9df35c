// SPDX-License-Identifier: Apache-2.0
package org.neardup.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Writes a corpus of news-length articles with reposts, for measuring the service at the seeds'
 * scale (issue 18): each article is a run of real texts of one language from a JSONL corpus (the
 * dev set), joined by line breaks and cut to MIN-MAX characters (1,500-3,000 by default: 2-5 KB of
 * UTF-8, zh and en alternating), and a share of the corpus are reposts of earlier articles mutated
 * as {@link MutatedCorpus} mutates (1-5% of characters changed, some with a credit or counter
 * line).
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar org.neardup.benchmarks.NewsCorpus \
 *     BASE.jsonl DOCS OUT.jsonl [SEED] [MIN MAX] [REPOST_SHARE]
 * </pre>
 *
 * <p>The first {@code DOCS * (1 - REPOST_SHARE)} lines (REPOST_SHARE 0.4 by default) are distinct
 * articles, the rest reposts of them in the same order, as in {@link MutatedCorpus}. HTML pages of
 * the base corpus are left out (an article is plain text). Same arguments, same bytes.
 */
public final class NewsCorpus {
  private NewsCorpus() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 3 || args.length > 7 || args.length == 5) {
      System.err.println("usage: NewsCorpus BASE.jsonl DOCS OUT.jsonl [SEED] [MIN MAX] [SHARE]");
      System.exit(2);
    }
    List<MutatedCorpus.Base> base = MutatedCorpus.read(Path.of(args[0]));
    long docs = Long.parseLong(args[1].replace("_", ""));
    Path out = Path.of(args[2]);
    long seed = args.length > 3 ? Long.parseLong(args[3]) : 20261124L;
    int min = args.length > 5 ? Integer.parseInt(args[4]) : 1500;
    int max = args.length > 5 ? Integer.parseInt(args[5]) : 3000;
    double share = args.length > 6 ? Double.parseDouble(args[6]) : 0.4;
    if (docs < 1 || min < 1 || max < min || share < 0 || share >= 1) {
      System.err.println("need DOCS >= 1, 1 <= MIN <= MAX and 0 <= SHARE < 1");
      System.exit(2);
    }
    int articles =
        (int) Math.max(1, Math.min(Integer.MAX_VALUE - 8, Math.ceil(docs * (1 - share))));
    List<MutatedCorpus.Base> news = articles(base, articles, seed, min, max);
    long bytes = MutatedCorpus.write(news, docs, seed, out);
    System.err.printf(
        Locale.ROOT,
        "%d documents: %d articles of %d-%d characters and %d reposts, %.1f MB%n",
        docs,
        news.size(),
        min,
        max,
        Math.max(0, docs - news.size()),
        bytes / 1e6);
  }

  /** {@code count} articles, zh and en alternating, each of MIN-MAX characters. */
  static List<MutatedCorpus.Base> articles(
      List<MutatedCorpus.Base> base, int count, long seed, int min, int max) {
    List<String> zh = new ArrayList<>();
    List<String> en = new ArrayList<>();
    for (MutatedCorpus.Base b : base) {
      String t = b.text().strip();
      if (t.isEmpty() || t.startsWith("<")) {
        continue;
      }
      ("zh".equals(b.lang()) ? zh : en).add(t);
    }
    if (zh.isEmpty() && en.isEmpty()) {
      throw new IllegalArgumentException("the base corpus has no plain text");
    }
    SplittableRandom random = new SplittableRandom(seed);
    List<MutatedCorpus.Base> out = new ArrayList<>(count);
    StringBuilder sb = new StringBuilder(max + 4096);
    for (int i = 0; i < count; i++) {
      List<String> from = (i % 2 == 0 && !zh.isEmpty()) || en.isEmpty() ? zh : en;
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
      out.add(new MutatedCorpus.Base("news-" + i, sb.toString(), from == zh ? "zh" : "en"));
    }
    return out;
  }
}
