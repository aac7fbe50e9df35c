// SPDX-License-Identifier: Apache-2.0
package org.neardup.internal;

/** Primitive sorts that carry a payload array along, without boxing. */
public final class Sorts {
  private Sorts() {}

  /** Sorts {@code keys[0, n)} ascending and permutes {@code values} alongside; not stable. */
  public static void sortByKey(long[] keys, int[] values, int n) {
    Checks.checkArgument(n >= 0 && n <= keys.length && n <= values.length, "n %s out of range", n);
    quicksort(keys, values, 0, n - 1);
  }

  private static void quicksort(long[] k, int[] v, int lo, int hi) {
    while (lo < hi) {
      if (hi - lo < 16) {
        for (int i = lo + 1; i <= hi; i++) {
          long key = k[i];
          int val = v[i];
          int j = i - 1;
          while (j >= lo && k[j] > key) {
            k[j + 1] = k[j];
            v[j + 1] = v[j];
            j--;
          }
          k[j + 1] = key;
          v[j + 1] = val;
        }
        return;
      }
      long a = k[lo];
      long b = k[(lo + hi) >>> 1];
      long c = k[hi];
      long pivot = Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
      int i = lo;
      int j = hi;
      while (i <= j) {
        while (k[i] < pivot) {
          i++;
        }
        while (k[j] > pivot) {
          j--;
        }
        if (i <= j) {
          long tk = k[i];
          k[i] = k[j];
          k[j] = tk;
          int tv = v[i];
          v[i] = v[j];
          v[j] = tv;
          i++;
          j--;
        }
      }
      // Recurse into the smaller side, loop on the larger: O(log n) stack.
      if (j - lo < hi - i) {
        quicksort(k, v, lo, j);
        lo = i;
      } else {
        quicksort(k, v, i, hi);
        hi = j;
      }
    }
  }
}
