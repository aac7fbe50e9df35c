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
  void rootCell_eachChar_theRootChildsCellWithItsSlot() {
    WordTrie t = build(List.of("清华大学", "清", "北京", "a"));
    for (int c = 0; c <= Character.MAX_VALUE; c++) {
      long rc = t.rootCell((char) c);
      int child = t.child(WordTrie.ROOT, (char) c);
      if (child < 0) {
        assertThat(rc).as("char %d", c).isZero();
      } else {
        // Same weight and children flag as the child's own cell, the slot where the key was.
        assertThat(WordTrie.rootSlot(rc)).isEqualTo(child);
        assertThat(WordTrie.weightIndex(rc)).isEqualTo(WordTrie.weightIndex(t.cell(child)));
        assertThat(WordTrie.hasChildren(rc)).isEqualTo(WordTrie.hasChildren(t.cell(child)));
      }
    }
    assertThat(WordTrie.hasChildren(t.rootCell('清'))).isTrue();
    assertThat(WordTrie.hasChildren(t.rootCell('a'))).isFalse();
  }

  @Test
  void child_everyCharBelowTheRoot_foundExactlyWhenAnEdge() {
    // The edge filter may only answer "no": every existing edge must still be found, and a
    // missing one must be -1 whether or not its filter bit happens to be set.
    java.util.SplittableRandom r = new java.util.SplittableRandom(7);
    for (int round = 0; round < 50; round++) {
      Set<String> words = words(r);
      WordTrie t = build(new ArrayList<>(words));
      for (String w : words) {
        char[] chars = w.toCharArray();
        for (int end = 1; end < chars.length; end++) {
          int node = t.find(chars, 0, end);
          assertThat(node).isPositive();
          for (char c : new char[] {'a', 'b', 'c', '中', '国', '\u0000', '\uFFFF', 'z'}) {
            boolean edge = false;
            for (String other : words) {
              edge |= other.length() > end && other.startsWith(w.substring(0, end) + c);
            }
            assertThat(t.child(node, c) >= 0).as("%s + %s", w.substring(0, end), c).isEqualTo(edge);
          }
        }
      }
    }
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
