// SPDX-License-Identifier: Apache-2.0
package org.neardup.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TokenizerTest {
  private static List<String> words(Tokenizer t, String normalized) {
    List<String> out = new ArrayList<>();
    char[] c = normalized.toCharArray();
    t.tokenize(c, 0, c.length, (text, s, e) -> out.add(new String(text, s, e - s)));
    return out;
  }

  @Test
  void tokenize_withoutSegmenter_cutsHanIntoCharactersAndKeepsWords() {
    assertThat(words(new Tokenizer(null), "iphone12手机, it's 2024!"))
        .containsExactly("iphone12", "手", "机", "it", "s", "2024");
  }

  @Test
  void tokenize_withSegmenter_sendsWholeHanRuns() {
    List<String> runs = new ArrayList<>();
    Segmenter whole =
        new Segmenter() {
          @Override
          public void segment(char[] text, int start, int end, WordSink sink) {
            runs.add(new String(text, start, end - start));
            sink.word(text, start, end);
          }

          @Override
          public String id() {
            return "whole";
          }
        };
    assertThat(words(new Tokenizer(whole), "我们去公园，then 散步")).containsExactly("我们去公园", "then", "散步");
    assertThat(runs).containsExactly("我们去公园", "散步");
  }

  @Test
  void tokenize_punctuationOnly_yieldsNothing() {
    assertThat(words(new Tokenizer(null), "  ,.;!?——…  ")).isEmpty();
  }

  @Test
  void tokenize_supplementaryHan_isOneWord() {
    assertThat(words(new Tokenizer(null), "\uD840\uDC00a")).containsExactly("\uD840\uDC00", "a");
  }

  @Test
  void tokenize_mixedRunSegmenter_getsHanAsciiAndJoinersTogether() {
    List<String> runs = new ArrayList<>();
    Segmenter whole =
        new Segmenter() {
          @Override
          public void segment(char[] text, int start, int end, WordSink sink) {
            runs.add(new String(text, start, end - start));
            // Splits at '+' the way jieba returns punctuation pieces, to check they are dropped.
            int s = start;
            for (int i = start; i <= end; i++) {
              if (i == end || text[i] == '+') {
                if (s < i) {
                  sink.word(text, s, i);
                }
                if (i < end) {
                  sink.word(text, i, i + 1);
                }
                s = i + 1;
              }
            }
          }

          @Override
          public boolean cutsMixedRuns() {
            return true;
          }

          @Override
          public String id() {
            return "whole";
          }
        };
    assertThat(words(new Tokenizer(whole), "江南style, 4s店 c+d café москва 3.5% 价3.5% -- ++ x-y"))
        .containsExactly("江南style", "4s店", "c", "d", "café", "москва", "3", "5", "价3.5%", "x", "y");
    // Only runs with Han or + # & are sent; joiner-only runs are not; a word with a non-ASCII
    // letter is never part of a run; ASCII joined by . _ % - is cut as plain words.
    assertThat(runs).containsExactly("江南style", "4s店", "c+d", "价3.5%");
  }

  /**
   * The ASCII fast path of mixed tokenization gives exactly the general path's words and sends the
   * segmenter exactly the same runs, on random text mixing ASCII letters, digits, joiners and other
   * punctuation with Han, non-ASCII letters and surrogate pairs.
   */
  @Test
  void tokenizeMixed_asciiFastPath_sameAsGeneralPath() {
    String alphabet = "abcXYZ0189 +#&._%-,;:!?/()\"'\n\t江南店价éмü\u3007";
    java.util.Random random = new java.util.Random(20261124);
    for (int round = 0; round < 20_000; round++) {
      StringBuilder b = new StringBuilder();
      int n = random.nextInt(40);
      for (int i = 0; i < n; i++) {
        if (random.nextInt(30) == 0) {
          b.appendCodePoint(0x20000 + random.nextInt(10)); // CJK extension B: a surrogate pair
        } else {
          b.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
      }
      String text = b.toString();
      List<String> fastRuns = new ArrayList<>();
      List<String> slowRuns = new ArrayList<>();
      List<String> fast = words(new Tokenizer(recording(fastRuns), true), text);
      List<String> slow = words(new Tokenizer(recording(slowRuns), false), text);
      assertThat(fast).as("words of '%s'", text).isEqualTo(slow);
      assertThat(fastRuns).as("runs of '%s'", text).isEqualTo(slowRuns);
    }
  }

  /** A mixed-run segmenter that records its runs and cuts them at every char class change. */
  private static Segmenter recording(List<String> runs) {
    return new Segmenter() {
      @Override
      public void segment(char[] text, int start, int end, WordSink sink) {
        runs.add(new String(text, start, end - start));
        int s = start;
        for (int i = start + 1; i <= end; i++) {
          if (i == end || Character.isLetter(text[i]) != Character.isLetter(text[i - 1])) {
            if (!(i < end && Character.isLowSurrogate(text[i]))) {
              sink.word(text, s, i);
              s = i;
            }
          }
        }
      }

      @Override
      public boolean cutsMixedRuns() {
        return true;
      }

      @Override
      public String id() {
        return "recording";
      }
    };
  }
}
