// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.neardup.cluster.Clusters;
import scala.Tuple2;

/** The distributed components against the engine's union-find, on random and adversarial graphs. */
class ConnectedComponentsTest {
  static SparkSession spark;
  static JavaSparkContext jsc;

  @BeforeAll
  static void start() {
    spark = LocalSpark.start();
    jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  /** member -> representative as union-find (smallest ordinal is the root) gives it. */
  private static Map<Integer, Integer> expected(int n, List<long[]> edges) {
    Clusters c = new Clusters(n);
    c.ensure(n);
    for (long[] e : edges) {
      c.union((int) e[0], (int) e[1]);
    }
    Map<Integer, Integer> m = new HashMap<>();
    for (int i = 0; i < n; i++) {
      if (c.find(i) != i) {
        m.put(i, c.find(i));
      }
    }
    return m;
  }

  private static Map<Integer, Integer> actual(List<long[]> edges, int partitions) {
    List<Long> packed = new ArrayList<>();
    for (long[] e : edges) {
      int a = (int) Math.max(e[0], e[1]);
      int b = (int) Math.min(e[0], e[1]);
      packed.add(ConnectedComponents.edge(a, b));
    }
    JavaRDD<Long> rdd = jsc.parallelize(packed, 3);
    Map<Integer, Integer> m = new HashMap<>();
    for (Tuple2<Integer, Integer> t :
        ConnectedComponents.labels(
                ConnectedComponents.stars(rdd, partitions, new int[1]), partitions)
            .collect()) {
      assertThat(m.put(t._1(), t._2())).as("one label per member").isNull();
    }
    return m;
  }

  @Test
  void randomGraphsMatchUnionFind() {
    Random r = new Random(7);
    for (int trial = 0; trial < 2; trial++) {
      int n = 200 + r.nextInt(400);
      List<long[]> edges = new ArrayList<>();
      int m = r.nextInt(n);
      for (int i = 0; i < m; i++) {
        int a = r.nextInt(n);
        int b = r.nextInt(n);
        if (a != b) {
          edges.add(new long[] {a, b});
        }
      }
      assertThat(actual(edges, 1 + trial * 3)).isEqualTo(expected(n, edges));
    }
  }

  @Test
  void longChainsAndStarsMatchUnionFind() {
    List<long[]> edges = new ArrayList<>();
    // A chain 0-1-2-...-399 listed backwards, and a chain whose ends are far apart in ordinal.
    for (int i = 399; i > 0; i--) {
      edges.add(new long[] {i, i - 1});
    }
    Random r = new Random(3);
    List<Integer> perm = new ArrayList<>();
    for (int i = 400; i < 700; i++) {
      perm.add(i);
    }
    java.util.Collections.shuffle(perm, r);
    for (int i = 1; i < perm.size(); i++) {
      edges.add(new long[] {perm.get(i - 1), perm.get(i)});
    }
    // A big clique-ish cluster around a late ordinal, and repeated edges.
    for (int i = 700; i < 900; i++) {
      edges.add(new long[] {899, i});
      edges.add(new long[] {899, i});
    }
    assertThat(actual(edges, 5)).isEqualTo(expected(900, edges));
  }
}
