// SPDX-License-Identifier: Apache-2.0
package org.neardup.segment.jieba;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.neardup.text.TextNormalizer;
import org.neardup.text.UserDictionary;

/**
 * The words of a user dictionary as {@code jieba.load_userdict} (jieba 0.42.1) adds them: each word
 * with the frequency it ends up with, in file order, and the words given frequency 0.
 *
 * <p>Load time only; not thread-safe.
 */
final class JiebaUserWords {
  /*
   * jieba's rules (jieba/__init__.py, Tokenizer.load_userdict, add_word, suggest_freq):
   * - The file is read as bytes and split after each \n. Each line is stripped of ASCII white space
   *   at both ends (bytes.strip), decoded as UTF-8 (a line that is not UTF-8 is an error), and
   *   stripped of leading U+FEFF (a BOM). An empty line is skipped. There is no comment syntax: a
   *   line "# note" is the word "#" with tag "note".
   * - The line is matched by ^(.+?)( [0-9]+)?( [a-z]+)?$: the word is the shortest prefix after
   *   which an optional " freq" and an optional " tag" (lower-case ASCII letters) end the line.
   *   "new york 10 ns" is the word "new york"; "江南 style" is the word "江南" with tag "style".
   * - add_word: freq = int(freq), or suggest_freq(word, tune=False) when the line has none:
   *   max(int(P * total) + 1, FREQ.get(word, 1)), P the product of FREQ.get(seg, 1) / total over
   *   the words of jieba.cut(word, HMM=False) with the dictionary as it is at that line (earlier
   *   user words included). Then FREQ[word] = freq, total += freq (an old frequency of the word
   *   stays in the total), every prefix of the word missing from FREQ gets 0, and a word of
   *   frequency 0 is added to finalseg's Force_Split_Words.
   * neardup's one step of its own: each line is normalised as texts are (NFKC, lower case) after
   * the BOM is stripped and before the pattern applies, so "iPhone手机" matches the text "iphone手机"
   * (neardup lower-cases every text) and full-width digits are a frequency.
   */
  private static final Pattern LINE =
      Pattern.compile("(.+?)( [0-9]+)?( [a-z]+)?\\z", Pattern.DOTALL);

  /** Frequencies above this are refused: jieba's totals stay far below 2^53. */
  static final long MAX_FREQ = 1L << 40;

  final List<String> words = new ArrayList<>();
  long[] freqs = new long[16];
  final Set<String> forceSplit = new HashSet<>();

  /** The sum of the user words' frequencies, added to the dictionary's total. */
  long addedTotal;

  private JiebaUserWords() {}

  /**
   * Reads a user dictionary.
   *
   * @param base jieba's dictionary text ({@code word SP freq} lines), needed only when a line has
   *     no frequency
   * @throws IllegalArgumentException naming the line that is not UTF-8 or has a bad frequency
   */
  static JiebaUserWords read(UserDictionary dictionary, String base) {
    JiebaUserWords out = new JiebaUserWords();
    byte[] b = dictionary.content();
    Suggester suggester = null;
    int lineNo = 0;
    int i = 0;
    while (i < b.length) {
      lineNo++;
      int eol = i;
      while (eol < b.length && b[eol] != '\n') {
        eol++;
      }
      int from = i;
      int to = eol;
      i = eol + 1;
      while (from < to && isAsciiSpace(b[from])) {
        from++;
      }
      while (to > from && isAsciiSpace(b[to - 1])) {
        to--;
      }
      String line = decode(dictionary, lineNo, b, from, to);
      int bom = 0;
      while (bom < line.length() && line.charAt(bom) == '\uFEFF') {
        bom++;
      }
      line = stripAscii(TextNormalizer.normalize(line.substring(bom)));
      if (line.isEmpty()) {
        continue;
      }
      Matcher m = LINE.matcher(line);
      if (!m.matches()) {
        throw new AssertionError("the pattern matches every non-empty line: " + line);
      }
      String word = m.group(1);
      String f = m.group(2);
      long freq;
      if (f != null) {
        String digits = f.substring(1);
        int nz = 0;
        while (nz < digits.length() - 1 && digits.charAt(nz) == '0') {
          nz++;
        }
        digits = digits.substring(nz);
        if (digits.length() > 13 || Long.parseLong(digits) > MAX_FREQ) {
          throw new IllegalArgumentException(
              dictionary.name()
                  + ": line "
                  + lineNo
                  + ": frequency "
                  + f.substring(1)
                  + " is larger than "
                  + MAX_FREQ);
        }
        freq = Long.parseLong(digits);
      } else {
        if (suggester == null) {
          suggester = new Suggester(base);
          for (int k = 0; k < out.words.size(); k++) {
            suggester.add(out.words.get(k), out.freqs[k]);
          }
        }
        freq = suggester.suggest(word);
      }
      if (suggester != null) {
        suggester.add(word, freq);
      }
      out.add(word, freq);
    }
    return out;
  }

  private void add(String word, long freq) {
    int k = words.size();
    if (k == freqs.length) {
      freqs = Arrays.copyOf(freqs, k * 2);
    }
    words.add(word);
    freqs[k] = freq;
    addedTotal += freq;
    if (freq == 0) {
      forceSplit.add(word);
    }
  }

  private static boolean isAsciiSpace(byte c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0x0B || c == 0x0C;
  }

  private static String stripAscii(String s) {
    int from = 0;
    int to = s.length();
    while (from < to && s.charAt(from) < 128 && isAsciiSpace((byte) s.charAt(from))) {
      from++;
    }
    while (to > from && s.charAt(to - 1) < 128 && isAsciiSpace((byte) s.charAt(to - 1))) {
      to--;
    }
    return s.substring(from, to);
  }

  private static String decode(UserDictionary d, int lineNo, byte[] b, int from, int to) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(b, from, to - from))
          .toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException(
          d.name() + ": line " + lineNo + " is not UTF-8; a jieba user dictionary must be UTF-8",
          e);
    }
  }

  /**
   * jieba's dictionary as a map, FREQ, to compute {@code suggest_freq(word, False)}: built only for
   * a user dictionary with a line without frequency.
   */
  static final class Suggester {
    private final Map<String, Long> freq = new HashMap<>(1 << 20);
    private long total;

    Suggester(String base) {
      int i = 0;
      while (i < base.length()) {
        int eol = base.indexOf('\n', i);
        if (eol < 0) {
          eol = base.length();
        }
        int sp = base.indexOf(' ', i);
        if (sp > i && sp < eol) {
          add(base.substring(i, sp), Long.parseLong(base, sp + 1, eol, 10));
        }
        i = eol + 1;
      }
    }

    /** add_word's bookkeeping. */
    void add(String word, long f) {
      freq.put(word, f);
      total += f;
      for (int k = 1; k < word.length(); k = word.offsetByCodePoints(k, 1)) {
        freq.putIfAbsent(word.substring(0, k), 0L);
      }
    }

    long get(String word, long absent) {
      Long f = freq.get(word);
      return f == null ? absent : f;
    }

    /** suggest_freq(word, tune=False). */
    long suggest(String word) {
      double ftotal = total;
      double p = 1;
      for (String seg : cutNoHmm(word)) {
        p *= get(seg, 1) / ftotal;
      }
      return Math.max((long) (p * total) + 1, get(word, 1));
    }

    /** jieba.cut(text, HMM=False). */
    List<String> cutNoHmm(String text) {
      List<String> out = new ArrayList<>();
      int i = 0;
      while (i < text.length()) {
        char c = text.charAt(i);
        if (!JiebaSegmenter.inBlock(c)) {
          int n = Character.charCount(text.codePointAt(i));
          out.add(text.substring(i, i + n));
          i += n;
          continue;
        }
        int j = i + 1;
        while (j < text.length() && JiebaSegmenter.inBlock(text.charAt(j))) {
          j++;
        }
        cutBlockNoHmm(text.substring(i, j), out);
        i = j;
      }
      return out;
    }

    /** Tokenizer.__cut_DAG_NO_HMM: the route, with single ASCII letters and digits joined. */
    private void cutBlockNoHmm(String s, List<String> out) {
      int n = s.length();
      double logTotal = ExactLog.ln(total);
      double[] route = new double[n + 1];
      int[] ends = new int[n];
      for (int idx = n - 1; idx >= 0; idx--) {
        double best = Double.NEGATIVE_INFINITY;
        int bestEnd = -1;
        boolean any = false;
        int x = idx;
        while (x < n) {
          @Nullable Long f = freq.get(s.substring(idx, x + 1));
          if (f == null) {
            break;
          }
          if (f > 0) {
            any = true;
            double v = ExactLog.ln(f) - logTotal + route[x + 1];
            if (v >= best) {
              best = v;
              bestEnd = x;
            }
          }
          x++;
        }
        if (!any) {
          best = 0 - logTotal + route[idx + 1];
          bestEnd = idx;
        }
        route[idx] = best;
        ends[idx] = bestEnd;
      }
      StringBuilder buf = new StringBuilder();
      for (int x = 0; x < n; ) {
        int y = ends[x] + 1;
        String w = s.substring(x, y);
        if (y - x == 1 && isAsciiAlnum(w.charAt(0))) {
          buf.append(w);
        } else {
          if (buf.length() > 0) {
            out.add(buf.toString());
            buf.setLength(0);
          }
          out.add(w);
        }
        x = y;
      }
      if (buf.length() > 0) {
        out.add(buf.toString());
      }
    }

    private static boolean isAsciiAlnum(char c) {
      return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z');
    }
  }
}
