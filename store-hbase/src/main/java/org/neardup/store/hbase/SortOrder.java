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
      toStarts(count, mask + 1);
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

  /** Keys sorted with their payloads, by {@link #carry}: each array's first n elements. */
  record Carried(long[] keys, long[][] longs, int[] ints) {}

  /** Bits of a radix digit in {@link #carry}: 2,048 buckets, whose write heads stay in cache. */
  private static final int CARRY_DIGIT = 11;

  /**
   * The first {@code n} keys stably sorted by their low {@code bits} bits, unsigned, each moving
   * {@code longs[j][i]} (for every payload j) and {@code ints[i]} along: LSD radix on the arrays
   * themselves, so that every pass reads them in order (sorting indices into a key array reads the
   * keys at random, one cache miss per element per pass once they outgrow the cache). The input
   * arrays are reused as scratch; the result is in the returned arrays (which may be the inputs).
   */
  static Carried carry(long[] keys, long[][] longs, int[] ints, int n, int bits) {
    long[] k = keys;
    long[][] l = longs.clone();
    int[] v = ints;
    if (n == 0) {
      return new Carried(k, l, v);
    }
    int payloads = l.length;
    long[] k2 = new long[n];
    long[][] l2 = new long[payloads][n];
    int[] v2 = new int[n];
    int[] count = new int[1 << CARRY_DIGIT];
    for (int shift = 0; shift < bits; shift += CARRY_DIGIT) {
      int width = Math.min(CARRY_DIGIT, bits - shift);
      int mask = (1 << width) - 1;
      java.util.Arrays.fill(count, 0, mask + 1, 0);
      for (int i = 0; i < n; i++) {
        count[(int) (k[i] >>> shift) & mask]++;
      }
      if (count[(int) (k[0] >>> shift) & mask] == n) {
        continue; // one digit value for every element: nothing moves
      }
      toStarts(count, mask + 1);
      if (payloads == 0) {
        for (int i = 0; i < n; i++) {
          long key = k[i];
          int to = count[(int) (key >>> shift) & mask]++;
          k2[to] = key;
          v2[to] = v[i];
        }
      } else if (payloads == 1) {
        long[] from = l[0];
        long[] into = l2[0];
        for (int i = 0; i < n; i++) {
          long key = k[i];
          int to = count[(int) (key >>> shift) & mask]++;
          k2[to] = key;
          v2[to] = v[i];
          into[to] = from[i];
        }
      } else {
        for (int i = 0; i < n; i++) {
          long key = k[i];
          int to = count[(int) (key >>> shift) & mask]++;
          k2[to] = key;
          v2[to] = v[i];
          for (int j = 0; j < payloads; j++) {
            l2[j][to] = l[j][i];
          }
        }
      }
      long[] tk = k;
      k = k2;
      k2 = tk;
      int[] tv = v;
      v = v2;
      v2 = tv;
      long[][] tl = l;
      l = l2;
      l2 = tl;
    }
    return new Carried(k, l, v);
  }

  /** Turns the first {@code buckets} counts into each bucket's first position (exclusive sums). */
  private static void toStarts(int[] count, int buckets) {
    int sum = 0;
    for (int d = 0; d < buckets; d++) {
      int c = count[d];
      count[d] = sum;
      sum += c;
    }
  }

  /** Bits needed for the largest of the first {@code n} values (unsigned), at least 1. */
  static int bitsOf(long[] values, int stride, int offset, int n) {
    long or = 0;
    for (int i = 0; i < n; i++) {
      or |= values[i * stride + offset];
    }
    return Math.max(1, 64 - Long.numberOfLeadingZeros(or));
  }

  /**
   * The first 8 bytes of {@code b}, big-endian, zero-padded: where two arrays' prefixes differ,
   * they order as {@link java.util.Arrays#compareUnsigned(byte[], byte[])} orders the arrays.
   */
  static long prefix(byte[] b) {
    return prefix(b, 0, b.length);
  }

  /** As {@link #prefix(byte[])}, of the {@code len} bytes of {@code b} from {@code off}. */
  static long prefix(byte[] b, int off, int len) {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (i < len ? b[off + i] & 0xFF : 0);
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
   * does where the keys differ ({@code cmp} decides only between equal keys), {@code keys[i]} being
   * the key of {@code order[i]}: one radix sort by key ({@link #carry}), then a merge sort of each
   * run of equal keys; {@code payloads} move along as in {@link #carry}. Returns the sorted keys,
   * payloads and order (maybe the inputs, reordered).
   */
  static Carried sort(int[] order, long[] keys, long[][] payloads, IntComparator cmp) {
    int n = order.length;
    Carried c = carry(keys, payloads, order, n, 64);
    long[] k = c.keys();
    int[] sorted = c.ints();
    for (int from = 0; from < n; ) {
      long key = k[from];
      int to = from + 1;
      while (to < n && k[to] == key) {
        to++;
      }
      if (to - from > 1) {
        sortRun(sorted, c.longs(), from, to, cmp);
      }
      from = to;
    }
    return c;
  }

  /**
   * Sorts {@code order[from, to)} by {@code cmp}, stably, moving each payload's elements there
   * along: the run's positions are sorted, then applied to the order and to every payload (which
   * are aligned with the order, as {@link #carry} leaves them).
   */
  private static void sortRun(int[] order, long[][] payloads, int from, int to, IntComparator cmp) {
    int len = to - from;
    int[] at = new int[len];
    for (int i = 0; i < len; i++) {
      at[i] = from + i;
    }
    mergeSort(at.clone(), at, 0, len, (a, b) -> cmp.compare(order[a], order[b]));
    int[] o = new int[len];
    for (int i = 0; i < len; i++) {
      o[i] = order[at[i]];
    }
    System.arraycopy(o, 0, order, from, len);
    long[] l = new long[len];
    for (long[] p : payloads) {
      for (int i = 0; i < len; i++) {
        l[i] = p[at[i]];
      }
      System.arraycopy(l, 0, p, from, len);
    }
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
