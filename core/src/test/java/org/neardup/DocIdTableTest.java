// SPDX-License-Identifier: Apache-2.0
package org.neardup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link DocIdTable} against a plain list and hash map, in runs mode and after the switch. */
class DocIdTableTest {
  /** The table under test and the oracle, driven by the same operations. */
  private static final class Pair {
    final BitSet removed = new BitSet();
    final DocIdTable table = new DocIdTable(removed);
    final List<Long> docIds = new ArrayList<>();
    final Map<Long, Integer> live = new HashMap<>();

    int append(long docId) {
      int got = table.append(docId);
      Integer there = live.get(docId);
      assertThat(got).as("append %s", docId).isEqualTo(there == null ? -1 : there);
      if (there == null) {
        live.put(docId, docIds.size());
        docIds.add(docId);
      }
      return got;
    }

    void remove(long docId) {
      int got = table.remove(docId);
      Integer there = live.remove(docId);
      assertThat(got).as("remove %s", docId).isEqualTo(there == null ? -1 : there);
      if (got >= 0) {
        removed.set(got);
      }
    }

    void truncate(int newSize) {
      table.truncate(newSize);
      while (docIds.size() > newSize) {
        live.remove(docIds.remove(docIds.size() - 1));
      }
    }

    void check(SplittableRandom r, long range) {
      table.checkInvariants();
      assertThat(table.size()).isEqualTo(docIds.size());
      for (int o = 0; o < docIds.size(); o++) {
        assertThat(table.docId(o)).as("docId of %s", o).isEqualTo(docIds.get(o));
      }
      for (Map.Entry<Long, Integer> e : live.entrySet()) {
        assertThat(table.get(e.getKey())).as("ordinal of %s", e.getKey()).isEqualTo(e.getValue());
      }
      for (int i = 0; i < 200; i++) {
        long q = r.nextLong(-2, range + 2);
        Integer there = live.get(q);
        assertThat(table.get(q)).as("ordinal of %s", q).isEqualTo(there == null ? -1 : there);
      }
    }
  }

  /**
   * Increasing docIds with gaps (what a restore after expiries gives), removals and failed batches
   * taken back: the table stays in runs, one run per gap, and answers as the map.
   */
  @Test
  void increasingDocIds_withGapsRemovalsTruncates_staysInRunsAndAnswersAsMap() {
    for (int seed = 0; seed < 20; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      Pair p = new Pair();
      long next = r.nextInt(5);
      int gaps = 0;
      for (int step = 0; step < 3000; step++) {
        int op = r.nextInt(100);
        if (op < 80 || p.docIds.isEmpty()) {
          if (r.nextInt(20) == 0) {
            next += 1 + r.nextInt(50);
            gaps++;
          }
          p.append(next++);
        } else if (op < 95) {
          p.remove(p.docIds.get(r.nextInt(p.docIds.size())));
        } else {
          // Take back up to 10 of the last ordinals, none removed (a restore batch never is).
          int to = p.docIds.size();
          while (to > 0 && to > p.docIds.size() - 10 && !p.removed.get(to - 1)) {
            to--;
          }
          p.truncate(to);
          next = p.docIds.isEmpty() ? next : p.docIds.get(p.docIds.size() - 1) + 1;
        }
      }
      p.check(r, next);
      assertThat(p.table.inRuns()).as("seed %s", seed).isTrue();
      assertThat(p.table.runs()).as("seed %s", seed).isLessThanOrEqualTo(gaps + 1);
      assertThat(p.table.ramBytesUsed()).isLessThan(16L * (gaps + 1) + 256);
    }
  }

  /**
   * Any order: a docId below the last (out of order, or a removed one stored again) switches to the
   * map once; every answer before and after matches the oracle.
   */
  @Test
  void anyOrder_switchesToMap_answersAsMap() {
    for (int seed = 0; seed < 20; seed++) {
      SplittableRandom r = new SplittableRandom(100 + seed);
      Pair p = new Pair();
      long range = 500 + r.nextInt(5000);
      for (int step = 0; step < 3000; step++) {
        int op = r.nextInt(100);
        if (op < 70 || p.docIds.isEmpty()) {
          // Mostly increasing, sometimes anywhere (a duplicate, a re-insert, out of order).
          long docId =
              r.nextInt(10) < 8 && !p.docIds.isEmpty()
                  ? p.docIds.get(p.docIds.size() - 1) + 1 + r.nextInt(3)
                  : r.nextLong(range);
          p.append(docId);
        } else if (op < 90) {
          p.remove(r.nextBoolean() ? r.nextLong(range) : p.docIds.get(r.nextInt(p.docIds.size())));
        } else {
          int to = p.docIds.size();
          while (to > 0 && to > p.docIds.size() - 10 && !p.removed.get(to - 1)) {
            to--;
          }
          p.truncate(to);
        }
        if (step % 500 == 0) {
          p.check(r, range);
        }
      }
      p.check(r, range);
    }
  }

  /** The embedded store's case through the engine: docIds 0, 1, 2, ... cost no id map. */
  @Test
  void deduplicator_increasingDocIds_noIdMap() {
    Deduplicator d =
        Deduplicator.builder()
            .fingerprintSettings(org.neardup.fingerprint.FingerprintSettings.builder().build())
            .build();
    List<String> texts = TestCorpus.corpus(5, 2000, 2, 10);
    for (int i = 0; i < texts.size(); i++) {
      d.checkAndInsert(1_000 + i, texts.get(i));
    }
    for (int i = 0; i < texts.size(); i += 3) {
      d.remove(1_000 + i);
    }
    d.compact();
    for (int i = 0; i < texts.size(); i++) {
      assertThat(d.contains(1_000 + i)).as("docId %s", 1_000 + i).isEqualTo(i % 3 != 0);
    }
    // Removing every third document leaves runs of two: the compaction's new table holds them.
    assertThat(d.ordinalOf(1_000 + 1)).isEqualTo(0);
    int last = texts.size() - 1 - ((texts.size() - 1) % 3 == 0 ? 1 : 0);
    assertThat(d.ordinalOf(1_000 + last)).isEqualTo(d.size() - 1);
    assertThat(d.ordinalOf(1_000)).isEqualTo(-1);
  }

  /**
   * The one binary search of both run columns, against a linear scan: keys increasing by random
   * steps (1 and long gaps, over int and long ranges), queries at, between, beyond and at the first
   * key.
   */
  @Test
  public void lastAtMost_matchesALinearScan() {
    long seed = 20261125;
    SplittableRandom r = new SplittableRandom(seed);
    for (int round = 0; round < 500; round++) {
      int n = 1 + r.nextInt(round < 50 ? 4 : 200);
      long[] keys = new long[n];
      keys[0] = round % 2 == 0 ? r.nextInt(1000) : r.nextLong(Long.MAX_VALUE / 4);
      for (int i = 1; i < n; i++) {
        keys[i] = keys[i - 1] + (r.nextBoolean() ? 1 : 1 + r.nextLong(1L << (1 + r.nextInt(40))));
      }
      int[] asInts = new int[n];
      boolean fitsInt = keys[n - 1] <= Integer.MAX_VALUE;
      for (int q = 0; q < 40; q++) {
        int at = r.nextInt(n);
        long x =
            switch (q % 4) {
              case 0 -> keys[at];
              case 1 -> keys[at] + (at + 1 < n ? r.nextLong(keys[at + 1] - keys[at]) : 5);
              case 2 -> keys[n - 1] + r.nextInt(1000);
              default -> keys[0];
            };
        int want = 0;
        for (int i = 0; i < n; i++) {
          if (keys[i] <= x) {
            want = i;
          }
        }
        assertThat(DocIdTable.lastAtMost(i -> keys[i], n, x))
            .as("seed %s round %s keys %s x %s", seed, round, java.util.Arrays.toString(keys), x)
            .isEqualTo(want);
        if (fitsInt) {
          for (int i = 0; i < n; i++) {
            asInts[i] = (int) keys[i];
          }
          assertThat(DocIdTable.lastAtMost(i -> asInts[i], n, x)).isEqualTo(want);
        }
      }
    }
  }
}
