// SPDX-License-Identifier: Apache-2.0
/**
 * The default {@link org.neardup.store.FingerprintStore}: everything in one local directory, no
 * server to install.
 *
 * <p>{@link org.neardup.store.embedded.EmbeddedStore} keeps each collection's index in memory (a
 * {@link org.neardup.Deduplicator} plus compact id tables; the sketches that only verification
 * reads in a scratch file per collection, see {@link org.neardup.store.embedded.SketchFile}) and
 * makes it durable with an append-only log of CRC-checked records, written by one thread that
 * commits many requests with one fsync (group commit), and with periodic snapshots that also
 * reclaim the memory of expired and deleted documents. Opening a directory loads the newest
 * snapshot and replays the log after it, never re-verifying: documents are gathered in batches and
 * restored with {@link org.neardup.Deduplicator#restoreAll(org.neardup.RestoreBatch)}, each insert
 * joining every cluster its record names (log format 2 records them all; format 1, still read,
 * named one).
 *
 * <h2>Directory</h2>
 *
 * <pre>
 * lock                          held (FileChannel lock) while a process has the store open
 * snapshot-NNNNNNNNNNNNNNNNNNNN.ndsnap   every live document as of the end of log segment N,
 *                               without its sketch (version 3; versions 1 and 2 held it)
 * snapshot-NNNNNNNNNNNNNNNNNNNN.ndsketch their band keys and sketches (version 3): an open
 *                               reads the .ndsnap and leaves this file to the sketch files
 *                               to read in place
 * log-NNNNNNNNNNNNNNNNNNNN.ndlog         log segments after the snapshot, replayed in order
 * *.tmp                         a snapshot being written; deleted on open
 * sketches-C-N.tmp              collection C's sketches and band keys while open (SketchFile)
 *                               of the documents the .ndsketch does not hold (those from the
 *                               log, and all of them after a rebuild): never forced
 * log-N.ndlog.cut-OFFSET        bytes cut from a torn log tail, kept for inspection
 * </pre>
 *
 * The file grammars are in {@link org.neardup.store.embedded.LogFormat} and {@link
 * org.neardup.store.embedded.SnapshotFormat}.
 */
@NullMarked
package org.neardup.store.embedded;

import org.jspecify.annotations.NullMarked;
