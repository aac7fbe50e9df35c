// SPDX-License-Identifier: Apache-2.0
package org.neardup.store;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Stored data failed a check: wrong magic, unknown version, bad checksum, impossible length. Names
 * the file, the position and what was expected; a store never loads such data silently.
 */
public final class CorruptStoreException extends IOException {
  private static final long serialVersionUID = 1L;

  private final Path file;

  public CorruptStoreException(Path file, long offset, String problem) {
    super(file + " is corrupt at byte " + offset + ": " + problem);
    this.file = file;
  }

  public CorruptStoreException(Path file, String problem) {
    super(file + ": " + problem);
    this.file = file;
  }

  /** The file that failed its check. */
  public Path file() {
    return file;
  }
}
