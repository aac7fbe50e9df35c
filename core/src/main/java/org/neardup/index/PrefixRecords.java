// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The prefix layout: each entry's 24-bit tag in 3 bytes, little-endian, read as one unaligned int
 * load (the array has one byte more than 3n, so the last entry's load stays inside); the value's
 * bits 47..24 are the tag and bits 23..0 zero.
 */
final class PrefixRecords extends TableRecords {
  private static final VarHandle INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  final byte[] data;
  private final int size;

  PrefixRecords(int n) {
    size = n;
    data = new byte[3 * n + 1];
  }

  /** Entry i's tag in the low 24 bits, and the next entry's first byte above them. */
  static int word(byte[] data, int i) {
    return (int) INT.get(data, 3 * i);
  }

  int tag(int i) {
    return word(data, i) & RecordLayout.TAG_MASK;
  }

  @Override
  int size() {
    return size;
  }

  @Override
  long get(int i) {
    return (long) tag(i) << (48 - RecordLayout.TAG_BITS);
  }

  @Override
  void set(int i, long v) {
    int tag = (int) (v >>> (48 - RecordLayout.TAG_BITS));
    int at = 3 * i;
    data[at] = (byte) tag;
    data[at + 1] = (byte) (tag >>> 8);
    data[at + 2] = (byte) (tag >>> 16);
  }

  @Override
  void copyTo(int from, TableRecords dst, int to, int n) {
    System.arraycopy(data, 3 * from, ((PrefixRecords) dst).data, 3 * to, 3 * n);
  }

  @Override
  long ramBytesUsed() {
    return 32 + (long) Segment.PREFIX_RECORD * size + 1;
  }
}
