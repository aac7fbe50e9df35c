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
 * half-written one. A run stopped by a signal (SIGTERM, SIGINT) deletes its staging directory from
 * a shutdown hook, so no {@code .DIR.neardup-tmp-*} directory (with gigabytes of spill files) is
 * left behind; only SIGKILL leaves one.
 */
final class OutputDir implements AutoCloseable {
  /** The file whose presence marks a directory as neardup's own output. */
  static final String MARKER = "summary.json";

  private final Path target;
  private final Path staging;
  private boolean committed;
  private boolean abandoned;
  private final Thread cleanup = new Thread(this::abandon, "neardup-staging-cleanup");

  private OutputDir(Path target, Path staging) {
    this.target = target;
    this.staging = staging;
  }

  /**
   * The shutdown hook: the JVM is exiting before the output was committed (a signal, or an exit
   * from elsewhere), so the staging directory goes. Holds the lock, so it never runs during {@link
   * #commit}: the move either completed (nothing to delete) or has not started (and never will).
   */
  private synchronized void abandon() {
    if (committed) {
      return;
    }
    abandoned = true;
    // Threads still writing may add a file while the tree is deleted: a few tries, best effort.
    for (int attempt = 0; attempt < 5 && Files.exists(staging); attempt++) {
      try {
        deleteTree(staging);
      } catch (IOException | RuntimeException e) {
        // try again: the JVM is exiting and nobody is left to report to
      }
    }
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
    OutputDir d = new OutputDir(target, staging);
    Runtime.getRuntime().addShutdownHook(d.cleanup);
    return d;
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
  synchronized void commit() throws IOException {
    if (abandoned) {
      throw new IOException("the run is being stopped: " + target + " not replaced");
    }
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
    try {
      Runtime.getRuntime().removeShutdownHook(cleanup);
    } catch (IllegalStateException e) {
      return; // the JVM is shutting down: the hook deletes the staging directory
    }
    synchronized (this) {
      if (!committed) {
        deleteTree(staging);
      }
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
