// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.neardup.index.BlockScheme;
import org.neardup.index.IndexImage;
import org.neardup.internal.PagedLongArray;

/**
 * The fingerprint index images beside a snapshot, one per collection ({@code
 * index-<segment>-<collection>.ndindex}): each is the sorted index of the collection's documents in
 * the order the snapshot holds them, so that an open reads it ({@link IndexImage#read}) instead of
 * sorting. An image is an accelerator only: a missing, stale or corrupt one is passed over and the
 * open sorts as before; none is ever needed to open a store.
 *
 * <pre>
 * File     --> Header, Image
 * Header   --> Magic int, Version int, Segment long, Collection int, Documents int,
 *              FingerprintHash long, HeaderChecksum int         (big-endian, {@value #HEADER} bytes)
 * Image    --> {@link IndexImage}'s own layout, ending in its CRC32C
 * </pre>
 *
 * Documents is the count of the collection's documents in the snapshot and FingerprintHash the
 * {@link #hash} of their fingerprints in order: an open that reads the same snapshot computes both
 * again and uses the image only if they agree, which also ties the image to this snapshot (beside
 * Segment in the name).
 */
final class IndexImages {
  private static final System.Logger LOG = System.getLogger(EmbeddedStore.class.getName());
  private static final String PREFIX = "index-";
  private static final String SUFFIX = ".ndindex";
  private static final int MAGIC = 0x4E44_494D; // "NDIM"
  private static final int VERSION = 1;
  static final int HEADER = ImageHeader.BYTES;

  /** The hash of no fingerprints, where {@link #hash} starts. */
  static final long EMPTY_HASH = 0x6A09_E667_F3BC_C908L;

  private IndexImages() {}

  static String fileName(long segment, int collection) {
    return String.format(Locale.ROOT, "%s%020d-%d%s", PREFIX, segment, collection, SUFFIX);
  }

  /** Whether a file name is an image's. */
  static boolean isImage(Path file) {
    String n = file.getFileName().toString();
    return n.startsWith(PREFIX) && n.endsWith(SUFFIX);
  }

  /**
   * The hash of a sequence of fingerprints, one step: order matters (a multiply and xor-shift per
   * fingerprint, the open's only cost for checking an image beyond reading it).
   */
  static long hash(long h, long fingerprint) {
    h = (h ^ fingerprint) * 0x9E37_79B9_7F4A_7C15L;
    return h ^ (h >>> 31);
  }

  /**
   * Writes the image of {@code fingerprints} (one collection's, in snapshot order) beside snapshot
   * {@code segment}: to a temporary file, forced, then renamed, so a crash leaves a whole image or
   * none. Returns the bytes written.
   */
  static long write(
      Path dir,
      long segment,
      int collection,
      BlockScheme scheme,
      PagedLongArray fingerprints,
      long fingerprintHash)
      throws IOException {
    int n = Math.toIntExact(fingerprints.size());
    long[] fps = new long[n];
    for (int i = 0; i < n; i++) {
      fps[i] = fingerprints.get(i);
    }
    Path file = dir.resolve(fileName(segment, collection));
    Path tmp = dir.resolve(fileName(segment, collection) + ".tmp");
    long bytes;
    try (FileChannel ch =
        Files2.open(
            tmp,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
      ByteBuffer h = ImageHeader.of(MAGIC, VERSION, segment, collection, n, fingerprintHash);
      while (h.hasRemaining()) {
        ch.write(h);
      }
      bytes = HEADER + IndexImage.write(scheme, fps, n, ch); // sorts fps in place, table by table
      ch.force(true);
    }
    Files2.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
    Files2.syncDirectory(dir);
    return bytes;
  }

  /**
   * The image beside snapshot {@code segment} for a collection whose snapshot documents are {@code
   * documents} with fingerprint hash {@code fingerprintHash}, or null when there is none or it does
   * not match (both silently: an image of another build or snapshot) or does not read (a warning:
   * torn or corrupt). The caller then sorts.
   */
  static @Nullable IndexImage read(
      Path dir, long segment, int collection, int documents, long hash) {
    Path file = dir.resolve(fileName(segment, collection));
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer h = ImageHeader.read(ch, MAGIC, VERSION, segment, collection);
      if (h == null || h.getInt() != documents || h.getLong() != hash) {
        return null; // another build's, or another snapshot's documents
      }
      IndexImage image = IndexImage.read(ch);
      if (image.size() != documents) {
        throw new IOException(image.size() + " entries for " + documents + " documents");
      }
      return image;
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException | RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "{0}: index image not used, the index is sorted instead: {1}",
          file,
          e.toString());
      return null;
    }
  }

  /** Deletes every image in {@code dir} but those beside snapshot {@code segment}. */
  static void deleteBut(Path dir, long segment) throws IOException {
    String keep = String.format(Locale.ROOT, "%s%020d-", PREFIX, segment);
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        if (isImage(p) && !p.getFileName().toString().startsWith(keep)) {
          Files2.deleteIfExists(p);
        }
      }
    }
  }
}
