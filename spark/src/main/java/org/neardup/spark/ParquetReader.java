// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import static org.apache.spark.sql.functions.col;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.neardup.Analyzer;

/**
 * Reads Parquet inputs: one document per row, id and text from the same fields as JSONL ({@code
 * --id-field}, {@code --text-field}; the id a string or an integer column). Rows are numbered in
 * file order, then by their position in the file ({@code _metadata.row_index}), so the order does
 * not depend on how Spark packs the files into partitions.
 */
final class ParquetReader {
  private ParquetReader() {}

  static JavaRDD<Doc> read(
      SparkSession spark,
      List<InputFiles.File> files,
      DedupSettings settings,
      long firstOrdinal,
      long[] countOut) {
    String[] paths = files.stream().map(InputFiles.File::path).toArray(String[]::new);
    Dataset<Row> df = spark.read().parquet(paths);
    StructType schema = df.schema();
    String idField = settings.idField;
    String textField = settings.textField;
    check(schema, idField, true);
    check(schema, textField, false);
    Dataset<Row> rows =
        df.select(
            col("_metadata.file_path").as("file"),
            col("_metadata.row_index").as("row"),
            col(idField).cast(typeOf(schema, idField)).as("id"),
            col(textField).as("text"));
    // Rows per file, in input order: a few numbers per file reach the driver.
    Map<String, Long> perFile = new HashMap<>();
    for (Row r : rows.groupBy("file").count().collectAsList()) {
      perFile.put(new Path(r.getString(0)).toUri().getPath(), r.getLong(1));
    }
    Map<String, Long> start = new HashMap<>();
    Map<String, String> names = new HashMap<>();
    long next = firstOrdinal;
    for (InputFiles.File f : files) {
      String key = new Path(f.path()).toUri().getPath();
      start.put(key, next);
      names.put(key, f.name());
      next += perFile.getOrDefault(key, 0L);
    }
    countOut[0] = next - firstOrdinal;
    boolean numericId = !typeOf(schema, idField).equals(DataTypes.StringType);
    return rows.javaRDD()
        .mapPartitions(
            it -> {
              Analyzer analyzer = settings.analyzer();
              List<Doc> out = new ArrayList<>();
              while (it.hasNext()) {
                Row r = it.next();
                String key = new Path(r.getString(0)).toUri().getPath();
                long row = r.getLong(1);
                Doc d = new Doc();
                d.ordinal = (int) (start.get(key) + row);
                d.location = names.get(key) + ":" + (row + 1);
                if (r.isNullAt(2)) {
                  d.error = "missing field '" + idField + "'";
                } else {
                  d.idJson =
                      numericId
                          ? Long.toString(r.getLong(2))
                          : DocumentReader.quote(r.getString(2));
                  if (r.isNullAt(3)) {
                    d.error = "missing field '" + textField + "'";
                  } else {
                    DocumentReader.withText(d, r.getString(3), null, analyzer);
                  }
                }
                out.add(d);
              }
              return out.iterator();
            });
  }

  private static DataType typeOf(StructType schema, String field) {
    DataType t = schema.apply(field).dataType();
    return t.equals(DataTypes.StringType) ? DataTypes.StringType : DataTypes.LongType;
  }

  private static void check(StructType schema, String field, boolean id) {
    if (!java.util.Arrays.asList(schema.fieldNames()).contains(field)) {
      throw new IllegalArgumentException("Parquet input has no column '" + field + "'");
    }
    DataType t = schema.apply(field).dataType();
    boolean ok =
        t.equals(DataTypes.StringType)
            || (id
                && (t.equals(DataTypes.LongType)
                    || t.equals(DataTypes.IntegerType)
                    || t.equals(DataTypes.ShortType)
                    || t.equals(DataTypes.ByteType)));
    if (!ok) {
      throw new IllegalArgumentException(
          "Parquet column '"
              + field
              + "' must be "
              + (id ? "a string or an integer" : "a string")
              + ", got "
              + t.simpleString());
    }
  }
}
