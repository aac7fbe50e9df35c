// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.neardup.Analyzer;
import org.neardup.eval.Dataset;
import org.neardup.eval.Evaluation;
import org.neardup.eval.HtmlReport;
import org.neardup.eval.JsonReport;
import org.neardup.eval.PairList;
import org.neardup.eval.TextReport;
import org.neardup.fingerprint.FingerprintSettings;
import org.neardup.fingerprint.Fingerprinter;
import org.neardup.text.TextBuffer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code neardup eval DATASET}: scores the engine on a labelled dataset (docs.jsonl + pairs.jsonl,
 * as in shared/data/dev) with the options {@code dedup} takes, sweeps k and the similarity
 * threshold, tries the alternative settings, and writes an HTML report.
 *
 * <p>Predicted pairs come from the path {@code dedup} takes (the same analyzer, built from the same
 * {@link EngineOptions}; {@link org.neardup.CorpusDedup#findPairs}), so the two always agree; the
 * printed table is the one score.py prints for those pairs.
 */
@Command(
    name = "eval",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Score near-duplicate detection on a labelled dataset and write a report.",
      "",
      "DATASET is a directory with docs.jsonl ({id, lang, len_class, text}) and",
      "pairs.jsonl ({a, b, jaccard, kind, lang, len_class}); the gold near-duplicates",
      "are the listed pairs with jaccard >= --label-threshold. Pairs are found",
      "exactly as 'neardup dedup' finds them with the same engine options.",
      "Prints precision, recall and F1 as score.py does, then the sweeps over k",
      "and the similarity threshold, and the alternative settings."
    })
final class EvalCommand implements Callable<Integer> {
  @Parameters(
      index = "0",
      paramLabel = "DATASET",
      description = "Directory with docs.jsonl and pairs.jsonl.")
  Path dataset;

  @Option(
      names = {"-o", "--out"},
      paramLabel = "FILE",
      description = "Write the HTML report here (one self-contained file).")
  @Nullable Path out;

  @Option(
      names = "--json",
      paramLabel = "FILE",
      description =
          "Write the numbers as JSON here (the top level is what score.py --json writes).")
  @Nullable Path json;

  @Option(
      names = "--pairs",
      paramLabel = "FILE",
      description =
          "Write the predicted pairs here as JSONL ({a, b, distance, similarity}), for score.py --pred.")
  @Nullable Path pairsFile;

  @Option(
      names = "--texts",
      paramLabel = "FILE",
      description =
          "Write each document's text as these settings read it (visible or main text of HTML, normalised, volatile lines left out) as JSONL ({id, text}), to check by hand what a pair was compared on.")
  @Nullable Path textsFile;

  @Option(
      names = "--threads",
      paramLabel = "N",
      description = "Worker threads. Default: all cores.")
  int threads = Runtime.getRuntime().availableProcessors();

  @Option(
      names = "--label-threshold",
      paramLabel = "J",
      description =
          "Gold near-duplicates are listed pairs with jaccard >= J (score.py --threshold). Default: ${DEFAULT-VALUE}.")
  double labelThreshold = 0.8;

  @Option(
      names = "--max-k",
      paramLabel = "K",
      description = "The k sweeps go from 0 to K. Default: ${DEFAULT-VALUE}.")
  int maxK = 16;

  @Option(
      names = "--no-sweeps",
      description = "Skip the sweeps over k and the similarity threshold.")
  boolean noSweeps;

  @Option(
      names = "--no-variants",
      description = "Skip the alternative settings (each analyses the whole dataset again).")
  boolean noVariants;

  @Option(
      names = "--examples",
      paramLabel = "N",
      description =
          "False positives and false negatives shown in the report. Default: ${DEFAULT-VALUE}.")
  int examples = 10;

  @Option(
      names = {"-q", "--quiet"},
      description = "No progress messages on stderr.")
  boolean quiet;

  @Option(
      names = "--errors",
      paramLabel = "FILE",
      description =
          "Write every skipped line of docs.jsonl and pairs.jsonl here as JSONL: {\"location\":"
              + " \"FILE:LINE\", \"id\": ..., \"error\": ...}.")
  @Nullable Path errors;

  @Option(
      names = "--fail-on-error",
      description =
          "Exit with 1 when any line was skipped (the scores are still written). Default: skipped"
              + " lines (and the pairs naming skipped documents) are reported and the exit code is"
              + " 0.")
  boolean failOnError;

  @Mixin EngineOptions engine = new EngineOptions();

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (engine.scheme != null) {
      // EngineOptions is shared with dedup, whose --scheme changes only the time and memory of the
      // search, never the pairs; eval's sweeps over k need a scheme for each k, so it takes none.
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(),
          "--scheme is not taken by eval: every scheme finds the same pairs, and the sweeps over k"
              + " choose the scheme for each k; leave it out (it only changes dedup's time and"
              + " memory)");
    }
    if (threads < 1 || threads > 256) {
      throw new IllegalArgumentException("--threads must be in [1, 256], got " + threads);
    }
    if (!(labelThreshold >= 0 && labelThreshold <= 1)) {
      throw new IllegalArgumentException(
          "--label-threshold must be in [0, 1], got " + labelThreshold);
    }
    if (maxK < 0 || maxK > 64) {
      throw new IllegalArgumentException("--max-k must be in [0, 64], got " + maxK);
    }
    if (examples < 0) {
      throw new IllegalArgumentException("--examples must be >= 0, got " + examples);
    }
    PrintWriter stdout = spec.commandLine().getOut();
    PrintWriter stderr = spec.commandLine().getErr();
    Consumer<String> log =
        quiet
            ? s -> {}
            : s -> {
              stderr.println("neardup eval: " + s);
              stderr.flush();
            };
    Evaluation.Engine base = engine(describe(engine), engine);
    List<Evaluation.Engine> variants = noVariants ? List.of() : variants(engine);
    if (!java.nio.file.Files.exists(dataset)) {
      throw new java.nio.file.NoSuchFileException(dataset.toString());
    }
    if (!java.nio.file.Files.isDirectory(dataset)) {
      throw new IllegalArgumentException(
          dataset + ": not a directory; a dataset is a directory with docs.jsonl and pairs.jsonl");
    }
    log.accept("reading " + dataset);
    Rejects rejects = Rejects.open("eval", errors);
    Dataset data;
    try (rejects) {
      data = Dataset.read(dataset, rejects::add);
    }
    rejects.report(stderr);
    if (labelThreshold < data.floor()) {
      stderr.printf(
          Locale.ROOT,
          "neardup eval: warning: --label-threshold %s is below the floor %s down to which the"
              + " dataset lists pairs; scores are only approximate%n",
          labelThreshold,
          data.floor());
      stderr.flush();
    }

    Evaluation.Options o = new Evaluation.Options();
    o.threads = threads;
    o.labelThreshold = labelThreshold;
    o.maxK = maxK;
    o.sweeps = !noSweeps;
    o.examples = examples;
    o.log = log;
    Evaluation.Result r =
        Evaluation.run(data, base, t -> analyzerAtThreshold(engine, t), variants, o);

    stdout.print(TextReport.render(r, dataset.toString()));
    if (pairsFile != null) {
      writePairs(pairsFile, data, r.pairs());
      stdout.println("pairs: " + pairsFile);
    }
    if (textsFile != null) {
      writeTexts(textsFile, data, engine.builder().analyzer().fingerprinter());
      stdout.println("texts: " + textsFile);
    }
    if (json != null) {
      write(
          json,
          w ->
              w.write(
                  new ObjectMapper()
                          .writerWithDefaultPrettyPrinter()
                          .writeValueAsString(JsonReport.render(r))
                      + "\n"));
      stdout.println("json: " + json);
    }
    if (out != null) {
      write(out, w -> HtmlReport.write(r, dataset.toString(), w));
      stdout.println("report: " + out);
    }
    stdout.printf(Locale.ROOT, "%.1f s%n", r.seconds());
    stdout.flush();
    return rejects.exitCode(failOnError);
  }

  /** Settings as dedup builds them from these options. */
  private static Evaluation.Engine engine(String label, EngineOptions options) throws IOException {
    Analyzer analyzer = options.builder().analyzer();
    return new Evaluation.Engine(label, analyzer, options.maxDistance, options.threshold);
  }

  /** The analyzer of these options with verification on at threshold t. */
  private static Analyzer analyzerAtThreshold(EngineOptions options, double t) {
    EngineOptions o = copy(options);
    o.noVerify = false;
    o.threshold = t;
    try {
      return o.builder().analyzer();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The alternatives a user can switch to, each one option away from the given settings: number
   * folding, the HTML modes, simplified/traditional folding, verification, and a few top-N values.
   */
  static List<Evaluation.Engine> variants(EngineOptions base) throws IOException {
    List<Evaluation.Engine> out = new ArrayList<>();
    boolean fold = base.foldNumbers();
    EngineOptions numbers = copy(base);
    numbers.numbers = fold ? "keep" : "fold";
    out.add(engine("--numbers " + numbers.numbers, numbers));
    for (String html : List.of("visible", "main", "raw")) {
      if (!html.equals(base.htmlMode().name().toLowerCase(Locale.ROOT))) {
        EngineOptions h = copy(base);
        h.html = html;
        out.add(engine("--html " + html, h));
      }
    }
    if (base.preset() != org.neardup.store.Preset.WEB) {
      EngineOptions web = copy(base);
      web.preset = "web";
      out.add(engine("--preset web", web));
    }
    EngineOptions han = copy(base);
    han.han = base.hanMode() == FingerprintSettings.Han.FOLD ? "keep" : "fold";
    out.add(engine("--han " + han.han, han));
    EngineOptions verify = copy(base);
    verify.noVerify = !base.noVerify;
    out.add(
        engine(
            verify.noVerify
                ? "--no-verify (k = " + base.maxDistance + ")"
                : "verified (--threshold " + base.threshold + ")",
            verify));
    for (int topN : new int[] {16, 32, 128, 0}) {
      if (topN != base.topN) {
        EngineOptions t = copy(base);
        t.topN = topN;
        out.add(engine("--top-n " + topN + (topN == 0 ? " (all)" : ""), t));
      }
    }
    return out;
  }

  /** A field-by-field copy, so a new engine option is carried over without touching this class. */
  static EngineOptions copy(EngineOptions from) {
    EngineOptions to = new EngineOptions();
    for (Field f : EngineOptions.class.getDeclaredFields()) {
      if (Modifier.isStatic(f.getModifiers()) || Modifier.isFinal(f.getModifiers())) {
        continue;
      }
      try {
        f.set(to, f.get(from));
      } catch (IllegalAccessException e) {
        throw new IllegalStateException("cannot copy EngineOptions." + f.getName(), e);
      }
    }
    return to;
  }

  /** The engine options that differ from their defaults, as typed, or {@code defaults}. */
  private String describe(EngineOptions options) {
    List<String> parts = new ArrayList<>();
    CommandSpec mixin = spec.mixins().get("engine");
    if (mixin != null) {
      for (OptionSpec o : mixin.options()) {
        Object v = o.getValue();
        if (!Objects.equals(v, o.initialValue())) {
          parts.add(o.arity().max() == 0 ? o.longestName() : o.longestName() + " " + v);
        }
      }
    }
    return parts.isEmpty() ? "defaults" : String.join(" ", parts);
  }

  private static void writePairs(Path file, Dataset data, PairList pairs) throws IOException {
    ObjectMapper json = new ObjectMapper();
    write(
        file,
        w -> {
          for (int k = 0; k < pairs.size(); k++) {
            StringBuilder line = new StringBuilder("{\"a\":");
            line.append(json.writeValueAsString(data.docs().get(pairs.first(k)).id()));
            line.append(",\"b\":")
                .append(json.writeValueAsString(data.docs().get(pairs.second(k)).id()));
            line.append(",\"distance\":").append(pairs.distance(k));
            double s = pairs.similarity(k);
            if (!Double.isNaN(s)) {
              line.append(",\"similarity\":").append(Math.round(s * 10000) / 10000.0);
            }
            w.write(line.append("}\n").toString());
          }
        });
  }

  /** Each document's text as the fingerprinter reads it, one {@code {id, text}} per line. */
  private static void writeTexts(Path file, Dataset data, Fingerprinter fingerprinter)
      throws IOException {
    ObjectMapper json = new ObjectMapper();
    TextBuffer norm = new TextBuffer();
    write(
        file,
        w -> {
          for (Dataset.Doc d : data.docs()) {
            norm.clear();
            fingerprinter.normalize(d.text(), norm);
            w.write(
                "{\"id\":"
                    + json.writeValueAsString(d.id())
                    + ",\"text\":"
                    + json.writeValueAsString(norm.toString())
                    + "}\n");
          }
        });
  }

  private interface WriterBody {
    void write(Writer w) throws IOException;
  }

  /** Writes a file through a temporary sibling, so a failed run leaves no half-written file. */
  private static void write(Path file, WriterBody body) throws IOException {
    Path target = file.toAbsolutePath().normalize();
    Path dir = target.getParent();
    if (dir != null) {
      Files.createDirectories(dir);
    }
    Path tmp =
        target.resolveSibling(
            "." + target.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
    try {
      try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
        body.write(w);
      }
      Files.move(
          tmp,
          target,
          java.nio.file.StandardCopyOption.REPLACE_EXISTING,
          java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }
}
