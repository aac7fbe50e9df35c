// SPDX-License-Identifier: Apache-2.0
/**
 * Where a service keeps its documents: {@link org.neardup.store.FingerprintStore}, a durable set of
 * named {@link org.neardup.store.Collection}s, each an independent index with its own {@link
 * org.neardup.store.CollectionSettings}.
 *
 * <p>A store speaks in the caller's terms: documents have string ids (URLs, keys), timestamps and a
 * retention window, and every answer names documents by those ids. Inside, each store maps ids to
 * the engine's {@code long} docIds however it likes. The server, the CLI and the contract suite
 * ({@code org.neardup.testkit.FingerprintStoreContract}) see only these interfaces, so a store is
 * swapped by name ({@link org.neardup.store.FingerprintStore#open}) without touching them.
 *
 * <h2>Promises every store keeps</h2>
 *
 * <ul>
 *   <li><b>Linearizable check-and-insert.</b> Of two near-duplicates inserted at the same moment,
 *       exactly one is new and the other is its duplicate.
 *   <li><b>Durable acknowledgement.</b> When a write returns, it survives a crash of the process
 *       (and, if the store says so, of the machine); when it throws, it may or may not have been
 *       stored, exactly as after a crash, and retrying with the same id is safe.
 *   <li><b>Retention.</b> Documents older than the collection's window stop matching at the next
 *       {@link org.neardup.store.Collection#expire()} and are forgotten.
 *   <li><b>Validation first.</b> Nothing is stored from a call that throws {@link
 *       java.lang.IllegalArgumentException}.
 * </ul>
 */
@NullMarked
package org.neardup.store;

import org.jspecify.annotations.NullMarked;
