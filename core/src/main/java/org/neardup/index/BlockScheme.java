// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

import java.util.Arrays;
import org.jspecify.annotations.Nullable;
import org.neardup.internal.Checks;

/**
 * How an index cuts a 64-bit fingerprint into blocks and which blocks it keys its tables on.
 *
 * <p>The 64 bits are cut into {@code m} {@linkplain #blocks() blocks} of sizes as equal as possible
 * (the first {@code 64 % m} blocks get one extra bit; block 0 holds the most significant bits). A
 * table is keyed on a combination of {@code r} {@linkplain #required() required} blocks: there are
 * {@code C(m, r)} {@linkplain #tables() tables}, numbered in lexicographic order of their block
 * combinations, so table 0 is keyed on blocks {@code 0..r-1}, the top bits. The key of a
 * fingerprint in a table is the concatenation of its r blocks' bits.
 *
 * <p>Two fingerprints that differ in {@code k} bits have their differences spread over the m
 * blocks; the r blocks with the fewest differences hold at most {@link #keyErrors(int) e(k)} of
 * them. When e(k) = 0, which holds for every {@code k <= m - r} ({@link #exactUpTo()}), the two
 * share a key in at least one table, and one exact lookup per table finds every match. For larger k
 * an index multi-probes: it looks up every key within e(k) bit flips of the query's key.
 *
 * <table>
 *   <caption>Presets</caption>
 *   <tr><th>scheme<th>tables<th>key bits<th>exact up to k
 *   <tr><td>{@code 4:1} (default)<td>4<td>16<td>3
 *   <tr><td>{@code 5:2}<td>10<td>26 or 25<td>3
 *   <tr><td>{@code 6:3}<td>20<td>33, 32 or 31<td>3
 * </table>
 *
 * <p>Immutable, thread-safe and value-like: {@link #equals} compares {@code (m, r)}. The text form
 * is {@code m:r} ({@link #parse}, {@link #toString}).
 */
public final class BlockScheme {
  /*
   * Permutation of table t: the table's r blocks in ascending order on top (the key), then the
   * other blocks in cyclic order starting after the last key block. For r = 1 this makes every
   * table a rotation, and table 0 is always the identity. Hamming distance is invariant under any
   * bit permutation, so an index may compare permuted fingerprints directly.
   *
   * Invariants: blockShift[b] + blockWidth[b] == blockShift[b - 1]; blockShift[m - 1] == 0;
   * keyBits[t] == sum of blockWidth over tableBlocks[t]; permute(t, unpermute(t, x)) == x.
   */

  /** The default: 4 tables keyed on 16-bit blocks, exact up to k = 3. */
  public static final BlockScheme DEFAULT = new BlockScheme(4, 1);

  /** The most tables a scheme may have; C(m, r) grows fast and each table is a copy. */
  public static final int MAX_TABLES = 1024;

  private final int blocks;
  private final int required;
  private final int[] blockWidth;
  private final int[] blockShift;
  private final int[][] tableBlocks;
  private final int[] keyBits;
  private final long[] keyMask;
  // Per table: rotation distance, or -1 when the permutation is not a rotation.
  private final int[] rotation;
  // Per table and piece: source shift, destination shift, mask (before shifting) of each block.
  private final int[][] srcShift;
  private final int[][] dstShift;
  private final long[][] pieceMask;

  private BlockScheme(int blocks, int required) {
    this.blocks = blocks;
    this.required = required;
    blockWidth = new int[blocks];
    blockShift = new int[blocks];
    int shift = 64;
    for (int b = 0; b < blocks; b++) {
      blockWidth[b] = 64 / blocks + (b < 64 % blocks ? 1 : 0);
      shift -= blockWidth[b];
      blockShift[b] = shift;
    }
    int tables = (int) binomial(blocks, required);
    tableBlocks = new int[tables][];
    keyBits = new int[tables];
    keyMask = new long[tables];
    rotation = new int[tables];
    srcShift = new int[tables][];
    dstShift = new int[tables][];
    pieceMask = new long[tables][];
    int[] combination = new int[required];
    for (int i = 0; i < required; i++) {
      combination[i] = i;
    }
    for (int t = 0; t < tables; t++) {
      tableBlocks[t] = combination.clone();
      initTable(t, combination);
      nextCombination(combination, blocks);
    }
  }

  private void initTable(int t, int[] chosen) {
    int[] order = new int[blocks];
    boolean[] used = new boolean[blocks];
    int n = 0;
    for (int b : chosen) {
      order[n++] = b;
      used[b] = true;
      keyBits[t] += blockWidth[b];
      keyMask[t] |= mask(blockWidth[b]) << blockShift[b];
    }
    int last = chosen[chosen.length - 1];
    for (int i = 1; i <= blocks; i++) {
      int b = (last + i) % blocks;
      if (!used[b]) {
        order[n++] = b;
        used[b] = true;
      }
    }
    srcShift[t] = new int[blocks];
    dstShift[t] = new int[blocks];
    pieceMask[t] = new long[blocks];
    int dst = 64;
    boolean isRotation = true;
    for (int i = 0; i < blocks; i++) {
      int b = order[i];
      dst -= blockWidth[b];
      srcShift[t][i] = blockShift[b];
      dstShift[t][i] = dst;
      pieceMask[t][i] = mask(blockWidth[b]);
      if (i > 0 && order[i] != (order[i - 1] + 1) % blocks) {
        isRotation = false;
      }
    }
    // A rotation left by (64 - top of block order[0]) puts order[0] on top, followed cyclically.
    rotation[t] = isRotation ? (64 - blockShift[order[0]] - blockWidth[order[0]]) & 63 : -1;
  }

  private static void nextCombination(int[] c, int n) {
    int r = c.length;
    int i = r - 1;
    while (i >= 0 && c[i] == n - r + i) {
      i--;
    }
    if (i < 0) {
      return;
    }
    c[i]++;
    for (int j = i + 1; j < r; j++) {
      c[j] = c[j - 1] + 1;
    }
  }

  /**
   * The scheme with {@code blocks} blocks of which {@code required} must match.
   *
   * @throws IllegalArgumentException unless {@code 1 <= required <= blocks <= 64} and the scheme
   *     has at most {@link #MAX_TABLES} tables
   */
  public static BlockScheme of(int blocks, int required) {
    Checks.checkArgument(
        blocks >= 1 && blocks <= 64, "blocks must be in [1, 64], got %s", (long) blocks);
    Checks.checkArgument(
        required >= 1 && required <= blocks,
        "required must be in [1, blocks = %s], got %s",
        (long) blocks,
        (long) required);
    long tables = binomial(blocks, required);
    Checks.checkArgument(
        tables <= MAX_TABLES,
        "a scheme may have at most %s tables, but C(%s, %s) = %s; use fewer blocks",
        MAX_TABLES,
        blocks,
        required,
        tables);
    if (blocks == 4 && required == 1) {
      return DEFAULT;
    }
    return new BlockScheme(blocks, required);
  }

  /**
   * Parses the text form {@code m:r}, e.g. {@code "4:1"}, {@code "5:2"}, {@code "6:3"}.
   *
   * @throws IllegalArgumentException naming the expected form and the text, or the rule the numbers
   *     break
   */
  public static BlockScheme parse(String text) {
    Checks.checkArgument(text != null, "scheme must not be null");
    int colon = text.indexOf(':');
    int blocks = -1;
    int required = -1;
    if (colon > 0 && colon == text.lastIndexOf(':')) {
      blocks = parseSmallInt(text, 0, colon);
      required = parseSmallInt(text, colon + 1, text.length());
    }
    Checks.checkArgument(
        blocks >= 0 && required >= 0,
        "scheme must look like BLOCKS:REQUIRED (e.g. 4:1, 5:2 or 6:3), got '%s'",
        text);
    return of(blocks, required);
  }

  private static int parseSmallInt(String s, int from, int to) {
    if (to <= from || to - from > 3) {
      return -1;
    }
    int v = 0;
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
    }
    return v;
  }

  /** The number of blocks, m. */
  public int blocks() {
    return blocks;
  }

  /** The number of blocks a table's key combines, r. */
  public int required() {
    return required;
  }

  /** The number of tables, C(m, r). */
  public int tables() {
    return tableBlocks.length;
  }

  /** The width in bits of block {@code b}; block 0 holds the most significant bits. */
  public int blockWidth(int b) {
    return blockWidth[b];
  }

  /** The bit position of the least significant bit of block {@code b}. */
  public int blockShift(int b) {
    return blockShift[b];
  }

  /** The blocks table {@code t} is keyed on, ascending. */
  public int[] tableBlocks(int t) {
    return tableBlocks[t].clone();
  }

  /** The width of table {@code t}'s key in bits. */
  public int keyBits(int t) {
    return keyBits[t];
  }

  /** The bits of a fingerprint that form table {@code t}'s key, in place. */
  public long keyMask(int t) {
    return keyMask[t];
  }

  /**
   * The largest number of differing bits, e(k), in the best-matching key of two fingerprints {@code
   * k} bits apart: the r smallest of m non-negative integers summing to k, at most {@code r * q +
   * max(0, r - m + k % m)} with {@code q = k / m}.
   */
  public int keyErrors(int k) {
    Checks.checkMaxDistance(k, 64);
    int q = k / blocks;
    int rem = k % blocks;
    return required * q + Math.max(0, required - blocks + rem);
  }

  /** The largest k for which every match shares a key exactly with the query: {@code m - r}. */
  public int exactUpTo() {
    return blocks - required;
  }

  /**
   * The number of distinct keys within {@code errors} bit flips of a key of table {@code t}: {@code
   * sum over i <= errors of C(keyBits(t), i)}, as a double because it can exceed a long.
   */
  public double probes(int t, int errors) {
    double total = 0;
    for (int i = 0; i <= Math.min(errors, keyBits[t]); i++) {
      total += binomial(keyBits[t], i);
    }
    return total;
  }

  /**
   * Fingerprint {@code fp} with table {@code t}'s key blocks moved to the top bits, in ascending
   * block order; the other blocks follow. Table 0's permutation is the identity.
   */
  public long permute(int t, long fp) {
    int rot = rotation[t];
    if (rot >= 0) {
      return Long.rotateLeft(fp, rot);
    }
    int[] src = srcShift[t];
    int[] dst = dstShift[t];
    long[] masks = pieceMask[t];
    long out = 0;
    for (int i = 0; i < src.length; i++) {
      out |= ((fp >>> src[i]) & masks[i]) << dst[i];
    }
    return out;
  }

  /** The inverse of {@link #permute}. */
  public long unpermute(int t, long permuted) {
    int rot = rotation[t];
    if (rot >= 0) {
      return Long.rotateRight(permuted, rot);
    }
    int[] src = srcShift[t];
    int[] dst = dstShift[t];
    long[] masks = pieceMask[t];
    long out = 0;
    for (int i = 0; i < src.length; i++) {
      out |= ((permuted >>> dst[i]) & masks[i]) << src[i];
    }
    return out;
  }

  static long mask(int bits) {
    return bits == 64 ? -1L : (1L << bits) - 1;
  }

  static long binomial(int n, int k) {
    if (k < 0 || k > n) {
      return 0;
    }
    k = Math.min(k, n - k);
    double r = 1;
    long exact = 1;
    for (int i = 1; i <= k; i++) {
      r = r * (n - k + i) / i;
      if (r > 1e17) {
        return Long.MAX_VALUE;
      }
      exact = exact * (n - k + i) / i;
    }
    return exact;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof BlockScheme
        && ((BlockScheme) o).blocks == blocks
        && ((BlockScheme) o).required == required;
  }

  @Override
  public int hashCode() {
    return blocks * 65 + required;
  }

  /** The text form {@code m:r}, which {@link #parse} reads back. */
  @Override
  public String toString() {
    return blocks + ":" + required;
  }

  /** Describes the blocks and tables, e.g. {@code 5:2 (10 tables, blocks 13,13,13,13,12)}. */
  public String describe() {
    StringBuilder sb = new StringBuilder().append(this).append(" (").append(tables());
    sb.append(" tables, blocks ");
    sb.append(Arrays.toString(blockWidth).replace(" ", "").replace("[", "").replace("]", ""));
    return sb.append(')').toString();
  }
}
