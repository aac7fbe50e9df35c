// SPDX-License-Identifier: Apache-2.0
package org.neardup.internal;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A flat array of 4-byte units ({@code int}s, or {@code long}s as two units) written once, in
 * order, to a file of its own, then read by index from any number of threads through memory maps:
 * per-document columns of a corpus too large for the heap cost no heap at all.
 *
 * <p>Write phase: {@link #appendInt}, {@link #appendLong}, {@link #appendInts} from one thread,
 * through a 1 MiB direct buffer. Read phase after {@link #finish}: absolute reads, safe from many
 * threads. The file is mapped in windows of 1 GiB that overlap by {@link #OVERLAP} bytes, so a bulk
 * read of up to that many bytes never straddles two maps, and arrays past 2 GiB are fine.
 *
 * <p>Cost: a read is a window lookup (the window array is a few references, always in cache) and
 * one load from the map; a page read for the first time is a page fault served from the page cache.
 * Pages read stay in the process's resident set until the maps are garbage collected, so a reader
 * of every entry adds the file's size to the RSS (but not to the heap). An array finished with
 * {@link #finish(boolean) finish(false)} maps nothing: it is read in order through {@link
 * #cursor()}, positional reads into a buffer of the reader's own, and its pages stay the kernel's
 * page cache, never the process's memory. The file is in the machine's byte order: it is a scratch
 * file, never a format read by another machine.
 */
public final class FileArray implements Closeable {
  /** Bits of the bytes of one window: 1 GiB. */
  private static final int WINDOW_BITS = 30;

  /** Bytes by which each window runs into the next: the longest bulk read. */
  public static final int OVERLAP = 1 << 12;

  private final Path path;
  private final FileChannel channel;
  private final ByteBuffer buffer =
      ByteBuffer.allocateDirect(1 << 20).order(ByteOrder.nativeOrder());
  private long bytes;
  private ByteBuffer[] maps = new ByteBuffer[0];
  private IntBuffer[] ints = new IntBuffer[0];
  private boolean finished;
  private final int windowBits;
  private final long windowMask;

  /** A new, empty array in a file that must not exist yet (it is deleted by {@link #close}). */
  public FileArray(Path path) throws IOException {
    this(path, WINDOW_BITS);
  }

  /** As {@link #FileArray(Path)} with windows of {@code 2^windowBits} bytes (tests: many maps). */
  FileArray(Path path, int windowBits) throws IOException {
    Checks.checkArgument(
        windowBits >= 3 && windowBits <= WINDOW_BITS,
        "windowBits must be in [3, 30], got %s",
        windowBits);
    this.windowBits = windowBits;
    this.windowMask = (1L << windowBits) - 1;
    this.path = path;
    this.channel =
        FileChannel.open(
            path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, StandardOpenOption.READ);
  }

  /** Appends one int (one unit). */
  public void appendInt(int v) throws IOException {
    room(4);
    buffer.putInt(v);
  }

  /** Appends one long (two units, read back by {@link #getLong} at its long index). */
  public void appendLong(long v) throws IOException {
    room(8);
    buffer.putLong(v);
  }

  /** Appends {@code src[off, off + len)}. */
  public void appendInts(int[] src, int off, int len) throws IOException {
    for (int k = 0; k < len; k++) {
      appendInt(src[off + k]);
    }
  }

  private void room(int n) throws IOException {
    Checks.checkState(!finished, "append after finish()");
    if (buffer.remaining() < n) {
      flush();
    }
    bytes += n;
  }

  private void flush() throws IOException {
    buffer.flip();
    while (buffer.hasRemaining()) {
      channel.write(buffer);
    }
    buffer.clear();
  }

  /** Bytes appended. */
  public long bytes() {
    return bytes;
  }

  /** Ends the write phase and maps the file for reading. */
  public void finish() throws IOException {
    finish(true);
  }

  /**
   * Ends the write phase; maps the file for {@link #getInt}, {@link #getLong} and {@link #getInts}
   * when {@code map}, otherwise leaves it to be read in order through {@link #cursor()} alone.
   */
  public void finish(boolean map) throws IOException {
    Checks.checkState(!finished, "finish() twice");
    flush();
    finished = true;
    if (!map) {
      return;
    }
    long window = 1L << windowBits;
    int windows = (int) Math.max(1, (bytes + window - 1) / window);
    maps = new ByteBuffer[windows];
    ints = new IntBuffer[windows];
    for (int w = 0; w < windows; w++) {
      long start = w * window;
      long len = Math.min(bytes - start, window + OVERLAP);
      maps[w] =
          channel
              .map(FileChannel.MapMode.READ_ONLY, start, Math.max(0, len))
              .order(ByteOrder.nativeOrder());
      ints[w] = maps[w].asIntBuffer();
    }
  }

  /** The int at unit {@code index}. */
  public int getInt(long index) {
    long pos = index << 2;
    return maps[(int) (pos >>> windowBits)].getInt((int) (pos & windowMask));
  }

  /** The long at long index {@code index} (unit {@code 2 * index}). */
  public long getLong(long index) {
    long pos = index << 3;
    return maps[(int) (pos >>> windowBits)].getLong((int) (pos & windowMask));
  }

  /**
   * Copies units {@code [index, index + len)} into {@code dst[off, off + len)}; {@code len * 4}
   * must be at most {@link #OVERLAP}.
   */
  public void getInts(long index, int[] dst, int off, int len) {
    assert len * 4 <= OVERLAP : len;
    long pos = index << 2;
    ints[(int) (pos >>> windowBits)].get((int) ((pos & windowMask) >>> 2), dst, off, len);
  }

  /**
   * A reader of the array in order from unit 0, through a heap buffer of its own (positional reads
   * of 1 MiB): nothing is mapped. One thread per cursor; any number of cursors at once.
   */
  public Cursor cursor() {
    Checks.checkState(finished, "cursor() before finish()");
    return new Cursor();
  }

  /** Reads the units of a finished array in order; see {@link #cursor()}. */
  public final class Cursor {
    private final ByteBuffer in = ByteBuffer.allocate(1 << 20).order(ByteOrder.nativeOrder());

    /** File position of the next byte the buffer will be filled from. */
    private long next;

    private Cursor() {
      in.limit(0);
    }

    /** The next int (one unit). */
    public int nextInt() throws IOException {
      fill(4);
      return in.getInt();
    }

    /** The next long (two units). */
    public long nextLong() throws IOException {
      fill(8);
      return in.getLong();
    }

    /** Copies the next {@code len} units into {@code dst[off, off + len)}. */
    public void nextInts(int[] dst, int off, int len) throws IOException {
      for (int k = 0; k < len; k++) {
        fill(4);
        dst[off + k] = in.getInt();
      }
    }

    /** Passes over the next {@code units} units without copying them. */
    public void skip(long units) throws IOException {
      long n = units << 2;
      int here = in.remaining();
      if (n <= here) {
        in.position(in.position() + (int) n);
        return;
      }
      next += n - here;
      in.limit(0);
    }

    private void fill(int n) throws IOException {
      if (in.remaining() >= n) {
        return;
      }
      in.compact();
      while (in.position() < n) {
        int got = channel.read(in, next);
        if (got < 0) {
          throw new java.io.EOFException(path + " ends at byte " + next);
        }
        next += got;
      }
      in.flip();
    }
  }

  /** Deletes the file; reads after this fail. */
  @Override
  public void close() {
    maps = new ByteBuffer[0];
    ints = new IntBuffer[0];
    try {
      channel.close();
      Files.deleteIfExists(path);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + path, e);
    }
  }
}
