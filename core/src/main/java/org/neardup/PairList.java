// SPDX-License-Identifier: Apache-2.0
package org.neardup;

import java.util.Arrays;
import org.neardup.internal.Sorts;

/**
 * Near-duplicate pairs as {@link CorpusDedup#findPairs} reports them: documents {@code i < j}
 * (ordinals), their fingerprint distance and their verified similarity (NaN without verification),
 * in primitive arrays. {@link #accept} may be called from several threads; {@link #sort} then puts
 * the pairs in (i, j) order so every run lists them the same way.
 */
public class PairList implements CorpusDedup.PairSink {
  private int[] i = new int[1024];
  private int[] j = new int[1024];
  private byte[] distance = new byte[1024];
  private double[] similarity = new double[1024];
  private int n;

  @Override
  public synchronized void accept(int a, int b, int d, double s) {
    if (n == i.length) {
      if (n > Integer.MAX_VALUE / 2 - 16) {
        throw new IllegalStateException("more than " + n + " near-duplicate pairs");
      }
      i = Arrays.copyOf(i, n * 2);
      j = Arrays.copyOf(j, n * 2);
      distance = Arrays.copyOf(distance, n * 2);
      similarity = Arrays.copyOf(similarity, n * 2);
    }
    i[n] = Math.min(a, b);
    j[n] = Math.max(a, b);
    distance[n] = (byte) d;
    similarity[n] = s;
    n++;
  }

  /** Sorts the pairs by (i, j). Not thread-safe: call once every {@link #accept} has returned. */
  public void sort() {
    long[] keys = keys();
    int[] order = new int[n];
    for (int k = 0; k < n; k++) {
      order[k] = k;
    }
    Sorts.sortByKey(keys, order, n);
    int[] ni = new int[n];
    int[] nj = new int[n];
    byte[] nd = new byte[n];
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

  /** The smaller ordinal of pair k. */
  public int first(int k) {
    return i[k];
  }

  /** The larger ordinal of pair k. */
  public int second(int k) {
    return j[k];
  }

  public int distance(int k) {
    return distance[k];
  }

  /** The verified Jaccard similarity of pair k, or NaN without verification. */
  public double similarity(int k) {
    return similarity[k];
  }

  /** One key per pair, {@code (long) i << 32 | j}, in the current order. */
  public long[] keys() {
    long[] keys = new long[n];
    for (int k = 0; k < n; k++) {
      keys[k] = ((long) i[k] << 32) | (j[k] & 0xFFFFFFFFL);
    }
    return keys;
  }

  /**
   * The clusters these pairs make among {@code count} documents: union-find where each cluster's
   * representative is its smallest ordinal, the earliest document.
   */
  public org.neardup.cluster.Clusters clusters(int count) {
    org.neardup.cluster.Clusters c = new org.neardup.cluster.Clusters(count);
    c.ensure(count);
    for (int k = 0; k < n; k++) {
      c.union(i[k], j[k]);
    }
    return c;
  }
}
