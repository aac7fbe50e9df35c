// SPDX-License-Identifier: Apache-2.0
package org.neardup.segment.jieba;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Set;
import org.neardup.text.Segmenter;
import org.neardup.text.WordSink;

/**
 * jieba's accurate mode with new-word discovery, {@code jieba.cut(text, HMM=True)} of jieba 0.42.1:
 * the same words, cut by a reimplementation of the published algorithm over jieba's own dictionary
 * and model, optionally with a user dictionary loaded as {@code jieba.load_userdict} loads it.
 *
 * <p>It takes mixed runs ({@link #cutsMixedRuns()}): the runs the tokenizer sends may hold, besides
 * Han characters, ASCII letters, digits and {@code + # & . _ % -}, which jieba keeps in one block
 * with the Han characters, so dictionary words such as {@code 江南style}, {@code 4s店} and {@code c++}
 * come out whole.
 *
 * <p>Thread-safe: the dictionary and model are immutable and shared; each thread has its own
 * scratch arrays, which grow to the longest run it has cut (13 bytes per char) and are kept up to
 * {@value #RETAINED_CHARS} chars. Once warm, {@link #segment} allocates nothing for runs up to that
 * length, unless the user dictionary has words of frequency 0 (each word the model finds is then
 * looked up as a string); a longer run takes temporary arrays for the call. Time is linear in the
 * run's length (at most 16 trie steps per char with jieba's dictionary alone; a user dictionary's
 * longest word sets the bound otherwise).
 */
final class JiebaSegmenter implements Segmenter {
  /*
   * The algorithm (jieba/__init__.py, Tokenizer.__cut_DAG and calc; jieba/finalseg):
   *
   * 1. jieba only cuts blocks of chars in [\u4E00-\u9FD5a-zA-Z0-9+#&._%-] (re_han_default)
   *    with its dictionary; any other char of a run (CJK extension A and B, compatibility
   *    ideographs, U+3007 ...) is a word by itself, a surrogate pair one word.
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
   * 5. finalseg.cut of such a buffer: its runs of [\u4E00-\u9FD5] go to the HMM (a word it finds
   *    that the user dictionary gave frequency 0 is emitted char by char, add_force_split); the
   *    rest is split by finalseg's re_skip, [a-zA-Z0-9]+(?:\.\d+)?%?, each match and each
   *    non-empty piece between matches a word.
   *
   * Invariants: words are emitted left to right and tile [start, end) exactly; route and ends are
   * only read at positions already written in this call.
   */

  /** Scratch arrays up to this many chars stay with their thread between calls. */
  static final int RETAINED_CHARS = 1 << 16;

  static final String VERSION = "jieba-0.42.1";

  /** Names the algorithm in {@link #id()}: dictionary route, HMM, mixed blocks. */
  static final String ALGORITHM = "dag+hmm+mixed";

  /**
   * The algorithm of releases before mixed blocks: the same segmenter, sent runs of Han characters
   * only ({@link #cutsMixedRuns()} false). Its words for such a run are the same.
   */
  static final String LEGACY_ALGORITHM = "dag+hmm";

  private final WordTrie trie;
  private final HmmModel hmm;
  private final double minusLogTotal;
  private final String id;
  private final Set<String> forceSplit;
  private final boolean mixed;
  private final ThreadLocal<Scratch> scratch = ThreadLocal.withInitial(Scratch::new);

  JiebaSegmenter(WordTrie trie, HmmModel hmm, double logTotal, String id) {
    this(trie, hmm, logTotal, id, Set.of());
  }

  /**
   * @param forceSplit words the model must not emit whole (user words of frequency 0)
   */
  JiebaSegmenter(WordTrie trie, HmmModel hmm, double logTotal, String id, Set<String> forceSplit) {
    this(trie, hmm, logTotal, id, forceSplit, true);
  }

  private JiebaSegmenter(
      WordTrie trie,
      HmmModel hmm,
      double logTotal,
      String id,
      Set<String> forceSplit,
      boolean mixed) {
    this.trie = trie;
    this.hmm = hmm;
    this.minusLogTotal = -logTotal;
    this.id = id;
    this.forceSplit = Set.copyOf(forceSplit);
    this.mixed = mixed;
  }

  /**
   * This segmenter as releases before mixed blocks ran it, sharing its dictionary: it takes runs of
   * Han characters only, and its id names {@value #LEGACY_ALGORITHM} instead of {@value
   * #ALGORITHM}, so stores those releases wrote open with their fingerprints unchanged.
   *
   * @throws IllegalStateException if this segmenter has a user dictionary (those came with mixed
   *     blocks) or is itself the legacy one
   */
  JiebaSegmenter legacy() {
    String mark = "/" + ALGORITHM + "/";
    if (!mixed || !forceSplit.isEmpty() || id.contains("+user:") || !id.contains(mark)) {
      throw new IllegalStateException("no legacy form of " + id);
    }
    String legacyId = id.replace(mark, "/" + LEGACY_ALGORITHM + "/");
    return new JiebaSegmenter(trie, hmm, -minusLogTotal, legacyId, forceSplit, false);
  }

  @Override
  public boolean cutsMixedRuns() {
    return mixed;
  }

  /** Whether jieba's block pattern, re_han_default, takes {@code c}. */
  static boolean inBlock(char c) {
    return HmmModel.covers(c)
        || (c >= 'a' && c <= 'z')
        || (c >= '0' && c <= '9')
        || (c >= 'A' && c <= 'Z')
        || c == '+'
        || c == '#'
        || c == '&'
        || c == '.'
        || c == '_'
        || c == '%'
        || c == '-';
  }

  private static boolean isAsciiAlnum(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z');
  }

  @Override
  public void segment(char[] text, int start, int end, WordSink sink) {
    Objects.checkFromToIndex(start, end, text.length);
    Scratch s = scratch.get();
    int i = start;
    while (i < end) {
      char c = text[i];
      if (inBlock(c)) {
        int j = i + 1;
        while (j < end && inBlock(text[j])) {
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

  /** Cuts {@code text[from, to)}, a block: all of its chars are {@link #inBlock}. */
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
      // The first step from the root's dense cells, the others through the table.
      long cell = trie.rootCell(text[from + i]);
      int node = WordTrie.rootSlot(cell);
      int j = i;
      while (cell != 0) {
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
        if (node < 0) {
          break;
        }
        cell = trie.cell(node);
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
      finalCut(text, from, to, sink, s);
    }
  }

  /** jieba.finalseg.cut: Han runs to the model, the rest split by re_skip. */
  private void finalCut(char[] text, int from, int to, WordSink sink, Scratch s) {
    int i = from;
    while (i < to) {
      int j = i + 1;
      boolean han = HmmModel.covers(text[i]);
      while (j < to && HmmModel.covers(text[j]) == han) {
        j++;
      }
      if (han) {
        hmmCut(text, i, j, sink, s);
      } else {
        skipCut(text, i, j, sink);
      }
      i = j;
    }
  }

  /** finalseg's re_skip split of a piece without Han chars: matches and the pieces between. */
  private static void skipCut(char[] text, int from, int to, WordSink sink) {
    int piece = from;
    int i = from;
    while (i < to) {
      if (!isAsciiAlnum(text[i])) {
        i++;
        continue;
      }
      if (piece < i) {
        sink.word(text, piece, i);
      }
      int j = i + 1;
      while (j < to && isAsciiAlnum(text[j])) {
        j++;
      }
      if (j + 1 < to && text[j] == '.' && isDigit(text[j + 1])) {
        j += 2;
        while (j < to && isDigit(text[j])) {
          j++;
        }
      }
      if (j < to && text[j] == '%') {
        j++;
      }
      sink.word(text, i, j);
      i = j;
      piece = j;
    }
    if (piece < to) {
      sink.word(text, piece, to);
    }
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /** jieba.finalseg.__cut: words from the Viterbi states, B...E and S; a trailing rest as one. */
  private void hmmCut(char[] text, int from, int to, WordSink sink, Scratch s) {
    int n = to - from;
    if (n == 1) {
      sink.word(text, from, to); // the state is E or S: the char is a word either way
      return;
    }
    byte[] states = s.states(n);
    hmm.viterbi(text, from, to, states);
    int begin = 0;
    int next = 0;
    for (int i = 0; i < n; i++) {
      int state = states[i];
      if (state == HmmModel.B) {
        begin = i;
      } else if (state == HmmModel.E) {
        modelWord(text, from + begin, from + i + 1, sink);
        next = i + 1;
      } else if (state == HmmModel.S) {
        sink.word(text, from + i, from + i + 1);
        next = i + 1;
      }
    }
    if (next < n) {
      modelWord(text, from + next, to, sink);
    }
  }

  /** Emits a word the model found, char by char if the user dictionary forces it apart. */
  private void modelWord(char[] text, int from, int to, WordSink sink) {
    if (!forceSplit.isEmpty() && forceSplit.contains(new String(text, from, to - from))) {
      for (int i = from; i < to; i++) {
        sink.word(text, i, i + 1);
      }
    } else {
      sink.word(text, from, to);
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

  HmmModel hmm() {
    return hmm;
  }

  /** ln of the dictionary's total frequency. */
  double logTotal() {
    return -minusLogTotal;
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
      JiebaSegmenter s = JiebaImage.readSegmenter();
      return s != null ? s : loadFromText();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@link #load()} from the text files, not the image: what the image is made of. */
  static JiebaSegmenter loadFromText() {
    return load(null);
  }

  /**
   * Loads jieba's dictionary and model with the words of a user dictionary added as {@code
   * jieba.load_userdict} adds them; the id ends in {@code +user:} and 16 hex digits of the user
   * dictionary's SHA-256.
   *
   * @throws IllegalArgumentException if the user dictionary is malformed
   */
  static JiebaSegmenter load(
      org.neardup.text.@org.jspecify.annotations.Nullable UserDictionary user) {
    try {
      byte[] dict = JiebaData.gunzipResource(DICT);
      byte[] model = JiebaData.gunzipResource(HMM);
      MessageDigest sha1 = JiebaData.sha1();
      sha1.update(dict);
      sha1.update(model);
      String digest = HexFormat.of().formatHex(sha1.digest(), 0, 8);
      String dictText = new String(dict, StandardCharsets.UTF_8);
      String id = VERSION + "/" + ALGORITHM + "/sha1:" + digest;
      JiebaUserWords words = null;
      if (user != null) {
        words = JiebaUserWords.read(user, dictText);
        id += "+user:" + user.sha256().substring(0, 16);
      }
      return JiebaData.segmenter(
          dictText, DICT, new String(model, StandardCharsets.UTF_8), HMM, id, words);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
