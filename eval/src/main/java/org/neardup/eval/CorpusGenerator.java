// SPDX-License-Identifier: Apache-2.0
package org.neardup.eval;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.GZIPInputStream;

/**
 * A reproducible synthetic corpus with known near-duplicates, for benchmarks at scale (the same
 * seed always gives the same texts).
 *
 * <p>Half Chinese, half English. Chinese words are drawn from jieba's dictionary (the resource of
 * module {@code neardup-segment-jieba}, which must be on the class path) by frequency; English
 * words from a vocabulary whose hundred most frequent words are English's most frequent words (the,
 * of, and, ..., most of them stop words, as in real text) and whose other 49,900 are pronounceable
 * syllable strings. Words follow Zipf's law over their rank, as in natural text, and each text also
 * has a topic: 24 words of its own, drawn once, which make a fifth of its words, so that unrelated
 * texts differ in their frequent content words as real ones do. Lengths: half short (40-200
 * characters), 30% medium (200-500), 20% long (500-3000). A share of the texts ({@code dupRate})
 * are copies of a recent text with repost-like edits: a few words replaced, a sentence added,
 * boilerplate ("转载请注明出处", "Read more at ...") appended, a counter or date line added, the tail
 * truncated. Copies are drawn from a sliding window of the last 10,000 texts, like reposts of
 * recent news. Not thread-safe.
 */
public final class CorpusGenerator {
  private static final String[] SYLLABLES = {
    "ka", "ro", "mi", "ten", "sa", "lo", "ve", "dar", "pi", "nu", "ex", "tor", "ba", "li", "con",
        "fer",
    "ma", "gi", "re", "sol", "tu", "pre", "an", "di", "ol", "vi", "ser", "mo", "ne", "cal", "par",
        "is"
  };

  private final SplittableRandom r;
  private final double dupRate;
  private final String[] zh;
  private final String[] en;
  private final double topicShare;
  private final List<String> recent = new ArrayList<>();

  /**
   * English's most frequent words, most frequent first; they take the top ranks of the vocabulary.
   */
  private static final String[] FREQUENT =
      ("the of and to a in is that for it as was with be by on not he i this are or his from"
              + " at which but have an had they you were their one all we can her has there been"
              + " if more when will would who so no she other its may these what them than some"
              + " him time into only do such about over new two first after also said most could"
              + " like any our out up then how my where me made many just now between well before"
              + " through very each us those much")
          .split(" ");

  /** Words per topic, and the share of a text's words drawn from its topic. */
  private static final int TOPIC_WORDS = 24;

  private static final double TOPIC_SHARE = 0.2;

  /**
   * @param seed the random seed
   * @param dupRate the share of texts that are edited copies of earlier ones, in [0, 1)
   * @throws IOException if jieba's dictionary cannot be read from the class path
   */
  public CorpusGenerator(long seed, double dupRate) throws IOException {
    this(seed, dupRate, false);
  }

  /**
   * As {@link #CorpusGenerator(long, double)}, or with {@code crowded} a stress case for skew: the
   * English texts use syllable strings only, with neither English's frequent words nor topics, so
   * the same few made-up words (unknown to the IDF table and to the stop list) are the most
   * frequent in every text and English fingerprints crowd into a few neighbourhoods.
   */
  public CorpusGenerator(long seed, double dupRate, boolean crowded) throws IOException {
    if (!(dupRate >= 0 && dupRate < 1)) {
      throw new IllegalArgumentException("dupRate must be in [0, 1), got " + dupRate);
    }
    this.r = new SplittableRandom(seed);
    this.dupRate = dupRate;
    this.zh = chineseWords();
    this.en = englishWords(new SplittableRandom(seed ^ 0x5DEECE66DL), 50_000, !crowded);
    this.topicShare = crowded ? 0 : TOPIC_SHARE;
  }

  /** The next text. */
  public String next() {
    String text;
    if (!recent.isEmpty() && r.nextDouble() < dupRate) {
      text = edit(r, recent.get(r.nextInt(recent.size())), zh, en);
    } else {
      boolean chinese = r.nextBoolean();
      double len = r.nextDouble();
      int chars =
          len < 0.5
              ? 40 + r.nextInt(160)
              : len < 0.8 ? 200 + r.nextInt(300) : 500 + r.nextInt(2500);
      text = chinese ? chinese(r, zh, chars) : english(r, en, chars, topicShare);
    }
    if (recent.size() < 10_000) {
      recent.add(text);
    } else {
      recent.set(r.nextInt(recent.size()), text);
    }
    return text;
  }

  private static String[] chineseWords() throws IOException {
    try (InputStream in =
        CorpusGenerator.class.getResourceAsStream("/org/neardup/segment/jieba/dict.txt.gz")) {
      if (in == null) {
        throw new IOException(
            "jieba's dictionary is not on the class path (module neardup-segment-jieba)");
      }
      List<String[]> entries = new ArrayList<>();
      BufferedReader r =
          new BufferedReader(
              new InputStreamReader(new GZIPInputStream(in), StandardCharsets.UTF_8));
      for (String line; (line = r.readLine()) != null; ) {
        String[] p = line.split(" ");
        if (p.length >= 2
            && p[0].codePoints()
                .allMatch(c -> Character.UnicodeScript.of(c) == Character.UnicodeScript.HAN)) {
          entries.add(p);
        }
      }
      entries.sort((a, b) -> Long.compare(Long.parseLong(b[1]), Long.parseLong(a[1])));
      String[] words = new String[Math.min(50_000, entries.size())];
      for (int i = 0; i < words.length; i++) {
        words[i] = entries.get(i)[0];
      }
      return words;
    }
  }

  private static String[] englishWords(SplittableRandom r, int n, boolean frequentWords) {
    String[] words = new String[n];
    java.util.Set<String> seen = new java.util.HashSet<>();
    int first = frequentWords ? FREQUENT.length : 0;
    System.arraycopy(FREQUENT, 0, words, 0, first);
    seen.addAll(Arrays.asList(FREQUENT));
    for (int i = first; i < n; ) {
      StringBuilder b = new StringBuilder();
      int syllables = 1 + (int) Math.min(4, Math.abs(r.nextGaussian() * 1.2) + (i > 200 ? 1 : 0));
      for (int s = 0; s < syllables; s++) {
        b.append(SYLLABLES[r.nextInt(SYLLABLES.length)]);
      }
      if (seen.add(b.toString())) {
        words[i++] = b.toString();
      }
    }
    return words;
  }

  /** A Zipf-like draw: rank ~ n^u, so low ranks (frequent words) dominate. */
  private static String draw(SplittableRandom r, String[] words) {
    int rank = (int) Math.pow(words.length, r.nextDouble()) - 1;
    return words[Math.min(words.length - 1, Math.max(0, rank))];
  }

  /** A text's topic: words of middle and low frequency (ranks from 100 on), drawn uniformly. */
  private static String[] topic(SplittableRandom r, String[] words) {
    String[] t = new String[TOPIC_WORDS];
    for (int i = 0; i < t.length; i++) {
      t[i] = words[100 + r.nextInt(words.length - 100)];
    }
    return t;
  }

  /** A word of the text: from its topic, or from the whole vocabulary by Zipf's law. */
  private static String word(SplittableRandom r, String[] words, String[] topic, double share) {
    return r.nextDouble() < share ? topic[r.nextInt(topic.length)] : draw(r, words);
  }

  private static String chinese(SplittableRandom r, String[] zh, int chars) {
    StringBuilder b = new StringBuilder(chars + 16);
    String[] topic = topic(r, zh);
    int sentence = 0;
    while (b.length() < chars) {
      b.append(word(r, zh, topic, TOPIC_SHARE));
      if (++sentence > 6 + r.nextInt(10)) {
        b.append(r.nextInt(4) == 0 ? "；" : "，");
        if (r.nextInt(3) == 0) {
          b.append("。");
        }
        sentence = 0;
      }
    }
    return b.append("。").toString();
  }

  private static String english(SplittableRandom r, String[] en, int chars, double topicShare) {
    StringBuilder b = new StringBuilder(chars + 16);
    int sentence = 0;
    boolean capital = true;
    String[] topic = topic(r, en);
    while (b.length() < chars) {
      String w = word(r, en, topic, topicShare);
      b.append(capital ? Character.toUpperCase(w.charAt(0)) + w.substring(1) : w);
      capital = false;
      if (++sentence > 8 + r.nextInt(12)) {
        b.append(". ");
        capital = true;
        sentence = 0;
      } else {
        b.append(' ');
      }
    }
    return b.toString().trim() + ".";
  }

  private static String edit(SplittableRandom r, String text, String[] zh, String[] en) {
    boolean chinese =
        text.codePoints()
            .anyMatch(c -> Character.UnicodeScript.of(c) == Character.UnicodeScript.HAN);
    String[] vocab = chinese ? zh : en;
    String sep = chinese ? "" : " ";
    switch (r.nextInt(6)) {
      case 0: // a few words replaced
      case 1:
        {
          List<String> parts =
              new ArrayList<>(Arrays.asList(chinese ? text.split("(?<=，)") : text.split(" ")));
          for (int e = 1 + r.nextInt(3); e > 0 && !parts.isEmpty(); e--) {
            parts.set(r.nextInt(parts.size()), draw(r, vocab) + (chinese ? "，" : ""));
          }
          return String.join(sep, parts);
        }
      case 2: // boilerplate appended
        return text
            + (chinese
                ? "\n转载请注明出处。原标题：" + draw(r, zh) + draw(r, zh)
                : "\nRead more at www." + draw(r, en) + ".com");
      case 3: // counter and date line added or changed
        return (chinese
                ? r.nextInt(100000) + "人阅读 · " + r.nextInt(5000) + "条评论\n"
                : r.nextInt(100000) + " views, " + r.nextInt(5000) + " likes\n")
            + text.replaceAll("^[0-9]+ (views|人阅读).*\n", "");
      case 4: // truncated tail
        return text.substring(0, Math.max(1, text.length() * (85 + r.nextInt(15)) / 100));
      default: // a sentence added
        return text
            + (chinese
                ? draw(r, zh) + draw(r, zh) + draw(r, zh) + "。"
                : " " + draw(r, en) + " " + draw(r, en) + " " + draw(r, en) + ".");
    }
  }
}
