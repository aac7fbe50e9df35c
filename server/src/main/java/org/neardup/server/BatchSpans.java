// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * Finds where each document of a batch body starts and ends, without parsing it, so that the
 * documents can be parsed on every idle worker ({@link Json#readSpan}) instead of the whole body on
 * one before any analysis starts (1.5-1.8 ms of a news batch of 100 at load 12-14,
 * docs/BENCHMARKS.md, the fifteenth session).
 *
 * <p>Only the common shape is found: a JSON array of objects, or NDJSON objects with white space
 * between them, at most {@code max} of them. Anything else (a value that is not an object, a
 * missing or extra separator, a byte-order mark, more than {@code max} documents, an object not
 * closed) gives null, and the caller parses the whole body as before, which refuses it with its
 * usual message. What this accepts is valid JSON as a whole once every span parses as exactly one
 * object: each byte is inside a span or a separator checked here. Thread-safe, no state.
 */
final class BatchSpans {
  private BatchSpans() {}

  /**
   * The documents' byte ranges, {@code [start0, end0, start1, end1, ...]} (end exclusive), or null
   * when the body is not a plain array or NDJSON of 1 to {@code max} objects.
   */
  static int @Nullable [] find(byte[] body, boolean array, int max) {
    int[] spans = new int[32];
    int n = 0;
    int i = skipBlank(body, 0);
    if (array) {
      if (i == body.length || body[i] != '[') {
        return null;
      }
      i = skipBlank(body, i + 1);
    }
    while (true) {
      if (i == body.length || body[i] != '{' || n == max) {
        return null;
      }
      int end = objectEnd(body, i);
      if (end < 0) {
        return null;
      }
      if (2 * n + 2 > spans.length) {
        spans = Arrays.copyOf(spans, spans.length * 2);
      }
      spans[2 * n] = i;
      spans[2 * n + 1] = end;
      n++;
      int next = skipBlank(body, end);
      if (array) {
        if (next == body.length) {
          return null;
        }
        if (body[next] == ']') {
          return skipBlank(body, next + 1) == body.length ? Arrays.copyOf(spans, 2 * n) : null;
        }
        if (body[next] != ',') {
          return null;
        }
        i = skipBlank(body, next + 1);
      } else {
        if (next == body.length) {
          return Arrays.copyOf(spans, 2 * n);
        }
        if (next == end) {
          return null; // two values with nothing between them: left to the parser
        }
        i = next;
      }
    }
  }

  private static int skipBlank(byte[] b, int from) {
    int i = from;
    while (i < b.length && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t')) {
      i++;
    }
    return i;
  }

  /**
   * The index after the bracket that closes the one at {@code start}, counting brackets outside
   * strings; -1 if the body ends first.
   */
  private static int objectEnd(byte[] b, int start) {
    int depth = 0;
    for (int i = start; i < b.length; i++) {
      byte c = b[i];
      if (c == '"') {
        i = stringEnd(b, i);
        if (i < 0) {
          return -1;
        }
      } else if (c == '{' || c == '[') {
        depth++;
      } else if (c == '}' || c == ']') {
        if (--depth == 0) {
          return i + 1;
        }
      }
    }
    return -1;
  }

  /**
   * The index of the quote that ends the string opened at {@code open}; -1 if none does. Eight
   * bytes at a time while none of them is a quote or a backslash: a byte at a time, finding a news
   * batch's spans took 296 us of CPU per 390 KB body, against 714 us for the whole parse it spares
   * the deciding worker (docs/BENCHMARKS.md, the fifteenth session).
   */
  static int stringEnd(byte[] b, int open) {
    int i = open + 1;
    while (i <= b.length - 8) {
      long w = (long) LONGS.get(b, i);
      long hit = zeroByte(w ^ QUOTES) | zeroByte(w ^ BACKSLASHES);
      if (hit == 0) {
        i += 8;
        continue;
      }
      // The lowest flagged byte is a quote or a backslash (only bytes above it can be flagged
      // falsely, by the subtraction's borrow).
      i += Long.numberOfTrailingZeros(hit) >>> 3;
      if (b[i] == '"') {
        return i;
      }
      i += 2; // a backslash and the byte it escapes
    }
    for (; i < b.length; i++) {
      if (b[i] == '\\') {
        i++;
      } else if (b[i] == '"') {
        return i;
      }
    }
    return -1;
  }

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long QUOTES = ONES * '"';
  private static final long BACKSLASHES = ONES * '\\';

  /**
   * The high bit of each zero byte of {@code x} set; above the lowest, bytes may be set falsely.
   */
  private static long zeroByte(long x) {
    return (x - ONES) & ~x & 0x8080808080808080L;
  }
}
