// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.neardup.internal.FileArray;

/**
 * Byte records appended to a temporary file and then read back by ordinal, so that per-document
 * data (sketches, ids, records) lives on disk rather than in the heap. The records' offsets (8
 * bytes each) go to a file of their own, read through a memory map ({@link FileArray}): no heap per
 * record, so the three spill files of 10M documents do not hold 240 MB of the heap.
 *
 * <p>Write phase: {@link #append} (one thread at a time). Read phase after {@link #finish}: {@link
 * #read} from any number of threads, served by memory maps of 1 GiB windows that overlap by {@link
 * #MAX_RECORD} bytes, so a record never straddles two maps, when the file is at most the size it
 * may map; otherwise by positional reads (one system call each, safe from any number of threads).
 * For a file read once in order, {@link #sequential()} reads through a heap buffer and maps
 * nothing.
 *
 * <p>Why both: every page of a map that a reader touches stays in the process's resident set until
 * the map goes, which Java cannot do before the map is garbage collected. Reading the 620 MB of
 * records of 1M documents through a map added them all to the peak RSS of {@code neardup dedup};
 * read sequentially they cost one 1 MiB buffer, and the kernel's page cache (not counted as the
 * process's memory) keeps what it wants.
 */
final class SpillFile implements Closeable {
  static final int MAX_RECORD = 1 << 26;
  private static final long WINDOW = 1L << 30;

  private final Path path;
  private final OutputStream out;

  /** offsets[o] is where record o starts; offsets[count] == size. */
  private final FileArray offsets;

  private int count;
  private long size;
  private final List<MappedByteBuffer> maps = new ArrayList<>();
  private FileChannel channel;

  private final long mapUpTo;
  private boolean mapped;

  /**
   * When the file is mapped and below 2 GiB: offsets[o] as ints in the heap, read instead of the
   * offsets' file. Null otherwise.
   */
  private int @Nullable [] heapOffsets;

  /** A spill file read by ordinal ({@link #read}) after {@link #finish}, through memory maps. */
  SpillFile(Path path) throws IOException {
    this(path, Long.MAX_VALUE);
  }

  /**
   * A spill file mapped for reading only when it holds at most {@code mapUpTo} bytes: 0 for one
   * read in order ({@link #sequential()}) or whose pages must not count as the process's memory.
   */
  SpillFile(Path path, long mapUpTo) throws IOException {
    this.path = path;
    this.mapUpTo = mapUpTo;
    this.out =
        new BufferedOutputStream(
            Files.newOutputStream(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
            1 << 16);
    this.offsets = new FileArray(path.resolveSibling(path.getFileName() + ".offsets"));
    offsets.appendLong(0);
  }

  /** Appends a record; returns its ordinal. */
  int append(byte[] data, int off, int len) throws IOException {
    if (len > MAX_RECORD) {
      throw new IOException("record of " + len + " bytes exceeds " + MAX_RECORD);
    }
    out.write(data, off, len);
    size += len;
    offsets.appendLong(size);
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

  /** Ends the write phase and maps the file for reading when it is small enough. */
  void finish() throws IOException {
    out.close();
    offsets.finish();
    channel = FileChannel.open(path, StandardOpenOption.READ);
    mapped = size <= mapUpTo;
    if (!mapped) {
      return;
    }
    if (mapUpTo < Long.MAX_VALUE && size <= Integer.MAX_VALUE) {
      // A file mapped within a bound (the sketches, up to half the heap) is read at random by
      // ordinal, 3.5M times in the pairs phase at 1M realistic documents: the two offsets of each
      // read, taken from the offsets' map, were 10% of the band threads' JFR samples. In the heap
      // they cost 4 bytes per record, under 1% of a heap twice the size of the file.
      heapOffsets = new int[count + 1];
      FileArray.Cursor c = offsets.cursor();
      for (int o = 0; o <= count; o++) {
        heapOffsets[o] = (int) c.nextLong();
      }
    }
    for (long start = 0; start < size || start == 0; start += WINDOW) {
      long len = Math.min(size - start, WINDOW + MAX_RECORD);
      maps.add(channel.map(FileChannel.MapMode.READ_ONLY, start, Math.max(0, len)));
      if (size == 0) {
        break;
      }
    }
  }

  /** Where record {@code ordinal} starts ({@code count()} for the end of the last). */
  private long start(int ordinal) {
    int[] h = heapOffsets;
    return h != null ? h[ordinal] : offsets.getLong(ordinal);
  }

  int length(int ordinal) {
    return (int) (start(ordinal + 1) - start(ordinal));
  }

  /**
   * Copies record {@code ordinal} into {@code dst} (which must be large enough); returns its
   * length.
   */
  int read(int ordinal, byte[] dst) {
    long start = start(ordinal);
    int len = (int) (start(ordinal + 1) - start);
    copy(ordinal, start, len, dst);
    return len;
  }

  private void copy(int ordinal, long start, int len, byte[] dst) {
    if (!mapped) {
      ByteBuffer b = ByteBuffer.wrap(dst, 0, len);
      try {
        while (b.hasRemaining()) {
          if (channel.read(b, start + b.position()) < 0) {
            throw new IOException(path + " ends before record " + ordinal);
          }
        }
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      return;
    }
    MappedByteBuffer map = maps.get((int) (start / WINDOW));
    map.get((int) (start % WINDOW), dst, 0, len); // absolute: safe from many threads
  }

  /**
   * Reads records by ordinal, after {@link #finish}, into a buffer of its own that grows as needed:
   * two offsets read per record, where {@link #length} and then {@link #read(int, byte[])} read
   * four. At 1M realistic documents the pairs phase reads 3.4M sketches; the offset reads were 6%
   * of its band threads' JFR samples before and 10% after (what they wait for is the first touch of
   * each offset in the map, which the second read of the same offset did not add). One thread per
   * reader.
   */
  final class Reader {
    private byte[] bytes = new byte[64];
    private int touched;

    /** Reads record {@code ordinal} into {@link #bytes()} from 0; returns its length. */
    int read(int ordinal) {
      long start = start(ordinal);
      int len = (int) (start(ordinal + 1) - start);
      if (bytes.length < len) {
        bytes = new byte[Math.max(len, bytes.length * 2)];
      }
      copy(ordinal, start, len, bytes);
      return len;
    }

    /**
     * Loads the first byte and the middle byte of record {@code ordinal} from the map, so that a
     * {@link #decode} soon after finds them in the cache (the hardware prefetcher follows on from
     * them within the page); nothing when the file is not mapped.
     */
    void prefetch(int ordinal) {
      if (!mapped) {
        return;
      }
      long start = start(ordinal);
      long end = start(ordinal + 1);
      if (end == start) {
        return; // an empty record may start at the end of the map
      }
      long middle = (start + end) >>> 1;
      MappedByteBuffer map = maps.get((int) (start / WINDOW));
      // Kept in a field, so that the compiler cannot drop the loads.
      touched +=
          map.get((int) (start % WINDOW)) + map.get((int) (middle - start / WINDOW * WINDOW));
    }

    /**
     * {@link #prefetch(int)} for records {@code ordinals[from, to)}: the offsets of all of them
     * first, then their bytes. Each record's loads start from its offset, so in one loop per record
     * its byte loads waited for that offset's miss (a random place in an int per record, 4 MB at 1M
     * documents); in two loops every load of a loop is independent of the others, and their misses
     * overlap.
     */
    void prefetch(int[] ordinals, int from, int to) {
      int[] h = heapOffsets;
      if (!mapped || h == null) {
        for (int x = from; x < to; x++) {
          prefetch(ordinals[x]);
        }
        return;
      }
      int sum = 0;
      for (int x = from; x < to; x++) {
        sum += h[ordinals[x]];
      }
      touched += sum;
      for (int x = from; x < to; x++) {
        prefetch(ordinals[x]);
      }
    }

    /** The buffer the last record read is in. */
    byte[] bytes() {
      return bytes;
    }

    /**
     * Record {@code ordinal} as {@code decoder} makes it of the record's bytes where they are: in
     * the file's map when it is mapped (no copy of them into the heap first), else in this reader's
     * buffer after a read.
     */
    <T> T decode(int ordinal, Decoder<T> decoder) {
      if (!mapped) {
        int len = read(ordinal);
        return decoder.decode(ByteBuffer.wrap(bytes), 0, len);
      }
      long start = start(ordinal);
      int len = (int) (start(ordinal + 1) - start);
      return decoder.decode(maps.get((int) (start / WINDOW)), (int) (start % WINDOW), len);
    }
  }

  /** Makes a value of a record's bytes, read at absolute positions of a buffer it must not keep. */
  @FunctionalInterface
  interface Decoder<T> {
    T decode(ByteBuffer in, int off, int len);
  }

  /** A new {@link Reader}. */
  Reader reader() {
    return new Reader();
  }

  /** A copy of record {@code ordinal}. */
  byte[] read(int ordinal) {
    byte[] b = new byte[length(ordinal)];
    read(ordinal, b);
    return b;
  }

  /**
   * A reader of the records in ordinal order, after {@link #finish}, through a heap buffer of its
   * own: the file's pages are not mapped into the process. One thread per reader.
   */
  Sequential sequential() throws IOException {
    if (channel == null) {
      throw new IllegalStateException("finish() the spill file before reading it");
    }
    Sequential s = new Sequential();
    s.nextStart = s.starts.nextLong();
    return s;
  }

  /**
   * Reads records in ordinal order; see {@link #sequential()}. The offsets are read in order too (a
   * {@link FileArray.Cursor}): neither file's pages join the process's resident set (at 10M
   * documents the offsets alone are 80 MB).
   */
  final class Sequential {
    private final ChannelWindow window = new ChannelWindow(channel, 1 << 20);
    private final FileArray.Cursor starts = offsets.cursor();

    private int next;

    /** Where record {@code next} starts; {@code starts} is at the offset after it. */
    private long nextStart;

    private Sequential() {}

    /**
     * Record {@code ordinal}, which must be after the last one read: in {@code [0, count)} and
     * greater than the previous ordinal. The array is a fresh copy.
     */
    byte[] read(int ordinal) throws IOException {
      if (ordinal < next || ordinal >= count) {
        throw new IllegalArgumentException(
            "ordinal must be in ["
                + next
                + ", "
                + count
                + ") for a sequential read, got "
                + ordinal);
      }
      long start = nextStart;
      if (ordinal > next) {
        starts.skip(2L * (ordinal - next - 1));
        start = starts.nextLong();
      }
      long end = starts.nextLong();
      next = ordinal + 1;
      nextStart = end;
      int len = (int) (end - start);
      byte[] b = new byte[len];
      int got = window.read(start, b, len);
      if (got < len) {
        throw new IOException(path + " ends at " + (start + got) + ", before record " + ordinal);
      }
      return b;
    }
  }

  @Override
  public void close() throws IOException {
    try (FileArray o = offsets) {
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
