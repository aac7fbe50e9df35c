// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.CopyOption;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The file operations through which the store makes data durable: opening a file to write (log
 * segments, snapshots), forcing it (on the channel), renaming and deleting files and forcing a
 * directory. The store calls them through {@link Files2}; the real layer is the JDK's. A test
 * installs a fault-injection layer here that simulates power cuts (it forgets every byte and every
 * name change not covered by a completed fsync), the way RocksDB tests its own durability.
 */
abstract class FileLayer {
  static final FileLayer REAL = new Real();

  private static volatile FileLayer current = REAL;

  /** The layer in use. */
  static FileLayer current() {
    return current;
  }

  /** Installs a layer for the stores opened from now on in this JVM (tests); null for the real. */
  static void install(FileLayer layer) {
    current = layer == null ? REAL : layer;
  }

  abstract FileChannel open(Path file, OpenOption... options) throws IOException;

  abstract void syncDirectory(Path dir) throws IOException;

  abstract void move(Path from, Path to, CopyOption... options) throws IOException;

  abstract boolean deleteIfExists(Path file) throws IOException;

  /**
   * Called before the store reads back a file it has just made durable, for another purpose than
   * opening (a rebuild reads the snapshot its compaction wrote); a test layer may fail it there.
   */
  void reading(Path file) throws IOException {}

  private static final class Real extends FileLayer {
    @Override
    FileChannel open(Path file, OpenOption... options) throws IOException {
      return FileChannel.open(file, options);
    }

    @Override
    void syncDirectory(Path dir) throws IOException {
      try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
        ch.force(true);
      } catch (java.nio.file.AccessDeniedException | UnsupportedOperationException e) {
        // Windows: directories cannot be opened for reading; NTFS journals metadata.
      }
    }

    @Override
    void move(Path from, Path to, CopyOption... options) throws IOException {
      Files.move(from, to, options);
    }

    @Override
    boolean deleteIfExists(Path file) throws IOException {
      return Files.deleteIfExists(file);
    }
  }
}
