// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.neardup.internal.PagedIntArray;
import org.neardup.internal.PagedLongArray;
import org.neardup.verify.SketchStore;

/**
 * A {@link SketchStore} in a scratch file: each entry's band keys and encoded sketch appended to
 * the file, read back with a positioned read when a check verifies that candidate (a few per check)
 * or a removal needs its band keys. The heap holds 4 bytes per entry (its offset from its block's,
 * see below) and a 1 MiB write buffer, whatever the text's length; the page cache holds the rest,
 * and a cold page costs one disk read.
 *
 * <p>The file is derived data, not part of the store's durable state: the log and the snapshots
 * hold every sketch, and a store rebuilds its sketch files from them when it opens (the files end
 * in {@code .tmp}, deleted on open). So nothing here is ever fsynced, and a power cut costs
 * nothing.
 *
 * <p>A sketch file may start from a snapshot's sketch files (its <em>base</em>, {@link
 * SnapshotFormat}: the sketch files the snapshot lists, laid end to end as a {@link SketchSpan}),
 * whose entries have the same layout: a store that opens takes the entries of the snapshot's
 * documents from there in place ({@link #takeFromBase}) instead of copying them, and appends only
 * the documents stored after the snapshot to its own file. The base is read, never written or
 * deleted here.
 *
 * <p>A sketch is read from a memory map of the file where one covers it, else with a positioned
 * read. The writer maps each window of this file's bytes once it is written whole ({@link
 * #mapWritten}): windows of {@code 1 << smallBits} bytes (1 MiB, the write buffer's size) while a
 * window of {@code 1 << largeBits} (64 MiB) fills, then that large window, whose small ones go (the
 * collector unmaps them); a snapshot's sketch files, which never change, are mapped in large
 * windows when this opens. An entry that straddles two windows, or lies in the part of the last
 * window not yet written whole, is read with a positioned read. A map that fails (an interrupt, the
 * process's limit of mappings) leaves that window to positioned reads. Why: each positioned read is
 * a system call and a copy through the JDK's temporary direct buffer; at ~1-3 candidate sketches
 * per short text that was ~14% of a warm server's worker CPU per short text (docs/BENCHMARKS.md,
 * the twenty-second session). The file is written only with positioned writes, never through a map,
 * and never truncated while mapped (it is deleted on close), so a map never sees bytes past the
 * file's end. Mapped pages are the page cache's: they count in the process's RSS once touched, not
 * in its heap.
 *
 * <p>Thread-safety: as {@link SketchStore} says (the deduplicator's lock orders writers and
 * readers: the windows are made by the writer, with no reader running, as the write buffer is
 * filled). After {@link #close()}, a read of a sketch gives an empty one (a probe of a replaced
 * generation, about to be redone) and the file is gone.
 */
final class SketchFile implements SketchStore {
  /*
   * Entry i occupies [offsets[i], ends(i)) of the logical byte sequence: bandCount longs
   * (little-endian) then the sketch. ends(i) is offsets[i + 1] unless `gaps` holds i (an entry
   * taken from the base followed by one that is not its neighbour there: the base's entries of
   * documents that were not restored lie between), and `lastEnd` for the last entry. Logical bytes
   * [0, baseLength) are the base files' (their span), [baseLength, end) this file's at (logical -
   * baseLength). Offsets mostly increase; one below its block's first (a version 4 snapshot's
   * entry in an older file after one its compaction copied) is FAR. Of this file's bytes, those below `flushed` are
   * in the file, the rest in `tail` from 0; an entry never straddles the two (a full tail is
   * written out before an entry that does not fit, and an entry larger than the tail goes straight
   * to the file).
   *
   * offsets[i] = blockStart[i >>> BLOCK_BITS] + unsigned relative[i]; an entry whose distance from
   * its block's first does not fit 32 bits (a block of 1,024 entries averaging 4 MiB) has FAR
   * there and its offset in `far`.
   */
  static final int TAIL = 1 << 20;

  static final int BLOCK_BITS = 10;
  private static final int FAR = -1;

  private final Path file;
  // Reopened when an interrupted reader or writer closed it (FileChannel closes on interrupt).
  private volatile FileChannel channel;
  private final int bandCount;
  private final PagedLongArray blockStart;
  private final PagedIntArray relative;
  private final LongLongMap far = new LongLongMap();
  private final LongLongMap gaps = new LongLongMap();
  private final List<Path> base;
  private final SketchSpan baseSpan;
  private final @Nullable FileChannel[] baseChannels;
  private final long baseLength;
  private long lastEnd;
  // Set by takeFromBase: where the next adds' entries are in the base (-1: in the add's bytes).
  private @Nullable PagedLongArray fromBase;
  private @Nullable PagedIntArray fromBaseLength;
  private int fromBaseNext;
  private final byte[] tail = new byte[TAIL];
  private final ByteBuffer tailKeys = ByteBuffer.wrap(tail).order(ByteOrder.LITTLE_ENDIAN);
  private long flushed;
  private long end;
  private int size;
  private volatile boolean closed;

  static final int SMALL_BITS = 20;
  static final int LARGE_BITS = 26;
  // Windows of this file's own bytes (file positions, not logical ones): large[j] maps
  // [j << largeBits, (j + 1) << largeBits) for j < largeCount; small[k] maps the k-th small window
  // of large window largeCount, the one filling now; null where a map failed. mapped: the file
  // position up to which windows were made (whole windows only). smallBits 0: no maps at all.
  private final int smallBits;
  private final int largeBits;
  private MappedByteBuffer[] large = new MappedByteBuffer[0];
  private int largeCount;
  private final MappedByteBuffer @Nullable [] small;
  private long mapped;
  // The base's files in large windows: baseMaps[f][j] maps [j << largeBits, ...) of file f.
  private final MappedByteBuffer[][] baseMaps;
  private int baseWindows;

  SketchFile(Path file, int bandCount, int expectedSize) {
    this(file, bandCount, expectedSize, List.of());
  }

  SketchFile(Path file, int bandCount, int expectedSize, List<Path> base) {
    this(file, bandCount, expectedSize, base, SMALL_BITS, LARGE_BITS);
  }

  /**
   * @param base a snapshot's sketch files to take entries from ({@link #takeFromBase}), in the
   *     order of its span, or empty
   * @param smallBits the log2 of the small windows' size, 0 for no memory maps (positioned reads
   *     only)
   * @param largeBits the log2 of the large windows' size (a multiple of the small ones')
   */
  SketchFile(
      Path file, int bandCount, int expectedSize, List<Path> base, int smallBits, int largeBits) {
    if (smallBits != 0 && (smallBits < 12 || largeBits < smallBits || largeBits > 30)) {
      throw new IllegalArgumentException(
          "windows of 2^" + smallBits + " and 2^" + largeBits + " bytes");
    }
    this.smallBits = smallBits;
    this.largeBits = largeBits;
    this.small = smallBits == 0 ? null : new MappedByteBuffer[1 << (largeBits - smallBits)];
    this.file = file;
    this.base = List.copyOf(base);
    this.baseChannels = new FileChannel[base.size()];
    long[] sizes = new long[base.size()];
    try {
      for (int i = 0; i < sizes.length; i++) {
        FileChannel b = FileChannel.open(base.get(i), StandardOpenOption.READ);
        baseChannels[i] = b;
        sizes[i] = b.size();
      }
    } catch (IOException e) {
      closeBase();
      throw new UncheckedIOException("cannot open the snapshot's sketch files " + base, e);
    }
    this.baseSpan = new SketchSpan(sizes);
    this.baseLength = baseSpan.length();
    this.baseMaps = new MappedByteBuffer[sizes.length][];
    for (int i = 0; i < sizes.length; i++) {
      int windows = smallBits == 0 ? 0 : (int) ((sizes[i] + (1L << largeBits) - 1) >>> largeBits);
      baseMaps[i] = new MappedByteBuffer[windows];
      baseWindows += windows;
      for (int j = 0; j < windows; j++) {
        long at = (long) j << largeBits;
        baseMaps[i][j] = map(baseChannels[i], at, Math.min(sizes[i] - at, 1L << largeBits));
      }
    }
    this.flushed = baseLength;
    this.end = baseLength;
    this.lastEnd = 0;
    this.bandCount = bandCount;
    this.blockStart = new PagedLongArray(Math.max(1, expectedSize >>> BLOCK_BITS));
    this.relative = new PagedIntArray(Math.max(1, expectedSize));
    try {
      this.channel =
          FileChannel.open(
              file,
              StandardOpenOption.CREATE_NEW,
              StandardOpenOption.READ,
              StandardOpenOption.WRITE);
    } catch (IOException e) {
      closeBase();
      throw new UncheckedIOException("cannot create the sketch file " + file, e);
    }
  }

  /**
   * Until the next call, the entries that {@link #add} appends are taken from the base: the k-th
   * add from now on takes {@code length[k]} bytes at {@code offset[k]} of the base and ignores the
   * keys and bytes it is given, unless {@code offset[k]} is -1. Null ends it. The writer's thread
   * only (a restore hands each batch's places over with the batch).
   */
  void takeFromBase(@Nullable PagedLongArray offset, @Nullable PagedIntArray length) {
    assert offset == null || !base.isEmpty() : "no base to take entries from";
    fromBase = offset;
    fromBaseLength = length;
    fromBaseNext = 0;
  }

  /** The snapshot sketch files this one takes entries from (empty: none). */
  List<Path> base() {
    return base;
  }

  Path file() {
    return file;
  }

  @Override
  public int add(long[] bandKeys, int n, byte[] sketch, int off, int len) {
    assert n == bandCount : n + " band keys, expected " + bandCount;
    PagedLongArray places = fromBase;
    if (places != null) {
      int k = fromBaseNext++;
      long at = places.get(k);
      if (at >= 0) {
        int length = java.util.Objects.requireNonNull(fromBaseLength).get(k);
        int f = baseSpan.fileOf(at);
        if (f < 0 || at + length > baseSpan.start(f) + baseSpan.size(f) || length < n * 8) {
          throw new IllegalStateException(
              "entry at "
                  + at
                  + " of "
                  + length
                  + " bytes is not inside one of the base's "
                  + base.size()
                  + " files ("
                  + baseLength
                  + " bytes) with room for "
                  + n
                  + " band keys");
        }
        appendOffset(at, at + length);
        return size++;
      }
    }
    int need = n * 8 + len;
    try {
      int at = (int) (end - flushed);
      if (at + need > TAIL) {
        flush();
        at = 0;
      }
      if (need > TAIL) {
        ByteBuffer b = ByteBuffer.allocate(need).order(ByteOrder.LITTLE_ENDIAN);
        for (int k = 0; k < n; k++) {
          b.putLong(bandKeys[k]);
        }
        b.put(sketch, off, len).flip();
        writeFully(b, end);
        flushed = end + need;
        mapWritten();
      } else {
        for (int k = 0; k < n; k++) {
          tailKeys.putLong(at + k * 8, bandKeys[k]);
        }
        System.arraycopy(sketch, off, tail, at + n * 8, len);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the sketch file " + file, e);
    }
    appendOffset(end, end + need);
    end += need;
    return size++;
  }

  private void flush() throws IOException {
    int n = (int) (end - flushed);
    if (n > 0) {
      writeFully(ByteBuffer.wrap(tail, 0, n), flushed);
      flushed = end;
      mapWritten();
    }
  }

  /**
   * Maps the windows of this file that are now written whole (the writer's thread, after a write):
   * small ones while their large window fills, then the large one in their place.
   */
  private void mapWritten() {
    MappedByteBuffer[] smalls = small;
    if (smalls == null) {
      return;
    }
    long written = flushed - baseLength; // this file's bytes in the file
    long smallSize = 1L << smallBits;
    long largeSize = 1L << largeBits;
    while (mapped + smallSize <= written) {
      long largeStart = (long) largeCount << largeBits;
      if (largeStart + largeSize <= written) {
        if (largeCount == large.length) {
          large = java.util.Arrays.copyOf(large, Math.max(16, 2 * large.length));
        }
        large[largeCount++] = map(channel, largeStart, largeSize);
        java.util.Arrays.fill(smalls, null);
        mapped = largeStart + largeSize;
      } else {
        smalls[(int) ((mapped - largeStart) >>> smallBits)] = map(channel, mapped, smallSize);
        mapped += smallSize;
      }
    }
  }

  /** A read-only map of {@code [at, at + length)} of a channel, or null when it cannot be made. */
  private static @Nullable MappedByteBuffer map(@Nullable FileChannel c, long at, long length) {
    if (c == null) {
      return null;
    }
    try {
      return c.map(FileChannel.MapMode.READ_ONLY, at, length);
    } catch (IOException | UncheckedIOException e) {
      return null; // read with positioned reads instead
    }
  }

  /**
   * Copies logical bytes {@code [from, from + len)} into {@code buf} from a map that covers them
   * whole; false when none does.
   */
  private boolean readMapped(long from, int len, byte[] buf) {
    MappedByteBuffer m;
    long at;
    if (from < baseLength) {
      int f = baseSpan.fileOf(from);
      at = from - baseSpan.start(f);
      MappedByteBuffer[] maps = baseMaps[f];
      int j = (int) (at >>> largeBits);
      if (j >= maps.length) {
        return false;
      }
      m = maps[j];
      at -= (long) j << largeBits;
    } else {
      at = from - baseLength;
      int j = (int) (at >>> largeBits);
      if (j < largeCount) {
        m = large[j];
        at -= (long) j << largeBits;
      } else if (j == largeCount && small != null && at + len <= mapped) {
        int k = (int) ((at >>> smallBits) & (small.length - 1));
        m = small[k];
        at -= (at >>> smallBits) << smallBits;
      } else {
        return false;
      }
    }
    if (m == null || at + len > m.capacity()) {
      return false; // no map, or the entry straddles two windows
    }
    m.get((int) at, buf, 0, len);
    return true;
  }

  private void writeFully(ByteBuffer b, long position) throws IOException {
    long at = position - baseLength;
    while (b.hasRemaining()) {
      try {
        at += channel.write(b, at);
      } catch (ClosedChannelException e) {
        reopen(e);
      }
    }
  }

  /**
   * After a ClosedChannelException: when this file was closed, rethrows it; else another thread's
   * interrupt closed the channel under everyone, and a new one takes its place.
   */
  private synchronized void reopen(ClosedChannelException e) throws IOException {
    if (closed || Thread.currentThread().isInterrupted()) {
      throw e; // closed, or this thread's interrupt: its request fails, the others go on
    }
    if (!channel.isOpen()) {
      channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }
    for (int i = 0; i < baseChannels.length; i++) {
      FileChannel b = baseChannels[i];
      if (b != null && !b.isOpen()) {
        // Still readable after a compaction deleted its name: an interrupt closed the channel,
        // and the name may be gone; then this entry's read fails with the file's name.
        baseChannels[i] = FileChannel.open(base.get(i), StandardOpenOption.READ);
      }
    }
  }

  private FileChannel baseChannel(int i) throws ClosedChannelException {
    FileChannel b = baseChannels[i];
    if (b == null || closed) {
      throw new ClosedChannelException();
    }
    return b;
  }

  private void closeBase() {
    for (FileChannel b : baseChannels) {
      if (b != null) {
        try {
          b.close();
        } catch (IOException e) {
          // read-only: nothing was lost
        }
      }
    }
  }

  /** Files entry size's place [offset, stop), noting a gap after the previous entry. */
  private void appendOffset(long offset, long stop) {
    if (size > 0 && offset != lastEnd) {
      gaps.put(size - 1, lastEnd);
    }
    lastEnd = stop;
    if ((size & ((1 << BLOCK_BITS) - 1)) == 0) {
      blockStart.append(offset);
    }
    long rel = offset - blockStart.get(size >>> BLOCK_BITS);
    if (rel >= 0 && rel < 0xFFFF_FFFFL) {
      relative.append((int) rel);
    } else {
      relative.append(FAR);
      far.put(size, offset);
    }
  }

  private long start(int i) {
    int rel = relative.get(i);
    return rel == FAR ? far.get(i) : blockStart.get(i >>> BLOCK_BITS) + (rel & 0xFFFF_FFFFL);
  }

  private long stop(int i) {
    if (i + 1 >= size) {
      return lastEnd;
    }
    long gap = gaps.size() == 0 ? LongLongMap.MISSING : gaps.get(i);
    return gap != LongLongMap.MISSING ? gap : start(i + 1);
  }

  @Override
  public void sketch(int i, Slice into) {
    long from = start(i) + bandCount * 8L;
    int len = (int) (stop(i) - from);
    if (from >= flushed) {
      into.view(tail, (int) (from - flushed), len);
      return;
    }
    byte[] buf = into.buffer(len);
    if (smallBits != 0) {
      if (closed) {
        into.buffer(0); // a replaced generation's probe: redone by the caller
        return;
      }
      if (readMapped(from, len, buf)) {
        return;
      }
    }
    try {
      readFully(ByteBuffer.wrap(buf, 0, len), from);
    } catch (ClosedChannelException e) {
      if (!closed) {
        throw new UncheckedIOException("interrupted reading the sketch file " + file, e);
      }
      into.buffer(0); // a replaced generation's probe: redone by the caller
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the sketch file " + file, e);
    }
  }

  @Override
  public void bandKeys(int i, long[] out) {
    long from = start(i);
    if (from >= flushed) {
      for (int k = 0; k < bandCount; k++) {
        out[k] = tailKeys.getLong((int) (from - flushed) + k * 8);
      }
      return;
    }
    ByteBuffer b = ByteBuffer.allocate(bandCount * 8).order(ByteOrder.LITTLE_ENDIAN);
    try {
      readFully(b, from);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the sketch file " + file, e);
    }
    for (int k = 0; k < bandCount; k++) {
      out[k] = b.getLong(k * 8);
    }
  }

  private void readFully(ByteBuffer b, long position) throws IOException {
    boolean inBase = position < baseLength;
    int f = inBase ? baseSpan.fileOf(position) : -1;
    long at = inBase ? position - baseSpan.start(f) : position - baseLength;
    while (b.hasRemaining()) {
      int r;
      try {
        r = inBase ? baseChannel(f).read(b, at) : channel.read(b, at);
      } catch (ClosedChannelException e) {
        reopen(e);
        continue;
      }
      if (r < 0) {
        throw new IOException(
            "sketch file "
                + (inBase ? base.get(f) : file)
                + " ends at "
                + at
                + ", before its entry");
      }
      at += r;
    }
  }

  @Override
  public void clear(int i) {
    // The bytes stay until the file is replaced with its generation.
  }

  @Override
  public int size() {
    return size;
  }

  /** Bytes of the file, including the part still in the write buffer. */
  long diskBytes() {
    return closed ? 0 : end - baseLength;
  }

  @Override
  public long ramBytesUsed() {
    return 64
        + TAIL
        + blockStart.ramBytesUsed()
        + relative.ramBytesUsed()
        + (far.size() + gaps.size()) * 32L
        // the maps' objects (~80 bytes each) and the arrays that hold them
        + 88L * (large.length + (small == null ? 0 : small.length) + baseWindows);
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    closeBase();
    try {
      channel.close();
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete the sketch file " + file, e);
    }
  }
}
