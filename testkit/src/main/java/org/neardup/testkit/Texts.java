// SPDX-License-Identifier: Apache-2.0
package org.neardup.testkit;

import java.util.SplittableRandom;

/**
 * Seeded generators of texts for deduplication tests: distinct texts that share no shingles with
 * each other, and near-copies of them. Every method takes the caller's {@link SplittableRandom}.
 */
public final class Texts {
  private Texts() {}

  /** A random lowercase word of 4 to 9 letters. */
  public static String word(SplittableRandom random) {
    int n = 4 + random.nextInt(6);
    char[] c = new char[n];
    for (int i = 0; i < n; i++) {
      c[i] = (char) ('a' + random.nextInt(26));
    }
    return new String(c);
  }

  /** A text of {@code words} random words: unrelated to any other such text. */
  public static String text(SplittableRandom random, int words) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < words; i++) {
      if (i > 0) {
        sb.append(' ');
      }
      sb.append(word(random));
    }
    return sb.toString();
  }

  /**
   * {@code text} with one word replaced by a random one: a near-duplicate (Jaccard of word
   * 3-shingles about {@code (n - 3) / (n + 3)} for n words).
   */
  public static String edit(SplittableRandom random, String text) {
    String[] words = text.split(" ");
    words[random.nextInt(words.length)] = word(random);
    return String.join(" ", words);
  }
}
