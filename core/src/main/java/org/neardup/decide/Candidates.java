// SPDX-License-Identifier: Apache-2.0
package org.neardup.decide;

import org.neardup.verify.SketchStore;

/**
 * The stored documents found as candidates for one query, as {@link Decision#verify} reads them:
 * wherever they were found (the engine's in-memory index, a networked store's keys), the same
 * decision is made over them.
 *
 * <p>A source of candidates may hold them in any order and with repeats; {@link #sortUnique()} puts
 * them in increasing ordinal order, each once, and the accessors then address them by their
 * position {@code 0 <= i < sortUnique()}. Not thread-safe.
 */
public interface Candidates {
  /**
   * Orders the candidates by increasing ordinal and drops repeats (one found under a band key keeps
   * that mark); returns how many remain.
   */
  int sortUnique();

  /** Candidate i's ordinal: its insertion order among the stored documents. */
  long ordinal(int i);

  /** Whether candidate i was removed since it was found: it is skipped. */
  boolean removed(int i);

  /** Candidate i's fingerprint. */
  long fingerprint(int i);

  /**
   * Whether candidate i counts whatever its fingerprint's distance: it shares a band key with the
   * query, or it came from a search that finds only fingerprints within k bits. Otherwise it counts
   * only within k bits ({@link Verifier#isFingerprintCandidate}).
   */
  boolean anyDistance(int i);

  /** The root of candidate i's cluster: the ordinal of its earliest member. */
  long root(int i);

  /** Points {@code into} at candidate i's encoded sketch; called only when verifying. */
  void sketch(int i, SketchStore.Slice into);
}
