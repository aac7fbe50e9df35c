// SPDX-License-Identifier: Apache-2.0
package org.neardup.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.neardup.Analyzer;
import org.neardup.Deduplicator;
import org.neardup.fingerprint.FingerprintSettings;
import org.neardup.fingerprint.Fingerprinter;
import org.neardup.text.Lexicon;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Fingerprinting and full analysis (fingerprint + verification sketch) of real text, one thread.
 * Each operation processes the whole corpus of one language once, so MB/s = ops/s x {@link
 * #megabytes} (printed at setup).
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar FingerprintBenchmark -p corpus=shared/data/dev/docs.jsonl
 * </pre>
 *
 * The corpus is a JSONL file with "text" and "lang" ("zh"/"en") fields; by default the repository's
 * examples/sample.jsonl.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class FingerprintBenchmark {
  @Param({"examples/sample.jsonl"})
  public String corpus;

  @Param({"zh", "en"})
  public String lang;

  @Param({"fingerprint", "analyze"})
  public String what;

  String[] texts;
  double megabytes;
  Fingerprinter fingerprinter;
  Analyzer analyzer;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    texts = read(Path.of(corpus), lang).toArray(new String[0]);
    long bytes = 0;
    for (String t : texts) {
      bytes += t.getBytes(StandardCharsets.UTF_8).length;
    }
    megabytes = bytes / 1e6;
    System.out.printf(
        java.util.Locale.ROOT,
        "%n%s: %d %s documents, %.3f MB per operation%n",
        corpus,
        texts.length,
        lang,
        megabytes);
    Lexicon jieba = Lexicon.load("jieba");
    fingerprinter = Fingerprinter.create(FingerprintSettings.builder(jieba).build());
    analyzer = Deduplicator.builder().fingerprintSettings(fingerprinter.settings()).analyzer();
  }

  static List<String> read(Path file, String lang) throws IOException {
    ObjectMapper json = new ObjectMapper();
    List<String> out = new ArrayList<>();
    try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      for (String line; (line = r.readLine()) != null; ) {
        JsonNode n = json.readTree(line);
        String text = n.path("text").asText();
        String l = n.has("lang") ? n.get("lang").asText() : guess(text);
        if (l.equals(lang)) {
          out.add(text);
        }
      }
    }
    return out;
  }

  private static String guess(String text) {
    long han =
        text.codePoints()
            .filter(c -> Character.UnicodeScript.of(c) == Character.UnicodeScript.HAN)
            .count();
    return han * 10 >= text.codePoints().filter(Character::isLetterOrDigit).count() ? "zh" : "en";
  }

  @Benchmark
  public long run() {
    long x = 0;
    if (what.equals("fingerprint")) {
      for (String t : texts) {
        x ^= fingerprinter.fingerprint(t);
      }
    } else {
      for (String t : texts) {
        x ^= analyzer.analyze(t).fingerprint();
      }
    }
    return x;
  }
}
