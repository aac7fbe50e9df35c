// SPDX-License-Identifier: Apache-2.0
package org.neardup.segment.jieba;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Objects;
import org.neardup.text.Segmenter;
import org.neardup.text.WordSink;

/**
 * jieba's accurate mode with new-word discovery, {@code jieba.cut(text, HMM=True)} of jieba 0.42.1,
 * restricted to runs of Han characters: the same words, cut by a reimplementation of the published
 * algorithm over jieba's own dictionary and model.
 *
 * <p>Thread-safe: the dictionary and model are immutable and shared; each thread has its own
 * scratch arrays, which grow to the longest run it has cut (13 bytes per char) and are kept up to
 * {@value #RETAINED_CHARS} chars. Once warm, {@link #segment} allocates nothing for runs up to that
 * length; a longer run takes temporary arrays for the call. Time is linear in the run's length (at
 * most 16 trie steps per char, jieba's longest word).
 */
final class JiebaSegmenter implements Segmenter {
  /*
   * The algorithm (jieba/__init__.py, Tokenizer.__cut_DAG and calc; jieba/finalseg):
   *
   * 1. jieba only cuts runs of chars in [\u4E00-\u9FD5] (plus ASCII letters and digits, which a
   *    Han run never holds) with its dictionary; any other char of a Han run (CJK extension A and
   *    B, compatibility ideographs, U+3007 ...) is a word by itself, a surrogate pair one word.
   * 2. DAG: at each position i, the ends j of the dictionary words text[i, j] with a frequency
   *    > 0; if there are none, just j = i.
   * 3. Route, from the right: route[i] = max over the DAG ends j of
   *    (log(freq(text[i, j])) - log(total)) + route[j + 1], with route[n] = 0, where freq of a
   *    single char that is not a word counts as 1. On a tie the larger j wins, as Python's max
   *    over (value, j) tuples does. weight(node) holds log(freq) - log(total), computed once, so
   *    the doubles are bit-identical to jieba's.
   * 4. Walk the route from the left. Consecutive single-char words gather in a buffer; a buffer
   *    of two or more chars that is not itself a dictionary word goes to the HMM (HmmModel), one
   *    that is a word is emitted char by char.
   *
   * Invariants: words are emitted left to right and tile [start, end) exactly; route and ends are
   * only read at positions already written in this call.
   */

  /** Scratch arrays up to this many chars stay with their thread between calls. */
  static final int RETAINED_CHARS = 1 << 16;

  static final String VERSION = "jieba-0.42.1";

  private final WordTrie trie;
  private final HmmModel hmm;
  private final double minusLogTotal;
  private final String id;
  private final ThreadLocal<Scratch> scratch = ThreadLocal.withInitial(Scratch::new);

  JiebaSegmenter(WordTrie trie, HmmModel hmm, double logTotal, String id) {
    this.trie = trie;
    this.hmm = hmm;
    this.minusLogTotal = -logTotal;
    this.id = id;
  }

  @Override
  public void segment(char[] text, int start, int end, WordSink sink) {
    Objects.checkFromToIndex(start, end, text.length);
    Scratch s = scratch.get();
    int i = start;
    while (i < end) {
      char c = text[i];
      if (HmmModel.covers(c)) {
        int j = i + 1;
        while (j < end && HmmModel.covers(text[j])) {
          j++;
        }
        cut(text, i, j, sink, s);
        i = j;
      } else {
        int n =
            Character.isHighSurrogate(c) && i + 1 < end && Character.isLowSurrogate(text[i + 1])
                ? 2
                : 1;
        sink.word(text, i, i + n);
        i += n;
      }
    }
  }

  /** Cuts {@code text[from, to)}, all of whose chars are in jieba's range. */
  private void cut(char[] text, int from, int to, WordSink sink, Scratch s) {
    int n = to - from;
    if (n == 1) {
      sink.word(text, from, to);
      return;
    }
    double[] route = s.route(n + 1);
    int[] ends = s.ends(n);
    WordTrie trie = this.trie;
    route[n] = 0;
    for (int i = n - 1; i >= 0; i--) {
      double best = Double.NEGATIVE_INFINITY;
      int bestEnd = -1;
      int node = trie.rootChild(text[from + i]);
      int j = i;
      while (node >= 0) {
        long cell = trie.cell(node);
        int wi = WordTrie.weightIndex(cell);
        if (wi != 0) {
          double candidate = trie.weightOf(wi) + route[j + 1];
          if (candidate >= best) {
            best = candidate;
            bestEnd = j;
          }
        }
        if (++j == n || !WordTrie.hasChildren(cell)) {
          break;
        }
        node = trie.child(node, text[from + j]);
      }
      if (bestEnd < 0) {
        best = minusLogTotal + route[i + 1];
        bestEnd = i;
      }
      route[i] = best;
      ends[i] = bestEnd;
    }
    int pending = -1; // start of the buffered single chars, or -1
    for (int x = 0; x < n; ) {
      int y = ends[x] + 1;
      assert y > x && y <= n;
      if (y - x == 1) {
        if (pending < 0) {
          pending = x;
        }
      } else {
        if (pending >= 0) {
          flush(text, from + pending, from + x, sink, s);
          pending = -1;
        }
        sink.word(text, from + x, from + y);
      }
      x = y;
    }
    if (pending >= 0) {
      flush(text, from + pending, to, sink, s);
    }
  }

  /** Emits a run of chars the route cut into single chars. */
  private void flush(char[] text, int from, int to, WordSink sink, Scratch s) {
    if (to - from == 1) {
      sink.word(text, from, to);
    } else if (trie.isWord(text, from, to)) {
      for (int i = from; i < to; i++) {
        sink.word(text, i, i + 1);
      }
    } else {
      hmmCut(text, from, to, sink, s);
    }
  }

  /** jieba.finalseg.__cut: words from the Viterbi states, B...E and S; a trailing rest as one. */
  private void hmmCut(char[] text, int from, int to, WordSink sink, Scratch s) {
    int n = to - from;
    byte[] states = s.states(n);
    hmm.viterbi(text, from, to, states);
    int begin = 0;
    int next = 0;
    for (int i = 0; i < n; i++) {
      int state = states[i];
      if (state == HmmModel.B) {
        begin = i;
      } else if (state == HmmModel.E) {
        sink.word(text, from + begin, from + i + 1);
        next = i + 1;
      } else if (state == HmmModel.S) {
        sink.word(text, from + i, from + i + 1);
        next = i + 1;
      }
    }
    if (next < n) {
      sink.word(text, from + next, to);
    }
  }

  @Override
  public String id() {
    return id;
  }

  /** Heap held by the shared dictionary and model (not the per-thread scratch). */
  long ramBytesUsed() {
    return 64 + trie.ramBytesUsed() + hmm.ramBytesUsed();
  }

  WordTrie trie() {
    return trie;
  }

  @Override
  public String toString() {
    return "JiebaSegmenter[" + id + ", " + trie.nodeCount() + " trie nodes]";
  }

  /** Per-thread buffers. */
  private static final class Scratch {
    private double[] route = new double[64];
    private int[] ends = new int[64];
    private byte[] states = new byte[64];

    double[] route(int n) {
      if (n <= route.length) {
        return route;
      }
      if (n > RETAINED_CHARS) {
        return new double[n];
      }
      return route = new double[Math.min(RETAINED_CHARS, Math.max(n, route.length * 2))];
    }

    int[] ends(int n) {
      if (n <= ends.length) {
        return ends;
      }
      if (n > RETAINED_CHARS) {
        return new int[n];
      }
      return ends = new int[Math.min(RETAINED_CHARS, Math.max(n, ends.length * 2))];
    }

    byte[] states(int n) {
      if (n <= states.length) {
        return states;
      }
      if (n > RETAINED_CHARS) {
        return new byte[n];
      }
      return states = new byte[Math.min(RETAINED_CHARS, Math.max(n, states.length * 2))];
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Loading

  static final String DICT = "dict.txt.gz";
  static final String HMM = "hmm.txt.gz";

  /**
   * Loads jieba's dictionary and model from this package's resources {@value #DICT} and {@value
   * #HMM} (formats in {@link JiebaData}).
   *
   * @throws UncheckedIOException if a resource is missing or malformed
   */
  static JiebaSegmenter load() {
    try {
      byte[] dict = JiebaData.gunzipResource(DICT);
      byte[] model = JiebaData.gunzipResource(HMM);
      MessageDigest sha1 = JiebaData.sha1();
      sha1.update(dict);
      sha1.update(model);
      String digest = HexFormat.of().formatHex(sha1.digest(), 0, 8);
      return JiebaData.segmenter(
          new String(dict, StandardCharsets.UTF_8),
          DICT,
          new String(model, StandardCharsets.UTF_8),
          HMM,
          VERSION + "/dag+hmm/sha1:" + digest);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
