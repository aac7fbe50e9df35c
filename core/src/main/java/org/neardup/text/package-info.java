// SPDX-License-Identifier: Apache-2.0
/**
 * From raw text to weighted words: visible text of HTML, Unicode normalisation, script-aware
 * tokenisation, Chinese segmentation behind {@link org.neardup.text.Segmenter}, stop words, and IDF
 * weights in an {@link org.neardup.text.IdfTable}.
 *
 * <p>The hot path allocates nothing per word: words travel as (char[], start, end) ranges of one
 * reused buffer, and are identified by their 64-bit hash.
 */
@NullMarked
package org.neardup.text;

import org.jspecify.annotations.NullMarked;
