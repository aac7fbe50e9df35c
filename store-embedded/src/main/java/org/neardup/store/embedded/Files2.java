// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** File-system steps the JDK leaves out. */
final class Files2 {
  private Files2() {}

  /**
   * Forces a directory's entries to the disk, so a file just created or renamed in it survives a
   * power loss. Works on Linux and macOS; where a directory cannot be opened (Windows) it does
   * nothing, as the file system there journals names itself.
   */
  static void syncDirectory(Path dir) throws IOException {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (java.nio.file.AccessDeniedException | UnsupportedOperationException e) {
      // Windows: directories cannot be opened for reading; NTFS journals metadata.
    }
  }
}
