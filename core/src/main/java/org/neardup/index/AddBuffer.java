// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The mutable, append-only front of a {@link BlockPermutedIndex}: O(1) adds, searched through one
 * chained hash per table on the top bits of the table's key.
 *
 * <p>Layout, capacity c and T tables: {@code fps long[c], ids long[c], dead long[c / 64]}, and per
 * table {@code heads int[2^h]} (h = min(16, key bits, log2 c)) and {@code next int[c]}. A chain
 * holds entry indices + 1, newest first, ending in 0.
 *
 * <p>Thread safety: one writer appends; readers snapshot {@link #size} (volatile) and ignore
 * entries at or beyond it. Head slots are published with release stores after the entry and its
 * {@code next} links are written, and read with acquire loads, so a reader that reaches an entry
 * through a chain sees it whole. The arrays never move: when the buffer is full the index builds a
 * bigger one, or swaps in a fresh one and keeps searching this one, now frozen (never appended to
 * again), until a background job has built its segment. Tombstones of a frozen buffer are set under
 * the index's lock, as a segment's are.
 */
final class AddBuffer {
  /*
   * Invariants: for every table t and bucket b, the chain from heads[t][b] visits exactly the
   * entries j < size with bucket(t, fps[j]) == b, in decreasing j (next[t][j] <= j);
   * deadCount == popcount(dead); removals != null exactly while a background job reads the
   * (frozen) buffer.
   */
  private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);
  private static final VarHandle DEAD = MethodHandles.arrayElementVarHandle(long[].class);

  final int capacity;
  final long[] fps;
  final long[] ids;
  final long[] dead;
  final int[][] heads;
  final int[][] next;
  final int[] hashBits; // per table
  volatile int size;
  int deadCount; // writer only while active; under the index's lock once frozen

  /** Removes made while a background job freezes this buffer; guarded by the index's lock. */
  @org.jspecify.annotations.Nullable RemovalLog removals;

  AddBuffer(BlockScheme scheme, int capacity) {
    assert Integer.bitCount(capacity) == 1;
    this.capacity = capacity;
    fps = new long[capacity];
    ids = new long[capacity];
    dead = new long[(capacity + 63) >>> 6];
    int tables = scheme.tables();
    heads = new int[tables][];
    next = new int[tables][];
    hashBits = new int[tables];
    int log = Integer.numberOfTrailingZeros(capacity);
    for (int t = 0; t < tables; t++) {
      hashBits[t] = Math.min(Math.min(16, scheme.keyBits(t)), log);
      heads[t] = new int[1 << hashBits[t]];
      next[t] = new int[capacity];
    }
  }

  /** A buffer of twice the capacity holding the same entries, tombstones included. */
  AddBuffer grow(BlockScheme scheme) {
    AddBuffer b = new AddBuffer(scheme, capacity * 2);
    int n = size;
    for (int j = 0; j < n; j++) {
      b.append(scheme, fps[j], ids[j]);
    }
    System.arraycopy(dead, 0, b.dead, 0, dead.length);
    b.deadCount = deadCount;
    return b;
  }

  int bucket(int t, long permuted) {
    return (int) (permuted >>> (64 - hashBits[t])) & ((1 << hashBits[t]) - 1);
  }

  /** Writer only; the caller ensures size < capacity. */
  void append(BlockScheme scheme, long fp, long docId) {
    int j = size;
    fps[j] = fp;
    ids[j] = docId;
    for (int t = 0; t < heads.length; t++) {
      int[] h = heads[t];
      int b = bucket(t, scheme.permute(t, fp));
      next[t][j] = h[b];
      INTS.setRelease(h, b, j + 1);
    }
    size = j + 1;
  }

  /** The chain head (entry index + 1, or 0) of bucket b in table t. */
  int head(int t, int b) {
    return (int) INTS.getAcquire(heads[t], b);
  }

  boolean isDead(int j) {
    return ((long) DEAD.getAcquire(dead, j >>> 6) & (1L << j)) != 0;
  }

  /** Writer only: removes one live entry equal to (fp, docId), if any. */
  boolean remove(BlockScheme scheme, long fp, long docId) {
    int j = find(scheme, fp, docId);
    if (j < 0) {
      return false;
    }
    markDead(j);
    return true;
  }

  /** The position of a live entry equal to (fp, docId), or -1. */
  int find(BlockScheme scheme, long fp, long docId) {
    int n = size;
    for (int e = head(0, bucket(0, fp)); e != 0; e = next[0][e - 1]) {
      int j = e - 1;
      if (j < n && fps[j] == fp && ids[j] == docId && !isDead(j)) {
        return j;
      }
    }
    return -1;
  }

  /** Marks live entry j dead; by the writer, under the index's lock once the buffer is frozen. */
  void markDead(int j) {
    long word = dead[j >>> 6];
    assert (word & (1L << j)) == 0;
    DEAD.setRelease(dead, j >>> 6, word | (1L << j));
    deadCount++;
  }

  int live() {
    return size - deadCount;
  }

  long ramBytesUsed() {
    long bytes = 64 + 3 * 16 + 16L * capacity + 8L * dead.length;
    for (int t = 0; t < heads.length; t++) {
      bytes += 32 + 4L * heads[t].length + 4L * next[t].length;
    }
    return bytes;
  }

  void checkInvariants(BlockScheme scheme) {
    int n = size;
    int bits = 0;
    for (long w : dead) {
      bits += Long.bitCount(w);
    }
    check(bits == deadCount, "buffer deadCount %s but %s tombstones", deadCount, bits);
    for (int t = 0; t < heads.length; t++) {
      int seen = 0;
      for (int b = 0; b < heads[t].length; b++) {
        int last = Integer.MAX_VALUE;
        for (int e = heads[t][b]; e != 0; e = next[t][e - 1]) {
          int j = e - 1;
          check(j < last && j < n, "table %s chain %s not decreasing at %s", t, b, j);
          check(
              bucket(t, scheme.permute(t, fps[j])) == b, "table %s entry %s in chain %s", t, j, b);
          last = j;
          seen++;
        }
      }
      check(seen == n, "table %s chains hold %s of %s entries", t, seen, n);
    }
  }

  private static void check(boolean ok, String template, Object... args) {
    if (!ok) {
      throw new IllegalStateException(
          "AddBuffer invariant broken: " + String.format(java.util.Locale.ROOT, template, args));
    }
  }
}
