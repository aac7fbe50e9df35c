// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import static org.neardup.store.hbase.HBaseStore.META_FAMILY;
import static org.neardup.store.hbase.HBaseStore.VALUE;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;
import java.util.NavigableMap;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;

/**
 * A collection's sequence row as one read saw it: which ordinals are committed. Immutable.
 *
 * <pre>
 * SequenceRow --&gt; Committed, Given?, Hole*
 * Committed   --&gt; column v: the last committed ordinal (8 bytes; absent: 0)
 * Given       --&gt; column a: the last ordinal handed out (8 bytes; absent: Committed)
 * Hole        --&gt; column 'h' + First (9 bytes): Last (8 bytes), ordinals First..Last never committed
 * </pre>
 *
 * <p>A commit writes its documents' rows under fresh ordinals first (handed out by an atomic
 * increment of Given, so no two attempts ever write the same ordinal), then moves Committed from
 * the value its decision read to its last ordinal with one {@code checkAndMutate}: that cell is the
 * commit point. A reader ignores every row of an ordinal that is not committed: above Committed, or
 * inside a hole. Ordinals handed out to an attempt that did not commit (a process that died, an
 * attempt that lost the compare-and-set) lie between Committed and the next commit's first ordinal;
 * that commit records them as a hole in the same {@code checkAndMutate}, so they stay invisible
 * forever, whatever their writer does later. Holes come only from failed commits, so the row stays
 * small. An attempt takes one ordinal per document of its batch before it knows which it will
 * store, and commits up to the last one taken even when it stores none: the ordinals of documents
 * not stored stay committed and empty (no rows), never a hole.
 */
final class Sequence {
  static final byte[] GIVEN = HBaseStore.bytes("a");
  private static final byte HOLE = 'h';

  /** No ordinal is committed. */
  static final Sequence EMPTY = new Sequence(0, 0, true, new long[0], new long[0]);

  private final long committed;
  private final long given;
  private final boolean hasGiven;
  private final long[] holeFirst; // sorted
  private final long[] holeLast;

  private Sequence(
      long committed, long given, boolean hasGiven, long[] holeFirst, long[] holeLast) {
    this.committed = committed;
    this.given = given;
    this.hasGiven = hasGiven;
    this.holeFirst = holeFirst;
    this.holeLast = holeLast;
  }

  /** The sequence row's state; an empty result is an empty sequence. */
  static Sequence of(Result row) {
    byte[] c = row.getValue(META_FAMILY, VALUE);
    long committed = c == null ? 0 : Rows.toLong(c);
    byte[] g = row.getValue(META_FAMILY, GIVEN);
    long given = g == null ? committed : Rows.toLong(g);
    NavigableMap<byte[], byte[]> cols = row.getFamilyMap(META_FAMILY);
    int n = 0;
    long[] first = new long[4];
    long[] last = new long[4];
    if (cols != null) {
      for (Map.Entry<byte[], byte[]> e : cols.entrySet()) {
        byte[] q = e.getKey();
        if (q.length == 9 && q[0] == HOLE) {
          if (n == first.length) {
            first = Arrays.copyOf(first, n * 2);
            last = Arrays.copyOf(last, n * 2);
          }
          first[n] = Rows.toLong(q, 1);
          last[n++] = Rows.toLong(e.getValue());
        }
      }
    }
    // Qualifiers come sorted as bytes, which is numeric order for non-negative longs.
    return new Sequence(
        committed,
        Math.max(given, committed),
        g != null || committed == 0,
        Arrays.copyOf(first, n),
        Arrays.copyOf(last, n));
  }

  /** The last committed ordinal (0: none). */
  long committed() {
    return committed;
  }

  /** The last ordinal handed out; every ordinal a new attempt gets is above it. */
  long given() {
    return given;
  }

  /**
   * False for a store written before Given existed, with ordinals committed: see {@link
   * #initGiven}.
   */
  boolean hasGiven() {
    return hasGiven;
  }

  /** Holes recorded. */
  int holes() {
    return holeFirst.length;
  }

  /** Whether the rows of {@code ordinal} belong to a committed document. */
  boolean visible(long ordinal) {
    if (ordinal > committed || ordinal <= 0) {
      return false;
    }
    int i = Arrays.binarySearch(holeFirst, ordinal);
    if (i >= 0) {
      return false;
    }
    int before = -i - 2; // the last hole starting below ordinal
    return before < 0 || ordinal > holeLast[before];
  }

  /**
   * Hands out {@code n} ordinals above {@link #given()}: an atomic increment of Given, whose result
   * the caller passes to {@link #handedOut}.
   */
  Increment take(byte[] row, int n) {
    return new Increment(row).addColumn(META_FAMILY, GIVEN, n);
  }

  /**
   * Whether the increment's result {@code givenNow} handed out exactly the {@code n} ordinals
   * following {@link #given()}; false when another attempt took ordinals meanwhile (a writer whose
   * lease expired) or Given was missing while ordinals were committed (a store written before Given
   * existed: see {@link #initGiven}).
   */
  boolean handedOut(long givenNow, int n) {
    return givenNow == given + n;
  }

  /** Sets a missing Given to Committed (stores written before Given existed); once. */
  CheckAndMutate initGiven(byte[] row) {
    return CheckAndMutate.newBuilder(row)
        .ifNotExists(META_FAMILY, GIVEN)
        .build(new Put(row).addColumn(META_FAMILY, GIVEN, Rows.ordinal(committed)));
  }

  /**
   * The commit point of an attempt that wrote the rows of ordinals {@code given() + 1 .. last}:
   * moves Committed from the value read to {@code last} if it has not moved, recording the ordinals
   * handed out since that were not committed as a hole.
   */
  CheckAndMutate commit(byte[] row, long last) {
    CheckAndMutate.Builder b = CheckAndMutate.newBuilder(row);
    if (committed == 0) {
      b.ifNotExists(META_FAMILY, VALUE);
    } else {
      b.ifEquals(META_FAMILY, VALUE, Rows.ordinal(committed));
    }
    Put put = new Put(row).addColumn(META_FAMILY, VALUE, Rows.ordinal(last));
    if (given > committed) {
      put.addColumn(META_FAMILY, hole(committed + 1), Rows.ordinal(given));
    }
    return b.build(put);
  }

  private static byte[] hole(long first) {
    return ByteBuffer.allocate(9).put(HOLE).putLong(first).array();
  }

  /** The columns an import writes: every ordinal up to {@code last} committed and handed out. */
  static Put imported(byte[] row, long last) {
    return new Put(row)
        .addColumn(META_FAMILY, VALUE, Rows.ordinal(last))
        .addColumn(META_FAMILY, GIVEN, Rows.ordinal(last));
  }
}
