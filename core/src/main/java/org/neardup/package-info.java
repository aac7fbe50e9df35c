// SPDX-License-Identifier: Apache-2.0
/**
 * neardup: near-duplicate text detection with simhash fingerprints and a Hamming index.
 *
 * <h2>Terms</h2>
 *
 * Every class in this project uses these words in exactly this sense.
 *
 * <dl>
 *   <dt>fingerprint
 *   <dd>A 64-bit simhash of a text, held in a {@code long}. Bit 63 is the sign bit. Two texts whose
 *       fingerprints are close in Hamming distance are likely near-duplicates.
 *   <dt>distance
 *   <dd>The Hamming distance between two fingerprints: {@code Long.bitCount(a ^ b)}, from 0 to 64.
 *   <dt>k, maxDistance
 *   <dd>The largest distance at which two fingerprints still count as a match. 3 by default (Manku,
 *       Jain, Das Sarma, WWW 2007).
 *   <dt>block
 *   <dd>A fixed range of bits of a fingerprint, used as an index key. If two fingerprints differ in
 *       at most k bits and are cut into more than k blocks, at least one block is identical
 *       (pigeonhole principle); see {@link org.neardup.index.BlockScheme}.
 *   <dt>docId
 *   <dd>The caller's identifier of a document, a {@code long}. neardup never interprets it.
 *   <dt>feature
 *   <dd>A word or shingle of a text with a weight; the fingerprint is the weighted sign vector of
 *       the features' 64-bit hashes.
 * </dl>
 */
@NullMarked
package org.neardup;

import org.jspecify.annotations.NullMarked;
