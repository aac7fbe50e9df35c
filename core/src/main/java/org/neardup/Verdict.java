// SPDX-License-Identifier: Apache-2.0
package org.neardup;

import java.util.List;

/**
 * The answer to "have I seen this text before?".
 *
 * @param isNew true when no stored document is a near-duplicate of the text
 * @param fingerprint the text's fingerprint
 * @param cluster the docId representing the text's cluster: the earliest stored member, or the
 *     text's own docId when it is new (for a check that stores nothing and finds no match: -1)
 * @param matches the near-duplicates found, most similar first (at most the deduplicator's
 *     maxMatches)
 * @param joined the representatives of every cluster the text matched, before it joined them: the
 *     links to log so that {@link Deduplicator#restore(long, Analysis, long[])} rebuilds the same
 *     clusters. Empty for a new text.
 */
public record Verdict(
    boolean isNew, long fingerprint, long cluster, List<Match> matches, List<Long> joined) {

  /** Whether the text is a near-duplicate of a stored document. */
  public boolean isDuplicate() {
    return !isNew;
  }
}
