package org.neardup.cluster;

import java.util.Arrays;
import org.neardup.internal.Checks;

/**
 * Union-find over dense ordinals 0, 1, 2, ... where each cluster's root is its smallest ordinal,
 * which callers assign in arrival order, so the root is the earliest member: the representative.
 *
 * <p>Path halving on find; union links the larger root under the smaller. Amortised near-constant
 * time per operation, 4 bytes per element. Not thread-safe.
 */
public final class Clusters {
  private int[] parent;
  private int[] size;
  private int count;

  public Clusters(int expected) {
    parent = new int[Math.max(16, expected)];
    size = new int[parent.length];
  }

  /** Adds a new singleton cluster and returns its ordinal (the next one). */
  public int add() {
    if (count == parent.length) {
      parent = Arrays.copyOf(parent, count * 2);
      size = Arrays.copyOf(size, count * 2);
    }
    parent[count] = count;
    size[count] = 1;
    return count++;
  }

  /** Ensures ordinals 0..n-1 exist. */
  public void ensure(int n) {
    while (count < n) {
      add();
    }
  }

  /** The representative (smallest ordinal) of x's cluster. */
  public int find(int x) {
    Checks.checkArgument(x >= 0 && x < count, "ordinal must be in [0, %s), got %s", count, x);
    while (parent[x] != x) {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  }

  /** Joins the clusters of a and b; returns the representative of the joined cluster. */
  public int union(int a, int b) {
    int ra = find(a);
    int rb = find(b);
    if (ra == rb) {
      return ra;
    }
    int root = Math.min(ra, rb);
    int child = Math.max(ra, rb);
    parent[child] = root;
    size[root] += size[child];
    return root;
  }

  /** The number of members of x's cluster. */
  public int clusterSize(int x) {
    return size[find(x)];
  }

  /** The number of ordinals. */
  public int size() {
    return count;
  }

  public long ramBytesUsed() {
    return 32 + parent.length * 8L;
  }
}
