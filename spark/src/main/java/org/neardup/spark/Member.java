// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import java.io.Serializable;
import org.neardup.internal.Mix;

/**
 * What the candidate self-join needs of a document: its ordinal, fingerprint and band keys, a hash
 * of its fingerprint and sketch (its {@link #shape}), and for a member of a split group, the block
 * of the group it was put in.
 */
public final class Member implements Serializable {
  private static final long serialVersionUID = 1L;
  public int ordinal;
  public long fingerprint;
  public long[] bandKeys = new long[0];
  public int block;

  /**
   * A 64-bit hash of the fingerprint and the encoded sketch: documents of the same shape (copies of
   * one text) have the same distance and similarity to any other document, so a candidate pair is
   * verified once per pair of shapes.
   */
  public long shape;

  public Member() {}

  Member(int ordinal, long fingerprint, long[] bandKeys, int block, long shape) {
    this.ordinal = ordinal;
    this.fingerprint = fingerprint;
    this.bandKeys = bandKeys;
    this.block = block;
    this.shape = shape;
  }

  /**
   * The shape of a document with this fingerprint and encoded sketch: a multiply-rotate pass over
   * the bytes, eight at a time, then MurmurHash3's 64-bit finaliser. Two different shapes collide
   * with a chance of about 2^-64 per pair compared.
   */
  static long shape(long fingerprint, byte[] sketch) {
    long h = fingerprint * 0x9E3779B97F4A7C15L + sketch.length;
    int i = 0;
    for (; i + 8 <= sketch.length; i += 8) {
      h =
          Long.rotateLeft(h ^ ((long) LONGS.get(sketch, i) * 0xC2B2AE3D27D4EB4FL), 31)
              * 0x9E3779B185EBCA87L;
    }
    long tail = 0;
    for (int k = 0; i < sketch.length; i++, k += 8) {
      tail |= (sketch[i] & 0xFFL) << k;
    }
    h = Long.rotateLeft(h ^ (tail * 0xC2B2AE3D27D4EB4FL), 31) * 0x9E3779B185EBCA87L;
    return Mix.fmix64(h);
  }

  private static final java.lang.invoke.VarHandle LONGS =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
          long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
}
