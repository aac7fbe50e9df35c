// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import org.neardup.text.UserDictionary;

/**
 * The user dictionaries of a store's collections, kept in its data directory as {@code
 * dictionaries/<sha256>.txt}, the exact bytes a collection was created with, so the collection
 * reopens with the same segmentation whatever happened to the file it came from. A collection's
 * settings name its dictionary by that hash ({@code userdict=sha256:...}).
 *
 * <p>Why the bytes and not a path: a path names a file the store does not control; edited or moved,
 * it would change or break the analysis of stored fingerprints, and a service client naming paths
 * on the server's disk is a way to read its files. The settings text cannot hold the bytes either:
 * the log and snapshot formats keep settings in at most 65,535 bytes, and a 10,000-word dictionary
 * is about twice that. A file written once per distinct dictionary, durably before the collection
 * is created, is small and never changes. Files stay when a collection is dropped (another may use
 * the same dictionary; they are small).
 *
 * <p>Thread-safe: files are written under unique temporary names and renamed into place.
 */
final class UserDictionaries {
  static final String DIRECTORY = "dictionaries";

  private final Path storeDir;
  private final Path dir;

  UserDictionaries(Path storeDir) {
    this.storeDir = storeDir;
    this.dir = storeDir.resolve(DIRECTORY);
  }

  private Path file(String sha256) {
    return dir.resolve(sha256 + ".txt");
  }

  /** Writes the dictionary durably, unless a file with its hash is there already. */
  void save(UserDictionary d) throws IOException {
    Path target = file(d.sha256());
    if (Files.exists(target) && UserDictionary.read(target).equals(d)) {
      return;
    }
    boolean created = !Files.isDirectory(dir);
    Files.createDirectories(dir);
    if (created) {
      Files2.syncDirectory(storeDir);
    }
    Path tmp = Files.createTempFile(dir, d.sha256().substring(0, 16), ".tmp");
    try {
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(d.content());
        while (b.hasRemaining()) {
          ch.write(b);
        }
        ch.force(true);
      }
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      Files2.syncDirectory(dir);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /**
   * The dictionary with this SHA-256.
   *
   * @throws IllegalArgumentException if its file is missing or holds other bytes
   * @throws UncheckedIOException if it cannot be read
   */
  UserDictionary load(String sha256) {
    Path f = file(sha256);
    if (!Files.exists(f)) {
      throw new IllegalArgumentException(
          "its user dictionary " + f + " is missing; restore it from a backup of the directory");
    }
    try {
      UserDictionary d = UserDictionary.read(f);
      if (!d.sha256().equals(sha256)) {
        throw new IllegalArgumentException(
            "its user dictionary " + f + " was changed: its sha256 is now " + d.sha256());
      }
      return d;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
