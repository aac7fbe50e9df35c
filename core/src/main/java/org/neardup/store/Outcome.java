// SPDX-License-Identifier: Apache-2.0
package org.neardup.store;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A collection's answer to a check or a check-and-insert, in the caller's ids.
 *
 * @param status what was done with the document
 * @param id the document's id; null for a check
 * @param isNew true when no stored document is a near-duplicate
 * @param fingerprint the document's fingerprint (for {@link Status#EXISTS}: the stored one's)
 * @param cluster the id of the cluster's representative, its earliest member still known: the
 *     document's own id when it is new and stored; null when nothing was stored and nothing matched
 * @param matches the near-duplicates found, most similar first
 */
public record Outcome(
    Status status,
    @Nullable String id,
    boolean isNew,
    long fingerprint,
    @Nullable String cluster,
    List<Match> matches) {

  public Outcome {
    Objects.requireNonNull(status, "status");
    matches = List.copyOf(matches);
  }

  /** What a collection did with a document. */
  public enum Status {
    /** Checked and stored. */
    STORED,
    /** Checked only: a check, nothing stored. */
    CHECKED,
    /**
     * Not checked, nothing stored: a document with this id is stored. {@code fingerprint} and
     * {@code cluster} are the stored document's.
     */
    EXISTS,
    /** Checked but not stored: its timestamp is already outside the retention window. */
    EXPIRED
  }

  /** Whether the document is stored now by this call. */
  public boolean stored() {
    return status == Status.STORED;
  }

  /**
   * A stored document that matched.
   *
   * @param id its id
   * @param distance the Hamming distance between the fingerprints
   * @param similarity the verified Jaccard similarity, or NaN without verification
   */
  public record Match(String id, int distance, double similarity) {
    public Match {
      Objects.requireNonNull(id, "id");
    }
  }
}
