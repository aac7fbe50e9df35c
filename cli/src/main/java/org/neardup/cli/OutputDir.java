// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * An output directory written in a staging directory beside it and moved into place only when the
 * run succeeds: a failed or interrupted run leaves any earlier output untouched, and never a
 * half-written one.
 */
final class OutputDir implements AutoCloseable {
  /** The file whose presence marks a directory as neardup's own output. */
  static final String MARKER = "summary.json";

  private final Path target;
  private final Path staging;
  private boolean committed;

  private OutputDir(Path target, Path staging) {
    this.target = target;
    this.staging = staging;
  }

  /**
   * Refuses to go on when {@code target} exists but is a file, or a non-empty directory that is not
   * an earlier neardup output (unless forced).
   */
  static void checkReplaceable(Path target, boolean force) throws IOException {
    if (!Files.exists(target)) {
      Path parent = target.getParent();
      if (parent != null && !Files.isDirectory(parent)) {
        throw new IOException(parent + ": no such directory for the output");
      }
      return;
    }
    if (!Files.isDirectory(target)) {
      throw new FileAlreadyExistsException(
          target.toString(), null, "exists and is not a directory");
    }
    if (force || Files.exists(target.resolve(MARKER))) {
      return;
    }
    try (Stream<Path> s = Files.list(target)) {
      if (s.findAny().isPresent()) {
        throw new IOException(
            target
                + ": refusing to replace a directory that is not a neardup output (no "
                + MARKER
                + "); use --force");
      }
    }
  }

  /** Creates the staging directory (with a {@code work} subdirectory for temporary files). */
  static OutputDir stage(Path target) throws IOException {
    Path parent = target.getParent() == null ? Path.of(".") : target.getParent();
    Path staging = Files.createTempDirectory(parent, "." + target.getFileName() + ".neardup-tmp-");
    Files.createDirectory(staging.resolve("work"));
    return new OutputDir(target, staging);
  }

  /** Where outputs are written before {@link #commit}. */
  Path dir() {
    return staging;
  }

  /** Where temporary files go; deleted before commit. */
  Path work() {
    return staging.resolve("work");
  }

  /** Moves the staged output into place, replacing an earlier one. */
  void commit() throws IOException {
    deleteTree(work());
    Path old = null;
    if (Files.exists(target)) {
      old = target.resolveSibling("." + target.getFileName() + ".neardup-old-" + System.nanoTime());
      move(target, old);
    }
    try {
      move(staging, target);
    } catch (IOException e) {
      if (old != null) {
        move(old, target); // put the earlier output back
      }
      throw e;
    }
    committed = true;
    if (old != null) {
      deleteTree(old);
    }
  }

  private static void move(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException | DirectoryNotEmptyException e) {
      Files.move(from, to);
    }
  }

  @Override
  public void close() throws IOException {
    if (!committed) {
      deleteTree(staging);
    }
  }

  static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(root)) {
      walk.sorted(Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.deleteIfExists(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }
}
