// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The rowkeys of the store. Index table: a block row is the seeds' key, the 4-byte block value and
 * the 1-byte table flag (which block), then the collection's uid (4 bytes, so collections share the
 * tables and creating one needs no DDL) and the 8-byte fingerprint: a check reads one block with
 * one prefix scan over its first 9 bytes. A band row is the band key's high 4 bytes, the flag
 * {@code 0xFF}, the uid and the 8-byte band key, read with a get. Each row's qualifiers are the
 * ordinals of the documents filed under it. Documents table: rows start with the uid, then a kind
 * byte. Immutable helpers.
 */
final class Rows {
  static final byte BAND_FLAG = (byte) 0xFF;
  static final byte DOC = 'd';
  static final byte ID = 'i';
  static final byte MEMBERS = 'm';
  static final byte ROOT_ID = 'r';
  static final byte EXPIRY = 'x';

  private Rows() {}

  /** The block row of fingerprint {@code fp} under block key {@code key} ({@code t << 16 | v}). */
  static byte[] block(int key, int uid, long fp) {
    return ByteBuffer.allocate(17)
        .putInt(key & 0xFFFF)
        .put((byte) (key >>> 16))
        .putInt(uid)
        .putLong(fp)
        .array();
  }

  /** The prefix of every block row of block key {@code key} in collection {@code uid}. */
  static byte[] blockPrefix(int key, int uid) {
    return ByteBuffer.allocate(9).putInt(key & 0xFFFF).put((byte) (key >>> 16)).putInt(uid).array();
  }

  /** The fingerprint of a block row. */
  static long blockFingerprint(byte[] row) {
    return ByteBuffer.wrap(row, 9, 8).getLong();
  }

  static byte[] band(long key, int uid) {
    return ByteBuffer.allocate(17)
        .putInt((int) (key >>> 32))
        .put(BAND_FLAG)
        .putInt(uid)
        .putLong(key)
        .array();
  }

  /** Split points of the index table: block values by their low byte, band rows by their first. */
  static byte[][] indexSplits() {
    return new byte[][] {
      {0, 0, 0x40}, {0, 0, (byte) 0x80}, {0, 0, (byte) 0xC0}, {0x40}, {(byte) 0x80}, {(byte) 0xC0}
    };
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
    byte[] b = id.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(5 + b.length).putInt(uid).put(ID).put(b).array();
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
