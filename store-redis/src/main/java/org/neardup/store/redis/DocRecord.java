// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * What the store keeps of a document in the {@code d} hash, under its ordinal:
 *
 * <pre>
 * Record   --> Fingerprint, Timestamp, Header, ExpiresAt?, BandKey^bands, Id
 * Header   --> one byte, bands + 65 * kind: bands the number of band keys (0 to 64), kind how the
 *              expiry is kept: 0 never expires, 1 Timestamp + the collection's retention (no bytes),
 *              2 ExpiresAt follows
 * Fingerprint, Timestamp, ExpiresAt, BandKey --> 8 bytes each, big-endian
 * Id       --> the rest, UTF-8
 * </pre>
 *
 * The band keys are kept so a removal finds every key that names the document. The scripts read the
 * fingerprint (bytes 1-8), the id (after the header, expiry and band keys) and the expiry.
 */
record DocRecord(long fingerprint, long timestamp, long expiresAt, long[] bandKeys, String id) {
  /*
   * Why the expiry kind (issue 15, memory): almost every document expires at its timestamp plus
   * the collection's retention (a document without timestamp gets its arrival as timestamp; with
   * basis timestamp, any not from the future), so the record keeps 8 bytes less: 24 instead of 32
   * bytes for a 7-byte id, which lets a bucket of 128 such records fit a 4 KB listpack instead of
   * 5 KB (jemalloc's size classes: 40.6 -> 32 bytes per document, MEMORY USAGE at 1M).
   */
  static final int MAX_BANDS = 64;

  private static final int NEVER = 0;
  private static final int BY_RETENTION = 1;
  private static final int EXPLICIT = 2;

  /** Encodes the record for a collection that keeps documents {@code retentionMillis} (0: ever). */
  byte[] encode(long retentionMillis) {
    byte[] id = this.id.getBytes(StandardCharsets.UTF_8);
    int kind;
    if (expiresAt == Long.MAX_VALUE) {
      kind = NEVER;
    } else if (retentionMillis > 0
        && timestamp <= Long.MAX_VALUE - retentionMillis
        && timestamp + retentionMillis == expiresAt) {
      kind = BY_RETENTION;
    } else {
      kind = EXPLICIT;
    }
    ByteBuffer b =
        ByteBuffer.allocate(17 + (kind == EXPLICIT ? 8 : 0) + 8 * bandKeys.length + id.length);
    b.putLong(fingerprint).putLong(timestamp).put((byte) (bandKeys.length + 65 * kind));
    if (kind == EXPLICIT) {
      b.putLong(expiresAt);
    }
    for (long k : bandKeys) {
      b.putLong(k);
    }
    return b.put(id).array();
  }

  static DocRecord decode(byte[] in, long retentionMillis) {
    ByteBuffer b = ByteBuffer.wrap(in);
    long fp = b.getLong();
    long ts = b.getLong();
    int header = b.get() & 0xff;
    int kind = header / 65;
    long exp =
        switch (kind) {
          case NEVER -> Long.MAX_VALUE;
          case BY_RETENTION -> ts + retentionMillis;
          default -> b.getLong();
        };
    long[] bands = new long[header % 65];
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
    int header = in[16] & 0xff;
    int off = 17 + (header / 65 == EXPLICIT ? 8 : 0) + 8 * (header % 65);
    return new String(in, off, in.length - off, StandardCharsets.UTF_8);
  }
}
