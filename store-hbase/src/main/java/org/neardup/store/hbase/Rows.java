// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.neardup.index.BlockScheme;

/**
 * The rowkeys of the store. Index table: a block row is the seeds' key, the block value and the
 * 1-byte table flag (which table of the collection's {@link BlockScheme}), then the collection's
 * uid (4 bytes, so collections share the tables and creating one needs no DDL) and the 8-byte
 * fingerprint. The block value is the table's key bits (16 for 4:1, 26 or 25 for 5:2, up to 33 for
 * 6:3), left-aligned in 5 bytes so that the first byte is uniform over every scheme (regions
 * pre-split on it take equal shares) and rows of collections with different schemes never share a
 * prefix. A check reads one table's block with one prefix scan over the row's first 10 bytes. A
 * band row is the band key's high 5 bytes, the flag {@code 0xFF}, the uid and the 8-byte band key,
 * read with a get. Each row's qualifiers are the ordinals of the documents filed under it.
 * Documents table: rows start with the uid, then a kind byte. Immutable helpers.
 */
final class Rows {
  static final byte BAND_FLAG = (byte) 0xFF;
  static final byte DOC = 'd';
  static final byte ID = 'i';
  static final byte MEMBERS = 'm';
  static final byte ROOT_ID = 'r';
  static final byte EXPIRY = 'x';

  /** Bytes of the block value field; 6:3's keys have up to 33 bits. */
  static final int KEY_BYTES = 5;

  /** Bytes of an index row's prefix: block value, flag, uid. */
  static final int PREFIX_BYTES = KEY_BYTES + 1 + 4;

  private Rows() {}

  /** Table {@code t}'s key bits of {@code fp}, left-aligned in a long. */
  static long blockValue(BlockScheme scheme, int t, long fp) {
    return scheme.permute(t, fp) & (-1L << (64 - scheme.keyBits(t)));
  }

  /** The block row of fingerprint {@code fp} in table {@code t}. */
  static byte[] block(BlockScheme scheme, int t, int uid, long fp) {
    return ByteBuffer.allocate(PREFIX_BYTES + 8)
        .put(blockPrefix(scheme, t, uid, fp))
        .putLong(fp)
        .array();
  }

  /** The prefix every block row of table {@code t} sharing {@code fp}'s block value has. */
  static byte[] blockPrefix(BlockScheme scheme, int t, int uid, long fp) {
    ByteBuffer b = ByteBuffer.allocate(PREFIX_BYTES);
    putHigh(b, blockValue(scheme, t, fp));
    return b.put((byte) t).putInt(uid).array();
  }

  private static void putHigh(ByteBuffer b, long v) {
    for (int i = 0; i < KEY_BYTES; i++) {
      b.put((byte) (v >>> (56 - 8 * i)));
    }
  }

  /** The first row after every row that starts with {@code prefix} (not all 0xFF). */
  static byte[] after(byte[] prefix) {
    byte[] out = prefix.clone();
    for (int i = out.length - 1; i >= 0; i--) {
      if (++out[i] != 0) {
        return Arrays.copyOf(out, i + 1);
      }
    }
    throw new IllegalArgumentException("no row follows a prefix of 0xFF bytes");
  }

  /** The fingerprint of a block row. */
  static long blockFingerprint(byte[] row) {
    return ByteBuffer.wrap(row, PREFIX_BYTES, 8).getLong();
  }

  static byte[] band(long key, int uid) {
    ByteBuffer b = ByteBuffer.allocate(PREFIX_BYTES + 8);
    putHigh(b, key);
    return b.put(BAND_FLAG).putInt(uid).putLong(key).array();
  }

  /** Split points of the index table: 16 regions by the first byte, uniform for every row. */
  static byte[][] indexSplits() {
    byte[][] out = new byte[15][];
    for (int i = 1; i < 16; i++) {
      out[i - 1] = new byte[] {(byte) (i << 4)};
    }
    return out;
  }

  /** Split points of the documents table: 4 regions by the uid's low byte. */
  static byte[][] docSplits() {
    return new byte[][] {{0, 0, 0, 0x40}, {0, 0, 0, (byte) 0x80}, {0, 0, 0, (byte) 0xC0}};
  }

  static byte[] doc(int uid, long ordinal) {
    return ByteBuffer.allocate(13).putInt(uid).put(DOC).putLong(ordinal).array();
  }

  static byte[] members(int uid, long root) {
    return ByteBuffer.allocate(13).putInt(uid).put(MEMBERS).putLong(root).array();
  }

  static byte[] rootId(int uid, long root) {
    return ByteBuffer.allocate(13).putInt(uid).put(ROOT_ID).putLong(root).array();
  }

  static byte[] id(int uid, String id) {
    return id(uid, id.getBytes(StandardCharsets.UTF_8));
  }

  /** The id row of an id given as its UTF-8 bytes. */
  static byte[] id(int uid, byte[] id) {
    return ByteBuffer.allocate(5 + id.length).putInt(uid).put(ID).put(id).array();
  }

  static byte[] expiry(int uid, long expiresAt, long ordinal) {
    return ByteBuffer.allocate(21)
        .putInt(uid)
        .put(EXPIRY)
        .putLong(expiresAt)
        .putLong(ordinal)
        .array();
  }

  static byte[] kindPrefix(int uid, byte kind) {
    return ByteBuffer.allocate(5).putInt(uid).put(kind).array();
  }

  static byte[] uidPrefix(int uid) {
    return ByteBuffer.allocate(4).putInt(uid).array();
  }

  static byte[] ordinal(long ordinal) {
    return ByteBuffer.allocate(8).putLong(ordinal).array();
  }

  static long toLong(byte[] b) {
    return ByteBuffer.wrap(b).getLong();
  }

  static long toLong(byte[] b, int off) {
    return ByteBuffer.wrap(b, off, 8).getLong();
  }
}
