// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

import java.util.SplittableRandom;
import org.neardup.internal.Checks;

/**
 * The query mix the index's benchmarks time ({@code neardup bench index}, {@code
 * IndexQueryProfile}): half near-duplicates of stored fingerprints, half random fingerprints, from
 * a seeded generator, so two builds measured side by side answer the same queries.
 */
public final class BenchmarkQueries {
  private BenchmarkQueries() {}

  /**
   * {@code count} queries: even ones a fingerprint of {@code stored} (picked uniformly) with 0..k
   * bits flipped ({@link #flip}), odd ones {@code random.nextLong()}.
   *
   * @throws IllegalArgumentException if stored is empty or k is outside [0, 64]
   */
  public static long[] of(SplittableRandom random, long[] stored, int count, int k) {
    Checks.checkArgument(stored.length > 0, "stored must not be empty");
    Checks.checkArgument(count >= 0, "count must be >= 0, got %s", (long) count);
    Checks.checkMaxDistance(k, 64);
    long[] q = new long[count];
    for (int i = 0; i < count; i++) {
      q[i] =
          (i & 1) == 0 ? flip(random, stored[random.nextInt(stored.length)], k) : random.nextLong();
    }
    return q;
  }

  /** {@code fp} with a uniformly chosen number in [0, k] of distinct random bits flipped. */
  public static long flip(SplittableRandom random, long fp, int k) {
    int flips = random.nextInt(k + 1);
    long mask = 0;
    while (Long.bitCount(mask) < flips) {
      mask |= 1L << random.nextInt(64);
    }
    return fp ^ mask;
  }
}
