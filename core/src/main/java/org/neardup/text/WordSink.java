// SPDX-License-Identifier: Apache-2.0
package org.neardup.text;

/** Receives words as ranges of a shared buffer; the range is only valid during the call. */
@FunctionalInterface
public interface WordSink {
  /** Called once per word {@code text[start, end)}, in text order. */
  void word(char[] text, int start, int end);
}
