// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The fingerprints a run saves in {@code DIR/fingerprints} (Parquet), so that a later run can
 * deduplicate a new batch against them without reading or analysing the old documents again: per
 * document its ordinal, id, fingerprint, band keys, sketch and the ordinal of its representative.
 */
final class SavedFingerprints {
  static final String DIR = "fingerprints";

  static final StructType SCHEMA =
      new StructType()
          .add("ordinal", DataTypes.IntegerType, false)
          .add("id", DataTypes.StringType, false)
          .add("fingerprint", DataTypes.LongType, false)
          .add("band_keys", DataTypes.createArrayType(DataTypes.LongType, false), false)
          .add("sketch", DataTypes.BinaryType, false)
          .add("representative", DataTypes.IntegerType, false);

  private SavedFingerprints() {}

  /** Writes documents with their representatives: {@code (doc, representative ordinal)}. */
  static void write(SparkSession spark, JavaPairRDD<Doc, Integer> docs, Path dir) {
    JavaRDD<Row> rows =
        docs.map(
            e -> {
              Doc d = e._1();
              return RowFactory.create(
                  d.ordinal, d.idJson, d.fingerprint, d.bandKeys, d.sketch, e._2());
            });
    spark.createDataFrame(rows, SCHEMA).write().parquet(new Path(dir, DIR).toString());
  }

  /**
   * The documents of an earlier run, numbered as they were; checks that the run used the same
   * settings, since fingerprints made with others cannot be compared.
   *
   * @throws IOException when DIR is not the output of a run with saved fingerprints
   */
  static JavaRDD<Doc> read(SparkSession spark, String earlier, String settingsLine)
      throws IOException {
    Path dir = new Path(earlier);
    Configuration conf = spark.sparkContext().hadoopConfiguration();
    FileSystem fs = dir.getFileSystem(conf);
    Path summary = new Path(dir, "summary.json");
    if (!fs.exists(summary) || !fs.exists(new Path(dir, DIR))) {
      throw new IOException(
          earlier
              + " is not the output of a 'neardup spark dedup' run (no summary.json or "
              + DIR
              + "/)");
    }
    String was;
    try (InputStream in = fs.open(summary)) {
      was =
          new com.fasterxml.jackson.databind.ObjectMapper().readTree(in).path("settings").asText();
    }
    if (!was.equals(settingsLine)) {
      throw new IllegalArgumentException(
          "--against "
              + earlier
              + " was made with other settings; fingerprints only compare under the same ones:\n  "
              + was
              + "\nnow\n  "
              + settingsLine);
    }
    return spark
        .read()
        .schema(SCHEMA)
        .parquet(new Path(dir, DIR).toString())
        .javaRDD()
        .map(
            r -> {
              Doc d = new Doc();
              d.ordinal = r.getInt(0);
              d.idJson = r.getString(1);
              d.location = earlier;
              d.fingerprint = r.getLong(2);
              List<Long> keys = r.getList(3);
              d.bandKeys = new long[keys.size()];
              for (int i = 0; i < d.bandKeys.length; i++) {
                d.bandKeys[i] = keys.get(i);
              }
              d.sketch = (byte[]) r.get(4);
              d.earlierRep = r.getInt(5);
              return d;
            });
  }
}
