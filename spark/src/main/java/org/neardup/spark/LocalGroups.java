// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.ToLongFunction;
import org.neardup.internal.Sorts;
import scala.Tuple2;

/**
 * Puts a task's members of the candidate self-join in group order with a sort of primitive keys,
 * instead of Spark's shuffle sort, which compares boxed keys through a comparator and estimates the
 * size of its buffer as it fills: each record gets a 64-bit key from its group, the keys and record
 * indexes are sorted as two arrays, and a run of equal keys that holds more than one group (a
 * collision) is sorted again by the groups themselves. Equal groups come out next to each other,
 * which is all {@code Candidates}' streaming of groups needs.
 */
final class LocalGroups {
  private LocalGroups() {}

  static Iterator<Tuple2<GroupKey, Member>> sorted(Iterator<Tuple2<GroupKey, Member>> in) {
    return sorted(in, LocalGroups::key);
  }

  /** With another key of the groups (the tests' keys collide on purpose). */
  static Iterator<Tuple2<GroupKey, Member>> sorted(
      Iterator<Tuple2<GroupKey, Member>> in, ToLongFunction<GroupKey> keyOf) {
    List<Tuple2<GroupKey, Member>> all = new ArrayList<>();
    in.forEachRemaining(all::add);
    int n = all.size();
    long[] keys = new long[n];
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      keys[i] = keyOf.applyAsLong(all.get(i)._1());
      order[i] = i;
    }
    Sorts.sortByKey(keys, order, n);
    for (int s = 0; s < n; ) {
      int e = s + 1;
      while (e < n && keys[e] == keys[s]) {
        e++;
      }
      if (e - s > 1 && mixed(all, order, s, e)) {
        Integer[] run = new Integer[e - s];
        for (int x = s; x < e; x++) {
          run[x - s] = order[x];
        }
        Arrays.sort(run, (p, q) -> GroupKey.ORDER.compare(all.get(p)._1(), all.get(q)._1()));
        for (int x = s; x < e; x++) {
          order[x] = run[x - s];
        }
      }
      s = e;
    }
    return new Iterator<>() {
      private int next;

      @Override
      public boolean hasNext() {
        return next < n;
      }

      @Override
      public Tuple2<GroupKey, Member> next() {
        if (next >= n) {
          throw new NoSuchElementException();
        }
        Tuple2<GroupKey, Member> r = all.get(order[next]);
        all.set(order[next++], null); // let what was streamed go
        return r;
      }
    };
  }

  /** A 64-bit key of the group; different groups have different keys but for rare collisions. */
  static long key(GroupKey g) {
    long h = GroupKey.groupHash(g.kind, g.value);
    h += (g.a * 0x9E3779B97F4A7C15L) ^ (g.b * 0xC2B2AE3D27D4EB4FL);
    h ^= h >>> 29;
    h *= 0xBF58476D1CE4E5B9L;
    return h ^ (h >>> 32);
  }

  private static boolean mixed(List<Tuple2<GroupKey, Member>> all, int[] order, int s, int e) {
    GroupKey first = all.get(order[s])._1();
    for (int x = s + 1; x < e; x++) {
      if (!all.get(order[x])._1().sameAs(first)) {
        return true;
      }
    }
    return false;
  }
}
