// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.neardup.store.hbase.HBaseStore.META_FAMILY;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Result;
import org.junit.jupiter.api.Test;

/**
 * The sequence row's rules without HBase: a chain of attempts, some cut short, applied to a row
 * held here exactly as HBase applies the compare-and-sets; after each step every ordinal is visible
 * exactly when an attempt that committed wrote it.
 */
class SequenceTest {
  private static final byte[] ROW = {'q'};

  /** The row after {@code m}'s cells are applied to {@code row}'s (a put overwrites). */
  private static Result apply(Result row, Mutation m) {
    List<Cell> cells = new ArrayList<>();
    for (Cell c : row.rawCells()) {
      cells.add(c);
    }
    for (List<Cell> put : m.getFamilyCellMap().values()) {
      for (Cell c : put) {
        cells.removeIf(old -> CellUtil.matchingColumn(old, c));
        cells.add(
            new KeyValue(ROW, META_FAMILY, CellUtil.cloneQualifier(c), CellUtil.cloneValue(c)));
      }
    }
    cells.sort(CellComparator.getInstance());
    return Result.create(cells);
  }

  private static Result given(Result row, long value) {
    List<Cell> cells = new ArrayList<>();
    for (Cell c : row.rawCells()) {
      if (!CellUtil.matchingQualifier(c, Sequence.GIVEN)) {
        cells.add(c);
      }
    }
    cells.add(new KeyValue(ROW, META_FAMILY, Sequence.GIVEN, Rows.ordinal(value)));
    cells.sort(CellComparator.getInstance());
    return Result.create(cells);
  }

  /** Whether the compare-and-set's condition holds on {@code row}, as HBase would find. */
  private static boolean holds(CheckAndMutate cm, Result row) {
    byte[] now = row.getValue(cm.getFamily(), cm.getQualifier());
    return cm.getValue() == null ? now == null : now != null && Arrays.equals(now, cm.getValue());
  }

  @Test
  void attemptsCutShortAtRandom_onlyCommittedOrdinalsAreVisible() {
    for (long seed = 0; seed < 50; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      Result row = Result.create(new Cell[0]);
      List<Long> committed = new ArrayList<>();
      long top = 0;
      for (int step = 0; step < 60; step++) {
        Sequence seen = Sequence.of(row);
        int n = 1 + r.nextInt(5);
        long first = seen.given() + 1;
        row = given(row, seen.given() + n); // the increment that hands out the ordinals
        top = seen.given() + n;
        if (r.nextInt(4) == 0) {
          continue; // cut short: the rows are written, the commit never happens
        }
        Result before = row;
        CheckAndMutate commit = seen.commit(ROW, top);
        assertThat(holds(commit, row)).isTrue();
        row = apply(row, (Mutation) commit.getAction());
        // A writer that read the row before this commit (an expired lease) cannot commit after it.
        assertThat(holds(Sequence.of(before).commit(ROW, top + 1), row)).isFalse();
        assertThat(Sequence.of(row).committed()).isEqualTo(top);
        assertThat(Sequence.of(before).committed()).isEqualTo(seen.committed());
        for (long o = first; o <= top; o++) {
          committed.add(o);
        }
      }
      Sequence now = Sequence.of(row);
      for (long o = 0; o <= top + 3; o++) {
        assertThat(now.visible(o))
            .as("seed %s, ordinal %s", seed, o)
            .isEqualTo(committed.contains(o));
      }
    }
  }

  @Test
  void storeWrittenBeforeGivenExisted_startsHandingOutAfterCommitted() {
    Result row =
        Result.create(
            List.of((Cell) new KeyValue(ROW, META_FAMILY, HBaseStore.VALUE, Rows.ordinal(7))));
    Sequence s = Sequence.of(row);
    assertThat(s.hasGiven()).isFalse();
    assertThat(s.given()).isEqualTo(7);
    assertThat(s.visible(7)).isTrue();
    assertThat(s.visible(8)).isFalse();
    assertThat(Sequence.of(Result.create(new Cell[0])).hasGiven()).isTrue();
  }
}
