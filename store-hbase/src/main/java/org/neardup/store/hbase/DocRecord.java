// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * What the store keeps of a document in its row's {@code r} cell: fingerprint, timestamp and expiry
 * (8 bytes each, big-endian), the number of band keys (1 byte) and the band keys (kept so a removal
 * finds every row that names the document), then the id in UTF-8.
 */
record DocRecord(long fingerprint, long timestamp, long expiresAt, long[] bandKeys, String id) {
  /** The most bytes {@link #encode(long, long, long, long[], byte[], byte[])} writes. */
  static final int MAX_BYTES = 25 + 8 * 255 + org.neardup.store.Collection.MAX_ID_BYTES;

  byte[] encode() {
    byte[] idBytes = id.getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[25 + 8 * bandKeys.length + idBytes.length];
    encode(fingerprint, timestamp, expiresAt, bandKeys, idBytes, out);
    return out;
  }

  /**
   * Writes the encoding of a record with these fields (the id as its UTF-8 bytes) at the start of
   * {@code out} (at least {@link #MAX_BYTES} long, or as long as the encoding); returns its length.
   * For the import's writer, which encodes millions into one reused array.
   */
  static int encode(
      long fingerprint, long timestamp, long expiresAt, long[] bandKeys, byte[] id, byte[] out) {
    ByteBuffer b = ByteBuffer.wrap(out);
    b.putLong(fingerprint).putLong(timestamp).putLong(expiresAt).put((byte) bandKeys.length);
    for (long k : bandKeys) {
      b.putLong(k);
    }
    return b.put(id).position();
  }

  static DocRecord decode(byte[] in) {
    ByteBuffer b = ByteBuffer.wrap(in);
    long fp = b.getLong();
    long ts = b.getLong();
    long exp = b.getLong();
    long[] bands = new long[b.get() & 0xff];
    for (int i = 0; i < bands.length; i++) {
      bands[i] = b.getLong();
    }
    String id = new String(in, b.position(), b.remaining(), StandardCharsets.UTF_8);
    return new DocRecord(fp, ts, exp, bands, id);
  }
}
