// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.jspecify.annotations.Nullable;
import scala.Tuple2;

/**
 * Writes {@code clusters}, {@code unique}, {@code duplicates} and {@code errors} in one pass over
 * the decided documents: each partition writes its own {@code part-NNNNN} file in each of the four
 * directories (as {@code saveAsTextFile} names them, empty ones included), and returns the
 * summary's counts, its first errors and the ids of the documents the driver asks for, so that
 * nothing is cached and no other pass over the documents is made.
 *
 * <p>A task attempt writes each file under a hidden name ({@code .part-NNNNN.attempt-A}, which
 * Hadoop's readers skip) and renames it into place when complete, so a failed or retried attempt
 * never leaves half a file; every attempt writes the same bytes. The whole output directory is a
 * staging directory until the job renames it, so readers never see a partial run.
 */
final class PartFiles {
  static final List<String> NAMES = List.of("clusters", "unique", "duplicates", "errors");
  private static final int CLUSTERS = 0;
  private static final int UNIQUE = 1;
  private static final int DUPLICATES = 2;
  private static final int ERRORS = 3;

  /** The first errors kept per partition (the summary shows five). */
  static final int FIRST_ERRORS = 5;

  private PartFiles() {}

  /** What the pass saw: the summary's counts, first errors and the ids asked for. */
  static final class Seen implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    /** unique, duplicates, clusters of more than one, new on arrival, errors. */
    final long[] counts = new long[5];

    final List<String> firstErrors = new ArrayList<>();

    /** (ordinal, id) of the documents asked for. */
    final List<Tuple2<Integer, String>> ids = new ArrayList<>();

    void add(Seen o) {
      for (int i = 0; i < counts.length; i++) {
        counts[i] += o.counts[i];
      }
      for (String e : o.firstErrors) {
        if (firstErrors.size() < FIRST_ERRORS) {
          firstErrors.add(e);
        }
      }
      ids.addAll(o.ids);
    }
  }

  /**
   * Writes the four directories under {@code dir} and returns what was seen, the partitions'
   * results merged in partition (input) order.
   *
   * @param sources per partition of {@code decided}, the text split whose records and locations are
   *     read again ({@link SplitRecords}), or null
   * @param wanted ordinals of the documents whose ids the driver needs (the biggest clusters'
   *     representatives, the copies whose pairs are written where they are)
   */
  static Seen write(
      JavaRDD<Tuple2<Doc, Fact>> decided,
      List<SplitRecords.@Nullable Source> sources,
      int maxBytes,
      HadoopConf conf,
      String dir,
      boolean verify,
      Set<Integer> wanted) {
    Broadcast<Set<Integer>> asked =
        JavaSparkContext.fromSparkContext(decided.context()).broadcast(wanted);
    List<Seen> parts =
        decided
            .mapPartitionsWithIndex(
                (index, it) -> {
                  SplitRecords.Source source = sources.get(index);
                  Iterator<Tuple2<Doc, Fact>> docs =
                      source == null ? it : SplitRecords.fill(it, source, conf, maxBytes);
                  return List.of(writePartition(index, docs, conf, dir, verify, asked.value()))
                      .iterator();
                },
                true)
            .collect();
    Seen all = new Seen();
    parts.forEach(all::add);
    return all;
  }

  private static Seen writePartition(
      int index,
      Iterator<Tuple2<Doc, Fact>> it,
      HadoopConf conf,
      String dir,
      boolean verify,
      Set<Integer> wanted)
      throws IOException {
    Path base = new Path(dir);
    FileSystem fs = base.getFileSystem(conf.get());
    String part = String.format(Locale.ROOT, "part-%05d", index);
    TaskContext task = TaskContext.get();
    String hidden = "." + part + ".attempt-" + (task == null ? 0 : task.attemptNumber());
    Path[] tmp = new Path[NAMES.size()];
    OutputStream[] out = new OutputStream[NAMES.size()];
    Seen seen = new Seen();
    try {
      for (int f = 0; f < out.length; f++) {
        tmp[f] = new Path(new Path(base, NAMES.get(f)), hidden);
        out[f] = new BufferedOutputStream(fs.create(tmp[f], true), 1 << 16);
      }
      while (it.hasNext()) {
        Tuple2<Doc, Fact> e = it.next();
        Doc d = e._1();
        Out o = Out.of(d, e._2(), verify);
        if (o.error != null) {
          line(out[ERRORS], o.error);
          seen.counts[4]++;
          if (seen.firstErrors.size() < FIRST_ERRORS) {
            seen.firstErrors.add(o.errorBrief);
          }
          continue;
        }
        line(out[CLUSTERS], o.cluster);
        if (wanted.contains(d.ordinal)) {
          seen.ids.add(new Tuple2<>(d.ordinal, d.idJson));
        }
        if (o.representative) {
          out[UNIQUE].write(o.record);
          out[UNIQUE].write('\n');
          seen.counts[0]++;
          if (o.size > 1) {
            seen.counts[2]++;
          }
        } else {
          out[DUPLICATES].write(o.record);
          out[DUPLICATES].write('\n');
          seen.counts[1]++;
        }
        if (o.isNew) {
          seen.counts[3]++;
        }
      }
      for (int f = 0; f < out.length; f++) {
        out[f].close();
        out[f] = null;
        Path target = new Path(tmp[f].getParent(), part);
        if (fs.exists(target)) {
          fs.delete(target, false); // an earlier attempt's, with the same bytes
        }
        if (!fs.rename(tmp[f], target)) {
          throw new IOException("could not move " + tmp[f] + " to " + target);
        }
      }
    } finally {
      for (int f = 0; f < out.length; f++) {
        if (out[f] != null) {
          try {
            out[f].close();
            fs.delete(tmp[f], false);
          } catch (IOException | UncheckedIOException ignored) {
            // the task fails with the first error; a retry rewrites the file
          }
        }
      }
    }
    return seen;
  }

  private static void line(OutputStream out, String s) throws IOException {
    out.write(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    out.write('\n');
  }
}
