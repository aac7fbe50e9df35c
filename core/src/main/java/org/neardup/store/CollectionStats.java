// SPDX-License-Identifier: Apache-2.0
package org.neardup.store;

/**
 * Counters of one collection. Counts since the store opened unless they say otherwise.
 *
 * @param documents documents stored now
 * @param ramBytesUsed heap bytes of the collection's index, ids and bookkeeping (estimate)
 * @param inserted documents stored by check-and-insert
 * @param duplicates of those, how many were near-duplicates of a stored document
 * @param checked checks that stored nothing
 * @param expired documents removed by the retention window
 * @param deleted documents removed by delete
 * @param idArrayBytes heap bytes of the arrays that hold the stored ids' own bytes (part of
 *     ramBytesUsed; 0 for a store that keeps no ids on the heap)
 * @param idLengths summed length in UTF-8 bytes of the ids those arrays hold (0 likewise)
 */
public record CollectionStats(
    long documents,
    long ramBytesUsed,
    long inserted,
    long duplicates,
    long checked,
    long expired,
    long deleted,
    long idArrayBytes,
    long idLengths) {

  /** Counters of a store that keeps no ids on the heap. */
  public CollectionStats(
      long documents,
      long ramBytesUsed,
      long inserted,
      long duplicates,
      long checked,
      long expired,
      long deleted) {
    this(documents, ramBytesUsed, inserted, duplicates, checked, expired, deleted, 0, 0);
  }
}
