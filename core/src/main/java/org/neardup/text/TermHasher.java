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

  /**
   * Words of at most this many chars (at most 30 UTF-8 bytes, below XXH64's 32-byte stripes) are
   * hashed by {@link #shortHash}: nearly every word of a text.
   */
  static final int SHORT_CHARS = 10;

  /** Hashes {@code text[start, end)}. */
  public long hash(char[] text, int start, int end) {
    if (end - start <= SHORT_CHARS) {
      return shortHash(text, start, end);
    }
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

  /**
   * {@code xxh64(utf8(text[start, end)))} for at most {@link #SHORT_CHARS} chars, without the
   * bytes: each char's UTF-8 goes straight into four little-endian longs (bytes 0-31), which XXH64
   * then reads as its 8-, 4- and 1-byte steps would read the array.
   */
  static long shortHash(char[] text, int start, int end) {
    /*
     * Writing the bytes to an array and reading them back as longs and ints made each word wait
     * for its own byte stores (a wide load cannot be forwarded from narrower stores):
     * TermHasher took ~6% of a warm zh pass, with the 4-byte read its hottest line
     * (docs/BENCHMARKS.md, the seventeenth session).
     */
    long b0 = 0; // bytes 0-7
    long b1 = 0; // bytes 8-15
    long b2 = 0; // bytes 16-23
    long b3 = 0; // bytes 24-31
    int len = 0;
    for (int i = start; i < end; i++) {
      char c = text[i];
      long utf;
      int bytes;
      if (c < 0x80) {
        utf = c;
        bytes = 1;
      } else if (c < 0x800) {
        utf = (0xC0 | (c >> 6)) | (long) (0x80 | (c & 0x3F)) << 8;
        bytes = 2;
      } else if (!Character.isSurrogate(c)) {
        utf =
            (0xE0 | (c >> 12))
                | (long) (0x80 | ((c >> 6) & 0x3F)) << 8
                | (long) (0x80 | (c & 0x3F)) << 16;
        bytes = 3;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < end
          && Character.isLowSurrogate(text[i + 1])) {
        int cp = Character.toCodePoint(c, text[++i]);
        utf =
            (0xF0 | (cp >> 18))
                | (long) (0x80 | ((cp >> 12) & 0x3F)) << 8
                | (long) (0x80 | ((cp >> 6) & 0x3F)) << 16
                | (long) (0x80 | (cp & 0x3F)) << 24;
        bytes = 4;
      } else {
        utf = 0xEF | 0xBFL << 8 | 0xBDL << 16; // U+FFFD for a lone surrogate
        bytes = 3;
      }
      int shift = (len & 7) << 3;
      long low = utf << shift;
      long high = shift == 0 ? 0 : utf >>> (64 - shift); // the bytes that spill into the next long
      switch (len >>> 3) {
        case 0:
          b0 |= low;
          b1 |= high;
          break;
        case 1:
          b1 |= low;
          b2 |= high;
          break;
        case 2:
          b2 |= low;
          b3 |= high;
          break;
        default:
          b3 |= low;
          break;
      }
      len += bytes;
    }
    long h = P5 + len;
    int full = len >>> 3;
    long rest = b0;
    if (full > 0) {
      h = lane(h, b0);
      rest = b1;
      if (full > 1) {
        h = lane(h, b1);
        rest = b2;
        if (full > 2) {
          h = lane(h, b2);
          rest = b3;
        }
      }
    }
    int left = len & 7;
    if (left >= 4) {
      h ^= (rest & 0xFFFFFFFFL) * P1;
      h = Long.rotateLeft(h, 23) * P2 + P3;
      rest >>>= 32;
      left -= 4;
    }
    for (; left > 0; left--) {
      h ^= (rest & 0xFFL) * P5;
      h = Long.rotateLeft(h, 11) * P1;
      rest >>>= 8;
    }
    return avalanche(h);
  }

  /** XXH64's step over one 8-byte lane after the stripes. */
  private static long lane(long h, long lane) {
    h ^= round(0, lane);
    return Long.rotateLeft(h, 27) * P1 + P4;
  }

  private static long avalanche(long h) {
    h ^= h >>> 33;
    h *= P2;
    h ^= h >>> 29;
    h *= P3;
    h ^= h >>> 32;
    return h;
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
      h = lane(h, (long) LONGS.get(data, p));
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
    return avalanche(h);
  }

  private static long round(long acc, long input) {
    return Long.rotateLeft(acc + input * P2, 31) * P1;
  }

  private static long merge(long h, long v) {
    h ^= round(0, v);
    return h * P1 + P4;
  }
}
