// SPDX-License-Identifier: Apache-2.0
/**
 * jieba for neardup: Chinese word segmentation that gives the words of jieba 0.42.1's {@code
 * cut(text, HMM=True)}, and jieba's IDF table, behind core's {@link org.neardup.text.Lexicon}
 * {@code "jieba"}.
 *
 * <p>The segmenter is our own implementation of jieba's published algorithm (prefix dictionary,
 * maximum-probability route through the word graph, hidden Markov model for unknown words) over
 * jieba's data, which ships in this package as gzipped text ({@code dict.txt.gz}, {@code
 * hmm.txt.gz}, {@code idf.txt.gz}; see {@code NOTICE.txt} and {@code segment-jieba/data/}).
 *
 * <p>Cost promises: the dictionary and model load once (about 0.5 s of CPU, 9.6 MB kept) and are
 * shared, immutable, by all threads; segmentation is linear in the text (at most 16 trie steps per
 * char), allocates nothing per word or per call once a thread is warm (words are ranges of the
 * caller's array; runs over 65,536 chars take temporary scratch), and cuts 10-15 million Han chars
 * (30-45 MB of UTF-8) per second per core, about 9 times jieba-analysis.
 */
@NullMarked
package org.neardup.segment.jieba;

import org.jspecify.annotations.NullMarked;
