// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Serializable;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.neardup.Analyzer;
import org.neardup.Deduplicator;
import org.neardup.fingerprint.FingerprintSettings;
import org.neardup.index.AllPairs;
import org.neardup.index.BlockScheme;
import org.neardup.store.AnalysisOptions;
import org.neardup.store.ChineseOptions;
import org.neardup.store.CollectionSettings;
import org.neardup.store.Preset;
import org.neardup.text.IdfTable;
import org.neardup.text.Lexicon;
import org.neardup.text.UserDictionary;
import org.neardup.verify.Shingler;

/**
 * The options of a Spark dedup run: what counts as a near-duplicate (the same options, defaults and
 * checks as {@code neardup dedup}), how the input is read, and how the job is cut into tasks.
 * Serializable, so that every executor builds the same {@link Analyzer} from it ({@link
 * #analyzer()}, once per JVM).
 */
public final class DedupSettings implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final Map<String, Analyzer> ANALYZERS = new ConcurrentHashMap<>();

  // What counts as a near-duplicate: EngineOptions of the command line.
  public int maxDistance = Deduplicator.DEFAULT_MAX_DISTANCE;
  public double threshold = Deduplicator.DEFAULT_THRESHOLD;
  public boolean verify = true;

  /** {@code none} or {@code web} ({@link Preset}): the defaults of numbers, html, volatileLines. */
  public String preset = "none";

  /** keep|fold; null: the preset's. */
  public @Nullable String numbers;

  /** visible|main|raw; null: the preset's. */
  public @Nullable String html;

  /** keep|drop; null: the preset's. */
  public @Nullable String volatileLines;

  /** keep|fold: traditional Chinese folded to simplified. */
  public String han = "fold";

  public int topN = FingerprintSettings.builder().build().topN();
  public int sketchCapacity = Shingler.DEFAULT_CAPACITY;
  public String lexicon = "jieba";

  /** Name and content of an IDF table file, read on the driver and shipped to the executors. */
  public @Nullable String idfName;

  public @Nullable String idfText;

  /** Name and bytes of a jieba user dictionary, read on the driver and shipped to the executors. */
  public @Nullable String userDictName;

  public byte @Nullable [] userDictBytes;

  /** Block scheme of the fingerprint self-join, "m:r"; null: AllPairs' default for k. */
  public @Nullable String scheme;

  // How the input is read: InputOptions of the command line.
  public String format = "auto";
  public String idField = "id";
  public String textField = "text";
  public int maxDocBytes = 64 << 20;

  // How the job is cut.
  /** Input splits (0: by size, 64 MiB each). */
  public int inputPartitions;

  /** Partitions of every shuffle (0: Spark's default parallelism). */
  public int shufflePartitions;

  /** The most members of one key group a task compares at once; larger groups are split. */
  public int groupLimit = 2048;

  /** Save DIR/fingerprints for a later incremental run ({@code --against DIR}). */
  public boolean saveFingerprints;

  /** Also write Parquet copies of the outputs. */
  public boolean parquet;

  /**
   * Checks every option as {@code neardup dedup} does.
   *
   * @throws IllegalArgumentException naming the option and the rule it breaks
   */
  public void check() {
    if (maxDistance < 0 || maxDistance > 64) {
      throw new IllegalArgumentException(
          "-k/--max-distance must be in [0, 64], got " + maxDistance);
    }
    if (!(threshold > 0 && threshold <= 1)) {
      throw new IllegalArgumentException("--threshold must be in (0, 1], got " + threshold);
    }
    preset();
    htmlMode();
    foldNumbers();
    volatileMode();
    hanMode();
    if (userDictBytes != null && CollectionSettings.NO_LEXICON.equals(lexicon)) {
      throw new IllegalArgumentException(
          "--user-dict adds words to a lexicon's dictionary, and --lexicon none has none");
    }
    blockScheme();
    if (maxDocBytes < 1) {
      throw new IllegalArgumentException("--max-doc-bytes must be >= 1, got " + maxDocBytes);
    }
    if (groupLimit < 16) {
      throw new IllegalArgumentException("--group-limit must be >= 16, got " + groupLimit);
    }
    if (inputPartitions < 0 || shufflePartitions < 0) {
      throw new IllegalArgumentException("--partitions must be >= 1");
    }
    InputFiles.Format.parse(format);
  }

  /**
   * The self-join's block scheme: the one asked for, which must find every pair within k (k <= m -
   * r), or by default the scheme {@code neardup dedup} uses for k.
   */
  public BlockScheme blockScheme() {
    if (scheme == null) {
      return AllPairs.defaultScheme(maxDistance);
    }
    BlockScheme s = BlockScheme.parse(scheme);
    if (s.exactUpTo() < maxDistance) {
      throw new IllegalArgumentException(
          "--scheme "
              + s
              + " finds pairs within "
              + s.exactUpTo()
              + " bits only, but -k is "
              + maxDistance
              + "; pick m:r with m - r >= k");
    }
    return s;
  }

  /*
   * The option values are parsed by core (Preset, AnalysisOptions, ChineseOptions), as the
   * stores parse a collection's settings; an option left unset takes the preset's value, as in
   * neardup dedup's EngineOptions.
   */

  Preset preset() {
    return option("--preset", preset, Preset::parse);
  }

  FingerprintSettings.Html htmlMode() {
    return html == null ? preset().html() : option("--html", html, AnalysisOptions::parseHtml);
  }

  boolean foldNumbers() {
    return numbers == null
        ? preset().foldNumbers()
        : option("--numbers", numbers, AnalysisOptions::parseNumbers);
  }

  FingerprintSettings.Volatile volatileMode() {
    return volatileLines == null
        ? preset().volatileLines()
        : option("--volatile-lines", volatileLines, AnalysisOptions::parseVolatileLines);
  }

  FingerprintSettings.Han hanMode() {
    return option("--han", han, ChineseOptions::parseHan);
  }

  /** Parses an option's value in lower case; the error names the option. */
  private static <T> T option(String name, String value, Function<String, T> parse) {
    try {
      return parse.apply(value.toLowerCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
    }
  }

  /** A key naming every setting that changes an analysis, for the per-JVM analyzer cache. */
  private String analyzerKey() {
    return String.join(
        "|",
        lexicon,
        preset,
        String.valueOf(html),
        String.valueOf(numbers),
        String.valueOf(volatileLines),
        han,
        userDictName == null ? "-" : Integer.toString(java.util.Arrays.hashCode(userDictBytes)),
        Integer.toString(topN),
        Integer.toString(sketchCapacity),
        Boolean.toString(verify),
        Double.toString(threshold),
        String.valueOf(idfName),
        idfText == null ? "-" : Integer.toString(idfText.hashCode()),
        idfText == null ? "-" : Integer.toString(idfText.length()));
  }

  /**
   * The analyzer of these settings, the very one {@code neardup dedup} builds from the same
   * options; built once per JVM and shared by its tasks (it is thread-safe).
   */
  public Analyzer analyzer() {
    return ANALYZERS.computeIfAbsent(analyzerKey(), k -> builder().analyzer());
  }

  /** The settings string summary.json reports, as {@code neardup dedup} writes it. */
  public String settingsLine() {
    return analyzer().id()
        + ";k="
        + maxDistance
        + (verify ? ";threshold=" + threshold : ";verify=off");
  }

  private Deduplicator.Builder builder() {
    try {
      FingerprintSettings.Builder fs;
      if (CollectionSettings.NO_LEXICON.equals(lexicon)) {
        fs = FingerprintSettings.builder();
      } else {
        Lexicon lex = Lexicon.load(lexicon);
        if (userDictBytes != null) {
          lex =
              lex.withUserDictionary(
                  UserDictionary.of(String.valueOf(userDictName), userDictBytes));
        }
        fs = FingerprintSettings.builder(lex);
      }
      fs.topN(topN).html(htmlMode()).han(hanMode()).volatileLines(volatileMode());
      if (idfText != null) {
        try (BufferedReader r = new BufferedReader(new StringReader(idfText))) {
          fs.idf(IdfTable.read(r, idfName));
        }
      }
      Deduplicator.Builder b =
          Deduplicator.builder()
              .fingerprintSettings(fs.build())
              .maxDistance(maxDistance)
              .foldNumbers(foldNumbers())
              .sketchCapacity(sketchCapacity);
      if (verify) {
        b.threshold(threshold);
      } else {
        b.verify(false);
      }
      return b;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Reads a jieba user dictionary file (on the driver) into these settings. */
  public void userDictFile(java.nio.file.Path file) throws IOException {
    UserDictionary d = UserDictionary.read(file);
    userDictName = d.name();
    userDictBytes = d.content();
  }

  /** Reads an IDF table file (on the driver) into these settings. */
  public void idfFile(java.nio.file.Path file) throws IOException {
    idfName = file.getFileName().toString();
    idfText = java.nio.file.Files.readString(file, StandardCharsets.UTF_8);
  }
}
