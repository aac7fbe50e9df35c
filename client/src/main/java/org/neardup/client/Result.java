// SPDX-License-Identifier: Apache-2.0
package org.neardup.client;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The service's answer about one document.
 *
 * @param status {@code stored}, {@code checked}, {@code exists} (the id was stored already; nothing
 *     changed) or {@code expired} (outside the retention window: checked, not stored)
 * @param id the document's id; null for a check
 * @param isNew no stored document is a near-duplicate
 * @param fingerprint the document's fingerprint
 * @param cluster the id of its cluster's representative, or null
 * @param matches the near-duplicates, most similar first
 * @param error the service's message for {@code exists}, else null
 */
public record Result(
    String status,
    @Nullable String id,
    boolean isNew,
    long fingerprint,
    @Nullable String cluster,
    List<Match> matches,
    @Nullable String error) {

  public boolean stored() {
    return status.equals("stored");
  }

  public boolean exists() {
    return status.equals("exists");
  }

  /**
   * A stored document that matched.
   *
   * @param similarity the verified Jaccard similarity, NaN without verification
   */
  public record Match(String id, int distance, double similarity) {}
}
