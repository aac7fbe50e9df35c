// SPDX-License-Identifier: Apache-2.0
package org.neardup.eval;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class WordDiffTest {
  @Test
  void tokens_wordsSpacesPunctuationAndSingleHanCharacters() {
    assertThat(WordDiff.tokens("Hello,  world 42!"))
        .containsExactly("Hello", ",", "  ", "world", " ", "42", "!");
    assertThat(WordDiff.tokens("今天下雨abc了。")).containsExactly("今", "天", "下", "雨", "abc", "了", "。");
    assertThat(String.join("", WordDiff.tokens("naïve café\tété"))).isEqualTo("naïve café\tété");
    assertThat(WordDiff.tokens("")).isEmpty();
  }

  @Test
  void diff_oneChangedWord_marksOnlyThatWord() {
    List<WordDiff.Span> d = WordDiff.diff("the night train left late", "the night bus left late");
    assertThat(d)
        .containsExactly(
            new WordDiff.Span(WordDiff.Op.SAME, "the night ", "the night ", 4),
            new WordDiff.Span(WordDiff.Op.DELETED, "train", "", 1),
            new WordDiff.Span(WordDiff.Op.INSERTED, "", "bus", 1),
            new WordDiff.Span(WordDiff.Op.SAME, " left late", " left late", 4));
  }

  @Test
  void diff_chinese_characterLevel() {
    List<WordDiff.Span> d = WordDiff.diff("行人都撑着伞走过", "行人都打着伞走过");
    assertThat(d)
        .extracting(WordDiff.Span::op, WordDiff.Span::text)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(WordDiff.Op.SAME, "行人都"),
            org.assertj.core.groups.Tuple.tuple(WordDiff.Op.DELETED, "撑"),
            org.assertj.core.groups.Tuple.tuple(WordDiff.Op.INSERTED, "打"),
            org.assertj.core.groups.Tuple.tuple(WordDiff.Op.SAME, "着伞走过"));
  }

  @Test
  void diff_onlyWhitespaceDiffers_allSameWithEachSidesOwnSpacing() {
    List<WordDiff.Span> d = WordDiff.diff("a  b\nc", "a b c");
    assertThat(d).containsExactly(new WordDiff.Span(WordDiff.Op.SAME, "a  b\nc", "a b c", 5));
  }

  @Test
  void diff_emptySides() {
    assertThat(WordDiff.diff("", "")).isEmpty();
    assertThat(WordDiff.diff("a b", ""))
        .containsExactly(new WordDiff.Span(WordDiff.Op.DELETED, "a b", "", 3));
    assertThat(WordDiff.diff("", "a b"))
        .containsExactly(new WordDiff.Span(WordDiff.Op.INSERTED, "", "a b", 3));
  }

  /**
   * Against a dynamic-programming LCS on random token strings over small alphabets (many repeats,
   * the hard case for diff): both texts are rebuilt from the spans, and the SAME tokens are a
   * longest common subsequence.
   */
  @Test
  void diff_randomTexts_rebuildsBothAndKeepsALongestCommonSubsequence() {
    SplittableRandom random = new SplittableRandom(1986);
    for (int round = 0; round < 500; round++) {
      int alphabet = 1 + random.nextInt(6);
      String a = randomText(random, random.nextInt(40), alphabet);
      String b =
          random.nextBoolean()
              ? mutate(random, a, alphabet)
              : randomText(random, random.nextInt(40), alphabet);
      List<WordDiff.Span> d = WordDiff.diff(a, b);
      String left = d.stream().map(WordDiff.Span::a).collect(Collectors.joining());
      String right = d.stream().map(WordDiff.Span::b).collect(Collectors.joining());
      assertThat(left).as("a of round %s", round).isEqualTo(a);
      assertThat(right).as("b of round %s", round).isEqualTo(b);
      int same =
          d.stream().filter(s -> s.op() == WordDiff.Op.SAME).mapToInt(WordDiff.Span::tokens).sum();
      assertThat(same)
          .as("LCS of '%s' and '%s'", a, b)
          .isEqualTo(lcsLength(WordDiff.tokens(a), WordDiff.tokens(b)));
      for (int k = 1; k < d.size(); k++) {
        assertThat(d.get(k).op()).isNotEqualTo(d.get(k - 1).op());
      }
    }
  }

  @Test
  void diff_longTextsWithScatteredEdits_fast() {
    SplittableRandom random = new SplittableRandom(3);
    String a = randomText(random, 20_000, 500);
    String b = mutate(random, a, 500);
    long t0 = System.nanoTime();
    List<WordDiff.Span> d = WordDiff.diff(a, b);
    assertThat((System.nanoTime() - t0) / 1e9).isLessThan(5.0);
    assertThat(d.stream().filter(s -> s.op() == WordDiff.Op.SAME).count()).isGreaterThan(1);
  }

  private static String randomText(SplittableRandom random, int words, int alphabet) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < words; i++) {
      if (i > 0) {
        s.append(random.nextInt(8) == 0 ? ", " : " ");
      }
      s.append("w").append(random.nextInt(alphabet));
    }
    return s.toString();
  }

  private static String mutate(SplittableRandom random, String a, int alphabet) {
    List<String> t = new java.util.ArrayList<>(WordDiff.tokens(a));
    for (int e = random.nextInt(1, 8); e > 0; e--) {
      int at = t.isEmpty() ? 0 : random.nextInt(t.size());
      switch (random.nextInt(3)) {
        case 0 -> t.add(at, "w" + random.nextInt(alphabet) + " ");
        case 1 -> {
          if (!t.isEmpty()) {
            t.remove(at);
          }
        }
        default -> {
          if (!t.isEmpty()) {
            t.set(at, "x" + random.nextInt(alphabet));
          }
        }
      }
    }
    return String.join("", t);
  }

  private static int lcsLength(List<String> a, List<String> b) {
    int[][] l = new int[a.size() + 1][b.size() + 1];
    for (int i = a.size() - 1; i >= 0; i--) {
      for (int j = b.size() - 1; j >= 0; j--) {
        boolean same =
            a.get(i).equals(b.get(j)) || WordDiff.isSpace(a.get(i)) && WordDiff.isSpace(b.get(j));
        l[i][j] = same ? l[i + 1][j + 1] + 1 : Math.max(l[i + 1][j], l[i][j + 1]);
      }
    }
    return l[0][0];
  }
}
