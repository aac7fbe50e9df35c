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
 * of every entry adds the file's size to the RSS (but not to the heap). The file is in the
 * machine's byte order: it is a scratch file, never a format read by another machine.
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
    Checks.checkState(!finished, "finish() twice");
    flush();
    finished = true;
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
