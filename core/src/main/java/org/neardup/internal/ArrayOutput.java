// SPDX-License-Identifier: Apache-2.0
package org.neardup.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.WritableByteChannel;
import java.util.zip.CRC32C;

/**
 * Primitive arrays written to a channel in bulk, little-endian, through one 1 MiB buffer, with a
 * CRC32C of every byte: for files of whole arrays (an index image) that {@link ArrayInput} reads
 * back. Writing an {@code int[]} is one {@code IntBuffer.put} per buffer's worth, not a call per
 * element.
 *
 * <p>Not thread-safe.
 */
public final class ArrayOutput {
  private final WritableByteChannel out;
  private final ByteBuffer buffer = ByteBuffer.allocate(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
  private final CRC32C crc = new CRC32C();
  private long bytes;

  public ArrayOutput(WritableByteChannel out) {
    this.out = out;
  }

  public void writeInt(int v) throws IOException {
    room(4);
    buffer.putInt(v);
  }

  public void writeLong(long v) throws IOException {
    room(8);
    buffer.putLong(v);
  }

  public void writeInts(int[] a, int from, int to) throws IOException {
    while (from < to) {
      room(4);
      int n = Math.min(to - from, buffer.remaining() / 4);
      buffer.asIntBuffer().put(a, from, n);
      buffer.position(buffer.position() + 4 * n);
      from += n;
    }
  }

  public void writeShorts(short[] a, int from, int to) throws IOException {
    while (from < to) {
      room(2);
      int n = Math.min(to - from, buffer.remaining() / 2);
      buffer.asShortBuffer().put(a, from, n);
      buffer.position(buffer.position() + 2 * n);
      from += n;
    }
  }

  public void writeChars(char[] a, int from, int to) throws IOException {
    while (from < to) {
      room(2);
      int n = Math.min(to - from, buffer.remaining() / 2);
      buffer.asCharBuffer().put(a, from, n);
      buffer.position(buffer.position() + 2 * n);
      from += n;
    }
  }

  public void writeBytes(byte[] a, int from, int to) throws IOException {
    while (from < to) {
      room(1);
      int n = Math.min(to - from, buffer.remaining());
      buffer.put(a, from, n);
      from += n;
    }
  }

  public void writeLongs(long[] a) throws IOException {
    for (int from = 0; from < a.length; ) {
      room(8);
      int n = Math.min(a.length - from, buffer.remaining() / 8);
      buffer.asLongBuffer().put(a, from, n);
      buffer.position(buffer.position() + 8 * n);
      from += n;
    }
  }

  /** Writes the CRC32C of every byte before it and flushes the buffer. */
  public void finish() throws IOException {
    drain();
    buffer.putInt((int) crc.getValue());
    drain();
  }

  /** Bytes written so far, buffered ones included. */
  public long bytes() {
    return bytes + buffer.position();
  }

  private void room(int n) throws IOException {
    if (buffer.remaining() < n) {
      drain();
    }
  }

  private void drain() throws IOException {
    buffer.flip();
    crc.update(buffer.duplicate());
    bytes += buffer.remaining();
    while (buffer.hasRemaining()) {
      out.write(buffer);
    }
    buffer.clear();
  }
}
