// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

import org.jspecify.annotations.Nullable;

/**
 * The docIds of table 0: 4-byte offsets from the smallest when they all lie within 2^32 of it (the
 * stores number their documents densely, so theirs do), else the 8-byte ids themselves.
 */
final class DocIds {
  private final long base;
  private final int @Nullable [] offsets;
  private final long @Nullable [] wide;

  private DocIds(long base, int @Nullable [] offsets, long @Nullable [] wide) {
    this.base = base;
    this.offsets = offsets;
    this.wide = wide;
  }

  static DocIds of(long[] ids) {
    if (ids.length == 0) {
      return new DocIds(0, new int[0], null);
    }
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (long id : ids) {
      min = Math.min(min, id);
      max = Math.max(max, id);
    }
    if (Long.compareUnsigned(max - min, 0xFFFF_FFFFL) > 0) {
      return new DocIds(0, null, ids);
    }
    int[] offsets = new int[ids.length];
    for (int i = 0; i < ids.length; i++) {
      offsets[i] = (int) (ids[i] - min);
    }
    return new DocIds(min, offsets, null);
  }

  /** Offsets from {@code base} (4 bytes each), or null when the ids are 8-byte longs. */
  int @Nullable [] offsets() {
    return offsets;
  }

  /** The 8-byte ids, or null when they are offsets. */
  long @Nullable [] wide() {
    return wide;
  }

  long base() {
    return base;
  }

  static DocIds ofOffsets(long base, int[] offsets) {
    return new DocIds(base, offsets, null);
  }

  static DocIds ofWide(long[] ids) {
    return new DocIds(0, null, ids);
  }

  long get(int i) {
    int[] o = offsets;
    return o != null ? base + (o[i] & 0xFFFF_FFFFL) : wide[i];
  }

  int length() {
    return offsets != null ? offsets.length : wide.length;
  }

  void copyTo(int from, long[] dst, int to, int n) {
    if (wide != null) {
      System.arraycopy(wide, from, dst, to, n);
      return;
    }
    int[] o = offsets;
    for (int i = 0; i < n; i++) {
      dst[to + i] = base + (o[from + i] & 0xFFFF_FFFFL);
    }
  }

  long ramBytesUsed() {
    return 32 + (offsets != null ? 4L * offsets.length : 8L * wide.length);
  }
}
