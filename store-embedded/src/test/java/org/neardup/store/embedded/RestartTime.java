// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.nio.file.Path;
import java.util.Locale;
import org.neardup.store.Collection;

/**
 * Measures how long an {@link EmbeddedStore} takes to open a data directory (a measurement, not a
 * test), e.g. one made by {@link BulkLoad}:
 *
 * <pre>
 * java -XX:+UseZGC -Xmx12g -cp ... org.neardup.store.embedded.BulkLoad /tmp/d10m news 10000000
 * java -XX:+UseZGC -Xmx12g -cp ... org.neardup.store.embedded.RestartTime /tmp/d10m [ROUNDS]
 * </pre>
 *
 * Opens without background maintenance and closes without a snapshot, so the directory is the same
 * for every round; prints the open time, the documents and the heap after a full GC.
 */
public final class RestartTime {
  private RestartTime() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 1;
    for (int round = 0; round < rounds; round++) {
      long t0 = System.nanoTime();
      try (EmbeddedStore s =
          EmbeddedStore.builder(dir).background(false).snapshotOnClose(false).open()) {
        double seconds = (System.nanoTime() - t0) / 1e9;
        long docs = 0;
        long ram = 0;
        for (Collection c : s.collections()) {
          docs += c.stats().documents();
          ram += c.stats().ramBytesUsed();
        }
        System.gc();
        Runtime rt = Runtime.getRuntime();
        System.out.printf(
            Locale.ROOT,
            "open: %.2f s (store says %d ms), %d documents, %.1f bytes per document of"
                + " collection memory, heap used after GC %.2f GB%n",
            seconds,
            s.openMillis(),
            docs,
            (double) ram / Math.max(1, docs),
            (rt.totalMemory() - rt.freeMemory()) / 1e9);
      }
    }
  }
}
