// SPDX-License-Identifier: Apache-2.0
package org.neardup.fingerprint;

/**
 * Turns texts into 64-bit simhash fingerprints under fixed {@link FingerprintSettings}.
 *
 * <p>Thread-safe: share one instance. Each thread keeps its own scratch buffers, so after warm-up
 * {@link #fingerprint} allocates nothing per word.
 */
public interface Fingerprinter {

  /**
   * The fingerprint of {@code text}. A text without any feature (empty, only punctuation or stop
   * words) has fingerprint 0; {@link #features} tells how many features a text has.
   */
  long fingerprint(CharSequence text);

  /**
   * Appends to {@code out} the text a fingerprint is computed from: the visible text when {@code
   * text} looks like HTML (per {@link FingerprintSettings#html()}), normalised by {@link
   * org.neardup.text.TextNormalizer}.
   */
  void normalize(CharSequence text, org.neardup.text.TextBuffer out);

  /**
   * As {@link #normalize(CharSequence, org.neardup.text.TextBuffer)} for the text {@code
   * text[start, end)}, for a caller that holds it as chars (no String of it needed); the same
   * output.
   */
  default void normalize(char[] text, int start, int end, org.neardup.text.TextBuffer out) {
    normalize(new String(text, start, end - start), out);
  }

  /**
   * The fingerprint of text that {@link #normalize} produced: {@code
   * fingerprintNormalized(normalize(t))} equals {@code fingerprint(t)}.
   */
  long fingerprintNormalized(char[] text, int start, int end);

  /**
   * As {@link #fingerprintNormalized(char[], int, int)}, also showing every word of the text, with
   * its hash and before any filtering, to {@code tap}.
   */
  long fingerprintNormalized(
      char[] text,
      int start,
      int end,
      org.neardup.text.@org.jspecify.annotations.Nullable WordTap tap);

  /** The features of {@code text} that make its fingerprint, heaviest first; for explaining. */
  Features features(CharSequence text);

  FingerprintSettings settings();

  /** Creates a fingerprinter for these settings. */
  static Fingerprinter create(FingerprintSettings settings) {
    return new SimhashFingerprinter(settings);
  }
}
