// SPDX-License-Identifier: Apache-2.0
package org.neardup.decide;

import org.neardup.Analysis;
import org.neardup.verify.ShingleSketch;
import org.neardup.verify.SketchStore;

/**
 * The decision of a check over candidates a store fetched itself: which are near-duplicates of the
 * query, in ordinal order, with the rules {@link org.neardup.Deduplicator} applies to the
 * candidates of its own index, with the same loop. The caller then stores the document, unites its
 * cluster with the matches' ({@link MatchSet#joinedRoots()}: the earliest root represents the
 * union) and reports {@link MatchSet#reported()}. Immutable and thread-safe.
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
   * Appends to {@code out} the near-duplicates among the candidates: those within k bits or
   * counting at any distance ({@link Candidates#anyDistance}) whose similarity passes ({@link
   * Verifier#similarity}), skipping removed ones and, once {@code maxMatches} are listed,
   * candidates in a cluster already matched ({@link MatchSet#canSkip}). Every candidate's ordinal
   * must be above those {@code out} holds.
   */
  public void verify(Analysis query, Candidates candidates, MatchSet out) {
    verify(query, candidates, out, new SketchStore.Slice());
  }

  /**
   * As {@link #verify(Analysis, Candidates, MatchSet)}, reading the candidates' sketches through
   * {@code slice} (one per thread, reused: the engine's path allocates nothing).
   */
  public void verify(Analysis query, Candidates candidates, MatchSet out, SketchStore.Slice slice) {
    int n = candidates.sortUnique();
    long fp = query.fingerprint();
    boolean verifies = verifier.verifies();
    ShingleSketch mine = verifies ? query.sketch().shingles() : null;
    for (int i = 0; i < n; i++) {
      if (candidates.removed(i)) {
        continue;
      }
      int distance = Long.bitCount(fp ^ candidates.fingerprint(i));
      if (!candidates.anyDistance(i) && !verifier.isFingerprintCandidate(distance)) {
        continue;
      }
      long root = candidates.root(i);
      if (verifies && out.canSkip(root)) {
        continue;
      }
      double similarity;
      if (verifies) {
        candidates.sketch(i, slice);
        similarity = verifier.similarity(distance, mine, slice.array, slice.offset, slice.length);
      } else {
        similarity = verifier.similarity(distance, null, null, 0, 0);
      }
      if (similarity != Verifier.REJECTED) {
        out.add(candidates.ordinal(i), root, distance, similarity);
      }
    }
  }
}
