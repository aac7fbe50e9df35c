// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.CopyOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;

/**
 * File-system steps the JDK leaves out, and the steps that decide durability, all through the
 * {@link FileLayer} in use.
 */
final class Files2 {
  private Files2() {}

  /**
   * Forces a directory's entries to the disk, so a file just created or renamed in it survives a
   * power loss. Works on Linux and macOS; where a directory cannot be opened (Windows) it does
   * nothing, as the file system there journals names itself.
   */
  static void syncDirectory(Path dir) throws IOException {
    FileLayer.current().syncDirectory(dir);
  }

  /** Opens a file the store writes (a log segment, a snapshot). */
  static FileChannel open(Path file, OpenOption... options) throws IOException {
    return FileLayer.current().open(file, options);
  }

  static void move(Path from, Path to, CopyOption... options) throws IOException {
    FileLayer.current().move(from, to, options);
  }

  static boolean deleteIfExists(Path file) throws IOException {
    return FileLayer.current().deleteIfExists(file);
  }

  /** Before reading back a file the store made durable, other than at open ({@link FileLayer}). */
  static void reading(Path file) throws IOException {
    FileLayer.current().reading(file);
  }
}
