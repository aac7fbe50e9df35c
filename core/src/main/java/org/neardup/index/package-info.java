// SPDX-License-Identifier: Apache-2.0
/**
 * Hamming indexes: find the stored fingerprints within k bits of a query.
 *
 * <p>{@link org.neardup.index.HammingIndex} is the role; {@link org.neardup.index.LinearScanIndex}
 * is the brute-force reference every other index must agree with exactly; {@link
 * org.neardup.index.BlockPermutedIndex} is the fast one, configured by a {@link
 * org.neardup.index.BlockScheme} (the default, 4:1, keys 4 tables on 16-bit blocks). {@link
 * org.neardup.index.AllPairs} finds every pair within k in a batch of fingerprints.
 *
 * <p>Costs promised here and measured by {@code neardup bench index} and the JMH benchmarks: a
 * search reports matches to a primitive {@link org.neardup.index.MatchConsumer}, with no boxing and
 * no allocation at all in {@code BlockPermutedIndex#search}; a {@code BlockPermutedIndex} holds
 * about {@code 10 + 4 (T - 1)} bytes per fingerprint for the default scheme (22; 26 when a
 * segment's docIds span more than 2^32) and {@code 14 + 6 (T - 1)} for the others; any k from 0 to
 * 64 is accepted, exact lookups up to {@link org.neardup.index.BlockScheme#exactUpTo()} (3 for the
 * presets) and multi-probe or scan beyond.
 *
 * <p>Threads: {@code BlockPermutedIndex} takes one writer and any number of lock-free readers;
 * {@code LinearScanIndex} is not thread-safe.
 */
@NullMarked
package org.neardup.index;

import org.jspecify.annotations.NullMarked;
