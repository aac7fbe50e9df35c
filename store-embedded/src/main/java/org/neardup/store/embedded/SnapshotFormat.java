// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.CRC32C;
import org.jspecify.annotations.Nullable;
import org.neardup.store.CorruptStoreException;

/**
 * The snapshot's file format: every live document of every collection as of the end of one log
 * segment, in two kinds of files since version 3: the part of each document that opening a store
 * needs (ids, times, clusters, fingerprints, band keys), and the sketches, which only verification
 * reads and which a store keeps in a file anyway ({@link SketchFile}): an open reads the first file
 * and points its sketch files at the others, never reading or copying a sketch.
 *
 * <p>Since version 4 a snapshot's sketch entries may stay in the sketch files of earlier snapshots:
 * its header lists those files (Kept), and each document says where its entry is in the sequence of
 * the kept files followed by the snapshot's own sketch file ({@link SketchSpan}). A compaction thus
 * writes to its own sketch file only the sketches stored since the previous snapshot, and the live
 * entries of the kept files it folds in ({@link SketchPolicy}); it never modifies a kept file, so a
 * crash at any point leaves the previous snapshot whole.
 *
 * <pre>
 * Snapshot    --> Header, CollectionCount, Collection^CollectionCount, KeptCount, Kept^KeptCount,
 *                 Document*, End, Footer      (KeptCount and Kept: version 4 only)
 * Header      --> Magic, Version, LastSegment, CreatedAt
 * Magic       --> the 8 bytes "NDUPSNAP"
 * Version     --> int32: 4 (this build also reads 1, 2 and 3)
 * LastSegment --> int64: the snapshot holds the effect of log segments up to this one
 * CreatedAt   --> int64: epoch milliseconds
 * CollectionCount --> int32
 * Collection  --> Number (int32), NextDocId (int64), Documents (int64), Name, Settings, AnalyzerId
 * Documents   --> about how many documents follow for it (to size memory before loading)
 * Name, Settings, AnalyzerId --> uint16 length, UTF-8 bytes
 * KeptCount   --> int32, in [0, 4096]
 * Kept        --> Segment (int64), Size (int64): the sketch file of snapshot Segment, Size bytes
 * Document    --> Length, EntryLength, EntryAt, Head (version 4) | Length, EntryLength, Head
 *                 (version 3) | Length, Body (versions 1 and 2)
 * Length      --> int32, in [1, 64 MiB]: the bytes of Head or Body
 * EntryLength --> int32, in [0, 64 MiB]: the bytes of the document's Entry in a sketch file
 * EntryAt     --> int64: where the Entry starts in the Kept files and then this snapshot's own
 *                 sketch file, laid end to end; an Entry lies inside one file, between its
 *                 SketchHeader and its SketchFooter. Entries in the own file follow each other in
 *                 document order from byte 20 of it (version 3: all entries are there, so)
 * Body        --> an Insert body of {@link LogFormat} without Joined (JoinedCount 0), or an
 *                 InsertV1 body, whose Cluster is the representative when the snapshot was written
 *                 (version 1: InsertV1 only)
 * Head        --> a Body whose Analysis stops after its band keys: Fingerprint, Letters, BandCount,
 *                 BandKey^BandCount (see org.neardup.Analysis#encode()); its Sketch is in the Entry
 * End         --> int32: 0
 * Footer      --> DocumentCount (int64), EntryBytes (int64, versions 3 and 4), Live^(KeptCount+1)
 *                 (version 4), Checksum, EndMagic
 * EntryBytes  --> the sum of the EntryLengths in the own sketch file: it is 20 + EntryBytes + 12
 *                 bytes
 * Live        --> int64: the sum of the EntryLengths of the documents in each Kept file, then in
 *                 the own file: what a later compaction weighs against the file's size
 * Checksum    --> CRC32C of every byte of the file before it
 * EndMagic    --> the 8 bytes "NDUPSEND"
 *
 * Sketches    --> SketchHeader, Entry*, SketchFooter      (snapshot-N.ndsketch, versions 3 and 4)
 * SketchHeader --> the 8 bytes "NDUPSKCH", SketchVersion (int32: 1), LastSegment (int64)
 * Entry       --> BandKey^BandCount as little-endian int64, then the Analysis' Sketch: the layout
 *                 of a {@link SketchFile} entry, so that file reads it in place
 * SketchFooter --> Checksum (CRC32C of every byte of the sketch file before it), "NDUPSKND"
 * </pre>
 *
 * Documents of one collection appear in increasing DocId order, which is their insertion order, so
 * restoring them in file order rebuilds every cluster with its earliest member as representative. A
 * snapshot is written to {@code .tmp} files, forced, and renamed into place, the sketch file first;
 * a snapshot that fails any check is refused with a {@link CorruptStoreException}, never loaded in
 * part. A reader that reassembles whole bodies ({@link Reader#Reader(Path)}: a compaction's
 * rebuild, an export) reads each entry where it is and checks its band keys against the head's
 * (version 3: it streams the one sketch file and checks its checksum); one that leaves the sketches
 * apart ({@link Reader#Reader(Path, boolean)}: an open, a compaction) checks the first file's
 * checksum and each sketch file's header, end magic and length, not its every byte: reading them is
 * what the split saves. A sketch that went bad on disk then shows when a check verifies against it,
 * as with a sketch file's page after a disk fault. A sketch file is deleted once no snapshot on
 * disk lists it ({@link #delete}, and the open's clean-up).
 */
final class SnapshotFormat {
  static final long MAGIC = 0x4E44_5550_534E_4150L; // "NDUPSNAP"
  static final long END_MAGIC = 0x4E44_5550_5345_4E44L; // "NDUPSEND"
  static final long SKETCH_MAGIC = 0x4E44_5550_534B_4348L; // "NDUPSKCH"
  static final long SKETCH_END_MAGIC = 0x4E44_5550_534B_4E44L; // "NDUPSKND"
  static final int VERSION = 4;
  static final int MAX_KEPT = 4096;
  static final int OLDEST_VERSION = 1;
  static final int SKETCH_VERSION = 1;
  static final int SKETCH_HEADER = 20;
  static final int SKETCH_FOOTER = 12;

  /**
   * How much a paced writer writes between forcing it and checking its rate. Small, so that each
   * force is short: the log's fsyncs wait behind it. Measured on this project's VM (FsyncProbe in
   * docs/BENCHMARKS.md), a log fsyncing beside a 64 MiB/s writer: forcing every 8 MiB put 29 to 58
   * of 13,000 fsyncs over 10 ms (up to 155 ms), forcing every 1 MiB none (at most 5 ms).
   */
  static final int PACE_CHUNK = 1 << 20;

  /**
   * The reader's and the writer's buffer. Direct, and read and written a number at a time: streams
   * (a DataOutputStream over a CheckedOutputStream over a BufferedOutputStream) moved each int
   * through three calls and each byte through two copies, half of a compaction's time once the
   * cluster lookups were cheap.
   */
  private static final int BUFFER = 1 << 20;

  private static final String PREFIX = "snapshot-";
  private static final String SUFFIX = ".ndsnap";
  private static final String SKETCH_SUFFIX = ".ndsketch";

  private SnapshotFormat() {}

  static String fileName(long lastSegment) {
    return String.format(Locale.ROOT, "%s%020d%s", PREFIX, lastSegment, SUFFIX);
  }

  /** The name of the sketch file beside snapshot {@code lastSegment} (version 3). */
  static String sketchFileName(long lastSegment) {
    return String.format(Locale.ROOT, "%s%020d%s", PREFIX, lastSegment, SKETCH_SUFFIX);
  }

  /** The last segment of a snapshot file name, or -1 if it is not one. */
  static long segmentOf(Path file) {
    return LogFormat.numberOf(file.getFileName().toString(), PREFIX, SUFFIX);
  }

  /** The last segment of a snapshot's sketch file name, or -1 if it is not one. */
  static long sketchSegmentOf(Path file) {
    return LogFormat.numberOf(file.getFileName().toString(), PREFIX, SKETCH_SUFFIX);
  }

  /**
   * Deletes snapshot {@code lastSegment}, if it exists, but not its sketch file, which a later
   * snapshot may list (version 4): {@link #deleteSketchesBut} deletes those none lists.
   */
  static void delete(Path dir, long lastSegment) throws IOException {
    Files2.deleteIfExists(dir.resolve(fileName(lastSegment)));
  }

  /**
   * Deletes every snapshot sketch file in {@code dir} but the {@code listed} ones (those of the
   * snapshot in use): once that snapshot is durable, none other can be read again.
   */
  static void deleteSketchesBut(Path dir, java.util.Collection<Path> listed) throws IOException {
    java.util.Set<Path> keep = new java.util.HashSet<>();
    for (Path p : listed) {
      keep.add(p.getFileName());
    }
    List<Path> gone = new ArrayList<>();
    try (java.util.stream.Stream<Path> files = Files.list(dir)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        if (sketchSegmentOf(p) >= 0 && !keep.contains(p.getFileName())) {
          gone.add(p);
        }
      }
    }
    for (Path p : gone) {
      Files2.deleteIfExists(p);
    }
  }

  /**
   * Where the Sketch of a whole insert body starts (after the band keys of its Analysis), and how
   * many band keys it has: {@code (sketchAt << 8) | bandCount}.
   *
   * @throws IllegalArgumentException if the Analysis does not parse that far
   */
  static long sketchAt(byte[] body, int length) {
    int at = LogFormat.analysisOffset(body, length) + 8;
    long letters = 0;
    int count = 0;
    for (int part = 0; part < 2; part++) {
      long v = 0;
      for (int shift = 0; ; shift += 7) {
        if (at >= length || shift >= 35) {
          throw new IllegalArgumentException("the analysis ends inside its header");
        }
        byte b = body[at++];
        v |= (long) (b & 0x7F) << shift;
        if (b >= 0) {
          break;
        }
      }
      if (part == 0) {
        letters = v;
      } else {
        count = (int) v;
      }
    }
    if (count < 0 || count > 64 || at + count * 8L > length) {
      throw new IllegalArgumentException(
          "the analysis has " + count + " band keys, which do not fit its " + length + " bytes");
    }
    assert letters >= 0;
    return ((long) (at + count * 8) << 8) | count;
  }

  /** A collection as a snapshot header lists it. */
  record CollectionEntry(
      int number,
      long nextDocId,
      long documents,
      String name,
      String settings,
      String analyzerId) {}

  /** A sketch file that a version 4 snapshot lists: {@code sketchFileName(segment)}, size bytes. */
  record Kept(long segment, long size) {}

  /** A file written through a direct buffer, with the CRC32C of everything written. */
  private static final class Out {
    final Path tmp;
    final FileChannel channel;
    final ByteBuffer buf = ByteBuffer.allocateDirect(BUFFER); // big-endian
    final CRC32C crc = new CRC32C();

    Out(Path tmp) throws IOException {
      this.tmp = tmp;
      this.channel =
          Files2.open(
              tmp,
              StandardOpenOption.CREATE,
              StandardOpenOption.TRUNCATE_EXISTING,
              StandardOpenOption.WRITE);
    }

    /** The buffer, with at least n bytes free (n at most {@link #BUFFER}). */
    ByteBuffer room(int n) throws IOException {
      if (buf.remaining() < n) {
        drain();
      }
      return buf;
    }

    void write(byte[] b, int off, int len) throws IOException {
      while (len > 0) {
        int k = Math.min(len, room(1).remaining());
        buf.put(b, off, k);
        off += k;
        len -= k;
      }
    }

    /** Adds the buffered bytes to the checksum and writes them to the file. */
    void drain() throws IOException {
      buf.flip();
      crc.update(buf);
      buf.rewind();
      while (buf.hasRemaining()) {
        channel.write(buf);
      }
      buf.clear();
    }

    /** Writes the checksum and the end magic, forces and closes the file. */
    void finish(long endMagic) throws IOException {
      drain();
      room(12).putInt((int) crc.getValue()).putLong(endMagic);
      drain();
      channel.force(true);
      channel.close();
    }
  }

  /**
   * Writes a snapshot to {@code <name>.tmp} files and moves them into place on {@link #commit}.
   * Takes whole insert bodies and splits each into its Head and its sketch Entry.
   */
  static final class Writer implements Closeable {
    private final Path target;
    private final Path sketchTarget;
    private final Out main;
    private final Out sketches;
    private final long bytesPerSecond;
    private final List<Kept> kept;
    private final SketchSpan keptSpan;
    private final long[] live; // per kept file, then the own one
    private volatile boolean hurry;
    private long documents;
    private long entryBytes;
    private long bytes; // of documents and entries written so far
    private long paced; // bytes when the pace was last kept
    private long pacedAt; // System.nanoTime() then
    private boolean done;

    /** A writer at full speed (offline tools, and a snapshot at shutdown). */
    Writer(Path dir, long lastSegment, long createdAt, List<CollectionEntry> collections)
        throws IOException {
      this(dir, lastSegment, createdAt, collections, 0);
    }

    /**
     * A writer that keeps to {@code bytesPerSecond} (0: no limit) and, when limited, forces its
     * data to disk every {@value #PACE_CHUNK} bytes, so that a snapshot written while the service
     * is under load takes a bounded share of the CPU and the disk instead of a burst of both: a 2
     * GB snapshot at full speed during a 60 s batch load took the load's p99 from 6.7 to 18-25 ms
     * (docs/BENCHMARKS.md).
     */
    Writer(
        Path dir,
        long lastSegment,
        long createdAt,
        List<CollectionEntry> collections,
        long bytesPerSecond)
        throws IOException {
      this(dir, lastSegment, createdAt, collections, bytesPerSecond, List.of());
    }

    /**
     * A writer whose documents may keep their entries in the sketch files of earlier snapshots
     * ({@link #reference}), listed in {@code kept} in the order of the span their EntryAt places
     * them in (see the class doc).
     */
    Writer(
        Path dir,
        long lastSegment,
        long createdAt,
        List<CollectionEntry> collections,
        long bytesPerSecond,
        List<Kept> kept)
        throws IOException {
      if (kept.size() > MAX_KEPT) {
        throw new IllegalArgumentException(kept.size() + " kept sketch files, at most " + MAX_KEPT);
      }
      this.kept = List.copyOf(kept);
      long[] sizes = new long[kept.size()];
      for (int i = 0; i < sizes.length; i++) {
        sizes[i] = kept.get(i).size();
      }
      this.keptSpan = new SketchSpan(sizes);
      this.live = new long[kept.size() + 1];
      this.target = dir.resolve(fileName(lastSegment));
      this.sketchTarget = dir.resolve(sketchFileName(lastSegment));
      this.bytesPerSecond = bytesPerSecond;
      this.main = new Out(dir.resolve(fileName(lastSegment) + ".tmp"));
      try {
        this.sketches = new Out(dir.resolve(sketchFileName(lastSegment) + ".tmp"));
      } catch (IOException | RuntimeException e) {
        main.channel.close();
        Files2.deleteIfExists(main.tmp);
        throw e;
      }
      this.pacedAt = System.nanoTime();
      try {
        main.room(32).putLong(MAGIC).putInt(VERSION).putLong(lastSegment).putLong(createdAt);
        main.buf.putInt(collections.size());
        for (CollectionEntry c : collections) {
          main.room(20).putInt(c.number()).putLong(c.nextDocId()).putLong(c.documents());
          writeString(c.name());
          writeString(c.settings());
          writeString(c.analyzerId());
        }
        main.room(4).putInt(kept.size());
        for (Kept k : kept) {
          main.room(16).putLong(k.segment()).putLong(k.size());
        }
        sketches.room(SKETCH_HEADER).putLong(SKETCH_MAGIC).putInt(SKETCH_VERSION);
        sketches.buf.putLong(lastSegment);
      } catch (IOException | RuntimeException e) {
        close();
        throw e;
      }
    }

    private void writeString(String s) throws IOException {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      main.room(2).putShort((short) b.length);
      main.write(b, 0, b.length);
    }

    /**
     * Appends one whole insert body (an Insert without Joined, or an InsertV1): its Head to the
     * snapshot, its band keys and sketch to the sketch file.
     *
     * @throws IllegalArgumentException if its Analysis does not parse as far as its band keys
     */
    void document(byte[] body, int off, int len) throws IOException {
      assert off != 0 || LogFormat.joinedCount(body, len) == 0 : "a snapshot keeps no Joined";
      byte[] b = body;
      if (off != 0) {
        b = java.util.Arrays.copyOfRange(body, off, off + len);
      }
      long split = sketchAt(b, len);
      int head = (int) (split >>> 8);
      int keys = (int) (split & 0xFF);
      int sketch = len - head;
      int entry = keys * 8 + sketch;
      main.room(16)
          .putInt(head)
          .putInt(entry)
          .putLong(keptSpan.length() + SKETCH_HEADER + entryBytes);
      main.write(b, 0, head);
      ByteBuffer out = sketches.room(keys * 8);
      for (int k = 0; k < keys; k++) {
        out.putLong(Long.reverseBytes(Bytes.getLong(b, head - (keys - k) * 8)));
      }
      sketches.write(b, head, sketch);
      documents++;
      entryBytes += entry;
      live[live.length - 1] += entry;
      bytes += 16 + head + entry;
      if (bytesPerSecond > 0 && bytes - paced >= PACE_CHUNK) {
        keepPace();
      }
    }

    /**
     * Appends a document whose Entry stays where it is in a kept sketch file: its Head (a body cut
     * after its band keys, as {@link Reader} gives it apart) and where its Entry is in the kept
     * files laid end to end.
     *
     * @throws IllegalArgumentException if the head does not end at its band keys, or the entry does
     *     not lie inside one kept file's entries
     */
    void reference(byte[] head, int len, long entryAt, int entryLength) throws IOException {
      long split = sketchAt(head, len);
      if ((split >>> 8) != len) {
        throw new IllegalArgumentException("a head goes on after its band keys");
      }
      int f = keptSpan.fileOf(entryAt);
      if (f < 0
          || entryLength < (split & 0xFF) * 8
          || entryAt < keptSpan.start(f) + SKETCH_HEADER
          || entryAt + entryLength > keptSpan.start(f) + keptSpan.size(f) - SKETCH_FOOTER) {
        throw new IllegalArgumentException(
            "an entry of "
                + entryLength
                + " bytes at "
                + entryAt
                + " is not inside the entries of one of "
                + kept.size()
                + " kept sketch files");
      }
      main.room(16).putInt(len).putInt(entryLength).putLong(entryAt);
      main.write(head, 0, len);
      documents++;
      live[f] += entryLength;
      bytes += 16 + len;
      if (bytesPerSecond > 0 && bytes - paced >= PACE_CHUNK) {
        keepPace();
      }
    }

    /** The bytes written to the own sketch file and the snapshot so far (the kept not counted). */
    long bytesWritten() {
      return bytes;
    }

    /** From any thread: write the rest at full speed (the store is closing). */
    void hurry() {
      hurry = true;
    }

    /** Forces what is written so far, then sleeps until the average rate is back at the limit. */
    private void keepPace() throws IOException {
      if (hurry) {
        return;
      }
      main.drain();
      sketches.drain();
      main.channel.force(false);
      sketches.channel.force(false);
      long written = bytes - paced;
      long due = pacedAt + written * 1_000_000_000L / bytesPerSecond;
      long wait = due - System.nanoTime();
      if (wait > 0 && !hurry) {
        try {
          Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while writing a snapshot");
        }
      }
      paced = bytes;
      pacedAt = Math.max(due, System.nanoTime() - 1_000_000_000L); // at most 1 s of credit
    }

    long documents() {
      return documents;
    }

    /** The file being written (its final name). */
    Path path() {
      return target;
    }

    /**
     * Finishes both files, forces them and renames them into place, the sketch file first (a
     * snapshot is there once its first file is); returns the bytes of the snapshot on disk: both
     * files and the kept sketch files.
     */
    long commit() throws IOException {
      sketches.finish(SKETCH_END_MAGIC);
      main.room(20).putInt(0).putLong(documents).putLong(entryBytes);
      for (long l : live) {
        main.room(8).putLong(l);
      }
      main.finish(END_MAGIC);
      Files2.move(
          sketches.tmp,
          sketchTarget,
          StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
      Files2.move(
          main.tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      Files2.syncDirectory(target.getParent());
      done = true;
      return Files.size(target) + Files.size(sketchTarget) + keptSpan.length();
    }

    @Override
    public void close() throws IOException {
      if (!done) {
        try {
          main.channel.close();
          sketches.channel.close();
        } finally {
          Files2.deleteIfExists(main.tmp);
          Files2.deleteIfExists(sketches.tmp);
        }
      }
    }
  }

  /** A file read through a direct buffer, with the CRC32C of everything read. */
  private static final class In implements Closeable {
    final Path file;
    final FileChannel channel;
    final ByteBuffer buf = ByteBuffer.allocateDirect(BUFFER).limit(0); // big-endian
    final CRC32C crc = new CRC32C();
    int checkedTo; // the checksum covers the file up to this position of buf
    boolean atEnd; // the channel has nothing more
    long offset;

    In(Path file) throws IOException {
      this.file = file;
      this.channel = FileChannel.open(file, StandardOpenOption.READ);
    }

    /**
     * Makes n bytes (at most {@link #BUFFER}) readable in buf; false if the file ends first. The
     * bytes read so far are added to the checksum before the buffer moves on.
     */
    boolean need(int n) throws IOException {
      while (buf.remaining() < n) {
        if (atEnd) {
          return false;
        }
        checksumRead();
        buf.compact();
        atEnd = channel.read(buf) < 0;
        buf.flip();
        checkedTo = 0;
      }
      return true;
    }

    /** Adds the bytes read from buf since the last call to the checksum. */
    void checksumRead() {
      int position = buf.position();
      int limit = buf.limit();
      crc.update(buf.limit(position).position(checkedTo));
      buf.limit(limit).position(position);
      checkedTo = position;
    }

    void readFully(byte[] b, int off, int len) throws IOException {
      for (int end = off + len; off < end; ) {
        if (!need(1)) {
          throw new EOFException();
        }
        int k = Math.min(end - off, buf.remaining());
        buf.get(b, off, k);
        off += k;
      }
      offset += len;
    }

    int readInt() throws IOException {
      if (!need(4)) {
        throw truncated();
      }
      offset += 4;
      return buf.getInt();
    }

    long readLong() throws IOException {
      if (!need(8)) {
        throw truncated();
      }
      offset += 8;
      return buf.getLong();
    }

    CorruptStoreException truncated() {
      return new CorruptStoreException(file, offset, "the file ends early (truncated snapshot)");
    }

    /** Checks the checksum and end magic that must come next, and that nothing follows them. */
    void checkFooter(long endMagic, String magicName) throws IOException {
      checksumRead();
      int computed = (int) crc.getValue();
      int stored = readInt();
      if (stored != computed) {
        throw new CorruptStoreException(
            file,
            offset - 4,
            String.format(
                Locale.ROOT,
                "checksum mismatch: the footer says %08x, the content gives %08x",
                stored,
                computed));
      }
      if (readLong() != endMagic) {
        throw new CorruptStoreException(file, offset - 8, "end magic " + magicName + " missing");
      }
      if (need(1)) {
        throw new CorruptStoreException(file, offset, "bytes after the end of the snapshot");
      }
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }

  /** Reads a snapshot, checking everything; see the class doc. */
  static final class Reader implements Closeable {
    private final Path file;
    private final In in;
    private final int version;
    private final boolean apart;
    private final @Nullable Path sketchFile;
    private @Nullable In sketches; // version 3, bodies reassembled
    private long sketchFileSize;
    private final List<Kept> kept = new ArrayList<>(); // version 4
    private final List<Path> sketchFiles = new ArrayList<>(); // the kept, then the own
    private SketchSpan span = new SketchSpan(new long[0]);
    private long[] liveSeen = new long[0];
    private long @Nullable [] live; // the footer's, once read
    private @Nullable FileChannel[] channels; // version 4: positioned reads of entries
    private final long lastSegment;
    private final long createdAt;
    private final List<CollectionEntry> collections = new ArrayList<>();
    private long documents;
    private long entryBytes;
    private byte[] body = new byte[1 << 12];
    private int length;
    private long entryOffset = -1;
    private int entryLength;
    private long entryAt;

    /** A reader that gives whole bodies, the sketch of a version 3 snapshot put back in place. */
    Reader(Path file) throws IOException {
      this(file, false);
    }

    /**
     * @param apart whether a version 3 snapshot's documents are given as their Head, with {@link
     *     #entryOffset()} and {@link #entryLength()} saying where their sketch is in {@link
     *     #sketchFile()} (whose bytes are then not read); older versions' always come whole
     */
    Reader(Path file, boolean apart) throws IOException {
      this.file = file;
      this.in = new In(file);
      try {
        long magic = in.readLong();
        if (magic != MAGIC) {
          throw new CorruptStoreException(
              file,
              0,
              String.format(
                  Locale.ROOT,
                  "not a neardup snapshot: magic is %016x, expected %016x (\"NDUPSNAP\")",
                  magic,
                  MAGIC));
        }
        version = in.readInt();
        if (version < OLDEST_VERSION || version > VERSION) {
          throw new CorruptStoreException(
              file,
              8,
              "snapshot format version "
                  + version
                  + " is not supported by this build (it reads versions "
                  + OLDEST_VERSION
                  + " to "
                  + VERSION
                  + ")");
        }
        this.apart = apart && version >= 3;
        lastSegment = in.readLong();
        createdAt = in.readLong();
        long expectedSegment = segmentOf(file);
        if (expectedSegment >= 0 && expectedSegment != lastSegment) {
          throw new CorruptStoreException(
              file,
              12,
              "header says last segment " + lastSegment + ", file name says " + expectedSegment);
        }
        int count = in.readInt();
        if (count < 0 || count > 1_000_000) {
          throw new CorruptStoreException(
              file, in.offset - 4, "collection count " + count + " is impossible");
        }
        for (int i = 0; i < count; i++) {
          collections.add(
              new CollectionEntry(
                  in.readInt(),
                  in.readLong(),
                  in.readLong(),
                  readString(),
                  readString(),
                  readString()));
        }
        if (version >= 4) {
          int keptCount = in.readInt();
          if (keptCount < 0 || keptCount > MAX_KEPT) {
            throw new CorruptStoreException(
                file, in.offset - 4, "kept sketch file count " + keptCount + " is impossible");
          }
          for (int i = 0; i < keptCount; i++) {
            kept.add(new Kept(in.readLong(), in.readLong()));
          }
        }
        sketchFile = version >= 3 ? file.resolveSibling(sketchFileName(lastSegment)) : null;
        if (sketchFile != null && version == 3) {
          openSketches(sketchFile);
          span = new SketchSpan(new long[] {Files.size(sketchFile)});
          sketchFiles.add(sketchFile);
          channels = new FileChannel[1]; // a compaction's whole(), read apart
        } else if (sketchFile != null) {
          long[] sizes = new long[kept.size() + 1];
          for (int i = 0; i < kept.size(); i++) {
            Kept k = kept.get(i);
            Path f = file.resolveSibling(sketchFileName(k.segment()));
            sizes[i] = checkSketchFile(f, k.segment(), k.size());
            sketchFiles.add(f);
          }
          sizes[kept.size()] = checkSketchFile(sketchFile, lastSegment, -1);
          sketchFiles.add(sketchFile);
          if (!apart) {
            for (int i = 0; i < sizes.length; i++) {
              checkSketchChecksum(sketchFiles.get(i), sizes[i]);
            }
          }
          span = new SketchSpan(sizes);
          liveSeen = new long[sizes.length];
          channels = new FileChannel[sizes.length];
        }
      } catch (IOException | RuntimeException e) {
        close();
        throw e;
      }
    }

    /**
     * Checks a version 4 snapshot's sketch file: there, its header naming {@code segment}, its size
     * ({@code size}, unless -1) and its end magic; returns its size.
     */
    private long checkSketchFile(Path f, long segment, long size) throws IOException {
      if (!Files.exists(f)) {
        throw new CorruptStoreException(
            file, "its sketch file " + f.getFileName() + " is missing (the snapshot lists it)");
      }
      try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
        long actual = ch.size();
        if (size >= 0 && actual != size) {
          throw new CorruptStoreException(
              f, Math.min(actual, size), "has " + actual + " bytes, the snapshot lists " + size);
        }
        if (actual < SKETCH_HEADER + SKETCH_FOOTER) {
          throw new CorruptStoreException(f, actual, "too short for a sketch file");
        }
        ByteBuffer head = ByteBuffer.allocate(SKETCH_HEADER);
        readAt(ch, head, 0);
        ByteBuffer end = ByteBuffer.allocate(8);
        readAt(ch, end, actual - 8);
        long magic = head.getLong(0);
        int v = head.getInt(8);
        long seg = head.getLong(12);
        if (magic != SKETCH_MAGIC || v != SKETCH_VERSION || seg != segment) {
          throw new CorruptStoreException(
              f,
              0,
              String.format(
                  Locale.ROOT,
                  "not the sketch file of snapshot %d: magic %016x, version %d, segment %d",
                  segment,
                  magic,
                  v,
                  seg));
        }
        if (end.getLong(0) != SKETCH_END_MAGIC) {
          throw new CorruptStoreException(
              f, actual - 8, "end magic \"NDUPSKND\" missing (truncated sketch file)");
        }
        return actual;
      }
    }

    /** Reads a whole sketch file of {@code size} bytes to check its checksum (read whole). */
    private static void checkSketchChecksum(Path f, long size) throws IOException {
      try (In s = new In(f)) {
        long left = size - SKETCH_FOOTER;
        while (left > 0) {
          int k = (int) Math.min(left, BUFFER);
          if (!s.need(k)) {
            throw s.truncated();
          }
          s.buf.position(s.buf.position() + k);
          s.offset += k;
          left -= k;
        }
        s.checkFooter(SKETCH_END_MAGIC, "\"NDUPSKND\"");
      }
    }

    private static void readAt(FileChannel ch, ByteBuffer b, long at) throws IOException {
      while (b.hasRemaining()) {
        int r = ch.read(b, at + b.position());
        if (r < 0) {
          throw new EOFException();
        }
      }
    }

    /** Checks the sketch file's header (and, read apart, its end magic), or opens it to stream. */
    private void openSketches(Path f) throws IOException {
      if (!Files.exists(f)) {
        throw new CorruptStoreException(
            file,
            "its sketch file " + f.getFileName() + " is missing (version 3 keeps sketches there)");
      }
      In s = new In(f);
      sketches = s;
      long magic = s.readLong();
      int v = s.readInt();
      long segment = s.readLong();
      if (magic != SKETCH_MAGIC || v != SKETCH_VERSION || segment != lastSegment) {
        throw new CorruptStoreException(
            f,
            0,
            String.format(
                Locale.ROOT,
                "not the sketch file of snapshot %d: magic %016x, version %d, segment %d"
                    + " (expected %016x, %d, %d)",
                lastSegment,
                magic,
                v,
                segment,
                SKETCH_MAGIC,
                SKETCH_VERSION,
                lastSegment));
      }
      if (apart) {
        sketchFileSize = s.channel.size();
        ByteBuffer end = ByteBuffer.allocate(8);
        long at = sketchFileSize - 8;
        while (end.hasRemaining() && at >= SKETCH_HEADER) {
          int r = s.channel.read(end, at + end.position());
          if (r < 0) {
            break;
          }
        }
        if (at < SKETCH_HEADER || end.flip().getLong() != SKETCH_END_MAGIC) {
          throw new CorruptStoreException(
              f, Math.max(0, at), "end magic \"NDUPSKND\" missing (truncated sketch file)");
        }
        s.close();
        sketches = null;
      }
    }

    long lastSegment() {
      return lastSegment;
    }

    long createdAt() {
      return createdAt;
    }

    List<CollectionEntry> collections() {
      return collections;
    }

    /** The own sketch file of a version 3 or 4 snapshot, or null for an older one. */
    @Nullable Path sketchFile() {
      return sketchFile;
    }

    /**
     * Every sketch file the snapshot's entries are in, in the order of the span {@link
     * #entryOffset()} places them in: the kept files, then the own (empty before version 3).
     */
    List<Path> sketchFiles() {
      return sketchFiles;
    }

    /** The footer's Live per file of {@link #sketchFiles()}, once {@link #next()} gave false. */
    long @Nullable [] live() {
      return live;
    }

    /** The kept sketch files the header lists (version 4; empty before). */
    List<Kept> kept() {
      return kept;
    }

    /** The span of {@link #sketchFiles()} (version 4; before, the own file's offsets). */
    SketchSpan span() {
      return span;
    }

    /**
     * The Live of the footer, per file of {@link #sketchFiles()}: read at its place without the
     * rest (a compaction weighs the files before it reads the documents), and checked against the
     * documents when the reader gets to the footer. Version 3: its one file, all live; older: none.
     */
    long[] footerLive() throws IOException {
      if (version < 3) {
        return new long[0];
      }
      int n = version == 3 ? 1 : kept.size() + 1;
      long size = in.channel.size();
      ByteBuffer b = ByteBuffer.allocate(8 * n);
      long at = size - 12 - 8L * n;
      if (at < 0) {
        throw in.truncated();
      }
      readAt(in.channel, b, at);
      long[] out = new long[n];
      for (int i = 0; i < n; i++) {
        out[i] = b.getLong(i * 8);
      }
      return out;
    }

    /**
     * Reads the next document; false after the last one, once the footer has checked out.
     *
     * @throws CorruptStoreException if a length is impossible, the file ends early, or the checksum
     *     or end magic is wrong
     */
    boolean next() throws IOException {
      int len = in.readInt();
      if (len == 0) {
        finish();
        return false;
      }
      if (len < 0 || len > LogFormat.MAX_BODY) {
        throw new CorruptStoreException(
            file,
            in.offset - 4,
            "document length " + len + " is outside [1, " + LogFormat.MAX_BODY + "]");
      }
      int entry = 0;
      if (version >= 3) {
        entry = in.readInt();
        if (entry < 0 || entry > LogFormat.MAX_BODY) {
          throw new CorruptStoreException(
              file,
              in.offset - 4,
              "sketch entry length " + entry + " is outside [0, " + LogFormat.MAX_BODY + "]");
        }
      }
      if (version >= 4) {
        entryAt = in.readLong();
        checkPlace(entryAt, entry);
      }
      int room = apart ? len : len + entry;
      if (body.length < room) {
        body = new byte[Math.max(room, body.length * 2)];
      }
      try {
        in.readFully(body, 0, len);
      } catch (EOFException e) {
        throw new CorruptStoreException(file, in.offset, "the file ends inside a document");
      }
      length = len;
      documents++;
      if (!LogFormat.isInsert(body[0])) {
        throw new CorruptStoreException(
            file, in.offset - len, "document record has type " + body[0]);
      }
      if (version >= 3) {
        joinSketch(len, entry);
      }
      return true;
    }

    /** For version 3: notes where the Entry is, or reads it and puts the sketch back in place. */
    private void joinSketch(int len, int entry) throws IOException {
      int keyCount;
      try {
        long split = sketchAt(body, len);
        if ((split >>> 8) != len) {
          throw new IllegalArgumentException("a head goes on after its band keys");
        }
        keyCount = (int) (split & 0xFF);
      } catch (IllegalArgumentException e) {
        throw new CorruptStoreException(
            file, in.offset - len, "a document's head does not decode: " + e.getMessage());
      }
      if (entry < keyCount * 8) {
        throw new CorruptStoreException(
            file,
            in.offset - len,
            "sketch entry of " + entry + " bytes cannot hold " + keyCount + " band keys");
      }
      if (version >= 4) {
        entryOffset = entryAt;
        entryLength = entry;
        if (!apart) {
          length = whole(body, len, entryAt, entry);
        }
        return;
      }
      if (apart) {
        entryOffset = SKETCH_HEADER + entryBytes;
        entryLength = entry;
        entryBytes += entry;
        return;
      }
      In s = sketches;
      assert s != null;
      try {
        for (int k = 0; k < keyCount; k++) {
          if (Long.reverseBytes(s.readLong()) != Bytes.getLong(body, len - (keyCount - k) * 8)) {
            throw new CorruptStoreException(
                s.file,
                s.offset - 8,
                "band key " + k + " differs from the snapshot's for document " + documents);
          }
        }
        s.readFully(body, len, entry - keyCount * 8);
      } catch (EOFException e) {
        throw new CorruptStoreException(s.file, s.offset, "the file ends inside an entry");
      }
      length = len + entry - keyCount * 8;
      entryBytes += entry;
    }

    /**
     * Version 4: checks that an entry lies inside one sketch file's entries and, in the own file,
     * right after the previous entry there, and counts it.
     */
    private void checkPlace(long at, int entry) throws CorruptStoreException {
      int f = span.fileOf(at);
      int own = span.files() - 1;
      boolean inside =
          f >= 0
              && at >= span.start(f) + SKETCH_HEADER
              && at + entry <= span.start(f) + span.size(f) - SKETCH_FOOTER
              && (f != own || at == span.start(own) + SKETCH_HEADER + entryBytes);
      if (!inside) {
        throw new CorruptStoreException(
            file,
            in.offset - 8,
            "a sketch entry of "
                + entry
                + " bytes at "
                + at
                + " is not in place in the "
                + span.length()
                + " bytes of its "
                + span.files()
                + " sketch files");
      }
      liveSeen[f] += entry;
      if (f == own) {
        entryBytes += entry;
      }
    }

    /**
     * Puts the sketch of the Entry at {@code at} (in the span of {@link #sketchFiles()}, version 4)
     * after the head {@code buf[0, len)}, checking its band keys against the head's; returns the
     * whole body's length. {@code buf} must have room for {@code len + entry} bytes.
     */
    int whole(byte[] buf, int len, long at, int entry) throws IOException {
      int keyCount = (int) (sketchAt(buf, len) & 0xFF);
      int f = span.fileOf(at);
      FileChannel[] chs = channels;
      if (f < 0 || chs == null) {
        throw new CorruptStoreException(file, "a sketch entry at " + at + " is in no sketch file");
      }
      FileChannel ch = chs[f];
      if (ch == null) {
        ch = FileChannel.open(sketchFiles.get(f), StandardOpenOption.READ);
        chs[f] = ch;
      }
      long from = at - span.start(f);
      ByteBuffer keys = ByteBuffer.allocate(keyCount * 8).order(java.nio.ByteOrder.LITTLE_ENDIAN);
      try {
        readAt(ch, keys, from);
        for (int k = 0; k < keyCount; k++) {
          if (keys.getLong(k * 8) != Bytes.getLong(buf, len - (keyCount - k) * 8)) {
            throw new CorruptStoreException(
                sketchFiles.get(f),
                from + k * 8,
                "band key " + k + " differs from the snapshot's for document " + documents);
          }
        }
        readAt(ch, ByteBuffer.wrap(buf, len, entry - keyCount * 8).slice(), from + keyCount * 8);
      } catch (EOFException e) {
        throw new CorruptStoreException(sketchFiles.get(f), from, "the file ends inside an entry");
      }
      return len + entry - keyCount * 8;
    }

    byte[] body() {
      return body;
    }

    int length() {
      return length;
    }

    /**
     * Where the current document's Entry starts in the sketch file, when read apart (a version 3
     * snapshot); -1 when its body is whole.
     */
    long entryOffset() {
      return apart ? entryOffset : -1;
    }

    /** The length of the current document's Entry, when read apart. */
    int entryLength() {
      return entryLength;
    }

    private void finish() throws IOException {
      long count = in.readLong();
      long entries = version >= 3 ? in.readLong() : 0;
      long[] l = new long[version >= 4 ? span.files() : 0];
      for (int i = 0; i < l.length; i++) {
        l[i] = in.readLong();
      }
      in.checkFooter(END_MAGIC, "\"NDUPSEND\"");
      if (count != documents) {
        throw new CorruptStoreException(
            file,
            in.offset - 12,
            "footer counts " + count + " documents, the file holds " + documents);
      }
      if (version < 3) {
        return;
      }
      if (entries != entryBytes) {
        throw new CorruptStoreException(
            file,
            in.offset - 20,
            "footer counts " + entries + " bytes of sketch entries, the documents " + entryBytes);
      }
      Path f = sketchFile;
      assert f != null;
      if (version >= 4) {
        if (!java.util.Arrays.equals(l, liveSeen)) {
          throw new CorruptStoreException(
              file,
              "footer counts live sketch bytes "
                  + java.util.Arrays.toString(l)
                  + " per file, the documents "
                  + java.util.Arrays.toString(liveSeen));
        }
        live = l;
        long expected = SKETCH_HEADER + entryBytes + SKETCH_FOOTER;
        long actual = span.size(span.files() - 1);
        if (actual != expected) {
          throw new CorruptStoreException(
              f,
              Math.min(actual, expected),
              "the sketch file has " + actual + " bytes, its snapshot's entries make " + expected);
        }
        return;
      }
      if (apart) {
        long expected = SKETCH_HEADER + entryBytes + SKETCH_FOOTER;
        if (sketchFileSize != expected) {
          throw new CorruptStoreException(
              f,
              Math.min(sketchFileSize, expected),
              "the sketch file has "
                  + sketchFileSize
                  + " bytes, its snapshot's entries make "
                  + expected);
        }
        return;
      }
      In s = sketches;
      assert s != null;
      s.checkFooter(SKETCH_END_MAGIC, "\"NDUPSKND\"");
    }

    private String readString() throws IOException {
      if (!in.need(2)) {
        throw in.truncated();
      }
      int n = Short.toUnsignedInt(in.buf.getShort());
      in.offset += 2;
      byte[] b = new byte[n];
      try {
        in.readFully(b, 0, n);
      } catch (EOFException e) {
        throw in.truncated();
      }
      return new String(b, StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
      try {
        in.close();
      } finally {
        In s = sketches;
        if (s != null) {
          s.close();
        }
        FileChannel[] chs = channels;
        if (chs != null) {
          for (FileChannel ch : chs) {
            if (ch != null) {
              ch.close();
            }
          }
        }
      }
    }
  }
}
