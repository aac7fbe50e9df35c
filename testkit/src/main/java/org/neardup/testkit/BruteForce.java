// SPDX-License-Identifier: Apache-2.0
package org.neardup.testkit;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Brute-force oracles: O(n) per search and O(n^2) for all pairs, obviously right, for comparing
 * fast implementations against on small inputs.
 */
public final class BruteForce {
  private BruteForce() {}

  /** One match of a search: a stored entry and its distance to the query. */
  public record Match(long docId, long fingerprint, int distance) implements Comparable<Match> {
    @Override
    public int compareTo(Match o) {
      int c = Long.compare(docId, o.docId);
      if (c == 0) {
        c = Long.compareUnsigned(fingerprint, o.fingerprint);
      }
      return c != 0 ? c : Integer.compare(distance, o.distance);
    }

    @Override
    public String toString() {
      return String.format(Locale.ROOT, "(%d, %016x, %d)", docId, fingerprint, distance);
    }
  }

  /** One pair of all-pairs: positions {@code i < j} and their distance. */
  public record Pair(int i, int j, int distance) implements Comparable<Pair> {
    @Override
    public int compareTo(Pair o) {
      int c = Integer.compare(i, o.i);
      return c != 0 ? c : Integer.compare(j, o.j);
    }
  }

  /** Every entry (fps[i], ids[i]) within k of query, sorted. */
  public static List<Match> search(long[] fps, long[] ids, int n, long query, int k) {
    List<Match> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int d = Long.bitCount(fps[i] ^ query);
      if (d <= k) {
        out.add(new Match(ids[i], fps[i], d));
      }
    }
    Collections.sort(out);
    return out;
  }

  /**
   * The same list as {@link #pairs}, for inputs too large for O(n^2) whose near pairs are rare:
   * cuts the 64 bits into k + 1 blocks (two fingerprints within k bits agree on one of them),
   * groups positions by each block's value in a hash map and compares every pair within a group.
   * Quadratic only in the largest group.
   */
  public static List<Pair> pairsByPigeonhole(long[] fps, int k) {
    int blocks = k + 1;
    java.util.Set<Long> seen = new java.util.HashSet<>();
    List<Pair> out = new ArrayList<>();
    for (int b = 0; b < blocks; b++) {
      int lo = 64 * b / blocks;
      int hi = 64 * (b + 1) / blocks;
      long mask = (hi - lo == 64 ? -1L : ((1L << (hi - lo)) - 1)) << lo;
      java.util.Map<Long, List<Integer>> groups = new java.util.HashMap<>();
      for (int i = 0; i < fps.length; i++) {
        groups.computeIfAbsent(fps[i] & mask, x -> new ArrayList<>()).add(i);
      }
      for (List<Integer> g : groups.values()) {
        for (int x = 0; x < g.size(); x++) {
          for (int y = x + 1; y < g.size(); y++) {
            int i = g.get(x);
            int j = g.get(y);
            int d = Long.bitCount(fps[i] ^ fps[j]);
            if (d <= k && seen.add(((long) i << 32) | j)) {
              out.add(new Pair(i, j, d));
            }
          }
        }
      }
    }
    Collections.sort(out);
    return out;
  }

  /** Every pair {@code i < j} of {@code fps} within k bits, sorted by (i, j). */
  public static List<Pair> pairs(long[] fps, int k) {
    List<Pair> out = new ArrayList<>();
    for (int i = 0; i < fps.length; i++) {
      for (int j = i + 1; j < fps.length; j++) {
        int d = Long.bitCount(fps[i] ^ fps[j]);
        if (d <= k) {
          out.add(new Pair(i, j, d));
        }
      }
    }
    return out;
  }
}
