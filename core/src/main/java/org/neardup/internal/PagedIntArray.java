// SPDX-License-Identifier: Apache-2.0
package org.neardup.internal;

import java.util.Arrays;

/**
 * A growable {@code int} array in fixed-size pages, indexed by {@code long}: appending never copies
 * the entries already stored, so no single call pays for the array's size.
 *
 * <p>Growth allocates one page of 2^16 entries (256 KiB, zeroed in well under a millisecond) and,
 * once in a while, doubles the page directory (one reference per page: 1.2 KiB at 10M entries). The
 * first page starts small and doubles up to the page size, so small arrays stay small (that copy is
 * at most one page). A read is one directory load (the directory is a few cache lines, always hot)
 * plus the entry's own load: the same one cache miss as a flat array. Not thread-safe.
 */
public final class PagedIntArray {
  /*
   * Entry i lives at pages[i >>> PAGE_BITS][i & PAGE_MASK]. Invariants: pages[0 .. pageCount) are
   * non-null; every page but page 0 has PAGE entries; page 0 has PAGE entries once pageCount > 1;
   * size <= capacity() and entries at [size, capacity()) are 0.
   */
  static final int PAGE_BITS = 16;
  static final int PAGE = 1 << PAGE_BITS;
  private static final int PAGE_MASK = PAGE - 1;
  private static final int FIRST_PAGE = 64;

  private int[][] pages = new int[4][];
  private int pageCount;
  private long size;

  /** An empty array. */
  public PagedIntArray() {}

  /** An empty array with room for {@code expected} entries before it allocates again. */
  public PagedIntArray(long expected) {
    Checks.checkArgument(expected >= 0, "expected must be >= 0, got %s", expected);
    ensureCapacity(expected);
  }

  /**
   * The number of entries: one more than the largest index appended or set through {@link #resize}.
   */
  public long size() {
    return size;
  }

  /** Entry i, for {@code 0 <= i < size()} (checked by assertion only: this is a hot path). */
  public int get(long i) {
    assert i >= 0 && i < size : "index " + i + " out of [0, " + size + ")";
    return pages[(int) (i >>> PAGE_BITS)][(int) i & PAGE_MASK];
  }

  /** Sets entry i, for {@code 0 <= i < size()}. */
  public void set(long i, int value) {
    assert i >= 0 && i < size : "index " + i + " out of [0, " + size + ")";
    pages[(int) (i >>> PAGE_BITS)][(int) i & PAGE_MASK] = value;
  }

  /** Appends value; returns its index. */
  public long append(int value) {
    long i = size;
    if (i == capacity()) {
      ensureCapacity(i + 1);
    }
    pages[(int) (i >>> PAGE_BITS)][(int) i & PAGE_MASK] = value;
    size = i + 1;
    return i;
  }

  /** Appends {@code values[off, off + len)}; returns the index of the first. */
  public long append(int[] values, int off, int len) {
    long start = size;
    resize(start + len);
    for (int k = 0; k < len; k++) {
      long i = start + k;
      pages[(int) (i >>> PAGE_BITS)][(int) i & PAGE_MASK] = values[off + k];
    }
    return start;
  }

  /** Copies entries {@code [from, from + len)} into {@code out[off, off + len)}. */
  public void get(long from, int[] out, int off, int len) {
    assert from >= 0 && from + len <= size;
    for (int k = 0; k < len; k++) {
      long i = from + k;
      out[off + k] = pages[(int) (i >>> PAGE_BITS)][(int) i & PAGE_MASK];
    }
  }

  /** Grows to {@code newSize} entries, the new ones 0; never shrinks. */
  public void resize(long newSize) {
    Checks.checkArgument(newSize >= 0, "newSize must be >= 0, got %s", newSize);
    if (newSize > size) {
      ensureCapacity(newSize);
      size = newSize;
    }
  }

  private long capacity() {
    return pageCount == 0 ? 0 : pageCount == 1 ? pages[0].length : (long) pageCount << PAGE_BITS;
  }

  private void ensureCapacity(long n) {
    if (n <= capacity()) {
      return;
    }
    if (n <= PAGE) {
      // Page 0 doubles up to a full page: at most one page is ever copied.
      int cap = pageCount == 0 ? FIRST_PAGE : pages[0].length;
      while (cap < n) {
        cap *= 2;
      }
      pages[0] = pageCount == 0 ? new int[cap] : Arrays.copyOf(pages[0], cap);
      pageCount = 1;
      return;
    }
    if (pageCount == 1 && pages[0].length < PAGE) {
      pages[0] = Arrays.copyOf(pages[0], PAGE);
    } else if (pageCount == 0) {
      pages[0] = new int[PAGE];
      pageCount = 1;
    }
    long needPages = (n + PAGE - 1) >>> PAGE_BITS;
    Checks.checkArgument(
        needPages <= Integer.MAX_VALUE - 8,
        "a paged array holds at most 2^46 entries, asked for %s",
        n);
    while (pageCount < needPages) {
      if (pageCount == pages.length) {
        pages = Arrays.copyOf(pages, pageCount * 2);
      }
      pages[pageCount++] = new int[PAGE];
    }
  }

  /** Heap bytes of the pages and the directory. */
  public long ramBytesUsed() {
    long bytes = 32 + 16 + pages.length * 4L;
    for (int p = 0; p < pageCount; p++) {
      bytes += 16 + pages[p].length * 4L;
    }
    return bytes;
  }
}
