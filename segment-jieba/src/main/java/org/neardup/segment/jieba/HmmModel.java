// SPDX-License-Identifier: Apache-2.0
package org.neardup.segment.jieba;

import java.util.Arrays;

/**
 * jieba's hidden Markov model for words missing from the dictionary ({@code jieba.finalseg}): each
 * char is the Begin, Middle or End of a word or a Single-char word, and the Viterbi path over those
 * states cuts a run of chars into words.
 *
 * <p>Immutable and thread-safe. {@link #viterbi} costs about 20 double additions per char and
 * writes into the caller's buffer.
 */
final class HmmModel {
  /*
   * Bit-exact with jieba 0.42.1's finalseg.viterbi: the same doubles added in the same order,
   * (V[t-1][prev] + trans[prev][y]) + emit[y][c], a missing emission or start probability counting
   * as MIN_FLOAT = -3.14e100, and the same tie-breaks. Python takes max() over (prob, state)
   * tuples, so on equal probabilities the alphabetically larger state wins (S > M > E > B): B
   * prefers S over E, M prefers M over B, S prefers S over E, E prefers M over B, and the last
   * state is S unless E is strictly more likely.
   *
   * Only chars in [FIRST, LAST] (jieba's re_han, \u4E00-\u9FD5) reach the model, so emissions
   * live in one dense array indexed (c - FIRST) * 4 + state: the four doubles of a char share a
   * 32-byte half cache line. 20,950 chars * 32 bytes = 670 KB.
   */
  static final int B = 0;
  static final int M = 1;
  static final int E = 2;
  static final int S = 3;
  static final String STATES = "BMES";

  /** jieba's re_han range: the only chars jieba cuts with its dictionary and this model. */
  static final char FIRST = '\u4E00';

  static final char LAST = '\u9FD5';
  static final double MIN_FLOAT = -3.14e100;

  private final double startB;
  private final double startM;
  private final double startE;
  private final double startS;
  private final double transBM;
  private final double transBE;
  private final double transMM;
  private final double transME;
  private final double transEB;
  private final double transES;
  private final double transSB;
  private final double transSS;
  private final double[] emit;

  /** The arguments of the constructor, for {@link JiebaImage}. */
  private final double[] start;

  private final double[][] trans;

  /**
   * @param start by state, see {@link #STATES}
   * @param trans [from][to], {@link #MIN_FLOAT} where jieba has no entry
   * @param emit [(c - FIRST) * 4 + state]
   */
  HmmModel(double[] start, double[][] trans, double[] emit) {
    if (start.length != 4 || trans.length != 4 || emit.length != (LAST - FIRST + 1) * 4) {
      throw new IllegalArgumentException(
          "expected 4 start, 4x4 trans and "
              + (LAST - FIRST + 1) * 4
              + " emission probabilities, got "
              + start.length
              + ", "
              + trans.length
              + ", "
              + emit.length);
    }
    this.startB = start[B];
    this.startM = start[M];
    this.startE = start[E];
    this.startS = start[S];
    this.transBM = trans[B][M];
    this.transBE = trans[B][E];
    this.transMM = trans[M][M];
    this.transME = trans[M][E];
    this.transEB = trans[E][B];
    this.transES = trans[E][S];
    this.transSB = trans[S][B];
    this.transSS = trans[S][S];
    this.emit = emit.clone();
    this.start = start.clone();
    this.trans = new double[4][];
    for (int i = 0; i < 4; i++) {
      this.trans[i] = trans[i].clone();
    }
  }

  /** The start probabilities by state, a copy. */
  double[] start() {
    return start.clone();
  }

  /** The transition probabilities [from][to], a copy. */
  double[][] trans() {
    double[][] t = new double[4][];
    for (int i = 0; i < 4; i++) {
      t[i] = trans[i].clone();
    }
    return t;
  }

  /** The emissions [(c - FIRST) * 4 + state], a copy. */
  double[] emit() {
    return emit.clone();
  }

  /** A model array of emissions, all {@link #MIN_FLOAT}, to fill in. */
  static double[] emptyEmissions() {
    double[] emit = new double[(LAST - FIRST + 1) * 4];
    Arrays.fill(emit, MIN_FLOAT);
    return emit;
  }

  static boolean covers(int c) {
    return c >= FIRST && c <= LAST;
  }

  /**
   * Writes the most likely state of each char of {@code text[from, to)} to {@code states[0, to -
   * from)}. Every char must be in [{@link #FIRST}, {@link #LAST}].
   */
  void viterbi(char[] text, int from, int to, byte[] states) {
    int n = to - from;
    assert n >= 1 && states.length >= n;
    double[] em = emit;
    int o = (text[from] - FIRST) << 2;
    double vB = startB + em[o + B];
    double vM = startM + em[o + M];
    double vE = startE + em[o + E];
    double vS = startS + em[o + S];
    // states[t] first holds the back pointers of step t: bit y set = the second candidate won.
    for (int t = 1; t < n; t++) {
      char c = text[from + t];
      assert covers(c) : c;
      o = (c - FIRST) << 2;
      double eB = em[o + B];
      double eM = em[o + M];
      double eE = em[o + E];
      double eS = em[o + S];
      // B <- {E, S}
      double fromE = vE + transEB + eB;
      double fromS = vS + transSB + eB;
      boolean bS = fromS >= fromE;
      double nB = bS ? fromS : fromE;
      // M <- {B, M}
      double fromB = vB + transBM + eM;
      double fromM = vM + transMM + eM;
      boolean mM = fromM >= fromB;
      double nM = mM ? fromM : fromB;
      // S <- {E, S}
      double sFromE = vE + transES + eS;
      double sFromS = vS + transSS + eS;
      boolean sS = sFromS >= sFromE;
      double nS = sS ? sFromS : sFromE;
      // E <- {B, M}
      double eFromB = vB + transBE + eE;
      double eFromM = vM + transME + eE;
      boolean eM2 = eFromM >= eFromB;
      double nE = eM2 ? eFromM : eFromB;
      states[t] =
          (byte) ((bS ? 1 << B : 0) | (mM ? 1 << M : 0) | (sS ? 1 << S : 0) | (eM2 ? 1 << E : 0));
      vB = nB;
      vM = nM;
      vE = nE;
      vS = nS;
    }
    int state = vS >= vE ? S : E;
    for (int t = n - 1; t >= 1; t--) {
      int second = states[t] >>> state & 1;
      states[t] = (byte) state;
      state = PREVIOUS >>> (state << 2 | second << 1) & 3;
    }
    states[0] = (byte) state;
  }

  /*
   * The backtrack's step as a lookup in PREVIOUS, not a switch on the state: the state before y
   * is the 2 bits at (y * 2 + second) * 2, where second says the second candidate won (B <- [E,
   * S], M <- [B, M], E <- [B, M], S <- [E, S], as the forward pass compares them). The switch's
   * branch on the state, one per char and as unpredictable as the states, took the Viterbi pass
   * over every 2-6 char run of the dev set's zh texts (423,599 runs, 1.9 M chars) from 33.9 to
   * 30.7 ms (0.906, median of 20 alternating passes in one JVM; docs/BENCHMARKS.md, the nineteenth
   * session).
   */
  private static final int PREVIOUS =
      (E | S << 2) // B
          | (B | M << 2) << 4 // M
          | (B | M << 2) << 8 // E
          | (E | S << 2) << 12; // S

  long ramBytesUsed() {
    return 16 + 12 * 8 + 16 + emit.length * 8L;
  }
}
