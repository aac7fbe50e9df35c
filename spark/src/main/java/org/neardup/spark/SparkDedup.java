// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;

/**
 * The entry point for {@code spark-submit --class org.neardup.spark.SparkDedup neardup-spark.jar
 * INPUT... --out DIR [options]}, and for {@code ./neardup spark dedup}, which runs it in local
 * mode. Takes the dedup options of {@code neardup dedup} plus {@code --partitions}, {@code --conf}
 * and {@code --parquet}.
 */
public final class SparkDedup {
  private SparkDedup() {}

  static final String USAGE =
      String.join(
          "\n",
          "Usage: neardup spark dedup INPUT... --out DIR [options]",
          "       spark-submit --class org.neardup.spark.SparkDedup neardup-spark.jar INPUT... --out DIR [options]",
          "",
          "Finds the near-duplicates of a corpus on Spark: the same clusters, pairs and",
          "representatives as 'neardup dedup'. INPUT: files, directories or globs on any",
          "Hadoop file system: JSONL (.jsonl/.ndjson/.json), Parquet (.parquet), text (one",
          "document per line), .html/.htm/.md files (one document each), .gz of the text kinds.",
          "Writes DIR/clusters, DIR/pairs, DIR/unique, DIR/duplicates, DIR/errors (JSONL part",
          "files) and DIR/summary.json.",
          "",
          "Options of 'neardup dedup': -k/--max-distance K, --threshold J, --no-verify,",
          "  --preset none|web, --numbers keep|fold, --html visible|main|raw,",
          "  --volatile-lines keep|drop, --han keep|fold, --top-n N, --sketch-capacity N,",
          "  --lexicon NAME|none, --user-dict FILE, --idf FILE,",
          "  --format auto|jsonl|lines|files|parquet,",
          "  --id-field NAME, --text-field NAME, --max-doc-bytes N, --force",
          "Spark options:",
          "  --scheme M:R        block scheme of the fingerprint self-join (default 5:2 for k <= 3)",
          "  --partitions N      input splits and shuffle partitions (default: by size / Spark's)",
          "  --shuffle-partitions N  shuffle partitions only",
          "  --group-limit N     most members of one key group a task compares (default 2048)",
          "  --parquet           also write DIR/parquet/{clusters,pairs,unique,duplicates}",
          "  --save-fingerprints also write DIR/fingerprints, for a later --against DIR",
          "  --against OLD       a new batch against run OLD's saved fingerprints, or against a",
          "                      collection's 'neardup store export' dump file: OLD's documents",
          "                      come first and are never re-decided; matches join their clusters",
          "  --master URL        Spark master when not set by spark-submit (default local[*])",
          "  --conf KEY=VALUE    a Spark setting (repeatable)");

  public static void main(String[] args) throws Exception {
    System.exit(run(args, System.out, System.err));
  }

  /** Parses the arguments, runs the job, prints the summary; returns the exit status. */
  static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
    DedupSettings s = new DedupSettings();
    List<String> inputs = new ArrayList<>();
    List<String[]> confs = new ArrayList<>();
    String dir = null;
    String master = null;
    boolean force = false;
    String against = null;
    try {
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        switch (a) {
          case "-h":
          case "--help":
            out.println(USAGE);
            return 0;
          case "-o":
          case "--out":
            dir = value(args, ++i, a);
            break;
          case "-k":
          case "--max-distance":
            s.maxDistance = Integer.parseInt(value(args, ++i, a));
            break;
          case "--threshold":
            s.threshold = Double.parseDouble(value(args, ++i, a));
            break;
          case "--no-verify":
            s.verify = false;
            break;
          case "--numbers":
            s.numbers = value(args, ++i, a);
            break;
          case "--html":
            s.html = value(args, ++i, a);
            break;
          case "--preset":
            s.preset = value(args, ++i, a);
            break;
          case "--volatile-lines":
            s.volatileLines = value(args, ++i, a);
            break;
          case "--han":
            s.han = value(args, ++i, a);
            break;
          case "--user-dict":
            s.userDictFile(Paths.get(value(args, ++i, a)));
            break;
          case "--top-n":
            s.topN = Integer.parseInt(value(args, ++i, a));
            break;
          case "--sketch-capacity":
            s.sketchCapacity = Integer.parseInt(value(args, ++i, a));
            break;
          case "--lexicon":
            s.lexicon = value(args, ++i, a);
            break;
          case "--idf":
            s.idfFile(Paths.get(value(args, ++i, a)));
            break;
          case "--scheme":
            s.scheme = value(args, ++i, a);
            break;
          case "--format":
            s.format = value(args, ++i, a);
            break;
          case "--id-field":
            s.idField = value(args, ++i, a);
            break;
          case "--text-field":
            s.textField = value(args, ++i, a);
            break;
          case "--max-doc-bytes":
            s.maxDocBytes = Integer.parseInt(value(args, ++i, a));
            break;
          case "--partitions":
            s.inputPartitions = positive(value(args, ++i, a), a);
            s.shufflePartitions = s.inputPartitions;
            break;
          case "--shuffle-partitions":
            s.shufflePartitions = positive(value(args, ++i, a), a);
            break;
          case "--group-limit":
            s.groupLimit = Integer.parseInt(value(args, ++i, a));
            break;
          case "--save-fingerprints":
            s.saveFingerprints = true;
            break;
          case "--against":
            against = value(args, ++i, a);
            break;
          case "--parquet":
            s.parquet = true;
            break;
          case "--force":
            force = true;
            break;
          case "--master":
            master = value(args, ++i, a);
            break;
          case "--conf":
            String kv = value(args, ++i, a);
            int eq = kv.indexOf('=');
            if (eq <= 0) {
              throw new IllegalArgumentException("--conf needs KEY=VALUE, got '" + kv + "'");
            }
            confs.add(new String[] {kv.substring(0, eq), kv.substring(eq + 1)});
            break;
          default:
            if (a.startsWith("-") && a.length() > 1) {
              throw new IllegalArgumentException("unknown option '" + a + "'");
            }
            inputs.add(a);
        }
      }
      if (dir == null) {
        throw new IllegalArgumentException("--out DIR is required");
      }
      if (inputs.isEmpty()) {
        throw new IllegalArgumentException("no INPUT given");
      }
      s.check();
    } catch (IllegalArgumentException e) {
      err.println("neardup spark dedup: " + e.getMessage());
      err.println("Try --help.");
      return 2;
    }
    SparkConf conf = new SparkConf().setAppName("neardup dedup");
    if (!conf.contains("spark.master")) {
      conf.setMaster(master != null ? master : "local[*]");
    }
    defaults(conf);
    for (String[] kv : confs) {
      conf.set(kv[0], kv[1]);
    }
    SparkSession spark = SparkSession.builder().config(conf).getOrCreate();
    try {
      ObjectNode summary = SparkDedupJob.run(spark, s, inputs, dir, force, against);
      out.println(summary.toPrettyString());
      return 0;
    } catch (java.io.IOException | IllegalArgumentException e) {
      err.println("neardup spark dedup: " + e.getMessage());
      return 1;
    } finally {
      spark.stop();
    }
  }

  /**
   * Settings the job wants unless the user says otherwise: Kryo with the job's classes registered,
   * and a quiet local UI.
   */
  static void defaults(SparkConf conf) {
    conf.setIfMissing("spark.serializer", "org.apache.spark.serializer.KryoSerializer");
    conf.setIfMissing("spark.kryoserializer.buffer.max", "512m");
    // No object the job shuffles refers to another twice: no need to track references.
    conf.setIfMissing("spark.kryo.referenceTracking", "false");
    // Registered classes are written as a number, not by name with every record.
    conf.registerKryoClasses(
        new Class<?>[] {
          Doc.class,
          Fact.class,
          Out.class,
          Member.class,
          GroupKey.class,
          long[].class,
          byte[].class,
          int[].class,
          String[].class
        });
    if (conf.get("spark.master", "").toLowerCase(Locale.ROOT).startsWith("local")) {
      conf.setIfMissing("spark.ui.enabled", "false");
      conf.setIfMissing("spark.driver.host", "127.0.0.1");
      conf.setIfMissing("spark.driver.bindAddress", "127.0.0.1");
    }
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[i];
  }

  private static int positive(String v, String option) {
    int n = Integer.parseInt(v);
    if (n < 1) {
      throw new IllegalArgumentException(option + " must be >= 1, got " + n);
    }
    return n;
  }
}
