// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.util.zip.CRC32C;
import org.jspecify.annotations.Nullable;

/**
 * The header that the images beside a snapshot ({@link IndexImages}, {@link BandImages}) start
 * with, which ties an image to the snapshot's documents:
 *
 * <pre>
 * Header --> Magic int, Version int, Segment long, Collection int, Documents int,
 *            FingerprintHash long, HeaderChecksum int         (big-endian, {@value #BYTES} bytes)
 * </pre>
 */
final class ImageHeader {
  static final int BYTES = 4 + 4 + 8 + 4 + 4 + 8 + 4;

  private ImageHeader() {}

  /** The header's bytes, ready to write. */
  static ByteBuffer of(
      int magic, int version, long segment, int collection, int documents, long hash) {
    ByteBuffer h = ByteBuffer.allocate(BYTES).order(ByteOrder.BIG_ENDIAN);
    h.putInt(magic).putInt(version).putLong(segment).putInt(collection).putInt(documents);
    h.putLong(hash);
    h.putInt(crc(h.array(), BYTES - 4));
    return h.flip();
  }

  /**
   * Reads a header from the channel's position: null when it is another version's, snapshot's or
   * collection's, else the header positioned at its Documents (then {@code getInt()} gives them and
   * {@code getLong()} the FingerprintHash).
   *
   * @throws IOException if it ends early or its checksum or magic is wrong
   */
  static @Nullable ByteBuffer read(
      FileChannel ch, int magic, int version, long segment, int collection) throws IOException {
    ByteBuffer h = ByteBuffer.allocate(BYTES).order(ByteOrder.BIG_ENDIAN);
    while (h.hasRemaining()) {
      if (ch.read(h) < 0) {
        throw new IOException("the header ends early");
      }
    }
    h.flip();
    if (h.getInt(BYTES - 4) != crc(h.array(), BYTES - 4) || h.getInt() != magic) {
      throw new IOException("the header's checksum or magic is wrong");
    }
    if (h.getInt() != version || h.getLong() != segment || h.getInt() != collection) {
      return null;
    }
    return h;
  }

  private static int crc(byte[] b, int n) {
    CRC32C c = new CRC32C();
    c.update(b, 0, n);
    return (int) c.getValue();
  }
}
