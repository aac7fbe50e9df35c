// SPDX-License-Identifier: Apache-2.0
package org.neardup.text;

import java.util.Arrays;

/**
 * A growable char array reused from text to text, so the hot path does not allocate per text. Not
 * thread-safe.
 */
public final class TextBuffer implements CharSequence {
  char[] chars;
  int length;

  public TextBuffer() {
    this(256);
  }

  public TextBuffer(int capacity) {
    chars = new char[Math.max(16, capacity)];
  }

  /** The backing array; valid in {@code [0, length())} until the next write. */
  public char[] array() {
    return chars;
  }

  @Override
  public int length() {
    return length;
  }

  @Override
  public char charAt(int index) {
    if (index < 0 || index >= length) {
      throw new IndexOutOfBoundsException("index " + index + ", length " + length);
    }
    return chars[index];
  }

  @Override
  public CharSequence subSequence(int start, int end) {
    return new String(chars, start, end - start);
  }

  @Override
  public String toString() {
    return new String(chars, 0, length);
  }

  public void clear() {
    length = 0;
  }

  /** Makes room for {@code extra} more chars. */
  public void ensureSpare(int extra) {
    long need = (long) length + extra;
    if (need > chars.length) {
      if (need > Integer.MAX_VALUE - 16) {
        throw new IllegalArgumentException("text too long: " + need + " chars");
      }
      chars =
          Arrays.copyOf(
              chars, (int) Math.min(Integer.MAX_VALUE - 16, Math.max(need, chars.length * 2L)));
    }
  }

  public void append(char c) {
    if (length == chars.length) {
      ensureSpare(1);
    }
    chars[length++] = c;
  }

  public void append(CharSequence s, int start, int end) {
    ensureSpare(end - start);
    for (int i = start; i < end; i++) {
      chars[length++] = s.charAt(i);
    }
  }

  /** Replaces the content with the chars of {@code text}. */
  public void setTo(CharSequence text) {
    length = 0;
    int n = text.length();
    ensureSpare(n);
    if (text instanceof String) {
      ((String) text).getChars(0, n, chars, 0);
    } else {
      for (int i = 0; i < n; i++) {
        chars[i] = text.charAt(i);
      }
    }
    length = n;
  }

  public void append(char[] s, int start, int end) {
    ensureSpare(end - start);
    System.arraycopy(s, start, chars, length, end - start);
    length += end - start;
  }

  /** Drops everything after the first {@code newLength} chars. */
  public void truncate(int newLength) {
    if (newLength < 0 || newLength > length) {
      throw new IndexOutOfBoundsException("newLength " + newLength + ", length " + length);
    }
    length = newLength;
  }
}
