// SPDX-License-Identifier: Apache-2.0
package org.neardup.verify;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;
import org.neardup.internal.Checks;

/**
 * The shingle hashes of one text: the 32-bit hashes of all its distinct shingles when it has at
 * most {@code capacity} of them ({@link #complete()}), else the {@code capacity} smallest. Sorted
 * by unsigned value. Immutable.
 *
 * <p>Encoded form ({@link #encode}), little-endian varints:
 *
 * <pre>
 * Sketch   --> Header, Count, Delta^Count
 * Header   --> varint: (mode &lt;&lt; 1) | complete     mode: 0 = none, 1 = chars, 2 = words
 * Count    --> varint: number of hashes stored
 * Delta    --> varint: hash[i] - hash[i-1] (unsigned), hash[-1] = 0
 * </pre>
 *
 * A complete sketch of n shingles takes about {@code n * (32 - log2(n)) / 7} bytes.
 */
public final class ShingleSketch {
  /** How the shingles were cut. */
  public enum Mode {
    /** No letters or digits: nothing to compare. */
    NONE,
    /** Runs of five letters or digits (Chinese and other unspaced scripts). */
    CHARS,
    /** Runs of three words. */
    WORDS
  }

  private static final ShingleSketch EMPTY = new ShingleSketch(Mode.NONE, new int[0], true);

  private final Mode mode;
  private final int[] hashes;
  private final boolean complete;

  ShingleSketch(Mode mode, int[] hashes, boolean complete) {
    this.mode = mode;
    this.hashes = hashes;
    this.complete = complete;
  }

  /** The sketch of a text with no shingles. */
  public static ShingleSketch empty() {
    return EMPTY;
  }

  /**
   * A sketch from hashes already sorted unsigned and distinct.
   *
   * @throws IllegalArgumentException if they are not
   */
  public static ShingleSketch of(Mode mode, int[] sortedHashes, boolean complete) {
    for (int i = 1; i < sortedHashes.length; i++) {
      Checks.checkArgument(
          Integer.compareUnsigned(sortedHashes[i - 1], sortedHashes[i]) < 0,
          "hashes must be sorted unsigned and distinct; index %s breaks it",
          i);
    }
    return new ShingleSketch(mode, sortedHashes.clone(), complete);
  }

  public Mode mode() {
    return mode;
  }

  /** The number of hashes held. */
  public int size() {
    return hashes.length;
  }

  /** Whether every shingle of the text is here (the text had at most capacity shingles). */
  public boolean complete() {
    return complete;
  }

  /** A copy of the hashes, sorted unsigned. */
  public int[] hashes() {
    return hashes.clone();
  }

  /** The hashes themselves, not a copy: for this package's readers, which never write. */
  int[] hashesView() {
    return hashes;
  }

  /**
   * The Jaccard similarity of the two texts' shingle sets: exact when both sketches are complete,
   * otherwise the bottom-k estimate over the smallest {@code min(size)} hashes of the union. Texts
   * cut in different modes, or without shingles, have similarity 0. Allocates nothing.
   */
  public static double jaccard(ShingleSketch a, ShingleSketch b) {
    return jaccardAtLeast(a, b, 0);
  }

  /**
   * {@link #jaccard} when it is at least {@code threshold}, the same value to the last bit;
   * otherwise a value below {@code threshold}, often found without walking both sketches: the walk
   * stops as soon as the hashes it has passed leave too few to reach the threshold. For callers
   * that keep only the pairs that reach it; a threshold of 0 or less walks to the end, as {@link
   * #jaccard} does. Allocates nothing.
   */
  public static double jaccardAtLeast(ShingleSketch a, ShingleSketch b, double threshold) {
    return jaccardAtLeast(a, b, threshold, null);
  }

  /**
   * {@link #jaccardAtLeast(ShingleSketch, ShingleSketch, double)} at {@code needs}' threshold, with
   * the counts it needs looked up instead of computed: the same value to the last bit.
   */
  public static double jaccardAtLeast(ShingleSketch a, ShingleSketch b, Needs needs) {
    return jaccardAtLeast(a, b, needs.threshold, needs);
  }

  private static double jaccardAtLeast(
      ShingleSketch a, ShingleSketch b, double threshold, @Nullable Needs needs) {
    if (a.mode != b.mode || a.mode == Mode.NONE) {
      return 0;
    }
    int[] x = a.hashes;
    int[] y = b.hashes;
    if (a.complete && b.complete) {
      int total = x.length + y.length;
      // The fewest shared hashes whose Jaccard reaches the threshold, by the same division as the
      // result: inter / (total - inter) grows with inter, so fewer can never reach it.
      int need = needs != null ? needs.complete(total) : completeNeed(total, threshold);
      int inter = intersect(x, y, need);
      return inter < 0 ? -1 : (double) inter / (total - inter);
    }
    // Bottom-k: walk the union in order until k elements, counting those in both. Each step takes
    // one element of the union, and neither index can pass its array's end before k are taken
    // (k is the smaller size), so the walk needs no bounds test and moves without a branch (see
    // intersect). The early exit is tested on every step: after a shared hash both + (k - taken)
    // is unchanged, so it fires exactly where a test after the unshared steps alone would.
    int k = Math.min(x.length, y.length);
    int need = needs != null ? needs.bottom(k) : bottomNeed(k, threshold);
    int i = 0;
    int j = 0;
    int both = 0;
    for (int taken = 1; taken <= k; taken++) {
      long xv = x[i] & 0xFFFFFFFFL;
      long yv = y[j] & 0xFFFFFFFFL;
      int lt = (int) ((xv - yv) >>> 63);
      int gt = (int) ((yv - xv) >>> 63);
      i += 1 - gt;
      j += 1 - lt;
      both += 1 - lt - gt;
      if (both + (k - taken) < need) {
        return -1;
      }
    }
    return k == 0 ? 0 : (double) both / k;
  }

  /**
   * The counts {@link #jaccardAtLeast} needs at one threshold ({@link #completeNeed}, {@link
   * #bottomNeed}), computed once for sizes up to {@value #LIMIT} instead of on every call: each
   * takes a few double divisions, 7% of the band phase's CPU in the 1M realistic dedup (JFR), where
   * a lookup takes one load. Immutable and thread-safe.
   */
  public static final class Needs {
    /** Largest total (and k) looked up; larger ones are computed. */
    static final int LIMIT = 4096;

    private final double threshold;
    private final int[] complete = new int[LIMIT + 1];
    private final int[] bottom = new int[LIMIT + 1];

    /**
     * @param threshold the similarity a pair must reach; 0 or less needs nothing
     */
    public Needs(double threshold) {
      Checks.checkArgument(!Double.isNaN(threshold), "threshold must be a number, got NaN");
      this.threshold = threshold;
      for (int n = 0; n <= LIMIT; n++) {
        complete[n] = completeNeed(n, threshold);
        bottom[n] = bottomNeed(n, threshold);
      }
    }

    public double threshold() {
      return threshold;
    }

    /** {@link #completeNeed} of {@code total} at this threshold. */
    int complete(int total) {
      return total <= LIMIT ? complete[total] : completeNeed(total, threshold);
    }

    /** {@link #bottomNeed} of {@code k} at this threshold. */
    int bottom(int k) {
      return k <= LIMIT ? bottom[k] : bottomNeed(k, threshold);
    }
  }

  /**
   * For two complete sketches of {@code total} hashes together: the fewest shared hashes whose
   * Jaccard reaches the threshold, by the same division as the result ({@code inter / (total -
   * inter)} grows with inter, so fewer can never reach it); 0 for a threshold of 0 or less.
   */
  static int completeNeed(int total, double threshold) {
    int need = 0;
    if (threshold > 0) {
      need = (int) Math.max(0, Math.min(total, Math.ceil(threshold * total / (1 + threshold))));
      while (need > 0 && (double) (need - 1) / (total - (need - 1)) >= threshold) {
        need--;
      }
      while (need < total && (double) need / (total - need) < threshold) {
        need++;
      }
    }
    return need;
  }

  /**
   * For a bottom-k comparison of k hashes: the fewest of them in both sketches whose share {@code
   * both / k} reaches the threshold; 0 for a threshold of 0 or less.
   */
  static int bottomNeed(int k, double threshold) {
    int need = 0;
    if (threshold > 0) {
      need = (int) Math.max(0, Math.min(k, Math.ceil(threshold * k)));
      while (need > 0 && (double) (need - 1) / k >= threshold) {
        need--;
      }
      while (need < k && (double) need / k < threshold) {
        need++;
      }
    }
    return need;
  }

  /** |A ∩ B| / min(|A|, |B|) over the held hashes; exact when both are complete. */
  public static double containment(ShingleSketch a, ShingleSketch b) {
    if (a.mode != b.mode || a.mode == Mode.NONE) {
      return 0;
    }
    int inter = intersect(a.hashes, b.hashes, 0);
    return (double) inter / Math.min(a.hashes.length, b.hashes.length);
  }

  /**
   * The number of hashes in both sorted arrays, or -1 as soon as the hashes not yet passed are too
   * few to bring it to {@code need} (never, for a need of 0).
   */
  private static int intersect(int[] x, int[] y, int need) {
    int i = 0;
    int j = 0;
    int inter = 0;
    // No branch on the order of the two hashes, which is random (see HeadFilter.mayReach): lt and
    // gt are the signs of the differences of the unsigned values. After a shared hash inter plus
    // the hashes left is unchanged, so testing the exit on every step changes nothing.
    while (i < x.length && j < y.length) {
      long xv = x[i] & 0xFFFFFFFFL;
      long yv = y[j] & 0xFFFFFFFFL;
      int lt = (int) ((xv - yv) >>> 63);
      int gt = (int) ((yv - xv) >>> 63);
      i += 1 - gt;
      j += 1 - lt;
      inter += 1 - lt - gt;
      if (inter + Math.min(x.length - i, y.length - j) < need) {
        return -1;
      }
    }
    return inter;
  }

  /** The encoded form (see the class comment). */
  public byte[] encode() {
    byte[] out = new byte[10 + hashes.length * 5];
    int n = putVarint(out, 0, (mode.ordinal() << 1) | (complete ? 1 : 0));
    n = putVarint(out, n, hashes.length);
    long prev = 0;
    for (int h : hashes) {
      long v = h & 0xFFFFFFFFL;
      n = putVarint(out, n, v - prev);
      prev = v;
    }
    return Arrays.copyOf(out, n);
  }

  /**
   * Decodes {@link #encode}'s form.
   *
   * @throws IllegalArgumentException if the bytes are not a valid sketch
   */
  public static ShingleSketch decode(byte[] in, int off, int len) {
    int[] pos = {off};
    int end = off + len;
    long head = header(in, pos, end, len);
    int count = (int) (head >>> 8);
    int[] hashes = new int[count];
    long prev = 0;
    int p = pos[0];
    int i = 0;
    // Eight bytes at a time while eight remain: the varint's length from the first byte without
    // the continuation bit and its value from masks, with no branch per byte (a delta of 32-bit
    // hashes takes 1-5 bytes; longer ones, corrupt, take the byte-by-byte path below, which says
    // why). The 1M realistic dedup decodes 3.4M sketches: 1.03 us of CPU per sketch of 20-512
    // hashes against 2.15 byte by byte (one core, 20,000 sketches, 6 rounds alike).
    while (i < count && end - p >= 8) {
      long w = (long) LONG_LE.get(in, p);
      long stops = ~w & 0x80_8080_8080L;
      if (stops == 0) {
        break; // more than five bytes: corrupt, reported below
      }
      int bytes = (Long.numberOfTrailingZeros(stops) >>> 3) + 1;
      long d =
          (w & 0x7FL)
              | ((w >>> 1) & (0x7FL << 7))
              | ((w >>> 2) & (0x7FL << 14))
              | ((w >>> 3) & (0x7FL << 21))
              | ((w >>> 4) & (0x7FL << 28));
      d &= (1L << (7 * bytes)) - 1;
      long v = prev + d;
      checkOrder(v, prev, i);
      hashes[i++] = (int) v;
      prev = v;
      p += bytes;
    }
    pos[0] = p;
    for (; i < count; i++) {
      long v = prev + getVarint(in, pos, end);
      checkOrder(v, prev, i);
      hashes[i] = (int) v;
      prev = v;
    }
    return decoded(head, hashes, pos[0], end);
  }

  /**
   * The fixed-width form, for a process's own scratch files: one byte {@code (mode << 1) |
   * complete}, then each hash as 4 bytes, little-endian, in order. About the size of {@link
   * #encode}'s (whose deltas of 32-bit hashes take 3-5 bytes each) and decoded by a copy instead of
   * a varint per hash: {@code neardup dedup} decodes each sketch of the 1M realistic corpus about
   * 3.4 times in its pairs phase.
   */
  public byte[] encodeFixed() {
    byte[] out = new byte[1 + hashes.length * 4];
    out[0] = (byte) ((mode.ordinal() << 1) | (complete ? 1 : 0));
    for (int i = 0; i < hashes.length; i++) {
      INT_LE.set(out, 1 + i * 4, hashes[i]);
    }
    return out;
  }

  /**
   * Decodes {@link #encodeFixed}'s form.
   *
   * @throws IllegalArgumentException if the bytes are not a valid sketch
   */
  public static ShingleSketch decodeFixed(byte[] in, int off, int len) {
    return decodeFixed(ByteBuffer.wrap(in), off, len);
  }

  /**
   * Decodes {@link #encodeFixed}'s form at {@code in[off, off + len)} (absolute positions; the
   * buffer's position, limit and order are left alone), its hashes copied from the buffer straight
   * into the sketch's array; {@link #decodeFixed(byte[], int, int)} reads a byte[] through it. For
   * a scratch file read through a memory map ({@code neardup dedup}'s pairs phase reads 3.5M
   * sketches at 1M realistic documents), no copy of the bytes out of the map comes first.
   *
   * @throws IllegalArgumentException if the bytes are not a valid sketch
   */
  public static ShingleSketch decodeFixed(ByteBuffer in, int off, int len) {
    Checks.checkArgument(
        len >= 1 && (len - 1) % 4 == 0, "corrupt sketch: %s bytes in the fixed form", len);
    int header = in.get(off);
    Checks.checkArgument(header >= 0 && (header >> 1) < 3, "corrupt sketch: bad header %s", header);
    int[] hashes = new int[(len - 1) / 4];
    in.slice(off + 1, len - 1).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(hashes);
    Checks.checkArgument(ascending(hashes), "corrupt sketch: hashes out of order");
    return new ShingleSketch(Mode.values()[header >> 1], hashes, (header & 1) != 0);
  }

  /** Whether the hashes ascend strictly by unsigned value; no branch per hash. */
  private static boolean ascending(int[] hashes) {
    boolean unordered = false;
    for (int i = 1; i < hashes.length; i++) {
      unordered |= (hashes[i - 1] ^ Integer.MIN_VALUE) >= (hashes[i] ^ Integer.MIN_VALUE);
    }
    return !unordered;
  }

  /** {@link #decode} one byte at a time: the reference SketchDecodeTest holds the fast one to. */
  static ShingleSketch decodeBytewise(byte[] in, int off, int len) {
    int[] pos = {off};
    int end = off + len;
    long head = header(in, pos, end, len);
    int count = (int) (head >>> 8);
    int[] hashes = new int[count];
    long prev = 0;
    for (int i = 0; i < count; i++) {
      long v = prev + getVarint(in, pos, end);
      checkOrder(v, prev, i);
      hashes[i] = (int) v;
      prev = v;
    }
    return decoded(head, hashes, pos[0], end);
  }

  /**
   * Reads and checks the header and count varints of an encoded sketch of {@code len} bytes from
   * {@code pos[0]} (advanced past them): returns {@code count << 8 | header}.
   */
  private static long header(byte[] in, int[] pos, int end, int len) {
    long header = getVarint(in, pos, end);
    Checks.checkArgument(header >= 0 && (header >> 1) < 3, "corrupt sketch: bad header %s", header);
    long count = getVarint(in, pos, end);
    Checks.checkArgument(
        count >= 0 && count <= len, "corrupt sketch: count %s for %s bytes", count, len);
    return count << 8 | header;
  }

  /** Hash i, {@code v}, must fit 32 bits and follow the one before, {@code prev}. */
  private static void checkOrder(long v, long prev, int i) {
    Checks.checkArgument(
        v <= 0xFFFFFFFFL && (i == 0 || v > prev), "corrupt sketch: hash %s out of order", i);
  }

  /** The sketch of a decoded header and its hashes, once the bytes ended where they should. */
  private static ShingleSketch decoded(long head, int[] hashes, int p, int end) {
    Checks.checkArgument(p == end, "corrupt sketch: %s trailing bytes", end - p);
    int header = (int) (head & 0xFF);
    return new ShingleSketch(Mode.values()[header >> 1], hashes, (header & 1) != 0);
  }

  private static final java.lang.invoke.VarHandle INT_LE =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
          int[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

  private static final java.lang.invoke.VarHandle LONG_LE =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
          long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

  /**
   * Checks that {@code in[off, off + len)} is {@link #encode}'s form of a sketch, as {@link
   * #decode} would, without allocating: for callers that store encoded sketches as they are.
   *
   * @throws IllegalArgumentException if the bytes are not a valid sketch
   */
  public static void validate(byte[] in, int off, int len) {
    int end = off + len;
    int p = off;
    long prev = 0;
    long count = -1;
    for (long i = -2; i < 0 || i < count; i++) {
      long v = 0;
      int shift = 0;
      while (true) {
        Checks.checkArgument(p < end, "corrupt sketch: truncated varint");
        byte b = in[p++];
        v |= (long) (b & 0x7F) << shift;
        if (b >= 0) {
          break;
        }
        shift += 7;
        Checks.checkArgument(shift < 64, "corrupt sketch: varint too long");
      }
      if (i == -2) {
        Checks.checkArgument(v >= 0 && (v >> 1) < 3, "corrupt sketch: bad header %s", v);
      } else if (i == -1) {
        Checks.checkArgument(v >= 0 && v <= len, "corrupt sketch: count %s for %s bytes", v, len);
        count = v;
      } else {
        long h = prev + v;
        Checks.checkArgument(
            h <= 0xFFFFFFFFL && (i == 0 || h > prev), "corrupt sketch: hash %s out of order", i);
        prev = h;
      }
    }
    Checks.checkArgument(p == end, "corrupt sketch: %s trailing bytes", end - p);
  }

  /** The encoded size in bytes without encoding. */
  public int encodedSize() {
    int n = varintSize((mode.ordinal() << 1) | 1) + varintSize(hashes.length);
    long prev = 0;
    for (int h : hashes) {
      long v = h & 0xFFFFFFFFL;
      n += varintSize(v - prev);
      prev = v;
    }
    return n;
  }

  private static int putVarint(byte[] out, int n, long v) {
    while ((v & ~0x7FL) != 0) {
      out[n++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out[n++] = (byte) v;
    return n;
  }

  private static int varintSize(long v) {
    int n = 1;
    while ((v & ~0x7FL) != 0) {
      n++;
      v >>>= 7;
    }
    return n;
  }

  private static long getVarint(byte[] in, int[] pos, int end) {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      Checks.checkArgument(pos[0] < end, "corrupt sketch: truncated varint");
      byte b = in[pos[0]++];
      v |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        return v;
      }
    }
    throw new IllegalArgumentException("corrupt sketch: varint too long");
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof ShingleSketch
        && ((ShingleSketch) o).mode == mode
        && ((ShingleSketch) o).complete == complete
        && Arrays.equals(((ShingleSketch) o).hashes, hashes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(hashes) * 31 + mode.hashCode();
  }

  @Override
  public String toString() {
    return "ShingleSketch{"
        + mode
        + ", "
        + hashes.length
        + (complete ? " (complete)" : " (bottom-k)")
        + "}";
  }
}
