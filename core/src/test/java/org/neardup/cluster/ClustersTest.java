// SPDX-License-Identifier: Apache-2.0
package org.neardup.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ClustersTest {
  @Test
  void union_chain_putsAllInOneClusterRepresentedBySmallest() {
    Clusters c = new Clusters(4);
    c.ensure(5);
    c.union(3, 4);
    c.union(1, 3); // A~B and B~C: one cluster even though 1 and 4 never met
    assertThat(c.find(4)).isEqualTo(1);
    assertThat(c.clusterSize(4)).isEqualTo(3);
    assertThat(c.find(0)).isZero();
    assertThat(c.clusterSize(2)).isEqualTo(1);
  }

  @Test
  void find_randomUnions_agreesWithLabelPropagation() {
    SplittableRandom r = new SplittableRandom(8);
    int n = 2000;
    Clusters c = new Clusters(16);
    c.ensure(n);
    int[] label = new int[n];
    for (int i = 0; i < n; i++) {
      label[i] = i;
    }
    for (int step = 0; step < 1500; step++) {
      int a = r.nextInt(n);
      int b = r.nextInt(n);
      c.union(a, b);
      int from = Math.max(label[a], label[b]);
      int to = Math.min(label[a], label[b]);
      for (int i = 0; i < n; i++) {
        if (label[i] == from) {
          label[i] = to;
        }
      }
    }
    for (int i = 0; i < n; i++) {
      assertThat(c.find(i)).isEqualTo(label[i]);
    }
  }
}
