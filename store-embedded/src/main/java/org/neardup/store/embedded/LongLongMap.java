// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.util.Arrays;

/** A small open-addressing map from long to long, for bookkeeping during a restore. */
final class LongLongMap {
  static final long MISSING = Long.MIN_VALUE;
  private static final long EMPTY = Long.MIN_VALUE;

  private long[] keys;
  private long[] values;
  private int size;

  LongLongMap() {
    keys = new long[64];
    values = new long[64];
    Arrays.fill(keys, EMPTY);
  }

  private static int mix(long k) {
    k *= 0x9E3779B97F4A7C15L;
    return (int) (k ^ (k >>> 32));
  }

  long get(long key) {
    int mask = keys.length - 1;
    for (int i = mix(key) & mask; ; i = (i + 1) & mask) {
      if (keys[i] == key) {
        return values[i];
      }
      if (keys[i] == EMPTY) {
        return MISSING;
      }
    }
  }

  void put(long key, long value) {
    assert key != EMPTY;
    if ((size + 1) * 2 > keys.length) {
      long[] ok = keys;
      long[] ov = values;
      keys = new long[ok.length * 2];
      values = new long[ok.length * 2];
      Arrays.fill(keys, EMPTY);
      size = 0;
      for (int i = 0; i < ok.length; i++) {
        if (ok[i] != EMPTY) {
          put(ok[i], ov[i]);
        }
      }
    }
    int mask = keys.length - 1;
    for (int i = mix(key) & mask; ; i = (i + 1) & mask) {
      if (keys[i] == key) {
        values[i] = value;
        return;
      }
      if (keys[i] == EMPTY) {
        keys[i] = key;
        values[i] = value;
        size++;
        return;
      }
    }
  }

  int size() {
    return size;
  }
}
