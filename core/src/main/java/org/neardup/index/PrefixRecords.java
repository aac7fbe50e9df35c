// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

/**
 * The prefix layout: each entry's 32-bit tag in an int; the value's bits 47..16 are the tag and
 * bits 15..0 zero.
 */
final class PrefixRecords extends TableRecords {
  final int[] data;

  PrefixRecords(int n) {
    data = new int[n];
  }

  int tag(int i) {
    return data[i];
  }

  @Override
  int size() {
    return data.length;
  }

  @Override
  long get(int i) {
    return (data[i] & 0xFFFF_FFFFL) << (48 - RecordLayout.TAG_BITS);
  }

  @Override
  void set(int i, long v) {
    data[i] = (int) (v >>> (48 - RecordLayout.TAG_BITS));
  }

  @Override
  void copyTo(int from, TableRecords dst, int to, int n) {
    System.arraycopy(data, from, ((PrefixRecords) dst).data, to, n);
  }

  @Override
  long ramBytesUsed() {
    return 16 + (long) Segment.PREFIX_RECORD * data.length;
  }
}
