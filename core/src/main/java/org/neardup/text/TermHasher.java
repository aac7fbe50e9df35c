// SPDX-License-Identifier: Apache-2.0
package org.neardup.text;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The 64-bit hash of a word: XXH64 (seed 0) of the word's UTF-8 bytes.
 *
 * <p>This is part of the fingerprint format: the same word must hash to the same value in every
 * release and every language binding ({@code xxhash.xxh64_intdigest(word.encode("utf-8"))} in
 * Python). A lone surrogate is encoded as U+FFFD. Tests check it against {@code
 * net.openhft.hashing.LongHashFunction.xx()}.
 *
 * <p>An instance holds a scratch buffer and is not thread-safe; {@link #hash(char[], int, int)}
 * allocates nothing unless a word is longer than any before it.
 */
public final class TermHasher {
  /*
   * XXH64 as specified in https://github.com/Cyan4973/xxHash/blob/dev/doc/xxhash_spec.md,
   * written from the specification. Little-endian reads through a VarHandle so the JIT emits
   * single 8-byte loads.
   */
  private static final long P1 = 0x9E3779B185EBCA87L;
  private static final long P2 = 0xC2B2AE3D27D4EB4FL;
  private static final long P3 = 0x165667B19E3779F9L;
  private static final long P4 = 0x85EBCA77C2B2AE63L;
  private static final long P5 = 0x27D4EB2F165667C5L;

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  private byte[] scratch = new byte[64];

  /** Hashes {@code text[start, end)}. */
  public long hash(char[] text, int start, int end) {
    int max = (end - start) * 3;
    if (scratch.length < max) {
      scratch = new byte[Math.max(max, scratch.length * 2)];
    }
    int n = utf8(text, start, end, scratch);
    return xxh64(scratch, 0, n);
  }

  /** Hashes a whole string; allocates, for use off the hot path. */
  public static long hash(CharSequence word) {
    char[] chars = word.toString().toCharArray();
    return new TermHasher().hash(chars, 0, chars.length);
  }

  /**
   * Writes the UTF-8 encoding of {@code text[start, end)} to {@code out}, which must hold 3 bytes
   * per char; returns the number of bytes written.
   */
  static int utf8(char[] text, int start, int end, byte[] out) {
    int n = 0;
    for (int i = start; i < end; i++) {
      char c = text[i];
      if (c < 0x80) {
        out[n++] = (byte) c;
      } else if (c < 0x800) {
        out[n++] = (byte) (0xC0 | (c >> 6));
        out[n++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isSurrogate(c)) {
        if (Character.isHighSurrogate(c) && i + 1 < end && Character.isLowSurrogate(text[i + 1])) {
          int cp = Character.toCodePoint(c, text[++i]);
          out[n++] = (byte) (0xF0 | (cp >> 18));
          out[n++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
          out[n++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
          out[n++] = (byte) (0x80 | (cp & 0x3F));
        } else {
          out[n++] = (byte) 0xEF; // U+FFFD
          out[n++] = (byte) 0xBF;
          out[n++] = (byte) 0xBD;
        }
      } else {
        out[n++] = (byte) (0xE0 | (c >> 12));
        out[n++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        out[n++] = (byte) (0x80 | (c & 0x3F));
      }
    }
    return n;
  }

  /** XXH64 with seed 0 of {@code data[off, off + len)}. */
  public static long xxh64(byte[] data, int off, int len) {
    int p = off;
    int end = off + len;
    long h;
    if (len >= 32) {
      long v1 = P1 + P2;
      long v2 = P2;
      long v3 = 0;
      long v4 = -P1;
      int limit = end - 32;
      do {
        v1 = round(v1, (long) LONGS.get(data, p));
        v2 = round(v2, (long) LONGS.get(data, p + 8));
        v3 = round(v3, (long) LONGS.get(data, p + 16));
        v4 = round(v4, (long) LONGS.get(data, p + 24));
        p += 32;
      } while (p <= limit);
      h =
          Long.rotateLeft(v1, 1)
              + Long.rotateLeft(v2, 7)
              + Long.rotateLeft(v3, 12)
              + Long.rotateLeft(v4, 18);
      h = merge(h, v1);
      h = merge(h, v2);
      h = merge(h, v3);
      h = merge(h, v4);
    } else {
      h = P5;
    }
    h += len;
    while (p + 8 <= end) {
      h ^= round(0, (long) LONGS.get(data, p));
      h = Long.rotateLeft(h, 27) * P1 + P4;
      p += 8;
    }
    if (p + 4 <= end) {
      h ^= ((int) INTS.get(data, p) & 0xFFFFFFFFL) * P1;
      h = Long.rotateLeft(h, 23) * P2 + P3;
      p += 4;
    }
    while (p < end) {
      h ^= (data[p] & 0xFFL) * P5;
      h = Long.rotateLeft(h, 11) * P1;
      p++;
    }
    h ^= h >>> 33;
    h *= P2;
    h ^= h >>> 29;
    h *= P3;
    h ^= h >>> 32;
    return h;
  }

  private static long round(long acc, long input) {
    return Long.rotateLeft(acc + input * P2, 31) * P1;
  }

  private static long merge(long h, long v) {
    h ^= round(0, v);
    return h * P1 + P4;
  }
}
