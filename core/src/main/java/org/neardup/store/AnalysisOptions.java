// SPDX-License-Identifier: Apache-2.0
package org.neardup.store;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.neardup.fingerprint.FingerprintSettings;
import org.neardup.index.BlockScheme;
import org.neardup.text.IdfTable;
import org.neardup.text.UserDictionary;
import org.neardup.verify.Shingler;

/**
 * A collection's options for reading texts and indexing fingerprints, the ones {@code neardup
 * dedup} takes as {@code --numbers}, {@code --html}, {@code --volatile-lines}, {@code --top-n},
 * {@code --sketch-capacity} and {@code --scheme}. Each changes which texts are near-duplicates (or,
 * for the scheme, the index's size and speed), so each is fixed when the collection is created.
 *
 * <p>In {@link CollectionSettings#toText()} each appears only when it differs from {@link #DEFAULT}
 * ({@code numbers=fold}, {@code html=main}, {@code volatile=drop}, {@code top=32}, {@code
 * capacity=1024}, {@code scheme=5:2}), so settings stored before these options, which have none of
 * the keys, read back as the defaults they were made with.
 *
 * @param foldNumbers whether every digit counts as 0 in verification
 * @param html what to use of texts that look like HTML
 * @param volatileLines whether lines such as view counters and post dates are left out
 * @param topN the heaviest features kept per fingerprint; 0 keeps all
 * @param sketchCapacity shingle hashes kept per document for verification
 * @param scheme the index's block scheme
 * @param idf the bytes of an IDF table ({@code word idf} lines, as {@code neardup idf build} writes
 *     them) instead of the lexicon's, or null for the lexicon's; kept as a user dictionary is, by
 *     its SHA-256 ({@code idf=sha256:...} in the text form, the bytes in the store's files)
 */
public record AnalysisOptions(
    boolean foldNumbers,
    FingerprintSettings.Html html,
    FingerprintSettings.Volatile volatileLines,
    int topN,
    int sketchCapacity,
    BlockScheme scheme,
    @Nullable UserDictionary idf) {

  /** The defaults of {@code neardup dedup}, and of every collection made before these options. */
  public static final AnalysisOptions DEFAULT =
      new AnalysisOptions(
          false,
          FingerprintSettings.Html.VISIBLE,
          FingerprintSettings.Volatile.KEEP,
          FingerprintSettings.builder().build().topN(),
          Shingler.DEFAULT_CAPACITY,
          BlockScheme.DEFAULT,
          null);

  public AnalysisOptions {
    Objects.requireNonNull(html, "html");
    Objects.requireNonNull(volatileLines, "volatileLines");
    Objects.requireNonNull(scheme, "scheme");
    if (topN < 0) {
      throw new IllegalArgumentException("topN must be >= 0 (0 = all features), got " + topN);
    }
    if (sketchCapacity < 16 || sketchCapacity > 1 << 20) {
      throw new IllegalArgumentException(
          "sketchCapacity must be in [16, 1048576], got " + sketchCapacity);
    }
  }

  /** The defaults with a preset's choices on top. */
  public static AnalysisOptions of(Preset preset) {
    return DEFAULT
        .withFoldNumbers(preset.foldNumbers())
        .withHtml(preset.html())
        .withVolatileLines(preset.volatileLines());
  }

  public AnalysisOptions withFoldNumbers(boolean f) {
    return new AnalysisOptions(f, html, volatileLines, topN, sketchCapacity, scheme, idf);
  }

  public AnalysisOptions withHtml(FingerprintSettings.Html h) {
    return new AnalysisOptions(foldNumbers, h, volatileLines, topN, sketchCapacity, scheme, idf);
  }

  public AnalysisOptions withVolatileLines(FingerprintSettings.Volatile v) {
    return new AnalysisOptions(foldNumbers, html, v, topN, sketchCapacity, scheme, idf);
  }

  public AnalysisOptions withTopN(int n) {
    return new AnalysisOptions(foldNumbers, html, volatileLines, n, sketchCapacity, scheme, idf);
  }

  public AnalysisOptions withSketchCapacity(int c) {
    return new AnalysisOptions(foldNumbers, html, volatileLines, topN, c, scheme, idf);
  }

  public AnalysisOptions withScheme(BlockScheme s) {
    return new AnalysisOptions(foldNumbers, html, volatileLines, topN, sketchCapacity, s, idf);
  }

  public AnalysisOptions withIdf(@Nullable UserDictionary table) {
    return new AnalysisOptions(
        foldNumbers, html, volatileLines, topN, sketchCapacity, scheme, table);
  }

  /**
   * The IDF table of {@link #idf()}, or null for the lexicon's.
   *
   * @throws IllegalArgumentException naming the line that is not {@code word idf}
   */
  public @Nullable IdfTable idfTable() {
    if (idf == null) {
      return null;
    }
    try (BufferedReader r =
        new BufferedReader(
            new InputStreamReader(
                new ByteArrayInputStream(idf.content()), StandardCharsets.UTF_8))) {
      return IdfTable.read(r, "idf-sha256:" + idf.sha256().substring(0, 16));
    } catch (IOException e) {
      throw new IllegalArgumentException("IDF table " + idf.name() + ": " + e.getMessage(), e);
    }
  }

  /** Parses {@code keep} or {@code fold}: whether numbers fold. */
  public static boolean parseNumbers(String text) {
    switch (text) {
      case "keep":
        return false;
      case "fold":
        return true;
      default:
        throw new IllegalArgumentException("numbers must be 'keep' or 'fold', got '" + text + "'");
    }
  }

  /** Parses {@code visible}, {@code main} or {@code raw}. */
  public static FingerprintSettings.Html parseHtml(String text) {
    switch (text) {
      case "visible":
        return FingerprintSettings.Html.VISIBLE;
      case "main":
        return FingerprintSettings.Html.MAIN;
      case "raw":
        return FingerprintSettings.Html.RAW;
      default:
        throw new IllegalArgumentException(
            "html must be 'visible', 'main' or 'raw', got '" + text + "'");
    }
  }

  /** Parses {@code keep} or {@code drop}. */
  public static FingerprintSettings.Volatile parseVolatileLines(String text) {
    switch (text) {
      case "keep":
        return FingerprintSettings.Volatile.KEEP;
      case "drop":
        return FingerprintSettings.Volatile.DROP;
      default:
        throw new IllegalArgumentException(
            "volatile lines must be 'keep' or 'drop', got '" + text + "'");
    }
  }

  /** The lower-case name of an option's value, as the text form and the API write it. */
  public static String label(Enum<?> value) {
    return value.name().toLowerCase(Locale.ROOT);
  }

  /** The {@code key=value} pairs that differ from {@link #DEFAULT}, each after a {@code ;}. */
  String toText() {
    StringBuilder b = new StringBuilder();
    if (foldNumbers != DEFAULT.foldNumbers) {
      b.append(";numbers=").append(foldNumbers ? "fold" : "keep");
    }
    if (html != DEFAULT.html) {
      b.append(";html=").append(label(html));
    }
    if (volatileLines != DEFAULT.volatileLines) {
      b.append(";volatile=").append(label(volatileLines));
    }
    if (topN != DEFAULT.topN) {
      b.append(";top=").append(topN);
    }
    if (sketchCapacity != DEFAULT.sketchCapacity) {
      b.append(";capacity=").append(sketchCapacity);
    }
    if (!scheme.equals(DEFAULT.scheme)) {
      b.append(";scheme=").append(scheme);
    }
    if (idf != null) {
      b.append(";idf=sha256:").append(idf.sha256());
    }
    return b.toString();
  }
}
