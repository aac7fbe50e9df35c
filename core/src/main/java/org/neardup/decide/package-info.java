// SPDX-License-Identifier: Apache-2.0
/**
 * The decision rules of a check-and-insert, usable with candidates fetched from anywhere: which
 * candidates count ({@link org.neardup.decide.Verifier}), which of them are near-duplicates and in
 * what order they are reported ({@link org.neardup.decide.MatchSet}), which stored keys a document
 * is found under ({@link org.neardup.decide.CandidateKeys}), and the whole decision over a table of
 * externally fetched candidates ({@link org.neardup.decide.CandidateTable}, {@link
 * org.neardup.decide.Decision}). {@link org.neardup.Deduplicator} decides with the same classes
 * from its in-memory index; a networked store fetches the candidates under the document's keys from
 * its backend and gets the same verdicts.
 */
@NullMarked
package org.neardup.decide;

import org.jspecify.annotations.NullMarked;
