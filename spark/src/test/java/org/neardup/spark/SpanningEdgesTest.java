// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.neardup.cluster.Clusters;

/** Per-partition spanning forests connect exactly what the edges connect, and no more edges. */
class SpanningEdgesTest {
  /** Each node's root under union-find (the smallest node of its component). */
  private static int[] roots(int n, List<Long> edges) {
    Clusters c = new Clusters(n);
    c.ensure(n);
    for (long e : edges) {
      c.union(ConnectedComponents.high(e), ConnectedComponents.low(e));
    }
    int[] r = new int[n];
    for (int i = 0; i < n; i++) {
      r[i] = c.find(i);
    }
    return r;
  }

  @Test
  void forestsOfRandomPartitions_giveTheSameComponents() {
    for (int seed = 0; seed < 300; seed++) {
      Random r = new Random(seed);
      int n = 1 + r.nextInt(seed % 10 == 0 ? 5000 : 300);
      int parts = 1 + r.nextInt(5);
      List<List<Long>> partitions = new ArrayList<>();
      for (int p = 0; p < parts; p++) {
        partitions.add(new ArrayList<>());
      }
      List<Long> all = new ArrayList<>();
      int m = r.nextInt(3 * n + 1);
      // A clique of copies in some graphs (the giant cluster), random edges in all, repeats.
      int clique = seed % 3 == 0 ? Math.min(n, 60) : 0;
      for (int a = 0; a < clique; a++) {
        for (int b = 0; b < a; b++) {
          all.add(ConnectedComponents.edge(a, b));
        }
      }
      for (int i = 0; i < m; i++) {
        int a = r.nextInt(n);
        int b = r.nextInt(n);
        if (a != b) {
          all.add(ConnectedComponents.edge(Math.max(a, b), Math.min(a, b)));
        }
      }
      for (long e : all) {
        partitions.get(r.nextInt(parts)).add(e);
      }
      List<Long> forests = new ArrayList<>();
      for (List<Long> p : partitions) {
        Set<Integer> nodes = new HashSet<>();
        for (long e : p) {
          nodes.add(ConnectedComponents.high(e));
          nodes.add(ConnectedComponents.low(e));
        }
        List<Long> f = new ArrayList<>();
        SpanningEdges.forest(p.iterator()).forEachRemaining(f::add);
        assertThat(f.size()).as("seed %s", seed).isLessThanOrEqualTo(Math.max(0, nodes.size() - 1));
        for (long e : f) {
          assertThat(ConnectedComponents.high(e))
              .as("seed %s: (larger, smaller)", seed)
              .isGreaterThan(ConnectedComponents.low(e));
          assertThat(nodes).contains(ConnectedComponents.high(e), ConnectedComponents.low(e));
        }
        forests.addAll(f);
      }
      assertThat(roots(n, forests)).as("seed %s", seed).isEqualTo(roots(n, all));
    }
  }

  @Test
  void forest_ofOneCliqueOfCopies_isAStarOnTheSmallest() {
    List<Long> edges = new ArrayList<>();
    for (int a = 100; a < 400; a++) {
      for (int b = 100; b < a; b++) {
        edges.add(ConnectedComponents.edge(a, b));
      }
    }
    List<Long> f = new ArrayList<>();
    SpanningEdges.forest(edges.iterator()).forEachRemaining(f::add);
    assertThat(f).hasSize(299);
    for (long e : f) {
      assertThat(ConnectedComponents.low(e)).isEqualTo(100);
    }
  }
}
