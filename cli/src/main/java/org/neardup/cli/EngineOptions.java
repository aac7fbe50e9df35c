// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;
import org.jspecify.annotations.Nullable;
import org.neardup.Deduplicator;
import org.neardup.fingerprint.FingerprintSettings;
import org.neardup.index.AllPairs;
import org.neardup.index.BlockScheme;
import org.neardup.store.CollectionSettings;
import org.neardup.store.Preset;
import org.neardup.text.IdfTable;
import org.neardup.text.Lexicon;
import org.neardup.text.UserDictionary;
import picocli.CommandLine.Option;

/** The options that decide what counts as a near-duplicate; shared by every command. */
final class EngineOptions {
  @Option(
      names = {"-k", "--max-distance"},
      paramLabel = "K",
      description =
          "Largest Hamming distance between fingerprints of candidates (and of matches with --no-verify). Default: ${DEFAULT-VALUE}.")
  int maxDistance = Deduplicator.DEFAULT_MAX_DISTANCE;

  @Option(
      names = "--threshold",
      paramLabel = "J",
      description =
          "Jaccard similarity of shingles at which two texts are near-duplicates, in (0, 1]. Default: ${DEFAULT-VALUE}.")
  double threshold = Deduplicator.DEFAULT_THRESHOLD;

  @Option(
      names = "--no-verify",
      description =
          "Decide by fingerprint distance alone (k), without verifying candidates: faster, less accurate on short texts.")
  boolean noVerify;

  @Option(
      names = "--preset",
      paramLabel = "none|web",
      description =
          "web: settings for crawled pages, the same as --numbers fold --html main --volatile-lines drop (options given beside it win). none: the plain defaults (default).")
  String preset = "none";

  @Option(
      names = "--numbers",
      paramLabel = "keep|fold",
      description =
          "keep: digits are content (default; fold with --preset web). fold: every digit counts as 0 in verification, so pages that differ only in counters, dates or times match.")
  @Nullable String numbers;

  @Option(
      names = "--html",
      paramLabel = "visible|main|raw",
      description =
          "What to use of texts that look like HTML: visible text (default), main content without navigation/header/footer (with --preset web), or the raw markup.")
  @Nullable String html;

  @Option(
      names = "--volatile-lines",
      paramLabel = "keep|drop",
      description =
          "drop: leave out lines that change each time a page is crawled (view/comment counters, post dates, 'last edited', '阅读：1234 评论：56') from the fingerprint and the verification. keep: they are content (default; drop with --preset web).")
  @Nullable String volatileLines;

  @Option(
      names = "--top-n",
      paramLabel = "N",
      description = "Heaviest features kept per fingerprint (0 = all). Default: ${DEFAULT-VALUE}.")
  int topN = FingerprintSettings.DEFAULT_TOP_N;

  @Option(
      names = "--sketch-capacity",
      paramLabel = "N",
      description =
          "Shingle hashes kept per document for verification: all of them for texts with up to N shingles, the N smallest beyond. Default: ${DEFAULT-VALUE}.")
  int sketchCapacity = org.neardup.verify.Shingler.DEFAULT_CAPACITY;

  @Option(
      names = "--lexicon",
      paramLabel = "NAME",
      description =
          "Chinese segmenter and IDF table by name, or none (each Han character is a word)."
              + " Default: ${DEFAULT-VALUE}.")
  String lexicon = "jieba";

  @Option(
      names = "--user-dict",
      paramLabel = "FILE",
      description =
          "jieba user dictionary, jieba.load_userdict's format: 'word [freq] [tag]' per line, UTF-8. Its words are cut as jieba cuts them with it.")
  @Nullable Path userDict;

  @Option(
      names = "--han",
      paramLabel = "keep|fold",
      description =
          "fold: fold traditional (and Taiwan/Hong Kong variant) Chinese characters to simplified ones first, so a text and its simplified/traditional conversion are the same text (default). keep: they differ.")
  String han = "fold";

  @Option(
      names = "--idf",
      paramLabel = "FILE",
      description =
          "IDF table ('word idf' per line, e.g. from 'neardup idf build') instead of the lexicon's.")
  @Nullable Path idf;

  @Option(
      names = "--scheme",
      paramLabel = "M:R",
      description =
          "Block scheme of the search for pairs within k bits: M blocks, R of them must match (4:1 = 4 tables of 16 bits, 5:2 = 10 tables, 6:3 = 20 tables). Every scheme finds the same pairs; only time and memory differ (eval takes none). Default: "
              + AllPairs.DEFAULT_SCHEME_RULE
              + ".")
  @Nullable String scheme;

  /** The block scheme of the search for pairs: the one asked for, or the one chosen for k. */
  BlockScheme pairScheme() {
    return scheme == null ? AllPairs.defaultScheme(maxDistance) : BlockScheme.parse(scheme);
  }

  /** The fingerprint settings these options describe. */
  FingerprintSettings fingerprintSettings() throws IOException {
    if (userDict != null && CollectionSettings.NO_LEXICON.equals(lexicon)) {
      throw new IllegalArgumentException(
          "--user-dict adds words to a lexicon's dictionary, and --lexicon none has none");
    }
    FingerprintSettings.Builder b =
        (CollectionSettings.NO_LEXICON.equals(lexicon)
                ? FingerprintSettings.builder()
                : FingerprintSettings.builder(loadLexicon()))
            .topN(topN)
            .html(htmlMode())
            .han(hanMode())
            .volatileLines(volatileMode());
    if (idf != null) {
      try (BufferedReader r = Files.newBufferedReader(idf, StandardCharsets.UTF_8)) {
        b.idf(IdfTable.read(r, idf.getFileName().toString()));
      }
    }
    return b.build();
  }

  /** The lexicon by name; the error lists every name, {@code none} included. */
  private Lexicon lexicon() {
    try {
      return Lexicon.load(lexicon);
    } catch (IllegalArgumentException e) {
      List<String> names = new ArrayList<>();
      names.add(CollectionSettings.NO_LEXICON);
      for (Lexicon l : ServiceLoader.load(Lexicon.class)) {
        names.add(l.name());
      }
      throw new IllegalArgumentException(
          "--lexicon must be one of " + String.join(", ", names) + ", got '" + lexicon + "'", e);
    }
  }

  /** The segmenter the fingerprints use: the lexicon's, or none's (each Han character a word). */
  org.neardup.text.@Nullable Segmenter segmenter() throws IOException {
    return fingerprintSettings().segmenter();
  }

  /** The lexicon by name, with the user dictionary when one is given. */
  private Lexicon loadLexicon() throws IOException {
    Lexicon lex = lexicon();
    return userDict == null ? lex : lex.withUserDictionary(UserDictionary.read(userDict));
  }

  FingerprintSettings.Han hanMode() {
    switch (han.toLowerCase(Locale.ROOT)) {
      case "keep":
        return FingerprintSettings.Han.KEEP;
      case "fold":
        return FingerprintSettings.Han.FOLD;
      default:
        throw new IllegalArgumentException("--han must be keep or fold, got '" + han + "'");
    }
  }

  /** The preset by name: {@code web} or {@code none}. */
  Preset preset() {
    try {
      return Preset.parse(preset);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--preset must be none or web, got '" + preset + "'", e);
    }
  }

  FingerprintSettings.Volatile volatileMode() {
    if (volatileLines == null) {
      return preset().volatileLines();
    }
    String v = volatileLines;
    switch (v.toLowerCase(Locale.ROOT)) {
      case "keep":
        return FingerprintSettings.Volatile.KEEP;
      case "drop":
        return FingerprintSettings.Volatile.DROP;
      default:
        throw new IllegalArgumentException(
            "--volatile-lines must be keep or drop, got '" + v + "'");
    }
  }

  FingerprintSettings.Html htmlMode() {
    if (html == null) {
      return preset().html();
    }
    switch (html.toLowerCase(Locale.ROOT)) {
      case "visible":
        return FingerprintSettings.Html.VISIBLE;
      case "main":
        return FingerprintSettings.Html.MAIN;
      case "raw":
        return FingerprintSettings.Html.RAW;
      default:
        throw new IllegalArgumentException(
            "--html must be visible, main or raw, got '" + html + "'");
    }
  }

  boolean foldNumbers() {
    if (numbers == null) {
      return preset().foldNumbers();
    }
    switch (numbers.toLowerCase(Locale.ROOT)) {
      case "keep":
        return false;
      case "fold":
        return true;
      default:
        throw new IllegalArgumentException("--numbers must be keep or fold, got '" + numbers + "'");
    }
  }

  /** A deduplicator builder configured by these options. */
  Deduplicator.Builder builder() throws IOException {
    if (maxDistance < 0 || maxDistance > 64) {
      throw new IllegalArgumentException(
          "-k/--max-distance must be in [0, 64], got " + maxDistance);
    }
    if (!(threshold > 0 && threshold <= 1)) {
      throw new IllegalArgumentException("--threshold must be in (0, 1], got " + threshold);
    }
    Deduplicator.Builder b =
        Deduplicator.builder()
            .fingerprintSettings(fingerprintSettings())
            .maxDistance(maxDistance)
            .foldNumbers(foldNumbers())
            .sketchCapacity(sketchCapacity);
    if (scheme != null) {
      b.scheme(BlockScheme.parse(scheme)); // checked here, before any input is read
    }
    if (noVerify) {
      b.verify(false);
    } else {
      b.threshold(threshold);
    }
    return b;
  }
}
