// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.spark.HashPartitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.neardup.index.BlockScheme;
import scala.Tuple2;

/**
 * Candidate pairs by a distributed self-join, the distributed form of what {@link
 * org.neardup.CorpusDedup} does on one machine: every document is emitted under its key in each
 * table of a {@link BlockScheme} (so that two fingerprints within k bits share at least one key)
 * and under each of its MinHash band keys; groups of equal keys are compared pairwise.
 *
 * <p>The candidates are those of {@code CorpusDedup}: the pairs within k bits and the pairs that
 * share a band key (without verification, band keys do not exist). Each is emitted once: a pair
 * within k from the first table whose key the two share (there is one: the scheme is exact for k),
 * any other pair from the first band they share. So a table's group needs no band key of its
 * members, and band b's group needs only bands 0 to b - 1.
 *
 * <p>In incremental mode, pairs of two documents of the earlier run (ordinals below {@code
 * firstNew}) are not emitted: they were decided then.
 *
 * <p>Hot keys: a group larger than {@code groupLimit} is cut into {@code nb} blocks (by a hash of
 * the ordinal) and every member is sent to the {@code nb} block pairs {@code (a, b), a <= b} that
 * hold its block; the task of {@code (a, a)} compares the members of block a among themselves, the
 * task of {@code (a, b)} compares block a with block b. Each pair of the group meets in exactly one
 * task, and a task holds about {@code groupLimit} members. Only the hot keys and their estimated
 * sizes reach the driver (at most members * keys / groupLimit of them).
 */
final class Candidates {
  private static final long[] NO_BANDS = new long[0];

  private Candidates() {}

  /**
   * Pairs {@code (i, j, distance, shape of i, shape of j)}, {@code i < j}, to verify (or, without
   * verification, the pairs).
   */
  static JavaRDD<long[]> find(
      JavaSparkContext jsc,
      JavaRDD<Member> members,
      DedupSettings settings,
      int partitions,
      int firstNew,
      long documents) {
    BlockScheme scheme = settings.blockScheme();
    int tables = scheme.tables();
    long[] masks = new long[tables];
    for (int t = 0; t < tables; t++) {
      masks[t] = scheme.keyMask(t);
    }
    int limit = settings.groupLimit;
    int half = Math.max(1, limit / 2);
    // Group sizes are counted on a sample of the members (all of them for a small limit): which
    // groups are split only decides how the work is cut, never which pairs come out, so an
    // estimate will do, and it spares a count of every key of every document.
    int every = Math.max(1, limit / 64);
    JavaPairRDD<Long, Integer> sizes =
        members
            .filter(m -> every == 1 || Math.floorMod(GroupKey.groupHash(-1, m.ordinal), every) == 0)
            .flatMapToPair(
                m -> {
                  List<Tuple2<Long, Integer>> out = new ArrayList<>(tables + m.bandKeys.length);
                  for (int t = 0; t < tables; t++) {
                    out.add(new Tuple2<>(GroupKey.groupHash(t, m.fingerprint & masks[t]), 1));
                  }
                  for (int b = 0; b < m.bandKeys.length; b++) {
                    out.add(new Tuple2<>(GroupKey.groupHash(tables + b, m.bandKeys[b]), 1));
                  }
                  return out.iterator();
                })
            .reduceByKey(Integer::sum, partitions);
    Map<Long, Integer> hot =
        new HashMap<>(
            sizes
                .mapValues(n -> n * every)
                .filter(e -> e._2() > limit)
                .mapValues(n -> (n + half - 1) / half)
                .collectAsMap());
    Broadcast<Map<Long, Integer>> blocks = jsc.broadcast(hot);
    JavaPairRDD<GroupKey, Member> cells =
        members.flatMapToPair(
            m -> {
              List<Tuple2<GroupKey, Member>> out = new ArrayList<>();
              Map<Long, Integer> nbs = blocks.value();
              // What a group's comparison needs of a member: in a table's group no band key, in
              // band b's group bands 0 to b - 1 (see consider): a third of the shuffle's bytes.
              Member bare = new Member(m.ordinal, m.fingerprint, NO_BANDS, 0, m.shape);
              for (int k = 0; k < tables + m.bandKeys.length; k++) {
                long value = k < tables ? m.fingerprint & masks[k] : m.bandKeys[k - tables];
                long[] bands =
                    k <= tables ? NO_BANDS : java.util.Arrays.copyOf(m.bandKeys, k - tables);
                Integer nb = nbs.isEmpty() ? null : nbs.get(GroupKey.groupHash(k, value));
                if (nb == null || nb <= 1) {
                  Member v =
                      k <= tables ? bare : new Member(m.ordinal, m.fingerprint, bands, 0, m.shape);
                  out.add(new Tuple2<>(new GroupKey(k, value, 0, 0), v));
                  continue;
                }
                int a = Math.floorMod(GroupKey.groupHash(k, m.ordinal), nb);
                Member copy = new Member(m.ordinal, m.fingerprint, bands, a, m.shape);
                for (int c = 0; c < nb; c++) {
                  out.add(
                      new Tuple2<>(new GroupKey(k, value, Math.min(a, c), Math.max(a, c)), copy));
                }
              }
              return out.iterator();
            });
    int k = settings.maxDistance;
    // A task sorts its members in memory: at most about 256k of them per task, so that what a
    // task holds stays small next to the heap (a million held 80 MB per task through several
    // young collections).
    long records = documents * (tables + 8); // and the band keys: 6 with the default settings
    int tasks = (int) Math.max(partitions, Math.min(1 << 16, (records + (1 << 18) - 1) >> 18));
    return cells
        .partitionBy(new HashPartitioner(tasks))
        .mapPartitions(it -> new GroupPairs(LocalGroups.sorted(it), tables, masks, k, firstNew));
  }

  /** Streams a task's sorted groups, holding one group (or block pair) at a time. */
  private static final class GroupPairs implements Iterator<long[]> {
    private final Iterator<Tuple2<GroupKey, Member>> in;
    private final int tables;
    private final long[] masks;
    private final int k;
    private final int firstNew;
    private final List<Member> group = new ArrayList<>();
    private Tuple2<GroupKey, Member> pending;
    private GroupKey key;
    private boolean across;
    private int x;
    private int y;
    private long[] next;

    GroupPairs(
        Iterator<Tuple2<GroupKey, Member>> in, int tables, long[] masks, int k, int firstNew) {
      this.in = in;
      this.firstNew = firstNew;
      this.tables = tables;
      this.masks = masks;
      this.k = k;
    }

    @Override
    public boolean hasNext() {
      while (next == null) {
        if (!advance()) {
          return false;
        }
      }
      return true;
    }

    @Override
    public long[] next() {
      if (!hasNext()) {
        throw new java.util.NoSuchElementException();
      }
      long[] r = next;
      next = null;
      return r;
    }

    /** Moves on by one pair of the current group, or to the next group; false at the end. */
    private boolean advance() {
      int n = group.size();
      if (x < n - 1) {
        if (++y >= n) {
          x++;
          y = x + 1;
          if (y >= n) {
            return true;
          }
        }
        Member p = group.get(x);
        Member q = group.get(y);
        if (!across || p.block != q.block) { // across: same-block pairs belong to (block, block)
          next = consider(key.kind, p, q);
        }
        return true;
      }
      if (pending == null && !in.hasNext()) {
        return false;
      }
      Tuple2<GroupKey, Member> first = pending != null ? pending : in.next();
      pending = null;
      key = first._1();
      across = key.a != key.b;
      group.clear();
      group.add(first._2());
      while (in.hasNext()) {
        Tuple2<GroupKey, Member> e = in.next();
        if (!e._1().sameAs(key)) {
          pending = e;
          break;
        }
        group.add(e._2());
      }
      x = 0;
      y = 0;
      return true;
    }

    private long[] consider(int kind, Member p, Member q) {
      Member lo = p.ordinal < q.ordinal ? p : q;
      Member hi = p.ordinal < q.ordinal ? q : p;
      if (lo.ordinal == hi.ordinal || hi.ordinal < firstNew) {
        return null; // two documents of an earlier run: decided then
      }
      long diff = lo.fingerprint ^ hi.fingerprint;
      int d = Long.bitCount(diff);
      if (kind < tables) {
        if (d > k) {
          return null;
        }
        for (int t = 0; t < kind; t++) {
          if ((diff & masks[t]) == 0) {
            return null; // an earlier table has this pair
          }
        }
      } else if (d <= k) {
        return null; // the tables have it: the scheme is exact for k, so the two share a table
      } else if (shareBand(lo.bandKeys, hi.bandKeys, kind - tables)) {
        return null; // an earlier band has it
      }
      return new long[] {lo.ordinal, hi.ordinal, d, lo.shape, hi.shape};
    }

    private static boolean shareBand(long[] a, long[] b, int limit) {
      for (int i = 0; i < limit; i++) {
        if (a[i] == b[i]) {
          return true;
        }
      }
      return false;
    }
  }
}
