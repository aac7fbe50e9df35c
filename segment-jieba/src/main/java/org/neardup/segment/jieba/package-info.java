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
 * <p>User dictionaries: {@link org.neardup.text.Lexicon#withUserDictionary} reads a file in {@code
 * jieba.load_userdict}'s format with jieba's own rules (see {@code JiebaUserWords}), and runs that
 * mix Han characters with ASCII letters, digits and {@code + # & . _ % -} are cut as jieba cuts its
 * blocks, so {@code 江南style}, {@code 4s店}, {@code c++} and the user's mixed words come out whole.
 * Golden files from Python jieba check both, word for word. A user dictionary costs a second copy
 * of the dictionary (about 10 MB) and 2-5 s to load (10,000 words, a third of them without a
 * frequency, for which jieba's {@code suggest_freq} needs a map of the whole dictionary).
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
