// SPDX-License-Identifier: Apache-2.0
package org.neardup.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.neardup.fingerprint.FingerprintSettings;
import org.neardup.fingerprint.Fingerprinter;
import org.neardup.text.Lexicon;
import org.neardup.text.Segmenter;
import org.neardup.text.UserDictionary;
import org.neardup.text.WordSink;
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
 * The cost of the Chinese text options in fingerprinting speed, one thread: {@code --han keep},
 * {@code --han fold} (the default), and {@code --han fold} with a 10,000-word jieba user
 * dictionary; and {@code keep-hanruns}, the tokenization before jieba's mixed blocks (only runs of
 * Han characters reach the segmenter), for the cost of those. Each operation fingerprints the
 * corpus's documents of one language once (as {@link FingerprintBenchmark}).
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar ChineseOptionsBenchmark -p corpus=../shared/data/dev/docs.jsonl
 * </pre>
 *
 * The user dictionary is made at setup from the corpus itself, so that its words occur in the text:
 * {@value #USER_WORDS} distinct substrings of 2-4 Han characters (fixed seed), 70% with a frequency
 * and 30% without (jieba then computes one with suggest_freq). Its load time is printed.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class ChineseOptionsBenchmark {
  static final int USER_WORDS = 10_000;

  @Param({"examples/sample.jsonl"})
  public String corpus;

  @Param({"zh", "en"})
  public String lang;

  @Param({"keep-hanruns", "keep", "fold", "fold-userdict10k"})
  public String variant;

  String[] texts;
  Fingerprinter fingerprinter;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    texts = FingerprintBenchmark.read(Path.of(corpus), lang).toArray(new String[0]);
    Lexicon jieba = Lexicon.load("jieba");
    FingerprintSettings.Builder b;
    switch (variant) {
      case "keep-hanruns":
        b =
            FingerprintSettings.builder(jieba)
                .segmenter(hanRunsOnly(jieba.segmenter()))
                .han(FingerprintSettings.Han.KEEP);
        break;
      case "keep":
        b = FingerprintSettings.builder(jieba).han(FingerprintSettings.Han.KEEP);
        break;
      case "fold":
        b = FingerprintSettings.builder(jieba).han(FingerprintSettings.Han.FOLD);
        break;
      case "fold-userdict10k":
        {
          UserDictionary d = userDictionary(Path.of(corpus), USER_WORDS);
          long t0 = System.nanoTime();
          Lexicon lex = jieba.withUserDictionary(d);
          System.out.printf(
              java.util.Locale.ROOT,
              "%n%d-word user dictionary (%d bytes) loaded in %.2f s%n",
              USER_WORDS,
              d.content().length,
              (System.nanoTime() - t0) / 1e9);
          b = FingerprintSettings.builder(lex).han(FingerprintSettings.Han.FOLD);
          break;
        }
      default:
        throw new IllegalArgumentException("variant: keep, fold or fold-userdict10k");
    }
    fingerprinter = Fingerprinter.create(b.build());
  }

  /** The segmenter as the tokenizer used it before mixed blocks: it sees runs of Han only. */
  static Segmenter hanRunsOnly(Segmenter s) {
    return new Segmenter() {
      @Override
      public void segment(char[] text, int start, int end, WordSink sink) {
        s.segment(text, start, end, sink);
      }

      @Override
      public String id() {
        return s.id() + "/han-runs-only";
      }
    };
  }

  /** A user dictionary of {@code words} substrings of the corpus's Chinese text. */
  static UserDictionary userDictionary(Path corpus, int words) throws IOException {
    Random rnd = new Random(10_000);
    Set<String> chosen = new LinkedHashSet<>();
    java.util.List<String> zh = FingerprintBenchmark.read(corpus, "zh");
    for (int tries = 0; chosen.size() < words && tries < words * 100; tries++) {
      String t = zh.get(rnd.nextInt(zh.size()));
      int n = 2 + rnd.nextInt(3);
      if (t.length() <= n) {
        continue;
      }
      int at = rnd.nextInt(t.length() - n);
      String w = t.substring(at, at + n);
      if (w.chars().allMatch(c -> c >= 0x4E00 && c <= 0x9FD5)) {
        chosen.add(w);
      }
    }
    StringBuilder b = new StringBuilder();
    for (String w : chosen) {
      b.append(w);
      if (rnd.nextInt(10) < 7) {
        b.append(' ').append(1 + rnd.nextInt(5000));
      }
      b.append('\n');
    }
    return UserDictionary.of("bench-" + words, b.toString().getBytes(StandardCharsets.UTF_8));
  }

  @Benchmark
  public long fingerprint() {
    long x = 0;
    for (String t : texts) {
      x ^= fingerprinter.fingerprint(t);
    }
    return x;
  }
}
