// SPDX-License-Identifier: Apache-2.0
package org.neardup.text;

/**
 * Sees every word a tokenizer produces, with its {@link TermHasher} hash, before any filtering:
 * lets a second consumer (e.g. shingling) reuse the hashing a fingerprint does anyway.
 */
@FunctionalInterface
public interface WordTap {
  void word(char[] text, int start, int end, long hash);
}
