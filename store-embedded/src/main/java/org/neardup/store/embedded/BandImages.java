// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.io.Closeable;
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
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.neardup.verify.BandImage;

/**
 * The band index images beside a snapshot, one per verifying collection ({@code
 * bands-<segment>-<collection>.ndbands}): each holds the band index's runs of the collection's
 * documents in the order the snapshot holds them ({@link BandImage}), so that an open reads them
 * instead of sorting every document's band keys (about half of a 50M open's CPU). As with the
 * fingerprint index's images ({@link IndexImages}) an image is an accelerator only: a missing,
 * stale, torn or corrupt one is passed over and the open files the band keys as before; none is
 * ever needed to open a store, and a build that does not know them ignores them.
 *
 * <pre>
 * File     --> Header, Image
 * Header   --> {@link ImageHeader}: Magic "NDBA", Version 1, Segment, Collection, Documents,
 *              FingerprintHash, HeaderChecksum
 * Image    --> {@link BandImage}'s own layout, ending in its CRC32C
 * </pre>
 *
 * Documents and FingerprintHash are those of {@link IndexImages}: the open computes them again from
 * the snapshot and takes the image only if both agree. The header is written last (the counts are
 * known at the end), into a temporary file that is then forced and renamed.
 *
 * <p>Written by a compaction beside each snapshot (the copier feeds a {@link Writer} the heads it
 * writes), by {@code BulkLoad expand}, or once for an existing directory by {@link #main}.
 */
final class BandImages {
  private static final System.Logger LOG = System.getLogger(EmbeddedStore.class.getName());
  private static final String PREFIX = "bands-";
  private static final String SUFFIX = ".ndbands";
  private static final String TEMPORARY = ".tmp";
  private static final int MAGIC = 0x4E44_4241; // "NDBA"
  private static final int VERSION = 1;
  static final int HEADER = ImageHeader.BYTES;

  private BandImages() {}

  static String fileName(long segment, int collection) {
    return String.format(Locale.ROOT, "%s%020d-%d%s", PREFIX, segment, collection, SUFFIX);
  }

  /** Whether a file name is an image's or a temporary one's. */
  static boolean isImage(Path file) {
    String n = file.getFileName().toString();
    return n.startsWith(PREFIX) && (n.endsWith(SUFFIX) || n.endsWith(SUFFIX + TEMPORARY));
  }

  /**
   * Deletes every image in {@code dir} but those beside snapshot {@code segment}, and their
   * temporary files too unless {@code keepTemporaries} (a compaction's, still being written).
   */
  static void deleteBut(Path dir, long segment, boolean keepTemporaries) throws IOException {
    String keep = String.format(Locale.ROOT, "%s%020d-", PREFIX, segment);
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        String n = p.getFileName().toString();
        if (isImage(p) && (!n.startsWith(keep) || (n.endsWith(TEMPORARY) && !keepTemporaries))) {
          Files2.deleteIfExists(p);
        }
      }
    }
  }

  /**
   * Writes one collection's image from the snapshot records given in order ({@link #add}): the file
   * is opened at the first document with band keys; a collection without them (fingerprints only)
   * gets none. Not thread-safe.
   */
  static final class Writer implements Closeable {
    private final Path dir;
    private final long segment;
    private final int collection;
    private @Nullable FileChannel channel;
    private BandImage.@Nullable Writer image;
    private int documents;
    private long hash = IndexImages.EMPTY_HASH;
    private boolean none; // documents without band keys: no image
    private final int[] pos = new int[1];

    Writer(Path dir, long segment, int collection) {
      this.dir = dir;
      this.segment = segment;
      this.collection = collection;
    }

    private Path temporary() {
      return dir.resolve(fileName(segment, collection) + TEMPORARY);
    }

    /**
     * Adds the next snapshot document of the collection: an insert record's body or a snapshot's
     * head, {@code length} bytes (its analysis's Fingerprint and BandKeys are read).
     *
     * @throws IllegalArgumentException if its band keys differ in number from the first document's
     */
    void add(byte[] body, int length) throws IOException {
      int at = LogFormat.analysisOffset(body, length);
      long fingerprint = Bytes.getLong(body, at);
      documents++;
      hash = IndexImages.hash(hash, fingerprint);
      if (none) {
        return;
      }
      pos[0] = at + 8;
      EmbeddedTransfer.varint(body, pos); // letters
      int bands = (int) EmbeddedTransfer.varint(body, pos);
      if (pos[0] + 8L * bands > length) {
        throw new IllegalArgumentException("a record's band keys pass its end");
      }
      BandImage.Writer w = image;
      if (w == null) {
        if (bands == 0 || documents > 1) {
          none = true; // fingerprints only (or a first document without keys)
          return;
        }
        FileChannel ch =
            Files2.open(
                temporary(),
                StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE);
        channel = ch;
        ch.position(HEADER);
        w = new BandImage.Writer(ch, bands);
        image = w;
      } else if (bands != w.bandCount()) {
        throw new IllegalArgumentException(
            "a document has " + bands + " band keys, the first had " + w.bandCount());
      }
      w.add(body, pos[0]);
    }

    /**
     * Completes the image: the header, forced, renamed into place. Returns the bytes written, 0
     * when there is no image (no documents or no band keys).
     */
    long finish() throws IOException {
      BandImage.Writer w = image;
      FileChannel ch = channel;
      if (w == null || ch == null || none) {
        close();
        return 0;
      }
      long bytes = HEADER + w.finish();
      ByteBuffer h = ImageHeader.of(MAGIC, VERSION, segment, collection, documents, hash);
      for (long at = 0; h.hasRemaining(); ) {
        at += ch.write(h, at);
      }
      ch.force(true);
      ch.close();
      channel = null;
      image = null;
      Path file = dir.resolve(fileName(segment, collection));
      Files2.move(temporary(), file, StandardCopyOption.ATOMIC_MOVE);
      Files2.syncDirectory(dir);
      return bytes;
    }

    /** Drops an unfinished image. */
    @Override
    public void close() throws IOException {
      FileChannel ch = channel;
      channel = null;
      image = null;
      if (ch != null) {
        ch.close();
        Files2.deleteIfExists(temporary());
      }
    }
  }

  /**
   * Whether an image beside snapshot {@code segment} for {@code collection} is there with a header
   * of this build: whether an open should leave the band keys unfiled and wait for it (a torn body
   * or other documents are found only when it is read; the open then files them after all).
   */
  static boolean present(Path dir, long segment, int collection) {
    Path file = dir.resolve(fileName(segment, collection));
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      return ImageHeader.read(ch, MAGIC, VERSION, segment, collection) != null;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /** An image as read, with the Documents and FingerprintHash of its header to check it by. */
  static final class Read {
    final int documents;
    final long hash;
    final BandImage image;

    Read(int documents, long hash, BandImage image) {
      this.documents = documents;
      this.hash = hash;
      this.image = image;
    }

    /**
     * Whether it is the image of a snapshot's documents, {@code documents} of hash {@code hash}.
     */
    boolean of(int documents, long hash) {
      return this.documents == documents && this.hash == hash && image.positions() == documents;
    }
  }

  /**
   * The image beside snapshot {@code segment} for {@code collection}, or null when there is none or
   * it is another build's (both silently) or does not read (a warning: torn or corrupt). The caller
   * checks it is of the snapshot's documents ({@link Read#of}) and else files the band keys itself;
   * it reads it while the snapshot's documents are restored, before their count and hash are known.
   */
  static @Nullable Read read(Path dir, long segment, int collection) {
    Path file = dir.resolve(fileName(segment, collection));
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer h = ImageHeader.read(ch, MAGIC, VERSION, segment, collection);
      if (h == null) {
        return null;
      }
      int documents = h.getInt();
      long hash = h.getLong();
      return new Read(documents, hash, BandImage.read(ch));
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException | RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "{0}: band index image not used, the band keys are filed instead: {1}",
          file,
          e.toString());
      return null;
    }
  }

  /**
   * Writes the band images of the newest snapshot of a data directory that no store has open, for a
   * directory written before images were (a compaction writes them from then on):
   *
   * <pre>
   * java -Xmx1g -cp neardup.jar org.neardup.store.embedded.BandImages DIR
   * </pre>
   *
   * Reads the snapshot's heads once in file order (not the sketches) and prints the bytes written
   * per collection and the time.
   */
  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: BandImages DIR");
      System.exit(2);
    }
    Path dir = Path.of(args[0]);
    long t0 = System.nanoTime();
    TreeMap<Long, Path> snapshots = new TreeMap<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        long s = SnapshotFormat.segmentOf(p);
        if (s >= 0) {
          snapshots.put(s, p);
        }
      }
    }
    if (snapshots.isEmpty()) {
      System.err.println(dir + ": no snapshot");
      System.exit(1);
    }
    long segment = snapshots.lastKey();
    Map<Integer, Writer> writers = new TreeMap<>();
    try (SnapshotFormat.Reader r =
        new SnapshotFormat.Reader(snapshots.lastEntry().getValue(), true)) {
      for (SnapshotFormat.CollectionEntry e : r.collections()) {
        writers.put(e.number(), new Writer(dir, segment, e.number()));
      }
      while (r.next()) {
        int c = Bytes.getInt(r.body(), LogFormat.COLLECTION);
        Writer w = writers.get(c);
        if (w == null) {
          throw new IOException(
              "a document names collection " + c + ", which the header does not list");
        }
        w.add(r.body(), r.length());
      }
      for (Map.Entry<Integer, Writer> e : writers.entrySet()) {
        long bytes = e.getValue().finish();
        System.out.printf(
            Locale.ROOT,
            "%s: collection %d: %d documents, %d bytes of band image (%.1f B per document)%n",
            dir,
            e.getKey(),
            e.getValue().documents,
            bytes,
            e.getValue().documents == 0 ? 0.0 : bytes / (double) e.getValue().documents);
      }
    } finally {
      for (Writer w : writers.values()) {
        w.close();
      }
    }
    System.out.printf(
        Locale.ROOT, "%s: band images written in %.1f s%n", dir, (System.nanoTime() - t0) / 1e9);
  }
}
