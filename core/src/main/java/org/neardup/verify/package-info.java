// SPDX-License-Identifier: Apache-2.0
/**
 * Verification: the precise similarity that confirms or rejects a candidate found by a fingerprint.
 *
 * <p>A text's {@link org.neardup.verify.ShingleSketch} holds the hashes of its shingles (five
 * consecutive letters or digits for Chinese text, three consecutive words for other text), complete
 * for short texts and the smallest {@code T} hashes for long ones. {@link
 * org.neardup.verify.ShingleSketch#jaccard} is exact when both sketches are complete and a bottom-T
 * estimate otherwise (Broder 1997). {@link org.neardup.verify.Shingler} also derives MinHash band
 * keys (one-permutation hashing with optimal densification, Shrivastava 2017) that find candidates
 * above a Jaccard threshold with high probability.
 */
@NullMarked
package org.neardup.verify;

import org.jspecify.annotations.NullMarked;
