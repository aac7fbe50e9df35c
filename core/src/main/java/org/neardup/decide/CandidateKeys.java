// SPDX-License-Identifier: Apache-2.0
package org.neardup.decide;

import org.neardup.Analysis;
import org.neardup.index.BlockScheme;
import org.neardup.internal.Checks;

/**
 * The keys a store files a document under and looks a query up by, when the index lives outside the
 * engine (the seeds' layout: one set of documents per key).
 *
 * <p>Block keys: the fingerprint is cut into {@code k + 1} blocks (4 blocks of 16 bits for {@code k
 * <= 3}), so two fingerprints within k bits share at least one block exactly (pigeonhole); a key is
 * a block's number and value, {@code block << 16 | value}, an int. A stored fingerprint found under
 * a shared block key is a candidate when it is within k bits ({@link
 * Verifier#isFingerprintCandidate}); this finds exactly the candidates the engine's index finds.
 *
 * <p>Band keys: the MinHash band keys of the sketch ({@link org.neardup.verify.Sketch#bandKeys()});
 * a document sharing one is a candidate whatever its fingerprint. Immutable and thread-safe.
 */
public final class CandidateKeys {
  private final BlockScheme scheme;
  private final long[] masks;
  private final int[] shifts;

  /**
   * @param maxDistance k, at most 63
   * @throws IllegalArgumentException if k is out of range
   */
  public CandidateKeys(int maxDistance) {
    Checks.checkArgument(
        maxDistance >= 0 && maxDistance <= 63,
        "a store with block keys supports k in [0, 63], got %s",
        maxDistance);
    this.scheme = maxDistance <= 3 ? BlockScheme.DEFAULT : BlockScheme.of(maxDistance + 1, 1);
    int n = scheme.tables();
    masks = new long[n];
    shifts = new int[n];
    for (int t = 0; t < n; t++) {
      masks[t] = scheme.keyMask(t);
      shifts[t] = Long.numberOfTrailingZeros(masks[t]);
      assert scheme.keyBits(t) <= 16;
    }
  }

  /** The number of block keys per fingerprint. */
  public int blockCount() {
    return masks.length;
  }

  /** Block key {@code t} of a fingerprint, {@code t << 16 | block value}. */
  public int blockKey(int t, long fingerprint) {
    return t << 16 | (int) ((fingerprint & masks[t]) >>> shifts[t]);
  }

  /** Every block key of a fingerprint, in block order. */
  public int[] blockKeys(long fingerprint) {
    int[] out = new int[masks.length];
    for (int t = 0; t < out.length; t++) {
      out[t] = blockKey(t, fingerprint);
    }
    return out;
  }

  /** The band keys of an analysis; empty without a sketch. */
  public static long[] bandKeys(Analysis analysis) {
    return analysis.sketch().bandKeys();
  }
}
