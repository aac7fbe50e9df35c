// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

/**
 * The wide layout: bits 47..16 in an int (scanned first, as a filter) and bits 15..0 in a short
 * (read only for the rare candidates).
 */
final class WideRecords extends TableRecords {
  final int[] hi;
  final short[] lo;

  WideRecords(int n) {
    hi = new int[n];
    lo = new short[n];
  }

  @Override
  int size() {
    return hi.length;
  }

  @Override
  long get(int i) {
    return ((hi[i] & 0xFFFF_FFFFL) << 16) | (lo[i] & 0xFFFFL);
  }

  @Override
  void set(int i, long v) {
    hi[i] = (int) (v >>> 16);
    lo[i] = (short) v;
  }

  @Override
  void copyTo(int from, TableRecords dst, int to, int n) {
    WideRecords d = (WideRecords) dst;
    System.arraycopy(hi, from, d.hi, to, n);
    System.arraycopy(lo, from, d.lo, to, n);
  }

  @Override
  long ramBytesUsed() {
    return 48 + (long) Segment.RECORD * hi.length;
  }
}
