// SPDX-License-Identifier: Apache-2.0
package org.neardup.text;

/**
 * Cuts a run of Chinese (Han) characters into words.
 *
 * <p>Implementations are thread-safe and share their dictionary between threads; per-call scratch
 * space is per thread, so {@link #segment} allocates nothing once warm.
 */
public interface Segmenter {

  /**
   * Cuts {@code text[start, end)}, a run of already normalised Han characters (or a mixed run, see
   * {@link #cutsMixedRuns()}), into words and calls {@code sink} once per word, in order. The words
   * cover the run exactly: no gaps, no overlaps.
   */
  void segment(char[] text, int start, int end, WordSink sink);

  /**
   * Whether this segmenter also takes runs that mix Han characters with ASCII letters, digits and
   * the joiners {@code + # & . _ % -}, so that dictionary words such as {@code 江南style}, {@code
   * 4s店} or {@code c++} are found (see {@link Tokenizer}). Such a run may also hold no Han
   * character at all. False by default: the segmenter sees runs of Han characters only.
   */
  default boolean cutsMixedRuns() {
    return false;
  }

  /**
   * Identifies the algorithm and dictionary, e.g. {@code jieba-0.42.1/dag+hmm/sha1:1a2b3c4d}. It
   * becomes part of the fingerprint settings, so a different dictionary never yields silently
   * incompatible fingerprints.
   */
  String id();
}
