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
 * java -Xmx4g -cp neardup.jar org.neardup.store.embedded.Checkpoint [--copy] DIR
 * </pre>
 *
 * {@code --copy} copies every sketch into the new snapshot's own sketch file, as compactions did
 * before format version 4, instead of keeping the earlier snapshots' sketch files (to compare the
 * two). It prints the time to open, the time of the snapshot, the bytes it wrote and the bytes the
 * snapshot holds on disk.
 */
public final class Checkpoint {
  private Checkpoint() {}

  public static void main(String[] args) throws IOException {
    boolean copy = args.length == 2 && args[0].equals("--copy");
    if (args.length != 1 && !copy) {
      System.err.println("usage: Checkpoint [--copy] DIR");
      System.exit(2);
    }
    String dir = args[args.length - 1];
    long t0 = System.nanoTime();
    try (EmbeddedStore s =
        EmbeddedStore.builder(Path.of(dir)).background(false).copySketches(copy).open()) {
      long opened = System.nanoTime();
      s.checkpoint();
      System.out.printf(
          Locale.ROOT,
          "%s: opened in %.1f s, snapshot written in %.1f s: %d bytes written, %d bytes on disk"
              + " (with the kept sketch files)%s%n",
          dir,
          (opened - t0) / 1e9,
          (System.nanoTime() - opened) / 1e9,
          s.metrics().get("last_snapshot_bytes_written").longValue(),
          s.metrics().get("snapshot_bytes").longValue(),
          copy ? ", every sketch copied" : "");
    }
  }
}
