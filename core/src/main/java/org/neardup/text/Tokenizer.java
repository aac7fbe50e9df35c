// SPDX-License-Identifier: Apache-2.0
package org.neardup.text;

import org.jspecify.annotations.Nullable;

/**
 * Cuts normalised text into words: runs of Han characters go to a {@link Segmenter}; runs of other
 * letters, digits and combining marks (Latin, Cyrillic, Greek, kana, Hangul, ...) are one word
 * each; everything else (spaces, punctuation, symbols) separates words.
 *
 * <p>With a segmenter that {@link Segmenter#cutsMixedRuns() cuts mixed runs} (jieba), the unit sent
 * to it is wider, as jieba's own {@code cut} splits text into blocks: a maximal sequence of Han
 * runs, runs of ASCII letters and digits, and the joiners {@code + # & . _ % -}, so that words such
 * as {@code 江南style}, {@code 4s店} or {@code c++} can be found. Such a sequence goes to the
 * segmenter only when it holds a Han character or one of {@code + # &}; one of ASCII letters and
 * digits joined only by {@code . _ % -} ({@code 3.5%}, {@code e-mail}, {@code www.example.com}) is
 * cut as before, a word per run of letters and digits, as the dev set's label cuts English (cut by
 * jieba, {@code 3.5%} would be one word and cost English accuracy there). A run of letters that
 * holds a non-ASCII letter ({@code café}, {@code москва}) is still one word and ends a sequence.
 * Words the segmenter returns that hold no letter or digit (a lone {@code -} or {@code ++}) are
 * dropped, as punctuation is everywhere else.
 *
 * <p>Thread-safe if its segmenter is. Allocates nothing per word.
 */
public final class Tokenizer {
  private final @Nullable Segmenter segmenter;
  private final boolean mixed;
  private final boolean asciiFastPath;

  /**
   * @param segmenter cuts Han runs into words; null makes every Han character a word of its own
   */
  public Tokenizer(@Nullable Segmenter segmenter) {
    this(segmenter, true);
  }

  /** With the ASCII fast path of mixed tokenization off: the reference tests compare it with. */
  Tokenizer(@Nullable Segmenter segmenter, boolean asciiFastPath) {
    this.segmenter = segmenter;
    this.mixed = segmenter != null && segmenter.cutsMixedRuns();
    this.asciiFastPath = asciiFastPath;
  }

  /** Calls {@code sink} once per word of {@code text[start, end)}, in order. */
  public void tokenize(char[] text, int start, int end, WordSink sink) {
    if (mixed) {
      tokenizeMixed(text, start, end, sink);
      return;
    }
    int i = start;
    while (i < end) {
      byte cls = CharClass.at(text, i, end);
      if (cls == CharClass.SEPARATOR) {
        i += Character.isHighSurrogate(text[i]) && i + 1 < end ? 2 : 1;
        continue;
      }
      int runStart = i;
      i = runEnd(text, i, end, cls);
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

  private static int runEnd(char[] text, int i, int end, byte cls) {
    while (i < end) {
      byte next = CharClass.at(text, i, end);
      if (next != cls) {
        break;
      }
      i += Character.isHighSurrogate(text[i]) ? 2 : 1;
    }
    return i;
  }

  /** jieba's joiners: the punctuation its block pattern keeps inside a block. */
  static boolean isJoiner(char c) {
    return c == '+' || c == '#' || c == '&' || c == '.' || c == '_' || c == '%' || c == '-';
  }

  private static boolean isAsciiAlnum(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z');
  }

  private void tokenizeMixed(char[] text, int start, int end, WordSink sink) {
    Segmenter seg = segmenter;
    assert seg != null;
    SpanSink spans = null;
    int spanStart = -1; // start of the pending mixed span, or -1
    boolean joiners = false; // whether the pending span holds a joiner
    boolean content = false; // whether it holds a letter, digit or Han character
    boolean cut = false; // whether it holds a Han character or one of + # &
    int i = start;
    boolean fast = asciiFastPath;
    while (i < end) {
      if (fast && spanStart < 0 && text[i] < 0x80) {
        /*
         * ASCII fast path, outside a pending span: a run of ASCII letters and digits followed by
         * an ASCII separator other than a joiner (or the end) is the word the general path would
         * give, after classifying its chars, scanning them for non-ASCII letters and cutting the
         * span again (asciiWords); a separator other than a joiner just ends nothing. Anything
         * else (a joiner, a non-ASCII char after the run) takes the general path from i. English
         * text is almost all such runs: mixed blocks cost it 14% before this path.
         */
        char c = text[i];
        if (isAsciiAlnum(c)) {
          int j = i + 1;
          while (j < end && isAsciiAlnum(text[j])) {
            j++;
          }
          if (j == end || (text[j] < 0x80 && !isJoiner(text[j]))) {
            sink.word(text, i, j);
            i = j;
            continue;
          }
        } else if (!isJoiner(c)) {
          i++;
          continue;
        }
      }
      byte cls = CharClass.at(text, i, end);
      int runStart = i;
      if (cls == CharClass.SEPARATOR) {
        if (isJoiner(text[i])) {
          if (spanStart < 0) {
            spanStart = i;
          }
          joiners = true;
          char c = text[i];
          cut |= c == '+' || c == '#' || c == '&';
          i++;
          continue;
        }
        i += Character.isHighSurrogate(text[i]) && i + 1 < end ? 2 : 1;
      } else {
        i = runEnd(text, i, end, cls);
        boolean joins = cls == CharClass.HAN;
        if (!joins) {
          joins = true;
          for (int j = runStart; j < i && joins; j++) {
            joins = isAsciiAlnum(text[j]);
          }
        }
        if (joins) {
          if (spanStart < 0) {
            spanStart = runStart;
          }
          content = true;
          cut |= cls == CharClass.HAN;
          continue;
        }
      }
      // text[runStart, i) ends the pending span: a separator or a word with a non-ASCII letter.
      if (content && !cut) {
        asciiWords(text, spanStart, runStart, sink);
      } else if (content) {
        if (spans == null) {
          spans = new SpanSink(sink);
        }
        spans.dropJoiners = joiners;
        seg.segment(text, spanStart, runStart, spans);
      }
      spanStart = -1;
      joiners = false;
      content = false;
      cut = false;
      if (cls == CharClass.WORD) {
        sink.word(text, runStart, i);
      }
    }
    if (content && !cut) {
      asciiWords(text, spanStart, end, sink);
    } else if (content) {
      if (spans == null) {
        spans = new SpanSink(sink);
      }
      spans.dropJoiners = joiners;
      seg.segment(text, spanStart, end, spans);
    }
  }

  /** A word per run of ASCII letters and digits of {@code text[start, end)}. */
  private static void asciiWords(char[] text, int start, int end, WordSink sink) {
    int i = start;
    while (i < end) {
      if (!isAsciiAlnum(text[i])) {
        i++;
        continue;
      }
      int j = i + 1;
      while (j < end && isAsciiAlnum(text[j])) {
        j++;
      }
      sink.word(text, i, j);
      i = j;
    }
  }

  /**
   * What the segmenter's words go through: all of them, or with {@link #dropJoiners} only those
   * that hold something other than joiners.
   */
  private static final class SpanSink implements WordSink {
    /*
     * One class for both cases, not the caller's sink for spans without joiners and a filter for
     * the others: the segmenter's calls to WordSink.word then see one receiver class, so C2 inlines
     * them without a type check that fails on the first span of the other kind. With two classes,
     * JiebaSegmenter.segment and hmmCut were deoptimised on that check (class_check traps in JFR's
     * jdk.Deoptimization) and recompiled, with cut inlined in them, four times each per process.
     */
    private final WordSink out;
    boolean dropJoiners;

    SpanSink(WordSink out) {
      this.out = out;
    }

    @Override
    public void word(char[] text, int start, int end) {
      if (!dropJoiners) {
        out.word(text, start, end);
        return;
      }
      for (int i = start; i < end; i++) {
        if (!isJoiner(text[i])) {
          out.word(text, start, end);
          return;
        }
      }
    }
  }
}
