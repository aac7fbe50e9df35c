// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

/**
 * A multiset of (fingerprint, docId) pairs searchable by Hamming distance.
 *
 * <p>Every implementation returns exactly what {@link LinearScanIndex} returns for the same
 * contents: the same pairs, each with its distance. The order of reported matches is unspecified.
 *
 * <p>Thread safety is stated by each implementation.
 */
public interface HammingIndex {

  /** Adds one pair. The same docId may be added more than once; each add is one entry. */
  void add(long fingerprint, long docId);

  /**
   * Adds {@code fingerprints[i], docIds[i]} for {@code from <= i < to}, as many {@link #add} calls
   * would. Implementations may do it much faster ({@link BlockPermutedIndex} sorts the range into a
   * segment directly).
   *
   * @throws IllegalArgumentException if an array is null, the arrays' lengths differ or the range
   *     is out of bounds; nothing is added then
   */
  default void addAll(long[] fingerprints, long[] docIds, int from, int to) {
    BlockPermutedIndex.checkBulk(fingerprints, docIds, from, to);
    for (int i = from; i < to; i++) {
      add(fingerprints[i], docIds[i]);
    }
  }

  /**
   * Removes one entry equal to (fingerprint, docId).
   *
   * @return whether such an entry was present
   */
  boolean remove(long fingerprint, long docId);

  /**
   * Calls {@code out} once per stored entry within {@code maxDistance} bits of {@code query}.
   *
   * @return the number of matches reported
   * @throws IllegalArgumentException if maxDistance is outside [0, {@link #maxSupportedDistance()}]
   */
  int search(long query, int maxDistance, MatchConsumer out);

  /**
   * Reports the entry nearest to {@code query} within maxDistance, if any. Ties go to the smallest
   * docId, then to the smallest fingerprint (unsigned), so every implementation picks the same one.
   *
   * @return its distance, or -1 when nothing is within maxDistance
   */
  int nearest(long query, int maxDistance, MatchConsumer out);

  /**
   * Whether any entry is within maxDistance of query; stops at the first one found.
   *
   * @throws IllegalArgumentException if maxDistance is outside [0, {@link #maxSupportedDistance()}]
   */
  boolean any(long query, int maxDistance);

  /** The number of entries. */
  long size();

  /** Heap bytes held by this index: arrays, directories, buffers. */
  long ramBytesUsed();

  /** The largest maxDistance a search accepts (64 for implementations without a limit). */
  int maxSupportedDistance();
}
