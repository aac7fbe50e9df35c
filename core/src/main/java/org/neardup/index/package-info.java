/**
 * Hamming indexes: find the stored fingerprints within k bits of a query.
 *
 * <p>{@link org.neardup.index.HammingIndex} is the role; {@link org.neardup.index.LinearScanIndex}
 * is the brute-force reference every other index must agree with exactly; {@link
 * org.neardup.index.BlockPermutedIndex} is the fast one, configured by a {@link
 * org.neardup.index.BlockScheme}. Searches report matches to a primitive {@link
 * org.neardup.index.MatchConsumer}: no boxing and no per-match allocation.
 */
@NullMarked
package org.neardup.index;

import org.jspecify.annotations.NullMarked;
