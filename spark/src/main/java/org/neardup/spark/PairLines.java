// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import java.util.Iterator;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.LongAccumulator;
import scala.Tuple2;

/**
 * Writes the {@code pairs} directory: each pair {@code (i, j, distance, similarity bits)} as the
 * line {@code neardup dedup} writes, with the ids of both documents.
 *
 * <p>A pair whose two documents are among {@code ids} (the documents of the copies of one text, at
 * most {@link #MAX_IDS} of them, which the driver has) is written where it is, with no shuffle: the
 * copies of one text make n (n - 1) / 2 pairs of n documents, and two sorted merges of each of
 * those pairs with the documents would move every pair twice (the 1M giant-cluster corpus's 50M
 * pairs shuffled 1.15 GB). Every other pair gets its ids by two sorted merges with the documents,
 * where they are: sorted by the second ordinal into the documents' partitions, then by (first,
 * second); its part files in name order hold those pairs in order, and the part files of the pairs
 * written where they are come after them.
 */
final class PairLines {
  /** At most this many ids are sent to every task (some 20 MB with ids of ~40 bytes). */
  static final int MAX_IDS = 1 << 18;

  private PairLines() {}

  /**
   * Writes the directory and returns how many pairs were written where they are (counted by an
   * accumulator: a retried task may count its pairs twice; for the summary, not for decisions).
   */
  static long write(
      JavaSparkContext jsc,
      JavaRDD<long[]> pairs,
      JavaRDD<Doc> docs,
      OrdinalRanges where,
      Map<Integer, String> ids,
      boolean verify,
      Path dir) {
    Broadcast<Map<Integer, String>> known = jsc.broadcast(ids);
    JavaRDD<long[]> merged = ids.isEmpty() ? pairs : pairs.filter(p -> !both(known.value(), p));
    Partitioner byFirst = where.byHighHalf();
    JavaRDD<String> lines =
        merged
            .mapToPair(p -> new Tuple2<>((int) p[1], p))
            .repartitionAndSortWithinPartitions(where)
            .zipPartitions(docs, (ps, ds) -> OrdinalRanges.lookup(ds, ps))
            .mapToPair(
                e ->
                    new Tuple2<>(
                        (e._1()[0] << 32) | e._1()[1], new Tuple2<>(e._1(), e._2().idJson)))
            .repartitionAndSortWithinPartitions(byFirst)
            .zipPartitions(docs, (ps, ds) -> OrdinalRanges.lookup(ds, byHighHalf(ps)))
            .map(e -> line(e._1()._1(), e._2().idJson, e._1()._2(), verify));
    LongAccumulator inPlace = jsc.sc().longAccumulator("pairs written in place");
    if (!ids.isEmpty()) {
      lines =
          lines.union(
              pairs
                  .filter(p -> both(known.value(), p))
                  .map(
                      p -> {
                        inPlace.add(1);
                        return line(
                            p,
                            known.value().get((int) p[0]),
                            known.value().get((int) p[1]),
                            verify);
                      }));
    }
    lines.saveAsTextFile(new Path(dir, "pairs").toString());
    return inPlace.value();
  }

  private static boolean both(Map<Integer, String> ids, long[] p) {
    return ids.containsKey((int) p[0]) && ids.containsKey((int) p[1]);
  }

  private static String line(long[] p, String a, String b, boolean verify) {
    return Lines.pair(a, b, (int) p[2], Double.longBitsToDouble(p[3]), verify);
  }

  /** Records keyed by {@code (i << 32) | j}, keyed by {@code i}. */
  private static <X> Iterator<Tuple2<Integer, X>> byHighHalf(Iterator<Tuple2<Long, X>> ps) {
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return ps.hasNext();
      }

      @Override
      public Tuple2<Integer, X> next() {
        Tuple2<Long, X> p = ps.next();
        return new Tuple2<>((int) (p._1() >>> 32), p._2());
      }
    };
  }
}
