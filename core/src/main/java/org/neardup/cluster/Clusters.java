// SPDX-License-Identifier: Apache-2.0
package org.neardup.cluster;

import org.neardup.internal.Checks;
import org.neardup.internal.PagedIntArray;

/**
 * Union-find over dense ordinals 0, 1, 2, ... where each cluster's root is its smallest ordinal,
 * which callers assign in arrival order, so the root is the earliest member: the representative.
 *
 * <p>Path halving on find; union links the larger root under the smaller. Amortised near-constant
 * time per operation, 8 bytes per element (parent and size, in {@link PagedIntArray}s: adding an
 * element never copies the others). Not thread-safe.
 */
public final class Clusters {
  /*
   * Invariants: parent(x) <= x for every x (roots are the smallest ordinal of their cluster, and
   * union links the larger root under the smaller); size(r) is the member count of root r.
   */
  private final PagedIntArray parent;
  private final PagedIntArray size;
  private int count;

  public Clusters(int expected) {
    Checks.checkArgument(expected >= 0, "expected must be >= 0, got %s", expected);
    parent = new PagedIntArray(expected);
    size = new PagedIntArray(expected);
  }

  /** Adds a new singleton cluster and returns its ordinal (the next one). */
  public int add() {
    parent.append(count);
    size.append(1);
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
    int p;
    while ((p = parent.get(x)) != x) {
      int gp = parent.get(p);
      parent.set(x, gp);
      x = gp;
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
    parent.set(child, root);
    size.set(root, size.get(root) + size.get(child));
    return root;
  }

  /** The number of members of x's cluster. */
  public int clusterSize(int x) {
    return size.get(find(x));
  }

  /** The number of ordinals. */
  public int size() {
    return count;
  }

  public long ramBytesUsed() {
    return 32 + parent.ramBytesUsed() + size.ramBytesUsed();
  }
}
