// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Big-endian reads and writes of ints and longs in byte arrays. */
final class Bytes {
  private static final VarHandle INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle SHORT =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);

  private Bytes() {}

  static void putInt(byte[] b, int off, int v) {
    INT.set(b, off, v);
  }

  static int getInt(byte[] b, int off) {
    return (int) INT.get(b, off);
  }

  static void putLong(byte[] b, int off, long v) {
    LONG.set(b, off, v);
  }

  static long getLong(byte[] b, int off) {
    return (long) LONG.get(b, off);
  }

  static void putShort(byte[] b, int off, int v) {
    SHORT.set(b, off, (short) v);
  }

  static int getUnsignedShort(byte[] b, int off) {
    return Short.toUnsignedInt((short) SHORT.get(b, off));
  }
}
