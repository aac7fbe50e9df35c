// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import java.io.BufferedWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.neardup.fingerprint.Fingerprinter;
import org.neardup.text.TextBuffer;
import org.neardup.text.Tokenizer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code neardup idf}: IDF dictionaries. */
@Command(
    name = "idf",
    description = "Build IDF dictionaries from your own corpus.",
    subcommands = {IdfCommand.Build.class})
final class IdfCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** {@code neardup idf build CORPUS... --out FILE}. */
  @Command(
      name = "build",
      sortOptions = false,
      description = {
        "Count in how many documents each word occurs and write 'word idf' lines, idf = ln(N / df),",
        "the format of jieba's idf.txt. Use it with --idf FILE on dedup, fingerprint or serve.",
        "Words are cut exactly as fingerprints cut them (normalisation, segmentation, HTML handling)."
      })
  static final class Build implements Callable<Integer> {
    @Mixin InputOptions input = new InputOptions();

    @Option(
        names = {"-o", "--out"},
        required = true,
        paramLabel = "FILE",
        description = "Where to write the dictionary.")
    Path out;

    @Option(
        names = "--min-df",
        paramLabel = "N",
        description =
            "Leave out words found in fewer than N documents (they get the median IDF). Default: ${DEFAULT-VALUE}.")
    int minDf = 2;

    @Mixin EngineOptions engine = new EngineOptions();

    @Spec CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      if (minDf < 1) {
        throw new IllegalArgumentException("--min-df must be >= 1, got " + minDf);
      }
      DocumentSource source = input.open();
      Fingerprinter fp = Fingerprinter.create(engine.fingerprintSettings());
      Tokenizer tokenizer = new Tokenizer(engine.loadLexicon().segmenter());
      Map<String, int[]> df = new HashMap<>();
      long[] docs = {0};
      long[] skipped = {0};
      Parallel.run(
          source,
          d -> {
            if (!d.ok()) {
              return null;
            }
            TextBuffer norm = new TextBuffer(d.text().length());
            fp.normalize(d.text(), norm);
            Set<String> words = new HashSet<>();
            tokenizer.tokenize(
                norm.array(), 0, norm.length(), (t, s, e) -> words.add(new String(t, s, e - s)));
            return words;
          },
          input.threads,
          done -> {
            for (Set<String> words : done) {
              if (words == null) {
                skipped[0]++;
                continue;
              }
              docs[0]++;
              for (String w : words) {
                df.computeIfAbsent(w, k -> new int[1])[0]++;
              }
            }
          },
          () -> {});
      if (docs[0] == 0) {
        throw new IllegalArgumentException("no readable document in the corpus");
      }
      List<String> words = new ArrayList<>();
      for (Map.Entry<String, int[]> e : df.entrySet()) {
        if (e.getValue()[0] >= minDf) {
          words.add(e.getKey());
        }
      }
      words.sort(null);
      Path tmp = Files.createTempFile(out.toAbsolutePath().getParent(), ".idf", ".tmp");
      try (BufferedWriter w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
        w.write(
            "# neardup idf build: "
                + docs[0]
                + " documents, idf = ln(N / df), words with df >= "
                + minDf
                + "\n");
        for (String word : words) {
          double idf = Math.log((double) docs[0] / df.get(word)[0]);
          w.write(word);
          w.write(' ');
          w.write(String.format(Locale.ROOT, "%.6f", idf));
          w.write('\n');
        }
      } catch (RuntimeException | java.io.IOException e) {
        Files.deleteIfExists(tmp);
        throw e;
      }
      Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      PrintWriter o = spec.commandLine().getOut();
      o.printf(
          Locale.ROOT,
          "%,d words from %,d documents (%,d unreadable) written to %s%n",
          words.size(),
          docs[0],
          skipped[0],
          out);
      o.flush();
      return 0;
    }
  }
}
