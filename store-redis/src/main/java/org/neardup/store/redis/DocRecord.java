// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * What the store keeps of a document in the {@code d} hash, under its ordinal: fingerprint,
 * timestamp and expiry (8 bytes each, big-endian), the number of band keys (1 byte) and the band
 * keys (8 bytes each, kept so a removal finds every key that names the document), then the id in
 * UTF-8. The scripts read the fingerprint (bytes 1-8) and the id (after the band keys).
 */
record DocRecord(long fingerprint, long timestamp, long expiresAt, long[] bandKeys, String id) {
  static final int MAX_BANDS = 255;

  byte[] encode() {
    byte[] id = this.id.getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = ByteBuffer.allocate(25 + 8 * bandKeys.length + id.length);
    b.putLong(fingerprint).putLong(timestamp).putLong(expiresAt).put((byte) bandKeys.length);
    for (long k : bandKeys) {
      b.putLong(k);
    }
    return b.put(id).array();
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

  /** The fingerprint of an encoded record, without decoding the rest. */
  static long fingerprint(byte[] in) {
    return ByteBuffer.wrap(in).getLong();
  }

  /** The id of an encoded record. */
  static String id(byte[] in) {
    int off = 25 + 8 * (in[24] & 0xff);
    return new String(in, off, in.length - off, StandardCharsets.UTF_8);
  }
}
