// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.jspecify.annotations.Nullable;
import org.neardup.store.CollectionDump;
import org.neardup.store.StoredRecord;

/**
 * A service collection as the earlier corpus of an incremental run: the dump file {@code neardup
 * store export} writes ({@link CollectionDump}) read directly, with nothing recomputed. A record
 * becomes a document of the earlier run: its ordinal, id, fingerprint, band keys and sketch as
 * stored, and its cluster's root as its representative.
 *
 * <p>A root that was deleted from the collection is not in the dump; the earliest member of its
 * cluster that is there stands in for it as the representative (the collection itself still names
 * the cluster after the deleted one).
 *
 * <p>The dump is one compressed stream, read front to back, so one task reads it; the job sorts and
 * partitions the documents after that. The header is checked on the driver first: the collection's
 * analyzer and its k, threshold and verification must be this run's, or the run is refused before
 * any document is read.
 */
final class DumpFingerprints {
  private DumpFingerprints() {}

  /** Whether {@code path} is a dump file (not an earlier run's directory). */
  static boolean isDump(HadoopConf conf, String path) throws IOException {
    Path p = new Path(path);
    FileSystem fs = p.getFileSystem(conf.get());
    return fs.exists(p) && fs.getFileStatus(p).isFile();
  }

  /**
   * The documents of the dump at {@code path}.
   *
   * @throws IOException naming the file if it is not a valid dump
   * @throws IllegalArgumentException if the collection's settings are not this run's
   */
  static JavaRDD<Doc> read(JavaSparkContext jsc, HadoopConf conf, String path, String settingsLine)
      throws IOException {
    CollectionDump.Header header;
    try (CollectionDump.Reader r = open(conf, path)) {
      header = r.header();
    }
    String was = settingsLine(header);
    if (!was.equals(settingsLine)) {
      throw new IllegalArgumentException(
          "--against "
              + path
              + " (collection '"
              + header.name()
              + "') was made with other settings; fingerprints only compare under the same ones:\n  "
              + was
              + "\nnow\n  "
              + settingsLine);
    }
    return jsc.parallelize(List.of(path), 1).mapPartitions(it -> new Records(conf, it.next()));
  }

  /**
   * The settings line of summary.json ({@code analyzer;k=K;threshold=J} or {@code ;verify=off}) of
   * the collection a dump holds: its analyzer id, and k, threshold and verify from its settings'
   * text.
   */
  static String settingsLine(CollectionDump.Header header) {
    Map<String, String> pairs = new HashMap<>();
    for (String pair : header.settings().split(";")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        pairs.put(pair.substring(0, eq), pair.substring(eq + 1));
      }
    }
    boolean verify = !"false".equals(pairs.get("verify"));
    String k = pairs.getOrDefault("k", "?");
    String threshold = pairs.getOrDefault("threshold", "?");
    try {
      threshold = Double.toString(Double.parseDouble(threshold));
    } catch (NumberFormatException e) {
      // compared as written: it will not match
    }
    return header.analyzerId() + ";k=" + k + (verify ? ";threshold=" + threshold : ";verify=off");
  }

  private static CollectionDump.Reader open(HadoopConf conf, String path) throws IOException {
    Path p = new Path(path);
    InputStream in = p.getFileSystem(conf.get()).open(p);
    try {
      return new CollectionDump.Reader(in, path);
    } catch (IOException | RuntimeException e) {
      in.close();
      throw e;
    }
  }

  /** The dump's records as documents, in ordinal order. */
  private static final class Records implements Iterator<Doc> {
    private final String path;
    private final CollectionDump.Reader reader;
    private final BitSet present = new BitSet();
    private final Map<Long, Integer> standIns = new HashMap<>();
    private @Nullable Doc next;
    private boolean done;

    Records(HadoopConf conf, String path) throws IOException {
      this.path = path;
      this.reader = open(conf, path);
    }

    @Override
    public boolean hasNext() {
      if (next != null) {
        return true;
      }
      if (done) {
        return false;
      }
      try {
        StoredRecord r = reader.next();
        if (r == null) {
          done = true;
          reader.close();
          return false;
        }
        next = doc(r);
        return true;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public Doc next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      Doc d = next;
      next = null;
      return d;
    }

    private Doc doc(StoredRecord r) throws IOException {
      if (r.ordinal() >= Integer.MAX_VALUE) {
        throw new IOException(
            path
                + ": ordinal "
                + r.ordinal()
                + " is beyond the "
                + Integer.MAX_VALUE
                + " a run takes");
      }
      Doc d = new Doc();
      d.ordinal = (int) r.ordinal();
      d.idJson = DocumentReader.quote(r.id());
      d.location = path;
      d.fingerprint = r.fingerprint();
      d.bandKeys = r.bandKeys();
      d.sketch = r.sketch();
      present.set(d.ordinal);
      if (r.isRoot()) {
        d.earlierRep = d.ordinal;
      } else if (present.get((int) r.root())) {
        d.earlierRep = (int) r.root();
      } else {
        // The root was deleted: the cluster's earliest member still here stands in for it.
        d.earlierRep = standIns.computeIfAbsent(r.root(), root -> d.ordinal);
      }
      return d;
    }
  }
}
