// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

/** Receives the matches of a search, one call per stored (fingerprint, docId) pair. */
@FunctionalInterface
public interface MatchConsumer {
  /**
   * @param docId the caller's id stored with the matching fingerprint
   * @param fingerprint the stored fingerprint
   * @param distance its Hamming distance to the query, {@code 0 <= distance <= maxDistance}
   */
  void accept(long docId, long fingerprint, int distance);
}
