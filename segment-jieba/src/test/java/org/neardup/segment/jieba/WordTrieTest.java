// SPDX-License-Identifier: Apache-2.0
package org.neardup.segment.jieba;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class WordTrieTest {

  private static WordTrie build(List<String> words) {
    WordTrie.Builder b = new WordTrie.Builder();
    List<Integer> nodes = new ArrayList<>();
    for (String w : words) {
      char[] c = w.toCharArray();
      nodes.add(b.add(c, 0, c.length));
    }
    // Word i weighs -1 - i; weights[0] marks non-words.
    int[] weightIndex = new int[b.size()];
    double[] weights = new double[nodes.size() + 1];
    weights[0] = WordTrie.NOT_A_WORD;
    for (int i = 0; i < nodes.size(); i++) {
      weightIndex[nodes.get(i)] = i + 1;
      weights[i + 1] = -1 - i;
    }
    return b.build(weightIndex, weights);
  }

  @Test
  void find_wordsAndPrefixes_distinguished() {
    WordTrie t = build(List.of("清华大学", "清华", "北京"));
    assertThat(t.nodeCount()).isEqualTo(1 + 4 + 2);
    t.checkInvariants();
    char[] w = "清华大学北京".toCharArray();
    assertThat(t.isWord(w, 0, 4)).isTrue();
    assertThat(t.isWord(w, 0, 2)).isTrue();
    assertThat(t.isWord(w, 0, 3)).isFalse();
    assertThat(t.find(w, 0, 3)).isNotNegative();
    assertThat(t.isWord(w, 4, 6)).isTrue();
    assertThat(t.isWord(w, 0, 5)).isFalse();
    assertThat(t.find(w, 0, 5)).isEqualTo(-1);
    assertThat(t.isWord(w, 0, 0)).isFalse(); // the root is not a word
    assertThat(t.weight(t.find(w, 0, 2))).isEqualTo(-2.0);
  }

  @Test
  void child_leafAndMissingChar_minusOne() {
    WordTrie t = build(List.of("a"));
    int a = t.child(WordTrie.ROOT, 'a');
    assertThat(a).isPositive();
    assertThat(t.child(a, 'a')).isEqualTo(-1);
    assertThat(t.child(WordTrie.ROOT, 'b')).isEqualTo(-1);
    assertThat(t.child(WordTrie.ROOT, '\uFFFF')).isEqualTo(-1);
  }

  @Test
  void isWord_randomWordSets_exactlyTheWords() {
    java.util.SplittableRandom r = new java.util.SplittableRandom(200);
    for (int i = 0; i < 200; i++) {
      Set<String> words = words(r);
      Set<String> probes = words(r);
      WordTrie t = build(new ArrayList<>(words));
      t.checkInvariants();
      for (String w : words) {
        assertThat(t.isWord(w.toCharArray(), 0, w.length())).as(w).isTrue();
      }
      for (String p : probes) {
        assertThat(t.isWord(p.toCharArray(), 0, p.length())).as(p).isEqualTo(words.contains(p));
      }
    }
  }

  /**
   * Up to 200 words of 1-6 chars over a small alphabet, so words share prefixes; \u0000 and \uFFFF
   * probe the key packing.
   */
  private static Set<String> words(java.util.SplittableRandom r) {
    char[] alphabet = {'a', 'b', 'c', '中', '国', '\u0000', '\uFFFF'};
    Set<String> out = new java.util.HashSet<>();
    int n = r.nextInt(201);
    for (int i = 0; i < n; i++) {
      StringBuilder w = new StringBuilder();
      for (int len = r.nextInt(1, 7); len > 0; len--) {
        w.append(alphabet[r.nextInt(alphabet.length)]);
      }
      out.add(w.toString());
    }
    return out;
  }
}
