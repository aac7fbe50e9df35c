// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.spark.api.java.JavaRDD;

/**
 * Cuts each partition's edges down to a spanning forest of them before {@link ConnectedComponents}
 * runs: a union-find over the partition's nodes, then one edge {@code (node, smallest node of its
 * tree)} per node that is not the smallest. The forests of all partitions connect exactly the nodes
 * the edges connect, so the components are the same; but n copies of one text, n (n - 1) / 2 pairs,
 * become at most n - 1 edges per partition, and every round of the star iterations shuffles that
 * many instead of the pairs.
 *
 * <p>Cost: one pass over the partition's edges, no sort; holds two ints per distinct node of the
 * partition (an open-addressing table), never the edges.
 */
final class SpanningEdges {
  private SpanningEdges() {}

  /** Edges in {@link ConnectedComponents#edge} form, per partition cut to a spanning forest. */
  static JavaRDD<Long> of(JavaRDD<Long> edges) {
    return edges.mapPartitions(SpanningEdges::forest);
  }

  /** A spanning forest of {@code edges}, as edges {@code (node, root)}, the root the smallest. */
  static Iterator<Long> forest(Iterator<Long> edges) {
    Forest f = new Forest();
    while (edges.hasNext()) {
      long e = edges.next();
      f.union(ConnectedComponents.high(e), ConnectedComponents.low(e));
    }
    return f.edges();
  }

  /**
   * Union-find over int nodes, found through an open-addressing table: the root of a tree is its
   * smallest node (the larger root is linked under the smaller), with path halving.
   */
  static final class Forest {
    private static final int FREE = -1;
    private int[] keys = new int[64]; // node of each slot, FREE if none
    private int[] parents = new int[64]; // slot of the parent; a root is its own parent
    private int size;

    Forest() {
      Arrays.fill(keys, FREE);
    }

    void union(int a, int b) {
      if (2 * (size + 2) > keys.length) {
        grow(); // before both lookups: a growth moves the slots
      }
      int ra = find(slot(a));
      int rb = find(slot(b));
      if (ra == rb) {
        return;
      }
      if (keys[ra] < keys[rb]) {
        parents[rb] = ra;
      } else {
        parents[ra] = rb;
      }
    }

    /** How many distinct nodes were seen. */
    int nodes() {
      return size;
    }

    private int find(int s) {
      while (parents[s] != s) {
        parents[s] = parents[parents[s]];
        s = parents[s];
      }
      return s;
    }

    /** The slot of {@code node}, added as its own tree if new. */
    private int slot(int node) {
      if (node < 0) {
        throw new IllegalArgumentException("node must be >= 0, got " + node);
      }
      int mask = keys.length - 1;
      int h = node * 0x9E3779B9;
      int s = (h ^ (h >>> 16)) & mask;
      while (keys[s] != FREE) {
        if (keys[s] == node) {
          return s;
        }
        s = (s + 1) & mask;
      }
      keys[s] = node;
      parents[s] = s;
      size++;
      return s;
    }

    /** Doubles the table; the trees are carried over by node, then re-linked. */
    private void grow() {
      int[] oldKeys = keys;
      int[] oldParents = parents;
      int[] roots = new int[oldKeys.length];
      for (int s = 0; s < oldKeys.length; s++) {
        if (oldKeys[s] != FREE) {
          int r = s;
          while (oldParents[r] != r) {
            r = oldParents[r];
          }
          roots[s] = oldKeys[r];
        }
      }
      keys = new int[oldKeys.length * 2];
      parents = new int[keys.length];
      Arrays.fill(keys, FREE);
      size = 0;
      for (int s = 0; s < oldKeys.length; s++) {
        if (oldKeys[s] != FREE) {
          slot(oldKeys[s]);
        }
      }
      for (int s = 0; s < oldKeys.length; s++) {
        if (oldKeys[s] != FREE && roots[s] != oldKeys[s]) {
          parents[slot(oldKeys[s])] = slot(roots[s]);
        }
      }
    }

    /** One edge {@code (node, root)} per node that is not a root; the root is the smaller. */
    Iterator<Long> edges() {
      return new Iterator<>() {
        private int s = advance(0);

        private int advance(int from) {
          int x = from;
          while (x < keys.length && (keys[x] == FREE || find(x) == x)) {
            x++;
          }
          return x;
        }

        @Override
        public boolean hasNext() {
          return s < keys.length;
        }

        @Override
        public Long next() {
          if (s >= keys.length) {
            throw new NoSuchElementException();
          }
          long e = ConnectedComponents.edge(keys[s], keys[find(s)]);
          s = advance(s + 1);
          return e;
        }
      };
    }
  }
}
