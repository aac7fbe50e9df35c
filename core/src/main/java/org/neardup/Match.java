// SPDX-License-Identifier: Apache-2.0
package org.neardup;

/**
 * A stored document that a text matched.
 *
 * @param docId the stored document's id
 * @param distance the Hamming distance between the two fingerprints
 * @param similarity the verified Jaccard similarity of their shingles, or NaN when verification is
 *     off
 */
public record Match(long docId, int distance, double similarity) {}
