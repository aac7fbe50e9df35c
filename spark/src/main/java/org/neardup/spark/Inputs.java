// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.jspecify.annotations.Nullable;

/**
 * Reads every input, text and Parquet, into one RDD of documents numbered in input order: each
 * partition holds a range of ordinals in ascending order, the partitions in order ({@link
 * OrdinalRanges}). For each partition, {@code sources} gets the text split whose records are read
 * again at write time ({@link SplitRecords}), or null when its documents carry their records.
 */
final class Inputs {
  private Inputs() {}

  static JavaRDD<Doc> read(
      SparkSession spark,
      JavaSparkContext jsc,
      List<InputFiles.File> files,
      HadoopConf conf,
      DedupSettings settings,
      long firstOrdinal,
      List<SplitRecords.@Nullable Source> sources) {
    // Consecutive runs of text files and of Parquet files, each numbered after the ones before.
    JavaRDD<Doc> all = null;
    long next = firstOrdinal;
    int i = 0;
    while (i < files.size()) {
      boolean parquet = files.get(i).format() == InputFiles.Format.PARQUET;
      List<InputFiles.File> run = new ArrayList<>();
      while (i < files.size() && (files.get(i).format() == InputFiles.Format.PARQUET) == parquet) {
        run.add(files.get(i++));
      }
      long[] count = {0};
      JavaRDD<Doc> part;
      if (parquet) {
        // Spark packs Parquet files into partitions by size, not in input order: sort them.
        JavaRDD<Doc> rows = ParquetReader.read(spark, run, settings, next, count);
        part =
            rows.getNumPartitions() == 0
                ? rows
                : rows.mapToPair(d -> new scala.Tuple2<>(d.ordinal, d))
                    .sortByKey(true, rows.getNumPartitions())
                    .values();
        for (int p = 0; p < part.getNumPartitions(); p++) {
          sources.add(null); // the records are in the documents
        }
      } else {
        part = DocumentReader.read(jsc, run, conf, settings, next, count, files.size(), sources);
      }
      next += count[0];
      all = all == null ? part : all.union(part);
    }
    return all == null ? jsc.emptyRDD() : all;
  }
}
