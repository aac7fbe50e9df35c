package org.neardup.eval;

import java.util.Arrays;
import org.neardup.CorpusDedup;
import org.neardup.internal.Sorts;

/**
 * Near-duplicate pairs as {@link CorpusDedup} reports them: documents {@code i < j}, their
 * fingerprint distance and their verified similarity (NaN without verification). Filled from
 * several threads, then sorted by (i, j) so every run lists them in the same order.
 */
public final class PairList implements CorpusDedup.PairSink {
  int[] i = new int[1024];
  int[] j = new int[1024];
  int[] distance = new int[1024];
  double[] similarity = new double[1024];
  int n;
  double seconds;

  @Override
  public synchronized void accept(int a, int b, int d, double s) {
    if (n == i.length) {
      if (n > Integer.MAX_VALUE / 2 - 16) {
        throw new IllegalStateException("more than " + n + " pairs");
      }
      i = Arrays.copyOf(i, n * 2);
      j = Arrays.copyOf(j, n * 2);
      distance = Arrays.copyOf(distance, n * 2);
      similarity = Arrays.copyOf(similarity, n * 2);
    }
    i[n] = Math.min(a, b);
    j[n] = Math.max(a, b);
    distance[n] = d;
    similarity[n] = s;
    n++;
  }

  void sort() {
    long[] keys = keys();
    int[] order = new int[n];
    for (int k = 0; k < n; k++) {
      order[k] = k;
    }
    Sorts.sortByKey(keys, order, n);
    int[] ni = new int[n];
    int[] nj = new int[n];
    int[] nd = new int[n];
    double[] ns = new double[n];
    for (int k = 0; k < n; k++) {
      int o = order[k];
      ni[k] = i[o];
      nj[k] = j[o];
      nd[k] = distance[o];
      ns[k] = similarity[o];
    }
    i = ni;
    j = nj;
    distance = nd;
    similarity = ns;
  }

  /** The number of pairs. */
  public int size() {
    return n;
  }

  public int first(int k) {
    return i[k];
  }

  public int second(int k) {
    return j[k];
  }

  public int distance(int k) {
    return distance[k];
  }

  public double similarity(int k) {
    return similarity[k];
  }

  /** Wall-clock seconds {@link CorpusDedup#findPairs} took. */
  public double seconds() {
    return seconds;
  }

  /** The pair keys ({@link Scorer#key}), one per pair, in order. */
  public long[] keys() {
    long[] keys = new long[n];
    for (int k = 0; k < n; k++) {
      keys[k] = Scorer.key(i[k], j[k]);
    }
    return keys;
  }
}
