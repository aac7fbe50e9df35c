// SPDX-License-Identifier: Apache-2.0
package org.neardup.fingerprint;

import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.neardup.internal.Checks;
import org.neardup.text.HtmlText;
import org.neardup.text.IdfTable;
import org.neardup.text.Lexicon;
import org.neardup.text.Segmenter;
import org.neardup.text.StopWords;

/**
 * Everything that decides the value of a fingerprint. Immutable.
 *
 * <p>{@link #id()} is a canonical description of these settings, e.g. {@code
 * neardup-fp/1;seg=jieba-0.42.1/...;idf=jieba-0.42.1/sha1:...;top=64;...}. Stores keep it next to
 * their fingerprints and refuse to compare fingerprints made with a different id.
 */
public final class FingerprintSettings {
  /** Bumped whenever the algorithm changes the fingerprint of any text. */
  public static final int FORMAT_VERSION = 1;

  /** How term frequency scales a word's weight. */
  public enum TfScaling {
    /** weight = tf * idf */
    RAW,
    /** weight = (1 + ln tf) * idf */
    LOG,
    /** weight = idf */
    BINARY
  }

  /** What to do with words made only of digits (counters, dates, prices, ids). */
  public enum Numbers {
    KEEP,
    DROP
  }

  /** What to use of a text that looks like HTML. */
  public enum Html {
    /** Treat it as plain text, tags included. */
    RAW,
    /** Its visible text. */
    VISIBLE,
    /** Its main content, without navigation, header and footer. */
    MAIN;

    HtmlText.@Nullable Mode mode() {
      return this == VISIBLE ? HtmlText.Mode.VISIBLE : this == MAIN ? HtmlText.Mode.MAIN : null;
    }
  }

  /**
   * What to do with traditional Chinese characters. The default, {@link #FOLD}, was decided on the
   * dev set with opencc conversions added (docs/BENCHMARKS.md): F1 0.9723 against 0.9264 with 2% of
   * documents converted, 0.9714 against 0.9723 on the dev set as it is.
   */
  public enum Han {
    /** Leave them as they are. */
    KEEP,
    /**
     * Fold traditional (and Taiwan/Hong Kong variant) characters to simplified ones with {@link
     * org.neardup.text.HanFolder}, before segmentation and shingling, so a text and its
     * simplified/traditional conversion are the same text.
     */
    FOLD
  }

  /**
   * What to do with volatile lines, those that change each time a page is crawled while the page
   * stays the same (view counters, post dates, "last edited"): {@link
   * org.neardup.text.VolatileLines}.
   */
  public enum Volatile {
    /** They are content like any other line. */
    KEEP,
    /** Left out of the fingerprint and the shingles. */
    DROP
  }

  /**
   * The default of {@link Builder#topN}, a constant so that help texts can show it without building
   * settings (which loads the stop words).
   */
  public static final int DEFAULT_TOP_N = 20;

  private final @Nullable Segmenter segmenter;
  private final @Nullable IdfTable idf;
  private final StopWords stopWords;
  private final String stopWordsId;
  private final int topN;
  private final int minWordLength;
  private final int shingle;
  private final TfScaling tf;
  private final Numbers numbers;
  private final Html html;
  private final Han han;
  private final Volatile volatileLines;
  private final String id;

  private FingerprintSettings(Builder b) {
    this.segmenter = b.segmenter;
    this.idf = b.idf;
    this.stopWords = b.stopWords;
    this.stopWordsId = b.stopWordsId;
    this.topN = b.topN;
    this.minWordLength = b.minWordLength;
    this.shingle = b.shingle;
    this.tf = b.tf;
    this.numbers = b.numbers;
    this.html = b.html;
    this.han = b.han;
    this.volatileLines = b.volatileLines;
    this.id =
        "neardup-fp/"
            + FORMAT_VERSION
            + ";seg="
            + (segmenter == null ? "chars" : segmenter.id())
            + ";idf="
            + (idf == null ? "none" : idf.id())
            + ";stop="
            + stopWordsId
            + ";top="
            + topN
            + ";min="
            + minWordLength
            + ";shingle="
            + shingle
            + ";tf="
            + tf.name().toLowerCase(java.util.Locale.ROOT)
            + ";numbers="
            + numbers.name().toLowerCase(java.util.Locale.ROOT)
            + ";html="
            + html.name().toLowerCase(java.util.Locale.ROOT)
            // Only when folding, so that ids of settings made before this option keep their form.
            + (han == Han.FOLD ? ";han=fold" : "")
            + (volatileLines == Volatile.DROP ? ";volatile=drop" : "")
            + ";hash=xxh64-utf8";
  }

  /** Settings with the given lexicon's segmenter and IDF table and every other default. */
  public static Builder builder(Lexicon lexicon) {
    return new Builder().segmenter(lexicon.segmenter()).idf(lexicon.idf());
  }

  /** Settings without a segmenter (each Han character is a word) and without IDF. */
  public static Builder builder() {
    return new Builder();
  }

  public @Nullable Segmenter segmenter() {
    return segmenter;
  }

  public @Nullable IdfTable idf() {
    return idf;
  }

  public StopWords stopWords() {
    return stopWords;
  }

  /** At most this many features, the heaviest, make the fingerprint; 0 means all. */
  public int topN() {
    return topN;
  }

  /**
   * Words shorter than this (in code points) are not features, unless the text has no longer word
   * at all.
   */
  public int minWordLength() {
    return minWordLength;
  }

  /** Features are runs of this many consecutive words (1: single words). */
  public int shingle() {
    return shingle;
  }

  public TfScaling tf() {
    return tf;
  }

  public Numbers numbers() {
    return numbers;
  }

  public Html html() {
    return html;
  }

  public Han han() {
    return han;
  }

  public Volatile volatileLines() {
    return volatileLines;
  }

  /** The canonical description; equal ids mean equal fingerprints for every text. */
  public String id() {
    return id;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof FingerprintSettings && ((FingerprintSettings) o).id.equals(id);
  }

  @Override
  public int hashCode() {
    return id.hashCode();
  }

  @Override
  public String toString() {
    return id;
  }

  /**
   * Builds {@link FingerprintSettings}; the defaults are those measured best in docs/BENCHMARKS.md.
   */
  public static final class Builder {
    private @Nullable Segmenter segmenter;
    private @Nullable IdfTable idf;
    private StopWords stopWords = StopWords.defaults();
    private String stopWordsId = "builtin-1";
    private int topN = DEFAULT_TOP_N;
    private int minWordLength = 2;
    private int shingle = 1;
    private TfScaling tf = TfScaling.RAW;
    private Numbers numbers = Numbers.KEEP;
    private Html html = Html.VISIBLE;
    private Han han = Han.FOLD;
    private Volatile volatileLines = Volatile.KEEP;

    private Builder() {}

    public Builder segmenter(@Nullable Segmenter segmenter) {
      this.segmenter = segmenter;
      return this;
    }

    public Builder idf(@Nullable IdfTable idf) {
      this.idf = idf;
      return this;
    }

    /**
     * @param id names the list in {@link FingerprintSettings#id()}; must change when the list does
     */
    public Builder stopWords(StopWords stopWords, String id) {
      this.stopWords = Objects.requireNonNull(stopWords, "stopWords");
      this.stopWordsId = Objects.requireNonNull(id, "id");
      return this;
    }

    public Builder topN(int topN) {
      Checks.checkArgument(topN >= 0, "topN must be >= 0 (0 = all features), got %s", topN);
      this.topN = topN;
      return this;
    }

    public Builder minWordLength(int minWordLength) {
      Checks.checkArgument(
          minWordLength >= 1 && minWordLength <= 16,
          "minWordLength must be in [1, 16], got %s",
          minWordLength);
      this.minWordLength = minWordLength;
      return this;
    }

    public Builder shingle(int shingle) {
      Checks.checkArgument(
          shingle >= 1 && shingle <= 8, "shingle must be in [1, 8], got %s", shingle);
      this.shingle = shingle;
      return this;
    }

    public Builder tf(TfScaling tf) {
      this.tf = Objects.requireNonNull(tf, "tf");
      return this;
    }

    public Builder numbers(Numbers numbers) {
      this.numbers = Objects.requireNonNull(numbers, "numbers");
      return this;
    }

    public Builder html(Html html) {
      this.html = Objects.requireNonNull(html, "html");
      return this;
    }

    public Builder han(Han han) {
      this.han = Objects.requireNonNull(han, "han");
      return this;
    }

    public Builder volatileLines(Volatile v) {
      this.volatileLines = Objects.requireNonNull(v, "volatileLines");
      return this;
    }

    public FingerprintSettings build() {
      return new FingerprintSettings(this);
    }
  }
}
