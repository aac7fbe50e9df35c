// SPDX-License-Identifier: Apache-2.0
package org.neardup;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Seeded random texts with edited copies, for tests that need near-duplicates. */
final class TestCorpus {
  private static final String[] WORDS = {
    "river", "mountain", "city", "council", "budget", "school", "garden", "market", "train",
        "music",
    "winter", "summer", "doctor", "bridge", "festival", "library", "harbor", "forest", "museum",
        "court",
    "engine", "paper", "window", "silver", "orange", "planet", "storm", "valley", "castle",
        "island",
    "公园", "学校", "预算", "城市", "音乐", "医生", "图书馆", "港口", "森林", "博物馆"
  };

  private TestCorpus() {}

  static String text(SplittableRandom r, int words) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < words; i++) {
      b.append(WORDS[r.nextInt(WORDS.length)])
          .append(r.nextInt(1000))
          .append(i % 12 == 11 ? ". " : " ");
    }
    return b.toString();
  }

  /** A copy with {@code edits} words replaced. */
  static String edit(SplittableRandom r, String text, int edits) {
    String[] w = text.split(" ");
    for (int i = 0; i < edits; i++) {
      w[r.nextInt(w.length)] = "edit" + r.nextInt(100000);
    }
    return String.join(" ", w);
  }

  /** Groups of a base text and copies with 0-3 word edits, plus unrelated texts, shuffled. */
  static List<String> corpus(long seed, int groups, int copies, int words) {
    SplittableRandom r = new SplittableRandom(seed);
    List<String> out = new ArrayList<>();
    for (int g = 0; g < groups; g++) {
      String base = text(r, words);
      out.add(base);
      for (int c = 0; c < copies; c++) {
        out.add(edit(r, base, r.nextInt(4)));
      }
    }
    for (int i = out.size() - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      String t = out.get(i);
      out.set(i, out.get(j));
      out.set(j, t);
    }
    return out;
  }
}
