// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * The candidate self-join alone on precomputed random fingerprints, per block scheme: seconds,
 * pairs within k, and shuffle bytes per fingerprint, so users can pick a scheme for their cluster.
 *
 * <p>{@code java -cp neardup-spark.jar:SPARK org.neardup.spark.AllPairsBench N K SCHEME...
 * [--partitions P]}
 */
public final class AllPairsBench {
  private AllPairsBench() {}

  public static void main(String[] args) {
    long n = Long.parseLong(args[0]);
    int k = Integer.parseInt(args[1]);
    List<String> schemes = new ArrayList<>();
    int partitions = 0;
    for (int i = 2; i < args.length; i++) {
      if (args[i].equals("--partitions")) {
        partitions = Integer.parseInt(args[++i]);
      } else {
        schemes.add(args[i]);
      }
    }
    SparkConf conf = new SparkConf().setAppName("neardup all-pairs bench");
    if (!conf.contains("spark.master")) {
      conf.setMaster("local[*]");
    }
    SparkDedup.defaults(conf);
    SparkSession spark = SparkSession.builder().config(conf).getOrCreate();
    try {
      JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
      int parts = partitions > 0 ? partitions : jsc.defaultParallelism();
      int slices = Math.max(parts, 1);
      List<Integer> seeds = new ArrayList<>();
      for (int i = 0; i < slices; i++) {
        seeds.add(i);
      }
      long per = (n + slices - 1) / slices;
      JavaRDD<Member> members =
          jsc.parallelize(seeds, slices)
              .flatMap(
                  s -> {
                    SplittableRandom r = new SplittableRandom(42 + s);
                    List<Member> out = new ArrayList<>();
                    long from = s * per;
                    long to = Math.min(n, from + per);
                    for (long o = from; o < to; o++) {
                      out.add(new Member((int) o, r.nextLong(), new long[0], 0, 0));
                    }
                    return out.iterator();
                  });
      members.cache().count();
      for (String scheme : schemes) {
        DedupSettings s = new DedupSettings();
        s.verify = false;
        s.maxDistance = k;
        s.scheme = scheme;
        ShuffleMeter meter = new ShuffleMeter(spark.sparkContext());
        meter.phase("all-pairs");
        long t0 = System.nanoTime();
        long pairs = Candidates.find(jsc, members, s, parts, 0, n).count();
        double sec = (System.nanoTime() - t0) / 1e9;
        Map<String, Long> bytes = meter.stop();
        long b = bytes.values().stream().mapToLong(Long::longValue).sum();
        System.out.printf(
            java.util.Locale.ROOT,
            "scheme %s: %d fingerprints, k=%d, %d pairs, %.1f s, shuffle %.1f MB (%.1f bytes per"
                + " fingerprint), %d partitions%n",
            scheme,
            n,
            k,
            pairs,
            sec,
            b / 1e6,
            (double) b / n,
            parts);
      }
    } finally {
      spark.stop();
    }
  }
}
