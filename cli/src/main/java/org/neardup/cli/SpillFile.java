// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Byte records appended to a temporary file and then read back by ordinal, so that per-document
 * data (sketches, ids, records) lives on disk rather than in the heap: 8 bytes of heap per record.
 *
 * <p>Write phase: {@link #append} (one thread at a time). Read phase after {@link #finish}: {@link
 * #read} from any number of threads, served by memory maps of 1 GiB windows that overlap by {@link
 * #MAX_RECORD} bytes, so a record never straddles two maps.
 */
final class SpillFile implements Closeable {
  static final int MAX_RECORD = 1 << 26;
  private static final long WINDOW = 1L << 30;

  private final Path path;
  private final OutputStream out;
  private long[] offsets = new long[1024];
  private int count;
  private long size;
  private final List<MappedByteBuffer> maps = new ArrayList<>();
  private FileChannel channel;

  SpillFile(Path path) throws IOException {
    this.path = path;
    this.out =
        new BufferedOutputStream(
            Files.newOutputStream(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
            1 << 16);
  }

  /** Appends a record; returns its ordinal. */
  int append(byte[] data, int off, int len) throws IOException {
    if (len > MAX_RECORD) {
      throw new IOException("record of " + len + " bytes exceeds " + MAX_RECORD);
    }
    if (count + 1 >= offsets.length) {
      offsets = Arrays.copyOf(offsets, offsets.length * 2);
    }
    out.write(data, off, len);
    offsets[count] = size;
    size += len;
    offsets[count + 1] = size;
    return count++;
  }

  /**
   * Puts an empty record at ordinal {@code count()}, keeping ordinals in step with another file.
   */
  int appendEmpty() throws IOException {
    return append(new byte[0], 0, 0);
  }

  int count() {
    return count;
  }

  long size() {
    return size;
  }

  /** Ends the write phase and maps the file for reading. */
  void finish() throws IOException {
    out.close();
    channel = FileChannel.open(path, StandardOpenOption.READ);
    for (long start = 0; start < size || start == 0; start += WINDOW) {
      long len = Math.min(size - start, WINDOW + MAX_RECORD);
      maps.add(channel.map(FileChannel.MapMode.READ_ONLY, start, Math.max(0, len)));
      if (size == 0) {
        break;
      }
    }
  }

  int length(int ordinal) {
    return (int) (offsets[ordinal + 1] - offsets[ordinal]);
  }

  /**
   * Copies record {@code ordinal} into {@code dst} (which must be large enough); returns its
   * length.
   */
  int read(int ordinal, byte[] dst) {
    long start = offsets[ordinal];
    int len = (int) (offsets[ordinal + 1] - start);
    MappedByteBuffer map = maps.get((int) (start / WINDOW));
    map.get((int) (start % WINDOW), dst, 0, len); // absolute: safe from many threads
    return len;
  }

  /** A copy of record {@code ordinal}. */
  byte[] read(int ordinal) {
    byte[] b = new byte[length(ordinal)];
    read(ordinal, b);
    return b;
  }

  long ramBytesUsed() {
    return offsets.length * 8L;
  }

  @Override
  public void close() throws IOException {
    try {
      out.close();
    } finally {
      maps.clear();
      if (channel != null) {
        channel.close();
      }
      Files.deleteIfExists(path);
    }
  }
}
