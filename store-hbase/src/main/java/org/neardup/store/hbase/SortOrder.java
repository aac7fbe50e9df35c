// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

/**
 * Stable sort orders of primitive arrays, for {@link HFileImporter}: a permutation of element
 * indices, sorted by a key, ties left in their earlier order. Keys are compared unsigned. Costs one
 * pass over the elements per 16 key bits that differ (LSD radix), no per-element allocation.
 */
final class SortOrder {
  private static final int DIGIT = 16;

  /** Compares elements {@code a} and {@code b}. */
  @FunctionalInterface
  interface IntComparator {
    int compare(int a, int b);
  }

  private SortOrder() {}

  /** 0, 1, ..., n - 1. */
  static int[] identity(int n) {
    int[] out = new int[n];
    for (int i = 0; i < n; i++) {
      out[i] = i;
    }
    return out;
  }

  /**
   * {@code order} stably sorted by {@code keys[order[i]]}, of which the low {@code bits} bits
   * count. May return {@code order} itself, reordered, or a new array.
   */
  static int[] byKey(int[] order, long[] keys, int bits) {
    return byKey(order, keys, 1, 0, bits);
  }

  /**
   * {@code order} stably sorted by {@code keys[order[i] * stride + offset]}, of which the low
   * {@code bits} bits count: keys interleaved with other fields, {@code stride} longs per element.
   */
  static int[] byKey(int[] order, long[] keys, int stride, int offset, int bits) {
    int n = order.length;
    if (n == 0) {
      return order;
    }
    int[] in = order;
    int[] out = new int[n];
    int[] count = new int[1 << DIGIT];
    for (int shift = 0; shift < bits; shift += DIGIT) {
      int width = Math.min(DIGIT, bits - shift);
      int mask = (1 << width) - 1;
      java.util.Arrays.fill(count, 0, mask + 1, 0);
      for (int i = 0; i < n; i++) {
        count[(int) (keys[in[i] * stride + offset] >>> shift) & mask]++;
      }
      if (count[(int) (keys[in[0] * stride + offset] >>> shift) & mask] == n) {
        continue; // one digit value for every element: nothing moves
      }
      int sum = 0;
      for (int d = 0; d <= mask; d++) {
        int c = count[d];
        count[d] = sum;
        sum += c;
      }
      for (int i = 0; i < n; i++) {
        int e = in[i];
        out[count[(int) (keys[e * stride + offset] >>> shift) & mask]++] = e;
      }
      int[] t = in;
      in = out;
      out = t;
    }
    return in;
  }

  /**
   * The first 8 bytes of {@code b}, big-endian, zero-padded: where two arrays' prefixes differ,
   * they order as {@link java.util.Arrays#compareUnsigned(byte[], byte[])} orders the arrays.
   */
  static long prefix(byte[] b) {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (i < b.length ? b[i] & 0xFF : 0);
    }
    return v;
  }

  /** {@code order} stably sorted by {@code cmp} (merge sort). */
  static void sort(int[] order, IntComparator cmp) {
    int[] tmp = order.clone();
    mergeSort(tmp, order, 0, order.length, cmp);
  }

  /**
   * {@code order} stably sorted by {@code cmp}, given a key per element that orders as {@code cmp}
   * does where the keys differ ({@code cmp} decides only between equal keys): one radix sort by
   * key, then a merge sort of each run of equal keys. Returns the sorted order (maybe {@code order}
   * itself, reordered).
   */
  static int[] sort(int[] order, long[] keys, IntComparator cmp) {
    int[] sorted = byKey(order, keys, 64);
    int[] tmp = null;
    int n = sorted.length;
    for (int from = 0; from < n; ) {
      long k = keys[sorted[from]];
      int to = from + 1;
      while (to < n && keys[sorted[to]] == k) {
        to++;
      }
      if (to - from > 1) {
        if (tmp == null) {
          tmp = new int[n];
        }
        System.arraycopy(sorted, from, tmp, from, to - from);
        mergeSort(tmp, sorted, from, to, cmp);
      }
      from = to;
    }
    return sorted;
  }

  /** Sorts {@code dst[from, to)} using {@code src}, which holds the same elements there. */
  private static void mergeSort(int[] src, int[] dst, int from, int to, IntComparator cmp) {
    if (to - from < 16) {
      for (int i = from + 1; i < to; i++) {
        int e = dst[i];
        int j = i - 1;
        while (j >= from && cmp.compare(dst[j], e) > 0) {
          dst[j + 1] = dst[j];
          j--;
        }
        dst[j + 1] = e;
      }
      return;
    }
    int mid = (from + to) >>> 1;
    mergeSort(dst, src, from, mid, cmp);
    mergeSort(dst, src, mid, to, cmp);
    if (cmp.compare(src[mid - 1], src[mid]) <= 0) {
      System.arraycopy(src, from, dst, from, to - from);
      return;
    }
    for (int i = from, p = from, q = mid; i < to; i++) {
      if (q >= to || (p < mid && cmp.compare(src[p], src[q]) <= 0)) {
        dst[i] = src[p++];
      } else {
        dst[i] = src[q++];
      }
    }
  }
}
