// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;

/** One local-mode Spark session for a test class, configured as {@code ./neardup spark} does. */
final class LocalSpark {
  private LocalSpark() {}

  static SparkSession start() {
    SparkConf conf =
        new SparkConf()
            .setAppName("neardup-test")
            .setMaster("local[2]")
            .set("spark.sql.shuffle.partitions", "4")
            .set("spark.default.parallelism", "4");
    SparkDedup.defaults(conf);
    return SparkSession.builder().config(conf).getOrCreate();
  }
}
