// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import org.neardup.Analysis;
import org.neardup.Deduplicator;
import org.neardup.store.Collection;
import org.neardup.store.Document;
import org.neardup.store.Outcome;

/**
 * Where a single check-and-insert's time goes in an opened data directory, without HTTP: for each
 * text of QUERIES (JSONL with {@code id} and {@code text}, stored under {@code "q-" + id}), one
 * thread times its analysis, a probe of the engine alone (the index search, the band lookup and the
 * verification, which reads each candidate's sketch from the sketch files), then the
 * check-and-insert's decision (a second probe, now with the page cache warm, and the insert under
 * the lock) and its wait for the log's fsync; beside each probe, the bytes this thread read with
 * system calls ({@code rchar}: the sketches' positioned reads) and from the disk ({@code
 * read_bytes}: page cache misses), from {@code /proc/thread-self/io}. Prints each stage's p50, p99
 * and max over the last MEASURED texts (after WARM ones), then the stages of the slowest 1%.
 *
 * <p>It lives in the benchmarks module, in the store's package for the collection's engine, so that
 * the store carries no diagnostic and no JSON reader of its own.
 *
 * <p>Writes to the directory's log and never a snapshot: remove the run's new {@code log-*} and
 * {@code sketches-*.tmp} files afterwards to open the directory as before (service-curve.sh's
 * RESTORE=1 does the same).
 *
 * <pre>
 * java -Xmx10g -XX:+UseZGC -cp benchmarks.jar org.neardup.store.embedded.CheckTime DIR COLLECTION \
 *     QUERIES.jsonl WARM MEASURED
 * </pre>
 */
public final class CheckTime {
  private static final String[] STAGES = {
    "analyse",
    "probe",
    "decide",
    "durable",
    "total",
    "analyse CPU",
    "probe CPU",
    "decide CPU",
    "fsync",
    "probe rchar B",
    "probe disk B"
  };
  private static final java.lang.management.ThreadMXBean THREADS =
      java.lang.management.ManagementFactory.getThreadMXBean();

  private CheckTime() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    if (args.length != 5) {
      System.err.println("usage: CheckTime DIR COLLECTION QUERIES.jsonl WARM MEASURED");
      System.exit(2);
    }
    int warm = Integer.parseInt(args[3]);
    int measured = Integer.parseInt(args[4]);
    List<String[]> docs = read(Path.of(args[2]), warm + measured);
    if (docs.size() < warm + measured) {
      System.err.println("QUERIES holds " + docs.size() + " texts, need " + (warm + measured));
      System.exit(2);
    }
    long t0 = System.nanoTime();
    try (EmbeddedStore s = EmbeddedStore.builder(Path.of(args[0])).snapshotOnClose(false).open()) {
      System.out.printf(Locale.ROOT, "open %.1f s%n", (System.nanoTime() - t0) / 1e9);
      Collection c = s.collection(args[1]);
      if (c == null) {
        throw new IllegalArgumentException("no collection " + args[1]);
      }
      Deduplicator engine = ((EmbeddedCollection) c).engine();
      long[][] rows = new long[measured][STAGES.length];
      int duplicates = 0;
      for (int i = 0; i < warm + measured; i++) {
        long[] row = i < warm ? new long[STAGES.length] : rows[i - warm];
        long c0 = THREADS.getCurrentThreadCpuTime();
        long a0 = System.nanoTime();
        Analysis a = c.analyzer().analyze(docs.get(i)[1]);
        long a1 = System.nanoTime();
        long c1 = THREADS.getCurrentThreadCpuTime();
        long[] io0 = threadIo();
        long c2 = THREADS.getCurrentThreadCpuTime();
        long p0 = System.nanoTime();
        engine.probe(a);
        long p1 = System.nanoTime();
        long c3 = THREADS.getCurrentThreadCpuTime();
        long[] io1 = threadIo();
        double sync0 = s.metrics().get("log_fsync_seconds_total").doubleValue();
        long c4 = THREADS.getCurrentThreadCpuTime();
        long d0 = System.nanoTime();
        var future = c.checkAndInsertAsync(new Document("q-" + docs.get(i)[0], a));
        long d1 = System.nanoTime();
        long c5 = THREADS.getCurrentThreadCpuTime();
        Outcome o;
        try {
          o = future.get();
        } catch (ExecutionException e) {
          throw new IOException(e.getCause());
        }
        long f1 = System.nanoTime();
        if (!o.isNew()) {
          duplicates++;
        }
        row[0] = a1 - a0;
        row[1] = p1 - p0;
        row[2] = d1 - d0;
        row[3] = f1 - d1;
        row[4] = (a1 - a0) + (f1 - d0); // what a request costs: its probe is part of decide
        row[5] = c1 - c0;
        row[6] = c3 - c2;
        row[7] = c5 - c4;
        row[8] = (long) ((s.metrics().get("log_fsync_seconds_total").doubleValue() - sync0) * 1e9);
        row[9] = io1[0] - io0[0];
        row[10] = io1[1] - io0[1];
      }
      System.out.printf(
          Locale.ROOT,
          "%d checks measured after %d (%d duplicates among them and the warm-up's); %d documents%n",
          measured,
          warm,
          duplicates,
          c.stats().documents());
      for (int k = 0; k < STAGES.length; k++) {
        long[] v = new long[measured];
        long sum = 0;
        for (int i = 0; i < measured; i++) {
          v[i] = rows[i][k];
          sum += v[i];
        }
        Arrays.sort(v);
        boolean bytes = STAGES[k].endsWith(" B");
        double unit = bytes ? 1 : 1e6;
        System.out.printf(
            Locale.ROOT,
            "%-14s mean %9.3f  p50 %9.3f  p90 %9.3f  p99 %9.3f  max %9.3f %s%n",
            STAGES[k],
            sum / (double) measured / unit,
            v[measured / 2] / unit,
            v[(int) Math.ceil(measured * 0.9) - 1] / unit,
            v[(int) Math.ceil(measured * 0.99) - 1] / unit,
            v[measured - 1] / unit,
            bytes ? "bytes" : "ms");
      }
      for (boolean disk : new boolean[] {true, false}) {
        long[] wall =
            Arrays.stream(rows)
                .filter(r -> (r[10] > 0) == disk)
                .mapToLong(r -> r[1])
                .sorted()
                .toArray();
        if (wall.length > 0) {
          System.out.printf(
              Locale.ROOT,
              "probes %s the disk: %d of %d, wall p50 %.3f ms, p90 %.3f ms, max %.3f ms%n",
              disk ? "that read from" : "that did not read from",
              wall.length,
              measured,
              wall[wall.length / 2] / 1e6,
              wall[(int) Math.ceil(wall.length * 0.9) - 1] / 1e6,
              wall[wall.length - 1] / 1e6);
        }
      }
      Integer[] order = new Integer[measured];
      for (int i = 0; i < measured; i++) {
        order[i] = i;
      }
      Arrays.sort(order, (x, y) -> Long.compare(rows[y][4], rows[x][4]));
      System.out.println(
          "slowest 1% (ms: analyse probe decide durable total; CPU analyse probe decide; fsync;"
              + " probe rchar, disk B):");
      for (int j = 0; j < Math.max(1, measured / 100); j++) {
        long[] r = rows[order[j]];
        System.out.printf(
            Locale.ROOT,
            "  #%d %.2f %.2f %.2f %.2f %.2f; %.2f %.2f %.2f; %.2f; %d %d%n",
            order[j],
            r[0] / 1e6,
            r[1] / 1e6,
            r[2] / 1e6,
            r[3] / 1e6,
            r[4] / 1e6,
            r[5] / 1e6,
            r[6] / 1e6,
            r[7] / 1e6,
            r[8] / 1e6,
            r[9],
            r[10]);
      }
    }
  }

  /** This thread's {@code rchar} and {@code read_bytes} so far (Linux). */
  private static long[] threadIo() throws IOException {
    long[] out = new long[2];
    for (String line : Files.readAllLines(Path.of("/proc/thread-self/io"))) {
      if (line.startsWith("rchar:")) {
        out[0] = Long.parseLong(line.substring(6).trim());
      } else if (line.startsWith("read_bytes:")) {
        out[1] = Long.parseLong(line.substring(11).trim());
      }
    }
    return out;
  }

  /** The first {@code limit} lines of QUERIES that have a string {@code id} and {@code text}. */
  private static List<String[]> read(Path path, int limit) throws IOException {
    List<String[]> out = new ArrayList<>();
    ObjectMapper json = new ObjectMapper();
    try (BufferedReader r = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
      for (String line = r.readLine(); line != null && out.size() < limit; line = r.readLine()) {
        JsonNode doc = json.readTree(line);
        JsonNode id = doc.get("id");
        JsonNode text = doc.get("text");
        if (id != null && id.isTextual() && text != null && text.isTextual()) {
          out.add(new String[] {id.asText(), text.asText()});
        }
      }
    }
    return out;
  }
}
