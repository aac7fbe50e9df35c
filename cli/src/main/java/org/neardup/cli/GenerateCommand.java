// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.zip.GZIPOutputStream;
import org.neardup.eval.CorpusGenerator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code neardup bench generate}: a reproducible synthetic corpus with known near-duplicates, for
 * measuring {@code neardup dedup} at scale (the same seed always gives the same bytes).
 *
 * <p>The texts come from {@link CorpusGenerator}: half Chinese (words from jieba's dictionary by
 * frequency), half English (English's hundred most frequent words, then pronounceable syllable
 * strings), Zipf-distributed, each text with a topic of its own words. Lengths: half short (40-200
 * characters), 30% medium (200-500), 20% long (500-3000). A share of the documents ({@code
 * --dup-rate}) are copies of an earlier document with repost-like edits: a few words replaced,
 * inserted or deleted, a sentence added or dropped, a counter or date line added or changed,
 * boilerplate ("转载请注明出处", "Read more at ...") appended.
 */
@Command(
    name = "generate",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description =
        "Write a reproducible synthetic corpus (JSONL, .gz if the name ends so) with near-duplicates, for benchmarks.")
final class GenerateCommand implements Callable<Integer> {
  @Option(
      names = "--docs",
      paramLabel = "N",
      description = "Number of documents. Default: ${DEFAULT-VALUE}.")
  int docs = 1_000_000;

  @Option(
      names = {"-o", "--out"},
      required = true,
      paramLabel = "FILE",
      description = "Output file (.jsonl or .jsonl.gz).")
  Path out;

  @Option(
      names = "--seed",
      paramLabel = "S",
      description = "Random seed. Default: ${DEFAULT-VALUE}.")
  long seed = 1;

  @Option(
      names = "--dup-rate",
      paramLabel = "R",
      description =
          "Share of documents that are edited copies of earlier ones. Default: ${DEFAULT-VALUE}.")
  double dupRate = 0.3;

  @Option(
      names = "--crowded",
      description =
          "Stress case for skew: English texts of made-up words only, without English's frequent"
              + " words or topics, so their fingerprints crowd together (many candidates that are"
              + " not near-duplicates).")
  boolean crowded;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    if (docs < 1) {
      throw new IllegalArgumentException("--docs must be >= 1, got " + docs);
    }
    if (!(dupRate >= 0 && dupRate < 1)) {
      throw new IllegalArgumentException("--dup-rate must be in [0, 1), got " + dupRate);
    }
    CorpusGenerator generator = new CorpusGenerator(seed, dupRate, crowded);
    try (OutputStream raw = Files.newOutputStream(out);
        OutputStream os =
            out.toString().endsWith(".gz") ? new GZIPOutputStream(raw, 1 << 16) : raw;
        Writer w =
            new BufferedWriter(new OutputStreamWriter(os, StandardCharsets.UTF_8), 1 << 16)) {
      for (int i = 0; i < docs; i++) {
        w.write(
            String.format(
                Locale.ROOT,
                "{\"id\":\"g%08d\",\"text\":%s}\n",
                i,
                DocumentSource.quote(generator.next())));
      }
    }
    spec.commandLine().getOut().printf(Locale.ROOT, "%,d documents written to %s%n", docs, out);
    spec.commandLine().getOut().flush();
    return 0;
  }
}
