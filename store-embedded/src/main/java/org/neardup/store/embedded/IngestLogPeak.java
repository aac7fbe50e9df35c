// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.neardup.store.Collection;
import org.neardup.store.Document;

/**
 * Ingests texts continuously into a data directory's one collection, as a service does (background
 * maintenance on, batches of 500 check-and-inserts), and prints the log's peak size, the
 * compactions and the rebuilds that ran: what the compaction trigger lets the disk hold. Public API
 * only, so that it runs against an older build's store classes put after it on the class path.
 *
 * <pre>
 * java -Xmx3g -cp ... org.neardup.store.embedded.IngestLogPeak DIR TEXTS N
 * </pre>
 *
 * TEXTS holds one text per line; the first N are inserted with ids {@code ingest-I}.
 */
public final class IngestLogPeak {
  private IngestLogPeak() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 3) {
      System.err.println("usage: IngestLogPeak DIR TEXTS N");
      System.exit(2);
    }
    int n = Integer.parseInt(args[2]);
    long t0 = System.nanoTime();
    long peak = 0;
    long peakDisk = 0;
    try (EmbeddedStore s = EmbeddedStore.builder(Path.of(args[0])).open();
        BufferedReader in = Files.newBufferedReader(Path.of(args[1]), StandardCharsets.UTF_8)) {
      Collection c = s.collections().iterator().next();
      long compactions0 = s.metrics().get("compactions_total").longValue();
      long rebuilds0 = s.metrics().get("rebuilds_total").longValue();
      List<Document> batch = new ArrayList<>();
      int done = 0;
      String line;
      while (done < n && (line = in.readLine()) != null) {
        batch.add(new Document("ingest-" + done, c.analyzer().analyze(line)));
        done++;
        if (batch.size() == 500 || done == n) {
          c.checkAndInsertAll(batch);
          batch.clear();
          peak = Math.max(peak, s.metrics().get("log_bytes_since_snapshot").longValue());
          peakDisk = Math.max(peakDisk, directoryBytes(Path.of(args[0])));
        }
      }
      System.out.printf(
          Locale.ROOT,
          "%s: %d documents ingested in %.1f s; log peak %d bytes; directory peak %d bytes;"
              + " %d compactions, %d rebuilds; snapshot %d bytes at the end%n",
          args[0],
          done,
          (System.nanoTime() - t0) / 1e9,
          peak,
          peakDisk,
          s.metrics().get("compactions_total").longValue() - compactions0,
          s.metrics().get("rebuilds_total").longValue() - rebuilds0,
          s.metrics().get("snapshot_bytes").longValue());
    }
  }

  private static long directoryBytes(Path dir) throws IOException {
    long n = 0;
    try (var files = Files.list(dir)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        n += Files.isRegularFile(p) ? Files.size(p) : 0;
      }
    }
    return n;
  }
}
