// SPDX-License-Identifier: Apache-2.0
package org.neardup.internal;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ReadableByteChannel;
import java.util.zip.CRC32C;

/**
 * Reads what {@link ArrayOutput} wrote, in the same order, through one 1 MiB buffer, and checks its
 * CRC32C at {@link #finish}. A length read from the file is checked against {@code max} before an
 * array of it is allocated, so a corrupt length fails as an {@link IOException}, not an
 * OutOfMemoryError.
 *
 * <p>Not thread-safe.
 */
public final class ArrayInput {
  private final ReadableByteChannel in;
  private final ByteBuffer buffer = ByteBuffer.allocate(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
  private final CRC32C crc = new CRC32C();
  private int counted; // the buffer's bytes before this index are in crc

  public ArrayInput(ReadableByteChannel in) {
    this.in = in;
    buffer.flip(); // empty
  }

  public int readInt() throws IOException {
    need(4);
    return buffer.getInt();
  }

  public long readLong() throws IOException {
    need(8);
    return buffer.getLong();
  }

  /** An int read from the file that must lie in [min, max]. */
  public int readInt(int min, int max, String what) throws IOException {
    int v = readInt();
    if (v < min || v > max) {
      throw new IOException(what + " " + v + " is outside [" + min + ", " + max + "]");
    }
    return v;
  }

  public void readInts(int[] a) throws IOException {
    for (int from = 0; from < a.length; ) {
      need(4);
      int n = Math.min(a.length - from, buffer.remaining() / 4);
      buffer.asIntBuffer().get(a, from, n);
      buffer.position(buffer.position() + 4 * n);
      from += n;
    }
  }

  public void readShorts(short[] a) throws IOException {
    for (int from = 0; from < a.length; ) {
      need(2);
      int n = Math.min(a.length - from, buffer.remaining() / 2);
      buffer.asShortBuffer().get(a, from, n);
      buffer.position(buffer.position() + 2 * n);
      from += n;
    }
  }

  public void readChars(char[] a) throws IOException {
    for (int from = 0; from < a.length; ) {
      need(2);
      int n = Math.min(a.length - from, buffer.remaining() / 2);
      buffer.asCharBuffer().get(a, from, n);
      buffer.position(buffer.position() + 2 * n);
      from += n;
    }
  }

  public void readBytes(byte[] a) throws IOException {
    for (int from = 0; from < a.length; ) {
      need(1);
      int n = Math.min(a.length - from, buffer.remaining());
      buffer.get(a, from, n);
      from += n;
    }
  }

  public void readLongs(long[] a) throws IOException {
    for (int from = 0; from < a.length; ) {
      need(8);
      int n = Math.min(a.length - from, buffer.remaining() / 8);
      buffer.asLongBuffer().get(a, from, n);
      buffer.position(buffer.position() + 8 * n);
      from += n;
    }
  }

  /**
   * Checks the CRC32C that ends what {@link ArrayOutput} wrote, and that nothing follows it.
   *
   * @throws IOException if it differs from the bytes read
   */
  public void finish() throws IOException {
    count();
    int expected = (int) crc.getValue();
    int stored = readInt();
    if (buffer.hasRemaining() || in.read(ByteBuffer.allocate(1)) > 0) {
      throw new IOException("bytes after the checksum");
    }
    if (stored != expected) {
      throw new IOException(
          "checksum mismatch: stored "
              + Integer.toHexString(stored)
              + ", computed "
              + Integer.toHexString(expected));
    }
  }

  /** Adds the bytes consumed since the last call to the CRC. */
  private void count() {
    int at = buffer.position();
    crc.update(buffer.array(), counted, at - counted);
    counted = at;
  }

  /** Makes at least n bytes readable (n <= 8). */
  private void need(int n) throws IOException {
    if (buffer.remaining() >= n) {
      return;
    }
    count();
    buffer.compact();
    counted = 0;
    while (buffer.position() < n) {
      if (in.read(buffer) < 0) {
        throw new EOFException("the file ends early");
      }
    }
    buffer.flip();
  }
}
