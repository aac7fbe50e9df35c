// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
 * <p>Thread-safety: as {@link SketchStore} says (the deduplicator's lock orders writers and
 * readers). After {@link #close()}, a read of a sketch gives an empty one (a probe of a replaced
 * generation, about to be redone) and the file is gone.
 */
final class SketchFile implements SketchStore {
  /*
   * Entry i occupies [offsets[i], offsets[i + 1]) of the logical byte sequence (the last one ends
   * at `end`): bandCount longs (little-endian) then the sketch. Bytes below `flushed` are in the
   * file, the rest in `tail` from 0; an entry never straddles the two (a full tail is written out
   * before an entry that does not fit, and an entry larger than the tail goes straight to the
   * file).
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
  private final byte[] tail = new byte[TAIL];
  private final ByteBuffer tailKeys = ByteBuffer.wrap(tail).order(ByteOrder.LITTLE_ENDIAN);
  private long flushed;
  private long end;
  private int size;
  private volatile boolean closed;

  SketchFile(Path file, int bandCount, int expectedSize) {
    this.file = file;
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
      throw new UncheckedIOException("cannot create the sketch file " + file, e);
    }
  }

  Path file() {
    return file;
  }

  @Override
  public int add(long[] bandKeys, int n, byte[] sketch, int off, int len) {
    assert n == bandCount : n + " band keys, expected " + bandCount;
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
      } else {
        for (int k = 0; k < n; k++) {
          tailKeys.putLong(at + k * 8, bandKeys[k]);
        }
        System.arraycopy(sketch, off, tail, at + n * 8, len);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the sketch file " + file, e);
    }
    appendOffset(end);
    end += need;
    return size++;
  }

  private void flush() throws IOException {
    int n = (int) (end - flushed);
    if (n > 0) {
      writeFully(ByteBuffer.wrap(tail, 0, n), flushed);
      flushed = end;
    }
  }

  private void writeFully(ByteBuffer b, long position) throws IOException {
    long at = position;
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
  }

  private void appendOffset(long offset) {
    if ((size & ((1 << BLOCK_BITS) - 1)) == 0) {
      blockStart.append(offset);
    }
    long rel = offset - blockStart.get(size >>> BLOCK_BITS);
    if (rel < 0xFFFF_FFFFL) {
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
    return i + 1 < size ? start(i + 1) : end;
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
    long at = position;
    while (b.hasRemaining()) {
      int r;
      try {
        r = channel.read(b, at);
      } catch (ClosedChannelException e) {
        reopen(e);
        continue;
      }
      if (r < 0) {
        throw new IOException("sketch file " + file + " ends at " + at + ", before its entry");
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
    return closed ? 0 : end;
  }

  @Override
  public long ramBytesUsed() {
    return 64 + TAIL + blockStart.ramBytesUsed() + relative.ramBytesUsed() + far.size() * 32L;
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      channel.close();
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete the sketch file " + file, e);
    }
  }
}
