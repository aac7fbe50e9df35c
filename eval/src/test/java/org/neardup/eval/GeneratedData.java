// SPDX-License-Identifier: Apache-2.0
package org.neardup.eval;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.neardup.Analyzer;
import org.neardup.verify.ShingleSketch;

/**
 * A few hundred documents made from the tiny dataset's texts: recombined sentences and edited
 * copies of them (words and characters changed, dropped, added), so fingerprint distances and
 * similarities spread over the whole range the sweeps walk. Labelled with the engine's own exact
 * similarity, as every text has fewer shingles than the sketch keeps; the labels only need to be
 * consistent for these tests, which compare sweeps with direct runs.
 */
final class GeneratedData {
  private GeneratedData() {}

  static Dataset make(Analyzer analyzer, int bases, long seed) {
    Dataset tiny = TestData.tiny();
    List<String> en = new ArrayList<>();
    List<String> zh = new ArrayList<>();
    for (Dataset.Doc d : tiny.docs()) {
      if (d.text().startsWith("<")) {
        continue;
      }
      for (String s : d.text().split("(?<=[.;!?。；！？])\\s*")) {
        if (!s.isBlank()) {
          (d.lang().equals("zh") ? zh : en).add(s.trim());
        }
      }
    }
    SplittableRandom random = new SplittableRandom(seed);
    List<String> texts = new ArrayList<>();
    List<String> langs = new ArrayList<>();
    List<int[]> made = new ArrayList<>();
    for (int b = 0; b < bases; b++) {
      boolean isZh = random.nextBoolean();
      List<String> pool = isZh ? zh : en;
      StringBuilder text = new StringBuilder();
      for (int s = 1 + random.nextInt(4); s > 0; s--) {
        text.append(pool.get(random.nextInt(pool.size()))).append(isZh ? "" : " ");
      }
      int parent = texts.size();
      texts.add(text.toString().trim());
      langs.add(isZh ? "zh" : "en");
      for (int c = random.nextInt(4); c > 0; c--) {
        texts.add(edit(random, texts.get(parent), isZh, 1 + random.nextInt(6)));
        langs.add(isZh ? "zh" : "en");
        made.add(new int[] {parent, texts.size() - 1});
      }
    }
    List<Dataset.Doc> docs = new ArrayList<>();
    ShingleSketch[] sketches = new ShingleSketch[texts.size()];
    for (int i = 0; i < texts.size(); i++) {
      String len =
          texts.get(i).length() <= 200 ? "short" : texts.get(i).length() >= 500 ? "long" : "medium";
      docs.add(new Dataset.Doc(i, "g" + i, langs.get(i), len, texts.get(i)));
      sketches[i] = analyzer.analyze(texts.get(i)).sketch().shingles();
    }
    List<Dataset.Pair> pairs = new ArrayList<>();
    java.util.Set<Long> madeKeys = new java.util.HashSet<>();
    for (int[] m : made) {
      madeKeys.add(Scorer.key(m[0], m[1]));
    }
    for (int a = 0; a < texts.size(); a++) {
      for (int b = a + 1; b < texts.size(); b++) {
        if (!langs.get(a).equals(langs.get(b))) {
          continue;
        }
        double j = Math.floor(ShingleSketch.jaccard(sketches[a], sketches[b]) * 10000) / 10000;
        boolean isMade = madeKeys.contains(Scorer.key(a, b));
        if (j >= 0.5 || isMade) {
          String len = shorter(docs.get(a).lenClass(), docs.get(b).lenClass());
          pairs.add(new Dataset.Pair(a, b, j, isMade ? "word_edit" : "natural", langs.get(a), len));
        }
      }
    }
    return Dataset.of(Path.of("generated"), docs, pairs, 0.5);
  }

  private static String shorter(String a, String b) {
    List<String> rank = List.of("short", "medium", "long");
    return rank.indexOf(b) < rank.indexOf(a) ? b : a;
  }

  private static String edit(SplittableRandom random, String text, boolean zh, int edits) {
    List<String> t = new ArrayList<>(WordDiff.tokens(text));
    String[] words =
        zh
            ? new String[] {"雨", "风", "书", "面", "猫", "山"}
            : new String[] {"red", "old", "quiet", "seven", "river"};
    for (int e = 0; e < edits && !t.isEmpty(); e++) {
      int at = random.nextInt(t.size());
      switch (random.nextInt(3)) {
        case 0 -> t.set(at, words[random.nextInt(words.length)]);
        case 1 -> t.remove(at);
        default -> t.add(at, words[random.nextInt(words.length)] + (zh ? "" : " "));
      }
    }
    return String.join("", t);
  }
}
