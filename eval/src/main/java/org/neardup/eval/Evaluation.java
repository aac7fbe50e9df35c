// SPDX-License-Identifier: Apache-2.0
package org.neardup.eval;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.function.DoubleFunction;
import org.jspecify.annotations.Nullable;
import org.neardup.Analysis;
import org.neardup.Analyzer;
import org.neardup.fingerprint.Fingerprinter;
import org.neardup.text.TextBuffer;
import org.neardup.verify.ShingleSketch;
import org.neardup.verify.Shingler;
import org.neardup.verify.Sketch;

/**
 * Runs the engine on a labelled {@link Dataset} and scores it: at the given settings, swept over k
 * and over the similarity threshold, and at alternative settings. What {@code neardup eval} prints
 * and draws; the engine's quality apart from its speed, as Caffeine's simulator judges policies.
 *
 * <p>Predictions always come from the path {@code neardup dedup} takes: every document analysed by
 * the settings' {@link Analyzer}, then {@link org.neardup.CorpusDedup#findPairs}. Sweeps are cheap
 * because they reuse what does not change: the k sweeps find every pair within the largest k once
 * and score each smaller k from the distances; the threshold sweep reuses the fingerprints and
 * shingles and only recomputes each threshold's MinHash band keys from the normalised text.
 */
public final class Evaluation {
  /*
   * Exactness of the sweeps (tests compare each against a direct run):
   * - fingerprint-only at k: the pairs within maxK bits with distance <= k (AllPairs is exact).
   * - verified at k: a pair is predicted at k iff J >= t and (it shares a band key, or its distance
   *   <= k): its level is 0 when it shares a band, else its distance.
   * - verified at threshold t: the band scheme depends on t (Deduplicator.Builder derives it), so
   *   each t gets its own band keys; fingerprints and shingles do not depend on t.
   */

  /**
   * Settings to evaluate, as the command line builds them.
   *
   * @param label how a user selects them, e.g. {@code --numbers fold}
   * @param analyzer with a shingler when verifying
   * @param maxDistance k
   * @param threshold the Jaccard similarity that verification requires
   */
  public record Engine(String label, Analyzer analyzer, int maxDistance, double threshold) {
    public Engine {
      Objects.requireNonNull(label, "label");
      Objects.requireNonNull(analyzer, "analyzer");
    }

    public boolean verifies() {
      return analyzer.shingler() != null;
    }

    /** The main settings in words, e.g. {@code k = 3, verified at similarity >= 0.8, ...}. */
    public String summary() {
      org.neardup.fingerprint.FingerprintSettings fs = analyzer.fingerprinter().settings();
      Shingler s = analyzer.shingler();
      return "k = "
          + maxDistance
          + (s != null
              ? ", verified at similarity \u2265 " + Score.formatG(threshold, 3)
              : ", no verification")
          + ", "
          + (fs.topN() == 0 ? "all" : "top " + fs.topN())
          + " features per fingerprint, web pages: "
          + fs.html().name().toLowerCase(java.util.Locale.ROOT)
          + " text"
          + (s != null ? ", numbers " + (s.foldNumbers() ? "folded" : "kept") : "");
    }

    /** The settings id {@code neardup dedup} writes to summary.json. */
    public String settingsId() {
      return analyzer.id()
          + ";k="
          + maxDistance
          + (verifies() ? ";threshold=" + threshold : ";verify=off");
    }
  }

  /** What to run. */
  public static final class Options {
    /** Threads for analysis and pair finding. */
    public int threads = Runtime.getRuntime().availableProcessors();

    /** Gold positives are listed pairs with jaccard at least this (the dataset's label: 0.8). */
    public double labelThreshold = 0.8;

    /** The k sweeps go from 0 to this. */
    public int maxK = 16;

    /** The similarity thresholds of the threshold sweep. */
    public double[] thresholds = defaultThresholds();

    /** Whether to run the k and threshold sweeps. */
    public boolean sweeps = true;

    /** The number of false positives and of false negatives shown. */
    public int examples = 10;

    /** Documents analysed before each timed analysis, untimed. */
    public int warmUp = 1000;

    /** Timed analysis rounds per settings for the throughput column, round-robin. */
    public int throughputRounds = 3;

    /** Documents analysed per throughput round (the first ones; ids are hashes, so a mix). */
    public int throughputSample = 10_000;

    /** Random document pairs sampled for the distance histogram. */
    public int randomPairs = 20_000;

    /** Progress messages. */
    public Consumer<String> log = s -> {};

    /** 0.50, 0.55, ..., 0.95, each the double nearest its decimal, as score.py parses it. */
    public static double[] defaultThresholds() {
      double[] t = new double[10];
      for (int i = 0; i < t.length; i++) {
        t[i] = (10 + i) / 20.0;
      }
      return t;
    }
  }

  /** One point of the threshold sweep. */
  public record ThresholdPoint(
      double threshold, String bands, long predicted, Score atLabel, Score matched) {}

  /**
   * One row of the settings table: the given settings or one alternative.
   *
   * @param score the pairs these settings report
   * @param fingerprintOnly the pairs within k bits, as with {@code --no-verify}, from the same
   *     fingerprints (the same as score when these settings do not verify)
   * @param docsPerSecond analysis throughput of each timed round on the throughput sample
   * @param analysisSeconds the analysis of the whole dataset, once
   * @param pairSeconds finding and verifying the pairs
   */
  public record Variant(
      Engine engine,
      Score score,
      Score fingerprintOnly,
      double[] docsPerSecond,
      double analysisSeconds,
      double pairSeconds) {
    /** The median of the rounds' throughputs. */
    public double medianDocsPerSecond() {
      double[] s = docsPerSecond.clone();
      Arrays.sort(s);
      return s.length == 0
          ? Double.NaN
          : s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    public double minDocsPerSecond() {
      return Arrays.stream(docsPerSecond).min().orElse(Double.NaN);
    }

    public double maxDocsPerSecond() {
      return Arrays.stream(docsPerSecond).max().orElse(Double.NaN);
    }
  }

  /**
   * Distributions of the listed pairs, for the histograms: fingerprint distance (index 0..64) and
   * the engine's similarity estimate (20 bins of 0.05, the last closed) of gold positives and of
   * listed negatives, and the distance of random pairs of documents.
   */
  public record Histograms(
      long[] distancePositive,
      long[] distanceNegative,
      long[] distanceRandom,
      long @Nullable [] similarityPositive,
      long @Nullable [] similarityNegative) {}

  /**
   * A mistake at the given settings, with what the engine saw.
   *
   * @param pair the listed pair, or null when it is not listed (label Jaccard below the floor)
   * @param similarity the engine's similarity estimate, NaN when it has no sketches
   * @param sharesBand whether the two documents share a MinHash band key
   * @param reason why the engine decided as it did, in words
   */
  public record Example(
      Dataset.Doc a,
      Dataset.Doc b,
      Dataset.@Nullable Pair pair,
      int distance,
      double similarity,
      boolean sharesBand,
      String reason) {
    /** The kind of the listed pair, or {@code unlisted}. */
    public String kind() {
      return pair == null ? "unlisted" : pair.kind();
    }
  }

  /** Everything {@link #run} measured. */
  public static final class Result {
    Dataset data;
    Options options;
    Engine base;
    Corpus corpus;
    PairList pairs;
    Score score;
    final List<Variant> variants = new ArrayList<>();
    Score @Nullable [] fingerprintByK;
    Score @Nullable [] verifiedByK;
    final List<ThresholdPoint> byThreshold = new ArrayList<>();
    Histograms histograms;
    final List<Example> falsePositives = new ArrayList<>();
    final List<Example> falseNegatives = new ArrayList<>();
    double seconds;

    public Dataset dataset() {
      return data;
    }

    public Options options() {
      return options;
    }

    /** The settings given. */
    public Engine base() {
      return base;
    }

    /** The documents analysed at the given settings. */
    public Corpus corpus() {
      return corpus;
    }

    /** The pairs {@code neardup dedup} reports at the given settings. */
    public PairList pairs() {
      return pairs;
    }

    /** The score at the given settings against the label threshold. */
    public Score score() {
      return score;
    }

    /** The given settings first, then each alternative. */
    public List<Variant> variants() {
      return variants;
    }

    /** Fingerprint only (verification off): element k scores k; null without sweeps. */
    public Score @Nullable [] fingerprintByK() {
      return fingerprintByK;
    }

    /** Verified at the given threshold: element k scores k; null without sweeps or verification. */
    public Score @Nullable [] verifiedByK() {
      return verifiedByK;
    }

    /** Verified at each threshold; empty without sweeps. */
    public List<ThresholdPoint> byThreshold() {
      return byThreshold;
    }

    public Histograms histograms() {
      return histograms;
    }

    /** The most confident false positives at the given settings. */
    public List<Example> falsePositives() {
      return falsePositives;
    }

    /** The most confident false negatives at the given settings. */
    public List<Example> falseNegatives() {
      return falseNegatives;
    }

    /** Wall-clock seconds of the whole evaluation. */
    public double seconds() {
      return seconds;
    }
  }

  private Evaluation() {}

  /**
   * Evaluates {@code base}, sweeps, and each of {@code variants}.
   *
   * @param atThreshold the analyzer the command line builds for the given settings with
   *     verification on at another threshold (only its MinHash bands may differ); null skips the
   *     threshold sweep
   * @param variants alternative settings; each is analysed and timed on its own
   */
  public static Result run(
      Dataset data,
      Engine base,
      @Nullable DoubleFunction<Analyzer> atThreshold,
      List<Engine> variants,
      Options o) {
    long t0 = System.nanoTime();
    Result r = new Result();
    r.data = data;
    r.options = o;
    r.base = base;
    Scorer scorer = new Scorer(data, o.labelThreshold);
    int n = data.docs().size();

    o.log.accept(
        String.format(java.util.Locale.ROOT, "analysing %,d documents: %s", n, base.label()));
    r.corpus = Corpus.analyse(data, base.analyzer(), o.threads, o.warmUp);
    r.pairs = r.corpus.findPairs(base.maxDistance(), base.threshold(), base.verifies(), o.threads);
    r.score = scorer.score(r.pairs.keys(), r.pairs.size());
    List<Engine> engines = new ArrayList<>();
    List<Score[]> scores = new ArrayList<>();
    List<double[]> seconds = new ArrayList<>();
    engines.add(base);
    scores.add(new Score[] {r.score, fingerprintOnly(r.corpus, base, r.score, scorer, o.threads)});
    seconds.add(new double[] {r.corpus.seconds(), r.pairs.seconds()});

    ShingleSketch[] shingles = r.corpus.sketches;
    if (o.sweeps) {
      o.log.accept("sweeping k from 0 to " + o.maxK);
      PairList within = r.corpus.findPairs(o.maxK, base.threshold(), false, o.threads);
      r.fingerprintByK =
          scorer.scoreLevels(within.keys(), distances(within), within.size(), o.maxK);
      if (base.verifies()) {
        r.verifiedByK = verifiedByK(r.corpus, r.pairs, within, base.threshold(), scorer, o.maxK);
      }
      if (atThreshold != null && o.thresholds.length > 0) {
        o.log.accept("sweeping the similarity threshold");
        shingles = thresholdSweep(data, r, atThreshold, o);
      }
    }
    r.histograms = histograms(data, r.corpus, shingles, o);
    examples(r, scorer, shingles, o.examples);

    for (Engine v : variants) {
      o.log.accept(
          String.format(java.util.Locale.ROOT, "analysing %,d documents: %s", n, v.label()));
      Corpus c = Corpus.analyse(data, v.analyzer(), o.threads, o.warmUp);
      PairList p = c.findPairs(v.maxDistance(), v.threshold(), v.verifies(), o.threads);
      Score s = scorer.score(p.keys(), p.size());
      engines.add(v);
      scores.add(new Score[] {s, fingerprintOnly(c, v, s, scorer, o.threads)});
      seconds.add(new double[] {c.seconds(), p.seconds()});
    }
    double[][] throughput = throughput(data, engines, o);
    for (int e = 0; e < engines.size(); e++) {
      r.variants.add(
          new Variant(
              engines.get(e),
              scores.get(e)[0],
              scores.get(e)[1],
              throughput[e],
              seconds.get(e)[0],
              seconds.get(e)[1]));
    }
    r.seconds = (System.nanoTime() - t0) / 1e9;
    return r;
  }

  private static Score fingerprintOnly(
      Corpus c, Engine e, Score score, Scorer scorer, int threads) {
    if (!e.verifies()) {
      return score;
    }
    PairList p = c.findPairs(e.maxDistance(), e.threshold(), false, threads);
    return scorer.score(p.keys(), p.size());
  }

  /**
   * Analysis throughput of each settings, in docs/s: {@code throughputRounds} rounds, each timing
   * every settings once on the same sample, so a burst of load on a shared machine hits one round
   * of all settings rather than all rounds of one. Runs after the full passes, when the JIT
   * compiler has warmed up on every settings.
   */
  private static double[][] throughput(Dataset data, List<Engine> engines, Options o) {
    int sample = Math.min(data.docs().size(), Math.max(1, o.throughputSample));
    double[][] out = new double[engines.size()][Math.max(0, o.throughputRounds)];
    if (o.throughputRounds > 0) {
      o.log.accept(
          String.format(
              java.util.Locale.ROOT,
              "timing the analysis: %d rounds of %,d documents per settings",
              o.throughputRounds,
              sample));
    }
    for (int round = 0; round < o.throughputRounds; round++) {
      for (int e = 0; e < engines.size(); e++) {
        Analyzer a = engines.get(e).analyzer();
        long t0 = System.nanoTime();
        Corpus.parallel(sample, o.threads, i -> a.analyze(data.docs().get(i).text()));
        out[e][round] = sample / ((System.nanoTime() - t0) / 1e9);
      }
    }
    return out;
  }

  /**
   * Verified mode at each k in [0, maxK]: a pair found by the given settings through a shared band
   * is found at every k; any other pair within maxK bits whose similarity reaches the threshold is
   * found from its distance on.
   */
  static Score[] verifiedByK(
      Corpus corpus, PairList found, PairList within, double threshold, Scorer scorer, int maxK) {
    int cap = found.size() + within.size();
    long[] keys = new long[cap];
    int[] levels = new int[cap];
    int m = 0;
    for (int k = 0; k < found.size(); k++) {
      int a = found.first(k);
      int b = found.second(k);
      if (corpus.shareBand(a, b)) {
        keys[m] = Scorer.key(a, b);
        levels[m++] = 0;
      }
    }
    for (int k = 0; k < within.size(); k++) {
      int a = within.first(k);
      int b = within.second(k);
      if (corpus.excluded(a) || corpus.excluded(b)) {
        continue;
      }
      if (ShingleSketch.jaccard(corpus.sketch(a), corpus.sketch(b)) >= threshold) {
        keys[m] = Scorer.key(a, b);
        levels[m++] = corpus.shareBand(a, b) ? 0 : within.distance(k);
      }
    }
    return scorer.scoreLevels(keys, levels, m, maxK);
  }

  /**
   * Fills the threshold sweep; returns the shingle sketches (the same at every threshold), which
   * the given settings lack when they do not verify.
   */
  private static ShingleSketch[] thresholdSweep(
      Dataset data, Result r, DoubleFunction<Analyzer> atThreshold, Options o) {
    double[] ts = o.thresholds;
    Analyzer[] analyzers = new Analyzer[ts.length];
    for (int t = 0; t < ts.length; t++) {
      analyzers[t] = atThreshold.apply(ts[t]);
    }
    BandKeys keys = bandKeys(data, r.corpus, analyzers, o.threads);
    Corpus withSketches = r.corpus.withSketches(keys.shingles);
    for (int t = 0; t < ts.length; t++) {
      PairList p =
          withSketches.findPairs(
              keys.keys[t], keys.bands[t], r.base.maxDistance(), ts[t], true, o.threads);
      long[] k = p.keys();
      r.byThreshold.add(
          new ThresholdPoint(
              ts[t],
              analyzers[t].shingler().bands().toString(),
              p.size(),
              new Scorer(data, o.labelThreshold).score(k, k.length),
              new Scorer(data, ts[t]).score(k, k.length)));
    }
    return keys.shingles;
  }

  /** Band keys of every document under each analyzer's band scheme, and the shingles. */
  static final class BandKeys {
    long[][] keys;
    int[] bands;
    ShingleSketch[] shingles;
  }

  /**
   * Computes what {@code analyzers[t].analyze(text).sketch()} would, for every t and document,
   * normalising each text once (what {@link Analyzer#analyze} does before sketching). The analyzers
   * must share the fingerprint settings of {@code base} and differ at most in their band schemes; a
   * spot check against {@link Analyzer#analyze} guards the shortcut.
   */
  static BandKeys bandKeys(Dataset data, Corpus base, Analyzer[] analyzers, int threads) {
    Fingerprinter fp = base.analyzer().fingerprinter();
    Shingler first = analyzers[0].shingler();
    for (Analyzer a : analyzers) {
      Shingler s = a.shingler();
      if (s == null
          || !a.fingerprinter().settings().id().equals(fp.settings().id())
          || s.capacity() != first.capacity()
          || s.foldNumbers() != first.foldNumbers()) {
        throw new IllegalArgumentException(
            "threshold sweep: the analyzers must verify and differ from the given settings only in"
                + " their bands; got "
                + a.id()
                + " for "
                + base.analyzer().id());
      }
    }
    int n = data.docs().size();
    BandKeys out = new BandKeys();
    out.keys = new long[analyzers.length][];
    out.bands = new int[analyzers.length];
    for (int t = 0; t < analyzers.length; t++) {
      out.bands[t] = analyzers[t].shingler().bands().bands();
      out.keys[t] = new long[n * out.bands[t]];
    }
    out.shingles = new ShingleSketch[n];
    ThreadLocal<TextBuffer> buffers = ThreadLocal.withInitial(TextBuffer::new);
    Corpus.parallel(
        n,
        threads,
        i -> {
          if (base.excluded(i)) {
            out.shingles[i] = ShingleSketch.empty();
            return;
          }
          TextBuffer norm = buffers.get();
          norm.clear();
          fp.normalize(data.docs().get(i).text(), norm);
          for (int t = 0; t < analyzers.length; t++) {
            Sketch s = analyzers[t].shingler().sketch(norm.array(), 0, norm.length());
            long[] k = s.bandKeys();
            System.arraycopy(k, 0, out.keys[t], i * out.bands[t], Math.min(k.length, out.bands[t]));
            if (t == 0) {
              out.shingles[i] = s.shingles();
            }
          }
        });
    // Spot check: the shortcut gives what the analyzers give.
    int checked = 0;
    for (int i = 0; i < n && checked < 25; i++) {
      if (base.excluded(i)) {
        continue;
      }
      checked++;
      for (int t = 0; t < analyzers.length; t++) {
        Analysis a = analyzers[t].analyze(data.docs().get(i).text());
        long[] k = Arrays.copyOfRange(out.keys[t], i * out.bands[t], (i + 1) * out.bands[t]);
        if (a.fingerprint() != base.fingerprint(i)
            || !Arrays.equals(a.sketch().bandKeys(), k)
            || !Arrays.equals(a.sketch().shingles().hashes(), out.shingles[i].hashes())) {
          throw new IllegalStateException(
              "threshold sweep: analysing document "
                  + data.docs().get(i).id()
                  + " directly gives other band keys than the sweep; Analyzer.analyze changed?");
        }
      }
    }
    return out;
  }

  private static Histograms histograms(
      Dataset data, Corpus corpus, ShingleSketch @Nullable [] shingles, Options o) {
    long[] dPos = new long[65];
    long[] dNeg = new long[65];
    long[] dRandom = new long[65];
    long[] sPos = shingles == null ? null : new long[20];
    long[] sNeg = shingles == null ? null : new long[20];
    for (Dataset.Pair p : data.pairs()) {
      if (corpus.excluded(p.a()) || corpus.excluded(p.b())) {
        continue;
      }
      boolean pos = p.jaccard() >= o.labelThreshold;
      int d = Long.bitCount(corpus.fingerprint(p.a()) ^ corpus.fingerprint(p.b()));
      (pos ? dPos : dNeg)[d]++;
      if (shingles != null) {
        double s = ShingleSketch.jaccard(shingles[p.a()], shingles[p.b()]);
        (pos ? sPos : sNeg)[Math.min(19, (int) Math.floor(s * 20))]++;
      }
    }
    SplittableRandom random = new SplittableRandom(0x5EED);
    int n = data.docs().size();
    for (int k = 0; k < o.randomPairs && n > 1; k++) {
      int a = random.nextInt(n);
      int b = random.nextInt(n);
      if (a == b || corpus.excluded(a) || corpus.excluded(b)) {
        continue;
      }
      dRandom[Long.bitCount(corpus.fingerprint(a) ^ corpus.fingerprint(b))]++;
    }
    return new Histograms(dPos, dNeg, dRandom, sPos, sNeg);
  }

  /** At most this many examples of one kind, so one failure mode does not fill the list. */
  static final int PER_KIND = 3;

  private static void examples(
      Result r, Scorer scorer, ShingleSketch @Nullable [] shingles, int count) {
    Corpus c = r.corpus;
    Engine e = r.base;
    Dataset data = r.data;
    double t = r.options.labelThreshold;
    List<Example> fps = new ArrayList<>();
    Set<Long> found = new HashSet<>();
    for (int k = 0; k < r.pairs.size(); k++) {
      int a = r.pairs.first(k);
      int b = r.pairs.second(k);
      found.add(Scorer.key(a, b));
      if (scorer.isPositive(a, b)) {
        continue;
      }
      Dataset.Pair p = data.pair(a, b);
      double s = similarity(shingles, a, b);
      int d = r.pairs.distance(k);
      String label =
          p == null
              ? "the pair is not listed: its label Jaccard is below "
                  + Score.formatG(data.floor(), 2)
              : "its label Jaccard is " + ratio(p.jaccard()) + ", below " + Score.formatG(t, 3);
      String reason =
          e.verifies()
              ? "estimated similarity " + ratio(s) + " reaches " + Score.formatG(e.threshold(), 3)
              : "fingerprints " + d + " bits apart, within k = " + e.maxDistance();
      fps.add(
          new Example(
              data.docs().get(a),
              data.docs().get(b),
              p,
              d,
              s,
              c.shareBand(a, b),
              reason + ", but " + label));
    }
    // Most confident first: verified by similarity, else by distance; then the most wrong label.
    Comparator<Example> fpOrder =
        e.verifies()
            ? Comparator.comparingDouble((Example x) -> -x.similarity())
            : Comparator.comparingInt(Example::distance);
    fpOrder = fpOrder.thenComparingDouble(x -> x.pair() == null ? 0 : x.pair().jaccard());
    r.falsePositives.addAll(pick(fps, fpOrder, count));

    List<Example> fns = new ArrayList<>();
    for (Dataset.Pair p : data.pairs()) {
      if (p.jaccard() < t || found.contains(Scorer.key(p.a(), p.b()))) {
        continue;
      }
      int a = p.a();
      int b = p.b();
      int d = Long.bitCount(c.fingerprint(a) ^ c.fingerprint(b));
      double s = similarity(shingles, a, b);
      boolean band = c.verifies() && c.shareBand(a, b);
      String reason;
      if (c.excluded(a) || c.excluded(b)) {
        reason = "a document without letters or digits is left out";
      } else if (!e.verifies()) {
        reason = "fingerprints " + d + " bits apart, more than k = " + e.maxDistance();
      } else if (d <= e.maxDistance() || band) {
        reason =
            "a candidate ("
                + (band ? "shared MinHash band" : "fingerprints " + d + " bits apart")
                + "), but its estimated similarity "
                + ratio(s)
                + " is below "
                + Score.formatG(e.threshold(), 3);
      } else {
        reason =
            "never a candidate: fingerprints "
                + d
                + " bits apart (more than k = "
                + e.maxDistance()
                + ") and no MinHash band in common";
      }
      fns.add(new Example(data.docs().get(a), data.docs().get(b), p, d, s, band, reason));
    }
    Comparator<Example> fnOrder =
        Comparator.comparingDouble((Example x) -> -x.pair().jaccard())
            .thenComparingDouble(x -> Double.isNaN(x.similarity()) ? 0 : -x.similarity());
    r.falseNegatives.addAll(pick(fns, fnOrder, count));
  }

  private static double similarity(ShingleSketch @Nullable [] shingles, int a, int b) {
    return shingles == null ? Double.NaN : ShingleSketch.jaccard(shingles[a], shingles[b]);
  }

  /** The first {@code count} in order, at most {@link #PER_KIND} of a kind; ties by document. */
  static List<Example> pick(List<Example> all, Comparator<Example> order, int count) {
    List<Example> sorted = new ArrayList<>(all);
    sorted.sort(
        order.thenComparingInt((Example x) -> x.a().index()).thenComparingInt(x -> x.b().index()));
    List<Example> out = new ArrayList<>();
    Map<String, Integer> perKind = new HashMap<>();
    for (Example x : sorted) {
      if (out.size() >= count) {
        break;
      }
      if (perKind.merge(x.kind(), 1, Integer::sum) <= PER_KIND) {
        out.add(x);
      }
    }
    return out;
  }

  static String ratio(double v) {
    return Double.isNaN(v) ? "n/a" : Score.formatF(v, 0, 4);
  }

  private static int[] distances(PairList pairs) {
    int[] d = new int[pairs.size()];
    for (int k = 0; k < d.length; k++) {
      d[k] = pairs.distance(k);
    }
    return d;
  }
}
