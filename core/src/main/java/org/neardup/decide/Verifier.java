// SPDX-License-Identifier: Apache-2.0
package org.neardup.decide;

import org.jspecify.annotations.Nullable;
import org.neardup.internal.Checks;
import org.neardup.verify.HeadFilter;
import org.neardup.verify.ShingleSketch;

/**
 * Whether one candidate is a near-duplicate of a query: the rule every store applies to every
 * candidate, however it found it.
 *
 * <p>With verification on, a candidate is a near-duplicate when the Jaccard similarity of the two
 * shingle sketches reaches the threshold; a {@link HeadFilter} first drops pairs far below it from
 * their sixteen smallest hashes. With verification off, it is one when the fingerprints are within
 * {@code maxDistance} bits. Immutable and thread-safe.
 */
public final class Verifier {
  /** What {@link #similarity} answers for a candidate that is not a near-duplicate. */
  public static final double REJECTED = -1;

  private final int maxDistance;
  private final double threshold;
  private final boolean verify;
  private final @Nullable HeadFilter headFilter;

  /**
   * @param maxDistance k: the largest distance of a fingerprint candidate (a match without
   *     verification)
   * @param threshold the Jaccard similarity of a near-duplicate (ignored without verification)
   * @param verify whether sketches decide
   */
  public Verifier(int maxDistance, double threshold, boolean verify) {
    Checks.checkArgument(
        maxDistance >= 0 && maxDistance <= 64,
        "maxDistance must be in [0, 64], got %s",
        maxDistance);
    this.maxDistance = maxDistance;
    this.threshold = threshold;
    this.verify = verify;
    this.headFilter = verify ? new HeadFilter(threshold) : null;
  }

  public int maxDistance() {
    return maxDistance;
  }

  public double threshold() {
    return threshold;
  }

  public boolean verifies() {
    return verify;
  }

  /**
   * Whether a stored fingerprint found under a shared block key is a candidate: within {@code
   * maxDistance} bits. (One found under a shared band key is a candidate whatever its distance.)
   */
  public boolean isFingerprintCandidate(int distance) {
    return distance <= maxDistance;
  }

  /**
   * The candidate's similarity when it is a near-duplicate of the query, else {@link #REJECTED}:
   * the Jaccard similarity with verification, NaN without.
   *
   * @param distance the Hamming distance between the two fingerprints
   * @param mine the query's sketch (null without verification)
   * @param theirs the candidate's encoded sketch ({@link ShingleSketch#encode()}) at {@code [off,
   *     off + len)}; ignored without verification
   */
  public double similarity(
      int distance, @Nullable ShingleSketch mine, byte @Nullable [] theirs, int off, int len) {
    if (!verify) {
      return distance <= maxDistance ? Double.NaN : REJECTED;
    }
    if (!headFilter.mayReach(mine, theirs, off, len)) {
      return REJECTED; // far below the threshold: see HeadFilter
    }
    // The walk stops once the hashes left cannot reach the threshold; a pair that reaches it gets
    // jaccard's value to the last bit (JaccardAtLeastTest, VerifierTest).
    double similarity =
        ShingleSketch.jaccardAtLeast(mine, ShingleSketch.decode(theirs, off, len), threshold);
    return similarity < threshold ? REJECTED : similarity;
  }
}
