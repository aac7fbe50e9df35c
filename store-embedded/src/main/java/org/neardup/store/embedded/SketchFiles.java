// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.neardup.verify.SketchStore;

/**
 * Names and hands out the store's {@link SketchFile}s, {@code sketches-C-N.tmp} in the data
 * directory (C the collection, N a counter of this process), and remembers the ones a generation
 * made so the generation can close them when it is replaced. Thread-safe.
 */
final class SketchFiles {
  private final Path dir;
  private final AtomicLong next = new AtomicLong();

  SketchFiles(Path dir) {
    this.dir = dir;
  }

  /** A factory for one generation of collection c; {@link Owner#close()} frees what it made. */
  Owner owner(int collection) {
    return new Owner(collection);
  }

  /** The sketch files of one generation (a compaction inside its engine may make a second one). */
  final class Owner implements SketchStore.Factory {
    private final int collection;
    private final List<SketchFile> made = new ArrayList<>();
    private List<Path> base = List.of();

    private Owner(int collection) {
      this.collection = collection;
    }

    /**
     * Makes the next file this owner creates start from a snapshot's sketch files, in the order of
     * its span ({@link SketchFile#takeFromBase}); set before the generation's engine is made.
     */
    synchronized void base(List<Path> snapshotSketches) {
      this.base = List.copyOf(snapshotSketches);
    }

    @Override
    public synchronized SketchStore create(int bandCount, int expectedSize) {
      Path file = dir.resolve("sketches-" + collection + "-" + next.incrementAndGet() + ".tmp");
      SketchFile f = new SketchFile(file, bandCount, expectedSize, base);
      base = List.of(); // a compaction's copy writes its own entries
      made.add(f);
      return f;
    }

    /** The file made last, which the engine writes to now, or null before the first. */
    synchronized @Nullable SketchFile current() {
      return made.isEmpty() ? null : made.get(made.size() - 1);
    }

    /** Bytes of this generation's files (closed ones count 0). */
    synchronized long diskBytes() {
      long n = 0;
      for (SketchFile f : made) {
        n += f.diskBytes();
      }
      return n;
    }

    synchronized void close() {
      for (SketchFile f : made) {
        f.close();
      }
    }
  }
}
