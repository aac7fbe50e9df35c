// SPDX-License-Identifier: Apache-2.0
package org.neardup.segment.jieba;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;

/**
 * Reads the jieba data files that ship in this package, as written by {@code
 * segment-jieba/data/update.sh} from jieba 0.42.1.
 *
 * <p>Formats, UTF-8 text, one record per line ({@code SP} one space, {@code LF} a line feed):
 *
 * <pre>
 * dict.txt --&gt; (Word SP Freq LF)*
 *   Word: chars other than SP and LF; Freq: decimal digits, a count in jieba's corpus.
 *   Entries keep jieba's order; a repeated Word takes its last Freq, and every Freq adds to
 *   the total (as jieba's gen_pfdict does).
 * hmm.txt --&gt; ("#" text LF | Start | Trans | Emit)*
 *   Start: "start" SP State SP LogP LF
 *   Trans: "trans" SP State SP State SP LogP LF
 *   Emit:  "emit" SP State SP Hex SP LogP LF      (Hex: the code point, hexadecimal)
 *   State: "B" | "M" | "E" | "S";  LogP: a natural log as Python's repr() prints a float,
 *   which Double.parseDouble reads back to the same double.
 * </pre>
 *
 * <p>Load time, not thread-sensitive: every method builds new objects.
 */
final class JiebaData {
  private JiebaData() {}

  /** Reads a gzipped resource of this package fully. */
  static byte[] gunzipResource(String name) throws IOException {
    InputStream raw = JiebaData.class.getResourceAsStream(name);
    if (raw == null) {
      throw new IOException(
          "resource org/neardup/segment/jieba/"
              + name
              + " is missing from the class path; the neardup-segment-jieba jar is incomplete");
    }
    try (InputStream in = new GZIPInputStream(raw, 1 << 16)) {
      return in.readAllBytes();
    }
  }

  static MessageDigest sha1() {
    try {
      return MessageDigest.getInstance("SHA-1");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-1 is required of every Java platform", e);
    }
  }

  /** Builds the segmenter from the two files' text. */
  static JiebaSegmenter segmenter(
      String dict, String dictName, String model, String modelName, String id) throws IOException {
    return segmenter(dict, dictName, model, modelName, id, null);
  }

  /**
   * Builds the segmenter from the two files' text and, when not null, a user dictionary's words,
   * which come after the dictionary's as {@code load_userdict} adds them.
   */
  static JiebaSegmenter segmenter(
      String dict,
      String dictName,
      String model,
      String modelName,
      String id,
      @org.jspecify.annotations.Nullable JiebaUserWords user)
      throws IOException {
    char[] chars = dict.toCharArray();
    // About one node per line (349,046 lines, 498,113 nodes); lines average 9.3 chars.
    WordTrie.Builder builder = new WordTrie.Builder(chars.length / 6);
    long[] freqs = new long[chars.length / 6];
    long total = 0;
    int lineNo = 0;
    int i = 0;
    while (i < chars.length) {
      lineNo++;
      int eol = i;
      while (eol < chars.length && chars[eol] != '\n') {
        eol++;
      }
      int sp = i;
      while (sp < eol && chars[sp] != ' ') {
        sp++;
      }
      if (sp == i || sp + 1 >= eol) {
        throw malformed(dictName, lineNo, "'word freq'", chars, i, eol);
      }
      long freq = 0;
      for (int k = sp + 1; k < eol; k++) {
        char d = chars[k];
        if (d < '0' || d > '9' || freq > (1L << 40)) {
          throw malformed(dictName, lineNo, "a decimal frequency", chars, i, eol);
        }
        freq = freq * 10 + (d - '0');
      }
      int node = builder.add(chars, i, sp);
      if (node >= freqs.length) {
        freqs = Arrays.copyOf(freqs, Math.max(node + 1, freqs.length * 2));
      }
      freqs[node] = freq; // a repeated word keeps its last frequency, as in jieba
      total += freq;
      i = eol + 1;
    }
    if (user != null) {
      for (int k = 0; k < user.words.size(); k++) {
        char[] w = user.words.get(k).toCharArray();
        int node = builder.add(w, 0, w.length);
        if (node >= freqs.length) {
          freqs = Arrays.copyOf(freqs, Math.max(node + 1, freqs.length * 2));
        }
        freqs[node] = user.freqs[k];
      }
      total += user.addedTotal;
    }
    if (total <= 0) {
      throw new IOException(dictName + ": no words with a frequency above 0");
    }
    double logTotal = ExactLog.ln(total);
    WeightTable weights = new WeightTable(logTotal);
    int[] weightIndex = new int[builder.size()];
    for (int node = 0; node < weightIndex.length; node++) {
      long f = node < freqs.length ? freqs[node] : 0;
      weightIndex[node] = f > 0 ? weights.indexOf(f) : 0;
    }
    WordTrie trie = builder.build(weightIndex, weights.toArray());
    return new JiebaSegmenter(
        trie,
        hmm(model, modelName),
        logTotal,
        id,
        user == null ? java.util.Set.of() : user.forceSplit);
  }

  /** Parses hmm.txt. */
  static HmmModel hmm(String text, String name) throws IOException {
    double[] start = new double[4];
    Arrays.fill(start, HmmModel.MIN_FLOAT);
    double[][] trans = new double[4][4];
    for (double[] row : trans) {
      Arrays.fill(row, HmmModel.MIN_FLOAT);
    }
    double[] emit = HmmModel.emptyEmissions();
    int lineNo = 0;
    int starts = 0;
    int transitions = 0;
    int pos = 0;
    while (pos < text.length()) {
      int eol = text.indexOf('\n', pos);
      if (eol < 0) {
        eol = text.length();
      }
      String line = text.substring(pos, eol);
      pos = eol + 1;
      lineNo++;
      if (line.isEmpty() || line.charAt(0) == '#') {
        continue;
      }
      try {
        if (line.startsWith("emit ")) {
          // emit S HEX LOGP: 35,224 of the 35,237 lines, so no split() here.
          int a = line.indexOf(' ', 5);
          int b = a < 0 ? -1 : line.indexOf(' ', a + 1);
          if (a != 6 || b < 0 || line.indexOf(' ', b + 1) >= 0) {
            throw new IllegalArgumentException("expected 'emit S HEX LOGP'");
          }
          int cp = Integer.parseInt(line, a + 1, b, 16);
          double p = Double.parseDouble(line.substring(b + 1));
          if (HmmModel.covers(cp)) {
            emit[((cp - HmmModel.FIRST) << 2) + state(line.substring(5, 6))] = p;
          }
          continue;
        }
        String[] f = line.split(" ", -1);
        switch (f[0]) {
          case "start":
            expectFields(f, 3);
            start[state(f[1])] = Double.parseDouble(f[2]);
            starts++;
            break;
          case "trans":
            expectFields(f, 4);
            trans[state(f[1])][state(f[2])] = Double.parseDouble(f[3]);
            transitions++;
            break;
          default:
            throw new IllegalArgumentException("unknown record '" + f[0] + "'");
        }
      } catch (IllegalArgumentException e) {
        throw new IOException(
            name + ": line " + lineNo + ": " + e.getMessage() + " in '" + line + "'", e);
      }
    }
    if (starts != 4 || transitions != 8) {
      throw new IOException(
          name + ": expected 4 start and 8 trans records, got " + starts + " and " + transitions);
    }
    return new HmmModel(start, trans, emit);
  }

  private static void expectFields(String[] f, int n) {
    if (f.length != n) {
      throw new IllegalArgumentException("expected " + n + " fields, got " + f.length);
    }
  }

  private static int state(String s) {
    int state = s.length() == 1 ? HmmModel.STATES.indexOf(s.charAt(0)) : -1;
    if (state < 0) {
      throw new IllegalArgumentException("state must be one of B, M, E, S, got '" + s + "'");
    }
    return state;
  }

  private static IOException malformed(
      String name, int lineNo, String expected, char[] chars, int from, int to) {
    String line = new String(chars, from, Math.min(to - from, 60));
    return new IOException(
        name + ": line " + lineNo + ": expected " + expected + ", got '" + line + "'");
  }

  /**
   * The distinct word weights, ln(freq) - ln(total), each computed once: jieba's 349,046 words have
   * 5,087 distinct frequencies. Index 0 is {@link WordTrie#NOT_A_WORD}.
   */
  private static final class WeightTable {
    private final double logTotal;
    private long[] keys = new long[1 << 13];
    private int[] indices = new int[1 << 13];
    private double[] weights = new double[1 << 12];
    private int size = 1;

    WeightTable(double logTotal) {
      this.logTotal = logTotal;
      weights[0] = WordTrie.NOT_A_WORD;
    }

    int indexOf(long freq) {
      int mask = keys.length - 1;
      int slot = slot(freq, mask);
      while (keys[slot] != 0) {
        if (keys[slot] == freq) {
          return indices[slot];
        }
        slot = (slot + 1) & mask;
      }
      int index = size++;
      if (index == weights.length) {
        weights = Arrays.copyOf(weights, index * 2);
      }
      // Python evaluates log(freq) - logtotal; the same two doubles, the same subtraction.
      weights[index] = ExactLog.ln(freq) - logTotal;
      keys[slot] = freq;
      indices[slot] = index;
      if (size * 2 > keys.length) {
        grow();
      }
      return index;
    }

    double[] toArray() {
      return Arrays.copyOf(weights, size);
    }

    private static int slot(long freq, int mask) {
      return (int) (freq * 0x9E3779B97F4A7C15L >>> 40) & mask;
    }

    private void grow() {
      long[] oldKeys = keys;
      int[] oldIndices = indices;
      keys = new long[oldKeys.length * 2];
      indices = new int[oldKeys.length * 2];
      int mask = keys.length - 1;
      for (int i = 0; i < oldKeys.length; i++) {
        if (oldKeys[i] != 0) {
          int slot = slot(oldKeys[i], mask);
          while (keys[slot] != 0) {
            slot = (slot + 1) & mask;
          }
          keys[slot] = oldKeys[i];
          indices[slot] = oldIndices[i];
        }
      }
    }
  }
}
