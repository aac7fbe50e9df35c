// SPDX-License-Identifier: Apache-2.0
package org.neardup.decide;

import java.util.Arrays;
import org.neardup.internal.Checks;

/**
 * The near-duplicates of one query among stored documents, in the order the documents were stored,
 * and the rules that turn them into a verdict: which are reported and in what order, and which
 * clusters the query joins.
 *
 * <p>Documents are named by their ordinal: a number that grows with insertion order (the embedded
 * engine's dense ordinals, a networked store's per-collection sequence). The earliest member of a
 * cluster, its smallest ordinal, represents it, so a cluster's root is an ordinal too. Matches must
 * be added in increasing ordinal order.
 *
 * <p>Not thread-safe: one per thread, reused with {@link #clear()}.
 */
public final class MatchSet {
  private final int maxMatches;
  private final boolean verify;
  private long[] ordinals;
  private long[] roots;
  private int[] distances;
  private double[] similarities;
  private int count;

  /**
   * @param maxMatches how many matches a verdict lists (all are used for clustering)
   * @param verify whether similarities rank the matches (else distances do)
   */
  public MatchSet(int maxMatches, boolean verify) {
    Checks.checkArgument(maxMatches >= 1, "maxMatches must be >= 1, got %s", maxMatches);
    this.maxMatches = maxMatches;
    this.verify = verify;
    this.ordinals = new long[16];
    this.roots = new long[16];
    this.distances = new int[16];
    this.similarities = new double[16];
  }

  public void clear() {
    count = 0;
  }

  public int size() {
    return count;
  }

  public boolean isEmpty() {
    return count == 0;
  }

  public long ordinal(int i) {
    return ordinals[i];
  }

  public long root(int i) {
    return roots[i];
  }

  public int distance(int i) {
    return distances[i];
  }

  public double similarity(int i) {
    return similarities[i];
  }

  /** The largest ordinal held, or -1 when empty. */
  public long lastOrdinal() {
    return count == 0 ? -1 : ordinals[count - 1];
  }

  /**
   * Adds a match after every one held.
   *
   * @param ordinal the matched document, above every ordinal held
   * @param root the root of its cluster now
   */
  public void add(long ordinal, long root, int distance, double similarity) {
    if (count == ordinals.length) {
      ordinals = Arrays.copyOf(ordinals, count * 2);
      roots = Arrays.copyOf(roots, count * 2);
      distances = Arrays.copyOf(distances, count * 2);
      similarities = Arrays.copyOf(similarities, count * 2);
    }
    assert count == 0 || ordinals[count - 1] < ordinal : ordinals[count - 1] + " >= " + ordinal;
    ordinals[count] = ordinal;
    roots[count] = root;
    distances[count] = distance;
    similarities[count++] = similarity;
  }

  /** Replaces match i's root (clusters merged since it was found). */
  public void setRoot(int i, long root) {
    java.util.Objects.checkIndex(i, count);
    roots[i] = root;
  }

  /** Adds every match of {@code other}, whose ordinals are all above those held. */
  public void addAll(MatchSet other) {
    for (int i = 0; i < other.count; i++) {
      add(other.ordinals[i], other.roots[i], other.distances[i], other.similarities[i]);
    }
  }

  /**
   * Whether a candidate in the cluster {@code root} can be skipped without being verified: once
   * enough matches are listed, one more in a cluster already matched changes neither the list nor
   * the clusters joined.
   */
  public boolean canSkip(long root) {
    if (count < maxMatches) {
      return false;
    }
    for (int i = 0; i < count; i++) {
      if (roots[i] == root) {
        return true;
      }
    }
    return false;
  }

  /**
   * The indexes of the matches a verdict lists, best first: the first {@code maxMatches} in ordinal
   * order, sorted by similarity (highest first) then distance with verification, by distance
   * without; ties keep ordinal order.
   */
  public int[] reported() {
    int n = Math.min(count, maxMatches);
    int[] out = new int[n];
    // A stable insertion sort: verdicts list a few matches, and it allocates nothing else.
    for (int i = 0; i < n; i++) {
      int j = i;
      while (j > 0 && before(i, out[j - 1])) {
        out[j] = out[j - 1];
        j--;
      }
      out[j] = i;
    }
    return out;
  }

  /** Whether match a ranks strictly before match b. */
  private boolean before(int a, int b) {
    if (verify) {
      int c = Double.compare(similarities[b], similarities[a]);
      if (c != 0) {
        return c < 0;
      }
    }
    return distances[a] < distances[b];
  }

  /**
   * The distinct roots of the clusters matched, earliest first: the clusters the query joins, and
   * the first of them is the one whose representative represents the query once stored.
   */
  public long[] joinedRoots() {
    if (count == 0) {
      return new long[0];
    }
    long[] r = Arrays.copyOf(roots, count);
    Arrays.sort(r);
    int m = 0;
    for (int i = 0; i < r.length; i++) {
      if (m == 0 || r[m - 1] != r[i]) {
        r[m++] = r[i];
      }
    }
    return Arrays.copyOf(r, m);
  }

  /** A copy holding the same matches. */
  public MatchSet copy() {
    int n = Math.max(1, count);
    return new MatchSet(
        maxMatches,
        verify,
        Arrays.copyOf(ordinals, n),
        Arrays.copyOf(roots, n),
        Arrays.copyOf(distances, n),
        Arrays.copyOf(similarities, n),
        count);
  }

  private MatchSet(
      int maxMatches,
      boolean verify,
      long[] ordinals,
      long[] roots,
      int[] distances,
      double[] similarities,
      int count) {
    this.maxMatches = maxMatches;
    this.verify = verify;
    this.ordinals = ordinals;
    this.roots = roots;
    this.distances = distances;
    this.similarities = similarities;
    this.count = count;
  }
}
