// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.neardup.internal.FileArray;
import org.neardup.text.TermHasher;

/**
 * The records {@code neardup dedup} copies to unique.jsonl and duplicates.jsonl, kept per document
 * in input order from the read phase to the write phase. A JSONL line of a regular, uncompressed
 * input file is read again from that file when the output is written: only its place (input,
 * offset, length) and a hash of its bytes are kept, 24 bytes per document. Any other record (gzip,
 * standard input, a pipe, JSON arrays, text lines and files, whose records are made) is copied to a
 * spill file, as every record was before.
 *
 * <p>Why: at 1M realistic documents the spill was 618 MB written and read back (~6 GB at 10M), and
 * its writes were most of the main thread's system time in the read phase; the input file is
 * already on disk, usually still in the page cache.
 *
 * <p>A record read again must hash as it did when it was read: an input changed while the run lasts
 * fails the run (no output replaced) instead of writing other bytes as a document's record.
 *
 * <p>Write phase: {@link #add} and {@link #addNone} from one thread, one call per document in
 * ordinal order. After {@link #finish}: {@link #sequential()} reads them back in ordinal order.
 */
final class InputRecords implements Closeable {
  /** The first word of a document whose record is in the spill file (its ordinal there next). */
  private static final long SPILLED = -1;

  /** The first word of a document without a record (excluded from the output). */
  private static final long NONE = -2;

  /** Per document, three longs: offset (or SPILLED, NONE), input << 32 | length, hash. */
  private final FileArray places;

  private final SpillFile spill;
  private final List<Path> files = new ArrayList<>();
  private @Nullable Path lastFile;
  private int lastIndex;
  private int count;
  private int reread;

  InputRecords(Path work) throws IOException {
    this.places = new FileArray(work.resolve("record-places"));
    // Read once, in order, when the output is written: never mapped (see SpillFile).
    this.spill = new SpillFile(work.resolve("records"), 0);
  }

  /**
   * Whether {@code record}, a document's record made of {@code raw}, is read again from its input
   * rather than spilled: it is the raw line itself, and the line has a place in a file.
   */
  static boolean rereadable(DocumentSource.RawDocument raw, byte[] record) {
    return raw.file() != null && raw.offset() >= 0 && record == raw.bytes();
  }

  /**
   * The hash {@link #add} keeps of a record read again (0 for one spilled): computed on the thread
   * that analyses the document, so the main thread only stores it.
   */
  static long hash(DocumentSource.RawDocument raw, byte[] record) {
    return rereadable(raw, record) ? TermHasher.xxh64(record, 0, record.length) : 0;
  }

  /** Keeps the next document's record; {@code hash} from {@link #hash}. */
  void add(DocumentSource.RawDocument raw, byte[] record, long hash) throws IOException {
    if (rereadable(raw, record)) {
      places.appendLong(raw.offset());
      places.appendLong((long) fileIndex(raw.file()) << 32 | record.length);
      places.appendLong(hash);
      reread++;
    } else {
      places.appendLong(SPILLED);
      places.appendLong(spill.append(record, 0, record.length));
      places.appendLong(0);
    }
    count++;
  }

  /** Marks the next document as having no record (it is written to neither file). */
  void addNone() throws IOException {
    places.appendLong(NONE);
    places.appendLong(0);
    places.appendLong(0);
    count++;
  }

  private int fileIndex(Path file) {
    if (file != lastFile) {
      int i = files.indexOf(file);
      if (i < 0) {
        i = files.size();
        files.add(file);
      }
      lastFile = file;
      lastIndex = i;
    }
    return lastIndex;
  }

  /** Documents whose records are read again from their input (the others are spilled). */
  int reread() {
    return reread;
  }

  /** Ends the write phase. */
  void finish() throws IOException {
    places.finish(false);
    spill.finish();
  }

  /** A reader of the records in ordinal order; one thread per reader. */
  Sequential sequential() throws IOException {
    return new Sequential();
  }

  /** Reads records in ordinal order; see {@link #sequential()}. */
  final class Sequential implements Closeable {
    private final FileArray.Cursor cursor = places.cursor();
    private final SpillFile.Sequential spilled;
    private int next;
    private int openIndex = -1;
    private @Nullable FileChannel channel;
    private @Nullable ChannelWindow window;

    private Sequential() throws IOException {
      spilled = spill.sequential();
    }

    /**
     * Record {@code ordinal}, a fresh array, which must be after the last one read and have a
     * record: {@link #writeTo}'s bytes.
     *
     * @throws IOException when the input no longer holds the bytes the record was read from
     */
    byte[] read(int ordinal) throws IOException {
      java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
      writeTo(ordinal, b);
      return b.toByteArray();
    }

    /**
     * Writes record {@code ordinal}, which must be after the last one read and have a record, to
     * {@code out}. A line read again is hashed and written from the window it was read into, where
     * it fits: no array per record (at 1M realistic documents, 618 MB of arrays allocated, copied
     * and dropped in the write phase).
     *
     * @throws IOException when the input no longer holds the bytes the record was read from
     */
    void writeTo(int ordinal, java.io.OutputStream out) throws IOException {
      if (ordinal < next || ordinal >= count) {
        throw new IllegalArgumentException(
            "ordinal must be in [" + next + ", " + count + "), got " + ordinal);
      }
      cursor.skip(6L * (ordinal - next));
      next = ordinal + 1;
      long offset = cursor.nextLong();
      long second = cursor.nextLong();
      long hash = cursor.nextLong();
      if (offset == NONE) {
        throw new IllegalArgumentException("document #" + (ordinal + 1) + " has no record");
      }
      if (offset == SPILLED) {
        out.write(spilled.read((int) second));
        return;
      }
      int index = (int) (second >>> 32);
      int length = (int) second;
      ChannelWindow w = window(index);
      int at = w.hold(offset, length);
      if (at >= 0) {
        if (TermHasher.xxh64(w.array(), at, length) != hash) {
          throw changed(index, ordinal, offset, length);
        }
        out.write(w.array(), at, length);
        return;
      }
      // Longer than the window, or the input ends before the line does.
      byte[] b = new byte[length];
      int got = w.read(offset, b, length);
      if (got < length || TermHasher.xxh64(b, 0, length) != hash) {
        throw changed(index, ordinal, offset, length);
      }
      out.write(b);
    }

    private IOException changed(int index, int ordinal, long offset, int length) {
      return new IOException(
          files.get(index)
              + " changed while neardup dedup was running: document #"
              + (ordinal + 1)
              + " (bytes "
              + offset
              + " to "
              + (offset + length)
              + ") is no longer the line that was read");
    }

    /** The window on input {@code index}; the input before it is closed (inputs come in order). */
    private ChannelWindow window(int index) throws IOException {
      if (index != openIndex) {
        close();
        channel = FileChannel.open(files.get(index), StandardOpenOption.READ);
        window = new ChannelWindow(channel, 1 << 20);
        openIndex = index;
      }
      return window;
    }

    @Override
    public void close() throws IOException {
      FileChannel c = channel;
      channel = null;
      window = null;
      openIndex = -1;
      if (c != null) {
        c.close();
      }
    }
  }

  @Override
  public void close() throws IOException {
    try (SpillFile s = spill) {
      places.close();
    }
  }
}
