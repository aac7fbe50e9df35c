// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Opens a data directory, writes a snapshot of everything in it in this build's format (version 4:
 * the sketches in files of their own, the earlier ones kept where {@link SketchPolicy} says) and
 * closes it: for benchmarks that open the same documents with two builds, and to bring an old
 * directory to the format that opens without reading its sketches (the store does it by itself at
 * its next compaction).
 *
 * <pre>
 * java -Xmx4g -cp neardup.jar org.neardup.store.embedded.Checkpoint [--copy] [--no-rebuild] DIR
 * </pre>
 *
 * {@code --copy} copies every sketch into the new snapshot's own sketch file, as compactions did
 * before format version 4, instead of keeping the earlier snapshots' sketch files (to compare the
 * two). {@code --no-rebuild} writes the snapshot as a background compaction does when few documents
 * were removed, without rebuilding the collections. A rebuild (of each collection that holds
 * removed documents) reads the new snapshot's heads in file order into a new generation, each
 * sketch left in its file, in batches of at most 64 MiB of heads (before, it restored whole bodies
 * in batches of up to 4M documents, ~6 GB of news articles' sketches: a 1M news directory needed
 * more than {@code -Xmx3g}). It prints the time to open, the time of the snapshot (with the
 * rebuild), the bytes it wrote, the bytes the snapshot holds on disk, the bytes of the index images
 * written beside it ({@link IndexImages}), the rebuilds, the most bytes a rebuild batch gathered
 * and the heap's peak use.
 */
public final class Checkpoint {
  private Checkpoint() {}

  /** The heap's most bytes in use so far: the peaks of its pools, summed (garbage included). */
  static long heapPeak() {
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    return peak;
  }

  public static void main(String[] args) throws IOException {
    boolean copy = false;
    boolean rebuild = true;
    for (int i = 0; i + 1 < args.length; i++) {
      switch (args[i]) {
        case "--copy" -> copy = true;
        case "--no-rebuild" -> rebuild = false;
        default -> args = new String[0];
      }
    }
    if (args.length == 0) {
      System.err.println("usage: Checkpoint [--copy] [--no-rebuild] DIR");
      System.exit(2);
    }
    String dir = args[args.length - 1];
    long t0 = System.nanoTime();
    try (EmbeddedStore s =
        EmbeddedStore.builder(Path.of(dir)).background(false).copySketches(copy).open()) {
      long opened = System.nanoTime();
      if (rebuild) {
        s.checkpoint();
      } else {
        s.compactNow();
      }
      System.out.printf(
          Locale.ROOT,
          "%s: opened in %.1f s, snapshot written in %.1f s: %d bytes written, %d bytes on disk"
              + " (with the kept sketch files)%s; %d bytes of index images; %d rebuilds, batches"
              + " of at most %d bytes; heap peak %d bytes%n",
          dir,
          (opened - t0) / 1e9,
          (System.nanoTime() - opened) / 1e9,
          s.metrics().get("last_snapshot_bytes_written").longValue(),
          s.metrics().get("snapshot_bytes").longValue(),
          copy ? ", every sketch copied" : "",
          s.metrics().get("index_image_bytes").longValue(),
          s.metrics().get("rebuilds_total").longValue(),
          s.metrics().get("last_rebuild_batch_bytes").longValue(),
          heapPeak());
    }
  }
}
