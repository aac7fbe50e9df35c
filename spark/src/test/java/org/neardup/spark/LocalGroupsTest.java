// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.Test;
import scala.Tuple2;

class LocalGroupsTest {
  @Test
  void everyGroupComesOutWholeAndNothingIsLostOrDoubled() {
    List<ToLongFunction<GroupKey>> keys =
        List.of(
            LocalGroups::key,
            g -> g.value % 3, // many groups on one key, interleaved: the collision path
            g -> 7); // every group on one key
    for (int seed = 0; seed < 200; seed++) {
      Random r = new Random(seed);
      int n = r.nextInt(400);
      List<Tuple2<GroupKey, Member>> in = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        GroupKey g = new GroupKey(r.nextInt(3), r.nextInt(20), r.nextInt(2), r.nextInt(2));
        in.add(new Tuple2<>(g, new Member(i, r.nextLong(), new long[0], 0, 0)));
      }
      for (ToLongFunction<GroupKey> key : keys) {
        List<Tuple2<GroupKey, Member>> out = new ArrayList<>();
        LocalGroups.sorted(new ArrayList<>(in).iterator(), key).forEachRemaining(out::add);
        assertThat(out).hasSize(n);
        Set<Integer> ordinals = new HashSet<>();
        List<GroupKey> seen = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          assertThat(ordinals.add(out.get(i)._2().ordinal)).isTrue();
          GroupKey g = out.get(i)._1();
          if (i == 0 || !g.sameAs(out.get(i - 1)._1())) {
            assertThat(seen).as("group %s seen before, seed %s", g.value, seed).doesNotContain(g);
            seen.add(g);
          }
        }
      }
    }
  }
}
