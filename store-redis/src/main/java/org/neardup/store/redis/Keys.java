// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The names of one collection's keys. Every key of a collection carries the hash tag {@code
 * {name:uid}}, so in Redis Cluster they all live in one slot and a script may touch any of them;
 * the uid (a number drawn when the collection is created) keeps a collection created again under a
 * dropped one's name apart from the dropped one's leftovers. Block and band keys end in the key's
 * raw bytes (3 and 8), which keeps the names short: there is one such key per distinct block value
 * and band key, the most numerous keys of the store. Immutable.
 */
final class Keys {
  final String base;
  final byte[] meta;
  final byte[] seq;
  final byte[] docs;
  final byte[] sketches;
  final byte[] parents;
  final byte[] rootIds;
  final byte[] ids;
  final byte[] expiry;
  final byte[] stats;
  private final byte[] block;
  private final byte[] band;
  private final byte[] members;

  Keys(String prefix, String name, long uid) {
    base = prefix + ":{" + name + ":" + uid + "}:";
    meta = key("meta");
    seq = key("seq");
    docs = key("d");
    sketches = key("s");
    parents = key("p");
    rootIds = key("r");
    ids = key("i");
    expiry = key("x");
    stats = key("st");
    block = key("b");
    band = key("k");
    members = key("m");
  }

  private byte[] key(String suffix) {
    return (base + suffix).getBytes(StandardCharsets.UTF_8);
  }

  /** The set of ordinals filed under block key {@code key} ({@code block << 16 | value}). */
  byte[] block(int key) {
    byte[] k = Arrays.copyOf(block, block.length + 3);
    k[block.length] = (byte) (key >>> 16);
    k[block.length + 1] = (byte) (key >>> 8);
    k[block.length + 2] = (byte) key;
    return k;
  }

  /** The set of ordinals filed under a band key. */
  byte[] band(long key) {
    byte[] k = Arrays.copyOf(band, band.length + 8);
    for (int i = 0; i < 8; i++) {
      k[band.length + i] = (byte) (key >>> (56 - 8 * i));
    }
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
