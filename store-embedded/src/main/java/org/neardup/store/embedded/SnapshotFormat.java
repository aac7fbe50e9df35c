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
import org.neardup.store.CorruptStoreException;

/**
 * The snapshot's file format: every live document of every collection as of the end of one log
 * segment.
 *
 * <pre>
 * Snapshot    --> Header, CollectionCount, Collection^CollectionCount, Document*, End, Footer
 * Header      --> Magic, Version, LastSegment, CreatedAt
 * Magic       --> the 8 bytes "NDUPSNAP"
 * Version     --> int32: 2 (this build also reads 1)
 * LastSegment --> int64: the snapshot holds the effect of log segments up to this one
 * CreatedAt   --> int64: epoch milliseconds
 * CollectionCount --> int32
 * Collection  --> Number (int32), NextDocId (int64), Documents (int64), Name, Settings, AnalyzerId
 * Documents   --> about how many documents follow for it (to size memory before loading)
 * Name, Settings, AnalyzerId --> uint16 length, UTF-8 bytes
 * Document    --> Length (int32, in [1, 64 MiB]), Body: an Insert body of {@link LogFormat}
 *                 without Joined (JoinedCount 0), or an InsertV1 body, whose Cluster is the
 *                 representative when the snapshot was written (version 1: InsertV1 only)
 * End         --> int32: 0
 * Footer      --> DocumentCount (int64), Checksum (int32), EndMagic
 * Checksum    --> CRC32C of every byte of the file before it
 * EndMagic    --> the 8 bytes "NDUPSEND"
 * </pre>
 *
 * Documents of one collection appear in increasing DocId order, which is their insertion order, so
 * restoring them in file order rebuilds every cluster with its earliest member as representative. A
 * snapshot is written to a {@code .tmp} file, forced, and renamed into place; a snapshot that fails
 * any check is refused with a {@link CorruptStoreException}, never loaded in part.
 */
final class SnapshotFormat {
  static final long MAGIC = 0x4E44_5550_534E_4150L; // "NDUPSNAP"
  static final long END_MAGIC = 0x4E44_5550_5345_4E44L; // "NDUPSEND"
  static final int VERSION = 2;
  static final int OLDEST_VERSION = 1;

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

  private SnapshotFormat() {}

  static String fileName(long lastSegment) {
    return String.format(Locale.ROOT, "%s%020d%s", PREFIX, lastSegment, SUFFIX);
  }

  /** The last segment of a snapshot file name, or -1 if it is not one. */
  static long segmentOf(Path file) {
    return LogFormat.numberOf(file.getFileName().toString(), PREFIX, SUFFIX);
  }

  /** A collection as a snapshot header lists it. */
  record CollectionEntry(
      int number,
      long nextDocId,
      long documents,
      String name,
      String settings,
      String analyzerId) {}

  /** Writes a snapshot to {@code <name>.tmp} and moves it into place on {@link #commit}. */
  static final class Writer implements Closeable {
    private final Path tmp;
    private final Path target;
    private final FileChannel channel;
    private final ByteBuffer buf = ByteBuffer.allocateDirect(BUFFER); // big-endian
    private final CRC32C crc = new CRC32C();
    private final long bytesPerSecond;
    private volatile boolean hurry;
    private long documents;
    private long bytes; // of documents written so far
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
      this.target = dir.resolve(fileName(lastSegment));
      this.tmp = dir.resolve(fileName(lastSegment) + ".tmp");
      this.bytesPerSecond = bytesPerSecond;
      this.channel =
          Files2.open(
              tmp,
              StandardOpenOption.CREATE,
              StandardOpenOption.TRUNCATE_EXISTING,
              StandardOpenOption.WRITE);
      this.pacedAt = System.nanoTime();
      try {
        room(32).putLong(MAGIC).putInt(VERSION).putLong(lastSegment).putLong(createdAt);
        buf.putInt(collections.size());
        for (CollectionEntry c : collections) {
          room(20).putInt(c.number()).putLong(c.nextDocId()).putLong(c.documents());
          writeString(c.name());
          writeString(c.settings());
          writeString(c.analyzerId());
        }
      } catch (IOException | RuntimeException e) {
        close();
        throw e;
      }
    }

    private void writeString(String s) throws IOException {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      room(2).putShort((short) b.length);
      write(b, 0, b.length);
    }

    /** The buffer, with at least n bytes free (n at most {@link #BUFFER}). */
    private ByteBuffer room(int n) throws IOException {
      if (buf.remaining() < n) {
        drain();
      }
      return buf;
    }

    private void write(byte[] b, int off, int len) throws IOException {
      while (len > 0) {
        int k = Math.min(len, room(1).remaining());
        buf.put(b, off, k);
        off += k;
        len -= k;
      }
    }

    /** Adds the buffered bytes to the checksum and writes them to the file. */
    private void drain() throws IOException {
      buf.flip();
      crc.update(buf);
      buf.rewind();
      while (buf.hasRemaining()) {
        channel.write(buf);
      }
      buf.clear();
    }

    /** Appends one insert body (an Insert without Joined, or an InsertV1). */
    void document(byte[] body, int off, int len) throws IOException {
      assert off != 0 || LogFormat.joinedCount(body, len) == 0 : "a snapshot keeps no Joined";
      room(4).putInt(len);
      write(body, off, len);
      documents++;
      bytes += 4 + len;
      if (bytesPerSecond > 0 && bytes - paced >= PACE_CHUNK) {
        keepPace();
      }
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
      drain();
      channel.force(false);
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

    /** Finishes the file, forces it and renames it into place; returns its size. */
    long commit() throws IOException {
      room(12).putInt(0).putLong(documents);
      drain();
      room(12).putInt((int) crc.getValue()).putLong(END_MAGIC);
      drain();
      channel.force(true);
      channel.close();
      Files2.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      Files2.syncDirectory(target.getParent());
      done = true;
      return Files.size(target);
    }

    @Override
    public void close() throws IOException {
      if (!done) {
        channel.close();
        Files2.deleteIfExists(tmp);
      }
    }
  }

  /** Reads a snapshot, checking everything; see the class doc. */
  static final class Reader implements Closeable {
    private final Path file;
    private final FileChannel channel;
    private final ByteBuffer buf = ByteBuffer.allocateDirect(BUFFER).limit(0); // big-endian
    private final CRC32C crc = new CRC32C();
    private int checkedTo; // the checksum covers the file up to this position of buf
    private boolean atEnd; // the channel has nothing more
    private final long lastSegment;
    private final long createdAt;
    private final List<CollectionEntry> collections = new ArrayList<>();
    private long offset;
    private long documents;
    private byte[] body = new byte[1 << 12];
    private int length;

    Reader(Path file) throws IOException {
      this.file = file;
      this.channel = FileChannel.open(file, StandardOpenOption.READ);
      try {
        long magic = readLong();
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
        int version = readInt();
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
        lastSegment = readLong();
        createdAt = readLong();
        long expectedSegment = segmentOf(file);
        if (expectedSegment >= 0 && expectedSegment != lastSegment) {
          throw new CorruptStoreException(
              file,
              12,
              "header says last segment " + lastSegment + ", file name says " + expectedSegment);
        }
        int count = readInt();
        if (count < 0 || count > 1_000_000) {
          throw new CorruptStoreException(
              file, offset - 4, "collection count " + count + " is impossible");
        }
        for (int i = 0; i < count; i++) {
          collections.add(
              new CollectionEntry(
                  readInt(), readLong(), readLong(), readString(), readString(), readString()));
        }
      } catch (IOException | RuntimeException e) {
        channel.close();
        throw e;
      }
    }

    /**
     * Makes n bytes (at most {@link #BUFFER}) readable in buf; false if the file ends first. The
     * bytes read so far are added to the checksum before the buffer moves on.
     */
    private boolean need(int n) throws IOException {
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
    private void checksumRead() {
      int position = buf.position();
      int limit = buf.limit();
      crc.update(buf.limit(position).position(checkedTo));
      buf.limit(limit).position(position);
      checkedTo = position;
    }

    private void readFully(byte[] b, int len) throws IOException {
      for (int off = 0; off < len; ) {
        if (!need(1)) {
          throw new EOFException();
        }
        int k = Math.min(len - off, buf.remaining());
        buf.get(b, off, k);
        off += k;
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

    /**
     * Reads the next document; false after the last one, once the footer has checked out.
     *
     * @throws CorruptStoreException if a length is impossible, the file ends early, or the checksum
     *     or end magic is wrong
     */
    boolean next() throws IOException {
      int len = readInt();
      if (len == 0) {
        finish();
        return false;
      }
      if (len < 0 || len > LogFormat.MAX_BODY) {
        throw new CorruptStoreException(
            file,
            offset - 4,
            "document length " + len + " is outside [1, " + LogFormat.MAX_BODY + "]");
      }
      if (body.length < len) {
        body = new byte[Math.max(len, body.length * 2)];
      }
      try {
        readFully(body, len);
      } catch (EOFException e) {
        throw new CorruptStoreException(file, offset, "the file ends inside a document");
      }
      offset += len;
      length = len;
      documents++;
      if (!LogFormat.isInsert(body[0])) {
        throw new CorruptStoreException(file, offset - len, "document record has type " + body[0]);
      }
      return true;
    }

    byte[] body() {
      return body;
    }

    int length() {
      return length;
    }

    private void finish() throws IOException {
      long count = readLong();
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
      if (count != documents) {
        throw new CorruptStoreException(
            file,
            offset - 12,
            "footer counts " + count + " documents, the file holds " + documents);
      }
      if (readLong() != END_MAGIC) {
        throw new CorruptStoreException(file, offset - 8, "end magic \"NDUPSEND\" missing");
      }
      if (need(1)) {
        throw new CorruptStoreException(file, offset, "bytes after the end of the snapshot");
      }
    }

    private int readInt() throws IOException {
      if (!need(4)) {
        throw truncated();
      }
      offset += 4;
      return buf.getInt();
    }

    private long readLong() throws IOException {
      if (!need(8)) {
        throw truncated();
      }
      offset += 8;
      return buf.getLong();
    }

    private String readString() throws IOException {
      if (!need(2)) {
        throw truncated();
      }
      int n = Short.toUnsignedInt(buf.getShort());
      offset += 2;
      byte[] b = new byte[n];
      try {
        readFully(b, n);
      } catch (EOFException e) {
        throw truncated();
      }
      offset += n;
      return new String(b, StandardCharsets.UTF_8);
    }

    private CorruptStoreException truncated() {
      return new CorruptStoreException(file, offset, "the file ends early (truncated snapshot)");
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }
}
