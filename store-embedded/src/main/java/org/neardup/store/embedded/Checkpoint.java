// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Opens a data directory, writes a snapshot of everything in it in this build's format (version 3:
 * the sketches in their own file) and closes it: for benchmarks that open the same documents with
 * two builds, and to bring an old directory to the format that opens without reading its sketches
 * (the store does it by itself at its next compaction).
 *
 * <pre>
 * java -Xmx4g -cp neardup.jar org.neardup.store.embedded.Checkpoint DIR
 * </pre>
 */
public final class Checkpoint {
  private Checkpoint() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: Checkpoint DIR");
      System.exit(2);
    }
    long t0 = System.nanoTime();
    try (EmbeddedStore s = EmbeddedStore.builder(Path.of(args[0])).background(false).open()) {
      long opened = System.nanoTime();
      s.checkpoint();
      System.out.printf(
          Locale.ROOT,
          "%s: opened in %.1f s, snapshot of %d bytes (both files) written in %.1f s%n",
          args[0],
          (opened - t0) / 1e9,
          s.metrics().get("snapshot_bytes").longValue(),
          (System.nanoTime() - opened) / 1e9);
    }
  }
}
