// SPDX-License-Identifier: Apache-2.0
package org.neardup;

import org.neardup.verify.ShingleSketch;
import org.neardup.verify.Sketch;

/**
 * What neardup keeps of one text: its fingerprint and, when verification is on, its sketch.
 *
 * @param fingerprint the 64-bit simhash
 * @param sketch shingle hashes and band keys; {@link Sketch#shingles()} is empty when verification
 *     is off
 * @param letters the number of letters and digits in the normalised text; 0 means the text is empty
 *     for neardup's purposes
 */
public record Analysis(long fingerprint, Sketch sketch, int letters) {
  private static final Sketch NO_SKETCH = new Sketch(ShingleSketch.empty(), new long[0]);

  /** An analysis without sketch, for fingerprint-only use. */
  public static Analysis ofFingerprint(long fingerprint, int letters) {
    return new Analysis(fingerprint, NO_SKETCH, letters);
  }

  /** Whether the text had no letters or digits (empty, blank, only punctuation or symbols). */
  public boolean isEmpty() {
    return letters == 0;
  }

  /**
   * The stored form of an analysis, for logs and snapshots:
   *
   * <pre>
   * Analysis --> Fingerprint, Letters, BandCount, BandKey^BandCount, Sketch
   * Fingerprint, BandKey --> 8 bytes, big-endian
   * Letters, BandCount   --> varint
   * Sketch               --> the rest: {@link ShingleSketch#encode()}
   * </pre>
   */
  public byte[] encode() {
    return encode(sketch.shingles().encode());
  }

  /** {@link #encode()} with its sketch's shingles already encoded ({@code sketchBytes}). */
  byte[] encode(byte[] sketchBytes) {
    long[] keys = sketch.bandKeys();
    java.nio.ByteBuffer out =
        java.nio.ByteBuffer.allocate(8 + 10 + 10 + keys.length * 8 + sketchBytes.length);
    out.putLong(fingerprint);
    putVarint(out, letters);
    putVarint(out, keys.length);
    for (long k : keys) {
      out.putLong(k);
    }
    out.put(sketchBytes);
    return java.util.Arrays.copyOf(out.array(), out.position());
  }

  /**
   * Decodes {@link #encode()}'s form.
   *
   * @throws IllegalArgumentException if the bytes are not a valid analysis
   */
  public static Analysis decode(byte[] in, int off, int len) {
    try {
      java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(in, off, len);
      long fp = b.getLong();
      int letters = (int) getVarint(b);
      int bands = (int) getVarint(b);
      if (bands < 0 || bands > 64) {
        throw new IllegalArgumentException("corrupt analysis: " + bands + " band keys");
      }
      long[] keys = new long[bands];
      for (int i = 0; i < bands; i++) {
        keys[i] = b.getLong();
      }
      ShingleSketch shingles = ShingleSketch.decode(in, b.position(), off + len - b.position());
      return new Analysis(fp, new Sketch(shingles, keys), letters);
    } catch (java.nio.BufferUnderflowException e) {
      throw new IllegalArgumentException("corrupt analysis: truncated", e);
    }
  }

  private static void putVarint(java.nio.ByteBuffer out, long v) {
    while ((v & ~0x7FL) != 0) {
      out.put((byte) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.put((byte) v);
  }

  private static long getVarint(java.nio.ByteBuffer in) {
    long v = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      byte b = in.get();
      v |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        return v;
      }
    }
    throw new IllegalArgumentException("corrupt analysis: varint too long");
  }
}
