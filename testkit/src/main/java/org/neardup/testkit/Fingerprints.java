// SPDX-License-Identifier: Apache-2.0
package org.neardup.testkit;

import java.util.SplittableRandom;

/**
 * Seeded generators of fingerprint sets with the shapes an index must handle: uniform, clustered
 * (near-duplicates around a few centres), skewed (many sharing one block value), and query mixes.
 * Every method takes the caller's {@link SplittableRandom}, so a seed reproduces a run.
 */
public final class Fingerprints {
  private Fingerprints() {}

  /** n uniformly random fingerprints. */
  public static long[] uniform(SplittableRandom random, int n) {
    long[] out = new long[n];
    for (int i = 0; i < n; i++) {
      out[i] = random.nextLong();
    }
    return out;
  }

  /** {@code fp} with exactly {@code bits} distinct bits flipped, chosen at random. */
  public static long flip(SplittableRandom random, long fp, int bits) {
    if (bits < 0 || bits > 64) {
      throw new IllegalArgumentException("bits must be in [0, 64], got " + bits);
    }
    long mask = 0;
    if (bits > 32) {
      return ~flip(random, fp, 64 - bits); // flips the complement of a (64 - bits)-bit mask
    }
    while (Long.bitCount(mask) < bits) {
      mask |= 1L << random.nextInt(64);
    }
    return fp ^ mask;
  }

  /**
   * n fingerprints around {@code centres} random centres: each is a centre with a uniformly chosen
   * number of bits in [0, maxFlips] flipped, so exact duplicates and near-duplicates abound.
   */
  public static long[] clustered(SplittableRandom random, int n, int centres, int maxFlips) {
    long[] c = uniform(random, centres);
    long[] out = new long[n];
    for (int i = 0; i < n; i++) {
      out[i] = flip(random, c[random.nextInt(centres)], random.nextInt(maxFlips + 1));
    }
    return out;
  }

  /**
   * n uniformly random fingerprints of which a {@code fraction} share the bits of {@code mask} with
   * one random value, as short texts share a block value: the other bits stay random.
   */
  public static long[] skewed(SplittableRandom random, int n, double fraction, long mask) {
    long shared = random.nextLong() & mask;
    long[] out = uniform(random, n);
    for (int i = 0; i < n; i++) {
      if (random.nextDouble() < fraction) {
        out[i] = (out[i] & ~mask) | shared;
      }
    }
    return out;
  }

  /**
   * {@code count} queries: even ones are stored fingerprints with up to {@code maxFlips} bits
   * flipped (near-duplicates), odd ones uniformly random.
   */
  public static long[] queries(SplittableRandom random, long[] stored, int count, int maxFlips) {
    long[] out = new long[count];
    for (int i = 0; i < count; i++) {
      out[i] =
          (i & 1) == 0 && stored.length > 0
              ? flip(random, stored[random.nextInt(stored.length)], random.nextInt(maxFlips + 1))
              : random.nextLong();
    }
    return out;
  }
}
