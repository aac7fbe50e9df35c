// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The names of one collection's keys. Every key of a collection carries the hash tag {@code
 * {name:uid}}, so in Redis Cluster they all live in one slot and a script may touch any of them;
 * the uid (a number drawn when the collection is created) keeps a collection created again under a
 * dropped one's name apart from the dropped one's leftovers. Block and band keys end in the key's
 * raw bytes (3 each), which keeps the names short: they are the most numerous keys of the store.
 * Per-document data lives in buckets of small hashes, which Redis keeps as compact listpacks (up to
 * 128 fields of up to 64 bytes by default): records and sketches by ordinal ({@value #BUCKET}
 * ordinals per bucket), ids by an {@code idBits}-bit hash of the id (the collection's {@code
 * id-bucket-bits}, 16 by default: listpacks up to ~8M documents). Immutable.
 */
final class Keys {
  /** Ordinals per record (and sketch) bucket. */
  static final int BUCKET = 128;

  /** The default bits of the id index's buckets: 2^16 buckets, ~8M documents at 128 per bucket. */
  static final int DEFAULT_ID_BITS = 16;

  /** The range of {@code id-bucket-bits}. */
  static final int MIN_ID_BITS = 8;

  static final int MAX_ID_BITS = 24;

  final String base;
  final byte[] baseBytes;
  final byte[] meta;
  final byte[] seq;
  final byte[] parents;
  final byte[] rootIds;
  final byte[] expiry;
  final byte[] stats;
  private final byte[] block;
  private final byte[] band;
  private final byte[] members;
  private final byte[] ids;
  final int idBits;

  Keys(String prefix, String name, long uid, int idBits) {
    assert idBits >= MIN_ID_BITS && idBits <= MAX_ID_BITS : "checked by Layout";
    this.idBits = idBits;
    base = prefix + ":{" + name + ":" + uid + "}:";
    baseBytes = base.getBytes(StandardCharsets.UTF_8);
    meta = key("meta");
    seq = key("seq");
    parents = key("p");
    rootIds = key("r");
    expiry = key("x");
    stats = key("st");
    block = key("b");
    band = key("k");
    members = key("m");
    ids = key("i");
  }

  private byte[] key(String suffix) {
    return (base + suffix).getBytes(StandardCharsets.UTF_8);
  }

  /** The bucket of record hashes holding ordinal {@code ordinal}, field {@link #field}. */
  byte[] docs(long ordinal) {
    return key("d" + (ordinal / BUCKET));
  }

  /** The bucket of sketch hashes holding ordinal {@code ordinal}, field {@link #field}. */
  byte[] sketches(long ordinal) {
    return key("s" + (ordinal / BUCKET));
  }

  /** An ordinal's field in its record and sketch buckets. */
  static byte[] field(long ordinal) {
    return Long.toString(ordinal % BUCKET).getBytes(StandardCharsets.US_ASCII);
  }

  /** The bucket of the id index (id to ordinal) holding {@code id}. */
  byte[] ids(String id) {
    return idBucketKey(idBucket(id.getBytes(StandardCharsets.UTF_8)));
  }

  /**
   * The number of the id index bucket holding the id whose UTF-8 bytes are {@code utf8[off, end)}.
   */
  int idBucket(byte[] utf8, int off, int end) {
    int h = 0x811c9dc5; // FNV-1a, 32 bits
    for (int i = off; i < end; i++) {
      h = (h ^ (utf8[i] & 0xff)) * 0x01000193;
    }
    // Fibonacci hashing: the top idBits bits of the mixed hash.
    return (h * 0x9E3779B9) >>> (32 - idBits);
  }

  private int idBucket(byte[] utf8) {
    return idBucket(utf8, 0, utf8.length);
  }

  /** The key of id index bucket {@code bucket} ({@link #idBucket}). */
  byte[] idBucketKey(int bucket) {
    int n = (idBits + 7) / 8;
    byte[] k = Arrays.copyOf(ids, ids.length + n);
    for (int i = 0; i < n; i++) {
      k[ids.length + i] = (byte) (bucket >>> (8 * (n - 1 - i)));
    }
    return k;
  }

  /** The set of ordinals filed under block key {@code key} ({@code block << 16 | value}). */
  byte[] block(int key) {
    byte[] k = Arrays.copyOf(block, block.length + 3);
    k[block.length] = (byte) (key >>> 16);
    k[block.length + 1] = (byte) (key >>> 8);
    k[block.length + 2] = (byte) key;
    return k;
  }

  /** The band bucket {@code bucket} ({@link BandEntries#bucket}), a string of entries. */
  byte[] band(int bucket) {
    byte[] k = Arrays.copyOf(band, band.length + 3);
    k[band.length] = (byte) (bucket >>> 16);
    k[band.length + 1] = (byte) (bucket >>> 8);
    k[band.length + 2] = (byte) bucket;
    return k;
  }

  /** The set of stored members of the cluster whose root is {@code root}. */
  byte[] members(long root) {
    return (new String(members, StandardCharsets.UTF_8) + root).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * A SCAN pattern matching every key of the collection. Prefix and name have no glob characters
   * ({@code [A-Za-z0-9._-]}), and braces are not special in a pattern, so the hash tag stays as it
   * is, which lets a cluster client send the SCAN to the tag's node.
   */
  String pattern() {
    return base + "*";
  }
}
