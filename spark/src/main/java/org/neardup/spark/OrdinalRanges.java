// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaRDD;
import org.jspecify.annotations.Nullable;
import scala.Tuple2;

/**
 * Sends an ordinal to the partition of the documents' RDD that holds it, when each partition holds
 * a range of ordinals in ascending order (as the readers produce them). What was decided about the
 * documents then meets them without moving the documents: a sort of the small facts by ordinal into
 * these partitions, and a merge of both sorted streams ({@link #merge}).
 */
final class OrdinalRanges extends Partitioner {
  private static final long serialVersionUID = 1L;
  private final int partitions;
  private final int[] starts;
  private final int[] indexes;
  private final long documents;

  private OrdinalRanges(int partitions, int[] starts, int[] indexes, long documents) {
    this.partitions = partitions;
    this.starts = starts;
    this.indexes = indexes;
    this.documents = documents;
  }

  /** How many documents the partitions hold. */
  long documents() {
    return documents;
  }

  /**
   * The ranges of {@code docs}' partitions: one pass over it, a few numbers per partition.
   *
   * @throws IllegalStateException if a partition's ordinals do not ascend, or ranges overlap
   */
  static OrdinalRanges of(JavaRDD<Doc> docs) {
    List<int[]> ranges =
        docs.mapPartitionsWithIndex(
                (i, it) -> {
                  if (!it.hasNext()) {
                    return List.<int[]>of().iterator();
                  }
                  int first = it.next().ordinal;
                  int last = first;
                  int n = 1;
                  while (it.hasNext()) {
                    int o = it.next().ordinal;
                    if (o <= last) {
                      throw new IllegalStateException(
                          "documents out of order in partition " + i + ": " + o + " after " + last);
                    }
                    last = o;
                    n++;
                  }
                  return List.of(new int[] {i, first, last, n}).iterator();
                },
                true)
            .collect();
    int[] starts = new int[ranges.size()];
    int[] indexes = new int[ranges.size()];
    int previous = -1;
    long documents = 0;
    for (int k = 0; k < ranges.size(); k++) {
      int[] r = ranges.get(k);
      if (r[1] <= previous) {
        throw new IllegalStateException("partition " + r[0] + " starts before the one before ends");
      }
      previous = r[2];
      documents += r[3];
      starts[k] = r[1];
      indexes[k] = r[0];
    }
    return new OrdinalRanges(docs.getNumPartitions(), starts, indexes, documents);
  }

  @Override
  public int numPartitions() {
    return partitions;
  }

  @Override
  public int getPartition(Object key) {
    int o = (Integer) key;
    int k = Arrays.binarySearch(starts, o);
    if (k < 0) {
      k = -k - 2;
    }
    if (k < 0) {
      throw new IllegalArgumentException("ordinal " + o + " is before every partition");
    }
    return indexes[k];
  }

  /**
   * The same partitions for long keys whose high half is the ordinal, such as {@code (i << 32) | j}
   * for a pair: sorted by the key, a partition's records come in ascending order of both.
   */
  Partitioner byHighHalf() {
    return new ByHighHalf(this);
  }

  private static final class ByHighHalf extends Partitioner {
    private static final long serialVersionUID = 1L;
    private final OrdinalRanges ranges;

    ByHighHalf(OrdinalRanges ranges) {
      this.ranges = ranges;
    }

    @Override
    public int numPartitions() {
      return ranges.partitions;
    }

    @Override
    public int getPartition(Object key) {
      return ranges.getPartition((int) ((Long) key >>> 32));
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof ByHighHalf && ((ByHighHalf) o).ranges.equals(ranges);
    }

    @Override
    public int hashCode() {
      return 31 * ranges.hashCode() + 1;
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof OrdinalRanges
        && ((OrdinalRanges) o).partitions == partitions
        && Arrays.equals(((OrdinalRanges) o).starts, starts)
        && Arrays.equals(((OrdinalRanges) o).indexes, indexes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(starts);
  }

  /**
   * Each record of a partition with the document it names (the partition's documents hold it), both
   * streams in ascending ordinal order; documents no record names are passed over. A streaming
   * merge join: nothing of either side is held but the current document.
   *
   * @throws IllegalStateException on a record about a document the partition does not hold
   */
  static <X> Iterator<Tuple2<X, Doc>> lookup(
      Iterator<Doc> docs, Iterator<Tuple2<Integer, X>> records) {
    return new Iterator<>() {
      private @Nullable Doc doc;

      @Override
      public boolean hasNext() {
        return records.hasNext();
      }

      @Override
      public Tuple2<X, Doc> next() {
        Tuple2<Integer, X> r = records.next();
        int o = r._1();
        Doc d = doc;
        while (d == null || d.ordinal < o) {
          if (!docs.hasNext()) {
            throw new IllegalStateException("a record about document " + o + " not held");
          }
          d = docs.next();
        }
        if (d.ordinal != o) {
          throw new IllegalStateException("a record about document " + o + " not held");
        }
        doc = d;
        return new Tuple2<>(r._2(), d);
      }
    };
  }

  /**
   * Each document of a partition with its facts merged, both streams in ascending ordinal order.
   *
   * @throws IllegalStateException on a fact about a document the partition does not hold
   */
  static Iterator<Tuple2<Doc, Fact>> merge(
      Iterator<Doc> docs, Iterator<Tuple2<Integer, Fact>> facts) {
    return new Iterator<>() {
      private Tuple2<Integer, Fact> pending = facts.hasNext() ? facts.next() : null;

      @Override
      public boolean hasNext() {
        if (!docs.hasNext() && pending != null) {
          throw new IllegalStateException("a fact about document " + pending._1() + " not held");
        }
        return docs.hasNext();
      }

      @Override
      public Tuple2<Doc, Fact> next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        Doc d = docs.next();
        if (pending != null && pending._1() < d.ordinal) {
          throw new IllegalStateException("a fact about document " + pending._1() + " not held");
        }
        Fact f = new Fact();
        while (pending != null && pending._1() == d.ordinal) {
          f.merge(pending._2());
          pending = facts.hasNext() ? facts.next() : null;
        }
        return new Tuple2<>(d, f);
      }
    };
  }
}
