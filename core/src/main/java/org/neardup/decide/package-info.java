// SPDX-License-Identifier: Apache-2.0
/**
 * The decision rules of a check-and-insert, usable with candidates fetched from anywhere: which
 * candidates count ({@link org.neardup.decide.Verifier}), which of them are near-duplicates and in
 * what order they are reported ({@link org.neardup.decide.MatchSet}), which stored keys a document
 * is found under ({@link org.neardup.decide.CandidateKeys}), and the whole decision ({@link
 * org.neardup.decide.Decision#verify}) over any source of candidates ({@link
 * org.neardup.decide.Candidates}). {@link org.neardup.Deduplicator} runs that one loop over the
 * candidates of its in-memory index, read in place; a networked store fetches the candidates under
 * the document's keys from its backend into a {@link org.neardup.decide.CandidateTable} and runs
 * the same loop ({@code org.neardup.store.RemoteDecision}), so both give the same verdicts.
 */
@NullMarked
package org.neardup.decide;

import org.jspecify.annotations.NullMarked;
