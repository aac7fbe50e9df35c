// SPDX-License-Identifier: Apache-2.0
package org.neardup.verify;

/**
 * What verification keeps of one text: its shingle sketch and its MinHash band keys.
 *
 * @param shingles the shingle hashes, for the similarity
 * @param bandKeys one key per band of the {@link BandScheme}; texts sharing any key are candidates.
 *     Empty for a text without shingles.
 */
public record Sketch(ShingleSketch shingles, long[] bandKeys) {}
