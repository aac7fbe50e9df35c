// SPDX-License-Identifier: Apache-2.0
package org.neardup;

import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.neardup.fingerprint.Fingerprinter;
import org.neardup.text.TextBuffer;
import org.neardup.verify.ShingleSketch;
import org.neardup.verify.Shingler;
import org.neardup.verify.Sketch;

/**
 * Turns a text into its {@link Analysis}: normalises it once, then computes the fingerprint and,
 * when a {@link Shingler} is given, the sketch from the same normalised text.
 *
 * <p>Thread-safe; share one instance. {@link #id()} names every setting that changes an analysis.
 */
public final class Analyzer {
  private final Fingerprinter fingerprinter;
  private final @Nullable Shingler shingler;
  private final ThreadLocal<TextBuffer> buffers = ThreadLocal.withInitial(TextBuffer::new);

  public Analyzer(Fingerprinter fingerprinter, @Nullable Shingler shingler) {
    this.fingerprinter = Objects.requireNonNull(fingerprinter, "fingerprinter");
    this.shingler = shingler;
  }

  public Fingerprinter fingerprinter() {
    return fingerprinter;
  }

  public @Nullable Shingler shingler() {
    return shingler;
  }

  /** The fingerprint settings id, plus the shingler's when verification is on. */
  public String id() {
    String fp = fingerprinter.settings().id();
    return shingler == null ? fp : fp + "|" + shingler.id();
  }

  /** Analyses one text. */
  public Analysis analyze(CharSequence text) {
    TextBuffer norm = buffers.get();
    norm.clear();
    fingerprinter.normalize(text, norm);
    return analyzeNormalized(norm);
  }

  /**
   * Analyses the text {@code text[start, end)}: the same analysis as {@link #analyze(CharSequence)}
   * of that text, for a caller that holds it as chars (dedup's reader), with no String made of it.
   */
  public Analysis analyze(char[] text, int start, int end) {
    TextBuffer norm = buffers.get();
    norm.clear();
    fingerprinter.normalize(text, start, end, norm);
    return analyzeNormalized(norm);
  }

  private Analysis analyzeNormalized(TextBuffer norm) {
    char[] chars = norm.array();
    int len = norm.length();
    long counts = Shingler.letters(chars, 0, len);
    int letters = (int) Math.min(Integer.MAX_VALUE, (counts >>> 32) + (counts & 0xFFFFFFFFL));
    try {
      if (shingler == null) {
        return Analysis.ofFingerprint(fingerprinter.fingerprintNormalized(chars, 0, len), letters);
      }
      ShingleSketch.Mode mode = Shingler.mode(counts);
      long fp;
      Sketch sketch;
      if (mode == ShingleSketch.Mode.WORDS) {
        // One tokenisation and one hash per word feed both the fingerprint and the shingles.
        Shingler.WordSession words = shingler.words();
        fp = fingerprinter.fingerprintNormalized(chars, 0, len, words::word);
        sketch = words.finish();
      } else {
        fp = fingerprinter.fingerprintNormalized(chars, 0, len);
        sketch = shingler.sketch(chars, 0, len, mode);
      }
      return new Analysis(fp, sketch, letters);
    } finally {
      if (norm.array().length > 1 << 20) {
        buffers.remove(); // do not keep a huge buffer alive after a huge text
      }
    }
  }
}
