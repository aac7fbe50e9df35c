// SPDX-License-Identifier: Apache-2.0
package org.neardup.text;

import org.jspecify.annotations.Nullable;

/**
 * Cuts normalised text into words: runs of Han characters go to a {@link Segmenter}; runs of other
 * letters, digits and combining marks (Latin, Cyrillic, Greek, kana, Hangul, ...) are one word
 * each; everything else (spaces, punctuation, symbols) separates words.
 *
 * <p>Thread-safe if its segmenter is. Allocates nothing per word.
 */
public final class Tokenizer {
  private final @Nullable Segmenter segmenter;

  /**
   * @param segmenter cuts Han runs into words; null makes every Han character a word of its own
   */
  public Tokenizer(@Nullable Segmenter segmenter) {
    this.segmenter = segmenter;
  }

  /** Calls {@code sink} once per word of {@code text[start, end)}, in order. */
  public void tokenize(char[] text, int start, int end, WordSink sink) {
    int i = start;
    while (i < end) {
      byte cls = CharClass.at(text, i, end);
      if (cls == CharClass.SEPARATOR) {
        i += Character.isHighSurrogate(text[i]) && i + 1 < end ? 2 : 1;
        continue;
      }
      int runStart = i;
      while (i < end) {
        byte next = CharClass.at(text, i, end);
        if (next != cls) {
          break;
        }
        i += Character.isHighSurrogate(text[i]) ? 2 : 1;
      }
      if (cls == CharClass.WORD) {
        sink.word(text, runStart, i);
      } else if (segmenter != null) {
        segmenter.segment(text, runStart, i, sink);
      } else {
        for (int j = runStart; j < i; ) {
          int len = Character.isHighSurrogate(text[j]) && j + 1 < i ? 2 : 1;
          sink.word(text, j, j + len);
          j += len;
        }
      }
    }
  }
}
