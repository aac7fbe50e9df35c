// SPDX-License-Identifier: Apache-2.0
package org.neardup.store;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.neardup.Deduplicator;
import org.neardup.fingerprint.FingerprintSettings;
import org.neardup.index.BlockScheme;
import org.neardup.text.Lexicon;
import org.neardup.text.UserDictionary;

/**
 * What a collection is: how texts are compared and how long they are kept. Immutable; fixed when
 * the collection is created.
 *
 * <p>The text form ({@link #toText()}, {@link #parse}) is what stores persist, e.g. {@code
 * k=3;threshold=0.8;verify=true;retention=PT48H;basis=timestamp;lexicon=jieba}, followed by {@code
 * ;han=fold} and {@code ;userdict=sha256:...} when set ({@link ChineseOptions}), and the options of
 * {@link AnalysisOptions} that differ from their defaults ({@code ;numbers=fold;
 * html=main;volatile=drop;top=32;capacity=1024;scheme=5:2}).
 *
 * @param maxDistance k: fingerprints within this many bits are candidates (and, without
 *     verification, matches)
 * @param threshold the Jaccard similarity at which a verified candidate is a near-duplicate
 * @param verify whether candidates are confirmed with shingle sketches; a collection without
 *     verification accepts precomputed fingerprints instead of texts
 * @param retention how long documents are kept; {@link Duration#ZERO} keeps them forever
 * @param retentionBasis what a document's age is measured from
 * @param lexicon the Chinese segmenter and IDF table by name ({@code jieba}), or {@link
 *     #NO_LEXICON} for none (each Han character is a word)
 * @param chinese simplified/traditional folding and the lexicon's user dictionary
 * @param analysis number folding, HTML, volatile lines, top-N, sketch capacity and block scheme
 */
public record CollectionSettings(
    int maxDistance,
    double threshold,
    boolean verify,
    Duration retention,
    RetentionBasis retentionBasis,
    String lexicon,
    ChineseOptions chinese,
    AnalysisOptions analysis) {

  /** The lexicon of the default settings. */
  public static final String DEFAULT_LEXICON = "jieba";

  /** The longest retention, 100 years: beyond it, expiry times in milliseconds would overflow. */
  public static final Duration MAX_RETENTION = Duration.ofDays(36_500);

  /** The lexicon name that means no segmenter and no IDF table. */
  public static final String NO_LEXICON = "none";

  /** What a document's age is measured from. */
  public enum RetentionBasis {
    /**
     * The document's own timestamp, or its arrival when it has none; a timestamp in the future
     * counts as the arrival, so no document outlives the window after it arrived.
     */
    TIMESTAMP,
    /** The time the store received it. */
    ARRIVAL
  }

  /** Settings with the default {@link ChineseOptions}. */
  public CollectionSettings(
      int maxDistance,
      double threshold,
      boolean verify,
      Duration retention,
      RetentionBasis retentionBasis,
      String lexicon) {
    this(
        maxDistance,
        threshold,
        verify,
        retention,
        retentionBasis,
        lexicon,
        ChineseOptions.DEFAULT,
        AnalysisOptions.DEFAULT);
  }

  public CollectionSettings {
    Objects.requireNonNull(chinese, "chinese");
    Objects.requireNonNull(analysis, "analysis");
    if (chinese.userDictionary() != null && NO_LEXICON.equals(lexicon)) {
      throw new IllegalArgumentException(
          "a user dictionary needs a lexicon (such as 'jieba'), but lexicon is 'none'");
    }
    Objects.requireNonNull(retention, "retention");
    Objects.requireNonNull(retentionBasis, "retentionBasis");
    Objects.requireNonNull(lexicon, "lexicon");
    if (maxDistance < 0 || maxDistance > 64) {
      throw new IllegalArgumentException("k (maxDistance) must be in [0, 64], got " + maxDistance);
    }
    if (!(threshold > 0 && threshold <= 1)) {
      throw new IllegalArgumentException("threshold must be in (0, 1], got " + threshold);
    }
    if (retention.isNegative() || retention.compareTo(MAX_RETENTION) > 0) {
      throw new IllegalArgumentException(
          "retention must be in [0, 36500d] (0 keeps documents forever), got " + retention);
    }
    if (!lexicon.matches("[a-z0-9][a-z0-9_-]{0,31}")) {
      throw new IllegalArgumentException(
          "lexicon must be a name such as 'jieba' or 'none', got '" + lexicon + "'");
    }
  }

  /** k = 3, Jaccard 0.8 verification, jieba, traditional folded to simplified, kept forever. */
  public static CollectionSettings defaults() {
    return new CollectionSettings(
        Deduplicator.DEFAULT_MAX_DISTANCE,
        Deduplicator.DEFAULT_THRESHOLD,
        true,
        Duration.ZERO,
        RetentionBasis.TIMESTAMP,
        DEFAULT_LEXICON);
  }

  public CollectionSettings withMaxDistance(int k) {
    return new CollectionSettings(
        k, threshold, verify, retention, retentionBasis, lexicon, chinese, analysis);
  }

  public CollectionSettings withThreshold(double t) {
    return new CollectionSettings(
        maxDistance, t, verify, retention, retentionBasis, lexicon, chinese, analysis);
  }

  public CollectionSettings withVerify(boolean v) {
    return new CollectionSettings(
        maxDistance, threshold, v, retention, retentionBasis, lexicon, chinese, analysis);
  }

  public CollectionSettings withRetention(Duration r) {
    return new CollectionSettings(
        maxDistance, threshold, verify, r, retentionBasis, lexicon, chinese, analysis);
  }

  public CollectionSettings withRetentionBasis(RetentionBasis b) {
    return new CollectionSettings(
        maxDistance, threshold, verify, retention, b, lexicon, chinese, analysis);
  }

  public CollectionSettings withLexicon(String l) {
    return new CollectionSettings(
        maxDistance, threshold, verify, retention, retentionBasis, l, chinese, analysis);
  }

  public CollectionSettings withChinese(ChineseOptions c) {
    return new CollectionSettings(
        maxDistance, threshold, verify, retention, retentionBasis, lexicon, c, analysis);
  }

  public CollectionSettings withAnalysis(AnalysisOptions a) {
    return new CollectionSettings(
        maxDistance, threshold, verify, retention, retentionBasis, lexicon, chinese, a);
  }

  /**
   * A deduplicator builder with these settings, ready for {@code expectedSize} and {@code build()}.
   *
   * @throws IllegalArgumentException if the lexicon is not on the class path
   */
  public Deduplicator.Builder deduplicator() {
    return deduplicator(NO_LEXICON.equals(lexicon) ? null : Lexicon.load(lexicon));
  }

  /**
   * The deduplicator builder of a stored collection written with the analyzer {@code analyzerId}:
   * {@link #deduplicator()}, or, when that one's analyzer id differs and an earlier form of the
   * lexicon ({@link Lexicon#legacy()}) gives exactly {@code analyzerId}, the one with that form, so
   * that collections written by earlier releases open with the fingerprints they were made with.
   * The caller compares the result's analyzer id with {@code analyzerId} again and refuses the
   * collection when they still differ.
   *
   * @throws IllegalArgumentException if the lexicon is not on the class path
   */
  public Deduplicator.Builder deduplicatorFor(String analyzerId) {
    Deduplicator.Builder current = deduplicator();
    if (NO_LEXICON.equals(lexicon) || current.analyzer().id().equals(analyzerId)) {
      return current;
    }
    for (Lexicon old : Lexicon.load(lexicon).legacy()) {
      Deduplicator.Builder b;
      try {
        b = deduplicator(old);
      } catch (IllegalArgumentException e) {
        continue; // e.g. an earlier form that takes no user dictionary
      }
      if (b.analyzer().id().equals(analyzerId)) {
        return b;
      }
    }
    return current;
  }

  private Deduplicator.Builder deduplicator(@org.jspecify.annotations.Nullable Lexicon lex) {
    Deduplicator.Builder b =
        Deduplicator.builder()
            .maxDistance(maxDistance)
            .verify(verify)
            .foldNumbers(analysis.foldNumbers())
            .sketchCapacity(analysis.sketchCapacity())
            .scheme(analysis.scheme());
    if (verify) {
      b.threshold(threshold);
    }
    FingerprintSettings.Builder f;
    if (lex == null) {
      f = FingerprintSettings.builder();
    } else {
      UserDictionary dict = chinese.userDictionary();
      f = FingerprintSettings.builder(dict == null ? lex : lex.withUserDictionary(dict));
    }
    org.neardup.text.IdfTable idf = analysis.idfTable();
    if (idf != null) {
      f.idf(idf);
    }
    return b.fingerprintSettings(
        f.han(chinese.han())
            .html(analysis.html())
            .volatileLines(analysis.volatileLines())
            .topN(analysis.topN())
            .build());
  }

  /**
   * Refuses settings that name files (a user dictionary, an IDF table) on a store that keeps only
   * the settings' text: such a collection could be created there but not opened again.
   *
   * @param store the store's name, for the message
   * @throws IllegalArgumentException if the settings name a user dictionary or an IDF table
   */
  public void requireNoFiles(String store) {
    String what =
        chinese.userDictionary() != null
            ? "a user dictionary"
            : analysis.idf() != null ? "an IDF table" : null;
    if (what != null) {
      throw new IllegalArgumentException(
          "the "
              + store
              + " store does not keep "
              + what
              + " with a collection yet; create this collection on the embedded store");
    }
  }

  /**
   * When a document expires, in epoch milliseconds: {@link Long#MAX_VALUE} without retention.
   *
   * @param timestamp the document's timestamp, or {@link Document#NO_TIMESTAMP}
   * @param arrival when the store received it
   */
  public long expiresAt(long timestamp, long arrival) {
    if (retention.isZero()) {
      return Long.MAX_VALUE;
    }
    long basis =
        retentionBasis == RetentionBasis.ARRIVAL || timestamp == Document.NO_TIMESTAMP
            ? arrival
            : Math.min(timestamp, arrival);
    long millis = retention.toMillis();
    return basis > Long.MAX_VALUE - millis ? Long.MAX_VALUE : basis + millis;
  }

  /** The canonical text form, {@code key=value} pairs joined by {@code ;}. */
  public String toText() {
    return "k="
        + maxDistance
        + ";threshold="
        + threshold
        + ";verify="
        + verify
        + ";retention="
        + retention
        + ";basis="
        + retentionBasis.name().toLowerCase(Locale.ROOT)
        + ";lexicon="
        + lexicon
        + chinese.toText()
        + analysis.toText();
  }

  @Override
  public String toString() {
    return toText();
  }

  /**
   * Parses {@link #toText()}'s form; keys may come in any order and missing keys take the defaults.
   *
   * @throws IllegalArgumentException naming the bad pair, or if the settings name a user dictionary
   *     (use {@link #parse(String, Function)})
   */
  public static CollectionSettings parse(String text) {
    return parse(
        text,
        sha256 -> {
          throw new IllegalArgumentException(
              "the settings name user dictionary sha256:" + sha256 + ", which is not at hand here");
        });
  }

  /**
   * Parses {@link #toText()}'s form; {@code dictionaries} gives the bytes of the user dictionary
   * named by its SHA-256 (64 hex digits) in {@code userdict=sha256:...}.
   *
   * @throws IllegalArgumentException naming the bad pair, or if the dictionary found has another
   *     hash
   */
  public static CollectionSettings parse(
      String text, Function<String, UserDictionary> dictionaries) {
    Map<String, String> pairs = new LinkedHashMap<>();
    for (String pair : text.split(";")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("settings must be key=value pairs, got '" + pair + "'");
      }
      pairs.put(pair.substring(0, eq), pair.substring(eq + 1));
    }
    CollectionSettings s = defaults();
    // Settings text names han only when folding: no han key means keep (collections stored before
    // the option), whatever the defaults of new collections.
    ChineseOptions chinese = ChineseOptions.NONE;
    AnalysisOptions analysis = AnalysisOptions.DEFAULT;
    for (Map.Entry<String, String> e : pairs.entrySet()) {
      String v = e.getValue();
      try {
        switch (e.getKey()) {
          case "k":
            s = s.withMaxDistance(Integer.parseInt(v));
            break;
          case "threshold":
            s = s.withThreshold(Double.parseDouble(v));
            break;
          case "verify":
            s = s.withVerify(parseBoolean("verify", v));
            break;
          case "retention":
            s = s.withRetention(parseDuration(v));
            break;
          case "basis":
            s = s.withRetentionBasis(parseBasis(v));
            break;
          case "lexicon":
            s = s.withLexicon(v);
            break;
          case "han":
            chinese = chinese.withHan(ChineseOptions.parseHan(v));
            break;
          case "userdict":
            chinese = chinese.withUserDictionary(userDictionary(v, dictionaries));
            break;
          case "numbers":
            analysis = analysis.withFoldNumbers(AnalysisOptions.parseNumbers(v));
            break;
          case "html":
            analysis = analysis.withHtml(AnalysisOptions.parseHtml(v));
            break;
          case "volatile":
            analysis = analysis.withVolatileLines(AnalysisOptions.parseVolatileLines(v));
            break;
          case "top":
            analysis = analysis.withTopN(Integer.parseInt(v));
            break;
          case "capacity":
            analysis = analysis.withSketchCapacity(Integer.parseInt(v));
            break;
          case "scheme":
            analysis = analysis.withScheme(BlockScheme.parse(v));
            break;
          case "idf":
            // Kept by content hash as a user dictionary is, in the same files.
            analysis = analysis.withIdf(userDictionary(v, dictionaries));
            break;
          default:
            throw new IllegalArgumentException(
                "unknown setting '"
                    + e.getKey()
                    + "' (known: k, threshold, verify, retention, basis, lexicon, han, userdict,"
                    + " numbers, html, volatile, top, capacity, scheme, idf)");
        }
      } catch (NumberFormatException ex) {
        throw new IllegalArgumentException(
            "setting " + e.getKey() + " must be a number, got '" + v + "'", ex);
      }
    }
    return s.withChinese(chinese).withAnalysis(analysis);
  }

  private static UserDictionary userDictionary(
      String value, Function<String, UserDictionary> dictionaries) {
    if (!value.matches("sha256:[0-9a-f]{64}")) {
      throw new IllegalArgumentException(
          "userdict must be sha256: and 64 hex digits, got '" + value + "'");
    }
    String sha = value.substring(7);
    UserDictionary d = dictionaries.apply(sha);
    if (!d.sha256().equals(sha)) {
      throw new IllegalArgumentException(
          "user dictionary " + d.name() + " has sha256 " + d.sha256() + ", expected " + sha);
    }
    return d;
  }

  /** Parses {@code timestamp} or {@code arrival}. */
  public static RetentionBasis parseBasis(String text) {
    switch (text) {
      case "timestamp":
        return RetentionBasis.TIMESTAMP;
      case "arrival":
        return RetentionBasis.ARRIVAL;
      default:
        throw new IllegalArgumentException(
            "retention basis must be 'timestamp' or 'arrival', got '" + text + "'");
    }
  }

  /** {@code text} as true or false; anything else is an error naming {@code name}. */
  static boolean parseBoolean(String name, String text) {
    if (text.equals("true") || text.equals("false")) {
      return Boolean.parseBoolean(text);
    }
    throw new IllegalArgumentException(name + " must be true or false, got '" + text + "'");
  }

  /**
   * Parses a duration: a number with a unit {@code ms}, {@code s}, {@code m}, {@code h} or {@code
   * d} ({@code 48h}, {@code 2d}, {@code 90m}), {@code 0}, or ISO-8601 ({@code PT48H}).
   *
   * @throws IllegalArgumentException naming the accepted forms
   */
  public static Duration parseDuration(String text) {
    String t = text.trim();
    if (t.equals("0")) {
      return Duration.ZERO;
    }
    try {
      if (t.startsWith("P") || t.startsWith("p")) {
        return Duration.parse(t);
      }
      int i = 0;
      while (i < t.length() && Character.isDigit(t.charAt(i))) {
        i++;
      }
      if (i > 0 && i < t.length() && i <= 12) {
        long n = Long.parseLong(t.substring(0, i));
        switch (t.substring(i)) {
          case "ms":
            return Duration.ofMillis(n);
          case "s":
            return Duration.ofSeconds(n);
          case "m":
            return Duration.ofMinutes(n);
          case "h":
            return Duration.ofHours(n);
          case "d":
            return Duration.ofDays(n);
          default:
            break;
        }
      }
    } catch (DateTimeParseException | ArithmeticException e) {
      // fall through to the message below
    }
    throw new IllegalArgumentException(
        "duration must be a number with a unit (ms, s, m, h, d) such as 48h, or 0, or ISO-8601"
            + " such as PT48H; got '"
            + text
            + "'");
  }
}
