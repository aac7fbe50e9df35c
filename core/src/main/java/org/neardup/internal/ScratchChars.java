// SPDX-License-Identifier: Apache-2.0
package org.neardup.internal;

/**
 * A char array each thread keeps for building strings (decoding a line, unescaping a JSON string)
 * before their one copy into a {@code String}, instead of a buffer per string. The caller must be
 * done with the array before its thread asks again: each use here ends in {@code new String(chars,
 * 0, n)} before returning.
 */
public final class ScratchChars {
  /**
   * Arrays up to this many chars stay with their thread; larger requests get an array of their own.
   */
  public static final int RETAINED = 1 << 20;

  private static final ThreadLocal<char[]> SCRATCH = ThreadLocal.withInitial(() -> new char[1024]);

  private ScratchChars() {}

  /**
   * An array of at least {@code n} chars: this thread's (grown if needed, at least doubling, up to
   * {@link #RETAINED}) when {@code n <= RETAINED}, else a new one.
   */
  public static char[] atLeast(int n) {
    if (n > RETAINED) {
      return new char[n];
    }
    char[] chars = SCRATCH.get();
    if (chars.length < n) {
      chars = new char[Math.max(n, Math.min(RETAINED, chars.length * 2))];
      SCRATCH.set(chars);
    }
    return chars;
  }
}
