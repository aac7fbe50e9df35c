// SPDX-License-Identifier: Apache-2.0
package org.neardup.internal;

/** Bit mixing shared by the project's hash tables. */
public final class Mix {
  private Mix() {}

  /** MurmurHash3's 64-bit finaliser: every output bit depends on every input bit. */
  public static long fmix64(long h) {
    h ^= h >>> 33;
    h *= 0xFF51AFD7ED558CCDL;
    h ^= h >>> 33;
    h *= 0xC4CEB9FE1A85EC53L;
    h ^= h >>> 33;
    return h;
  }
}
