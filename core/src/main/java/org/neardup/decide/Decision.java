// SPDX-License-Identifier: Apache-2.0
package org.neardup.decide;

import org.neardup.Analysis;
import org.neardup.verify.ShingleSketch;

/**
 * The decision of a check over candidates a store fetched itself: which are near-duplicates of the
 * query, in ordinal order, with the rules {@link org.neardup.Deduplicator} applies to the
 * candidates of its own index. The caller then stores the document, unites its cluster with the
 * matches' ({@link MatchSet#joinedRoots()}: the earliest root represents the union) and reports
 * {@link MatchSet#reported()}. Immutable and thread-safe.
 */
public final class Decision {
  private final Verifier verifier;
  private final int maxMatches;

  public Decision(Verifier verifier, int maxMatches) {
    this.verifier = verifier;
    this.maxMatches = maxMatches;
  }

  public Verifier verifier() {
    return verifier;
  }

  /** An empty match set for this decision's verdicts. */
  public MatchSet newMatchSet() {
    return new MatchSet(maxMatches, verifier.verifies());
  }

  /**
   * Appends to {@code out} the near-duplicates among the candidates: those within k bits or sharing
   * a band key whose similarity passes ({@link Verifier#similarity}), skipping, once {@code
   * maxMatches} are listed, candidates in a cluster already matched ({@link MatchSet#canSkip}).
   * Every candidate's ordinal must be above those {@code out} holds.
   */
  public void verify(Analysis query, CandidateTable candidates, MatchSet out) {
    long fp = query.fingerprint();
    ShingleSketch mine = verifier.verifies() ? query.sketch().shingles() : null;
    for (int i : candidates.sortedUnique()) {
      int distance = Long.bitCount(fp ^ candidates.fingerprints[i]);
      if (!candidates.viaBand[i] && !verifier.isFingerprintCandidate(distance)) {
        continue;
      }
      long root = candidates.roots[i];
      if (verifier.verifies() && out.canSkip(root)) {
        continue;
      }
      byte[] sketch = candidates.sketches[i];
      double similarity = verifier.similarity(distance, mine, sketch, 0, sketch.length);
      if (similarity == Verifier.REJECTED) {
        continue;
      }
      out.add(candidates.ordinals[i], root, distance, similarity);
    }
  }
}
