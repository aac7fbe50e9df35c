// SPDX-License-Identifier: Apache-2.0
package org.neardup.fingerprint;

import java.util.List;

/**
 * The weighted features of one text, heaviest first, with the fingerprint they make.
 *
 * @param words the feature words (word n-grams joined by a space), heaviest first
 * @param hashes each word's 64-bit hash
 * @param weights each word's weight
 * @param fingerprint the simhash of these features
 * @param totalFeatures distinct features before the top-N cut
 */
public record Features(
    List<String> words, long[] hashes, float[] weights, long fingerprint, int totalFeatures) {

  /** The number of features kept. */
  public int size() {
    return words.size();
  }
}
