// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * Connected components of the pair graph, distributed, by alternating Large-Star and Small-Star
 * (Kiveris, Lattanzi, Mirrokni, Rastogi, Vassilvitskii, "Connected Components in MapReduce and
 * Beyond", SoCC 2014), until every component is a star around its smallest ordinal: the earliest
 * document, the representative {@code neardup dedup} picks.
 *
 * <p>An edge is one long, {@code (larger << 32) | smaller} for an undirected edge, or {@code (u <<
 * 32) | v} for "v is a neighbour of u". Each step sorts the edges by (u, v) within partitions of u,
 * so a node's neighbours stream past in ascending order, the smallest first: no node's neighbour
 * list is ever held in memory, however big its component, and nothing but a count reaches the
 * driver. Deterministic: the result depends on the graph only, not on partitioning.
 */
final class ConnectedComponents {
  private static final long LOW = 0xFFFFFFFFL;

  private ConnectedComponents() {}

  static long edge(int larger, int smaller) {
    return ((long) larger << 32) | (smaller & LOW);
  }

  static int high(long e) {
    return (int) (e >>> 32);
  }

  static int low(long e) {
    return (int) (e & LOW);
  }

  /**
   * The stars: one edge {@code (member, representative)} per document that is not its cluster's
   * representative. Rounds run until the check finds no node with two parents or a parent with a
   * parent.
   */
  static JavaRDD<Long> stars(JavaRDD<Long> edges, int partitions, int[] roundsOut) {
    JavaRDD<Long> current = edges;
    JavaRDD<Long> previous = null;
    for (int round = 1; ; round++) {
      JavaRDD<Long> next = smallStar(largeStar(current, partitions), partitions);
      next.persist(StorageLevel.MEMORY_AND_DISK_SER());
      long bad = notStars(next, partitions);
      if (previous != null) {
        previous.unpersist(false);
      }
      previous = next;
      current = next;
      if (bad == 0) {
        roundsOut[0] = round;
        return next;
      }
    }
  }

  /** Sorts longs by value within partitions of their high half. */
  private static JavaRDD<Long> sorted(JavaRDD<Long> edges, int partitions) {
    return edges
        .mapToPair(e -> new Tuple2<>(e, Boolean.TRUE))
        .repartitionAndSortWithinPartitions(new ByHigh(partitions))
        .keys();
  }

  /**
   * Large-Star: each node u links every larger neighbour to the smallest of u and its neighbours.
   */
  static JavaRDD<Long> largeStar(JavaRDD<Long> edges, int partitions) {
    JavaRDD<Long> both = edges.flatMap(e -> java.util.List.of(e, edge(low(e), high(e))).iterator());
    return sorted(both, partitions)
        .mapPartitions(
            it ->
                new Stream(it) {
                  int m;

                  @Override
                  void node(int u, int firstV) {
                    m = Math.min(u, firstV);
                  }

                  @Override
                  void neighbour(int u, int v) {
                    if (v > u) {
                      emit(edge(v, m));
                    }
                  }
                });
  }

  /** Small-Star: each node u links itself and every smaller neighbour to the smallest of them. */
  static JavaRDD<Long> smallStar(JavaRDD<Long> edges, int partitions) {
    return sorted(edges, partitions) // (larger, smaller): u's smaller neighbours
        .mapPartitions(
            it ->
                new Stream(it) {
                  int m;

                  @Override
                  void node(int u, int firstV) {
                    m = firstV;
                    emit(edge(u, m));
                  }

                  @Override
                  void neighbour(int u, int v) {
                    if (v != m) {
                      emit(edge(v, m));
                    }
                  }
                });
  }

  /**
   * Nodes with more than one parent, or a parent that has one: 0 once every component is a star.
   */
  static long notStars(JavaRDD<Long> edges, int partitions) {
    // Per node: {smallest parent, largest parent, is a parent}; parents are ordinals >= 0.
    return edges
        .flatMapToPair(
            e ->
                java.util.List.of(
                        new Tuple2<>(high(e), new long[] {low(e), low(e), 0}),
                        new Tuple2<>(low(e), new long[] {Long.MAX_VALUE, -1, 1}))
                    .iterator())
        .reduceByKey(
            (a, b) -> new long[] {Math.min(a[0], b[0]), Math.max(a[1], b[1]), a[2] | b[2]},
            partitions)
        .filter(n -> n._2()[1] >= 0 && (n._2()[0] != n._2()[1] || n._2()[2] != 0))
        .count();
  }

  /** Partitions an edge by its high half, the node whose neighbours it lists. */
  static final class ByHigh extends Partitioner {
    private static final long serialVersionUID = 1L;
    private final int n;

    ByHigh(int n) {
      this.n = n;
    }

    @Override
    public int numPartitions() {
      return n;
    }

    @Override
    public int getPartition(Object key) {
      int u = high((Long) key);
      return Math.floorMod(u * 0x9E3779B9, n);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof ByHigh && ((ByHigh) o).n == n;
    }

    @Override
    public int hashCode() {
      return n;
    }
  }

  /**
   * Walks sorted edges node by node, skipping repeated edges, and yields what the step emits. Holds
   * one node's state and at most two pending outputs.
   */
  private abstract static class Stream implements Iterator<Long> {
    private final Iterator<Long> in;
    private final long[] out = new long[2];
    private int outN;
    private int outPos;
    private boolean started;
    private long last;

    Stream(Iterator<Long> in) {
      this.in = in;
    }

    abstract void node(int u, int firstV);

    abstract void neighbour(int u, int v);

    final void emit(long e) {
      out[outN++] = e;
    }

    @Override
    public boolean hasNext() {
      while (outPos == outN) {
        outPos = 0;
        outN = 0;
        if (!in.hasNext()) {
          return false;
        }
        long e = in.next();
        if (started && e == last) {
          continue;
        }
        int u = high(e);
        int v = low(e);
        if (!started || u != high(last)) {
          node(u, v);
        }
        started = true;
        last = e;
        neighbour(u, v);
      }
      return true;
    }

    @Override
    public Long next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return out[outPos++];
    }
  }

  /**
   * The representative of every document in an edge, once: {@code member -> representative}. (A
   * star's edge may be emitted by more than one node in the last round.)
   */
  static JavaPairRDD<Integer, Integer> labels(JavaRDD<Long> stars, int partitions) {
    return stars.distinct(partitions).mapToPair(e -> new Tuple2<>(high(e), low(e)));
  }
}
