// SPDX-License-Identifier: Apache-2.0
package org.neardup.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.neardup.text.Lexicon;

/** SegmenterBenchmark cuts what it says it cuts, into the words the segmenter gives directly. */
class SegmenterBenchmarkTest {
  @Test
  void segment_builtInSample_countsTheSegmentersWords() throws IOException {
    SegmenterBenchmark b = new SegmenterBenchmark();
    b.corpus = "";
    b.setUp(); // also checks the words of two known sentences
    int words = b.segment();
    int[] direct = {0};
    char[] sentence = "我来到北京清华大学".toCharArray();
    Lexicon.load("jieba")
        .segmenter()
        .segment(sentence, 0, sentence.length, (t, s, e) -> direct[0]++);
    assertThat(direct[0]).isEqualTo(4);
    // About CHARS Han chars at 1.5-2 chars per word.
    assertThat(words).isBetween(SegmenterBenchmark.CHARS / 4, SegmenterBenchmark.CHARS);
    assertThat(b.segment()).isEqualTo(words);
  }
}
