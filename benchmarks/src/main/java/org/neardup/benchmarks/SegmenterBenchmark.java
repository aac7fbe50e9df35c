// SPDX-License-Identifier: Apache-2.0
package org.neardup.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.neardup.text.Lexicon;
import org.neardup.text.Segmenter;
import org.neardup.text.TextNormalizer;
import org.neardup.text.WordSink;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Chinese segmentation throughput of the {@code jieba} lexicon's {@link Segmenter}, in Han chars
 * per second (ops/s = chars/s; multiply by 3 for UTF-8 bytes/s). One invocation cuts {@value
 * #CHARS} chars of Han runs taken from the corpus, as core hands them over: NFKC and lower-cased,
 * one maximal run of Han characters per call.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar SegmenterBenchmark
 * java -jar benchmarks/target/benchmarks.jar SegmenterBenchmark \
 *     -p corpus=/usr/share/debian-reference/debian-reference.zh-cn.txt.gz
 * </pre>
 *
 * <p>{@code corpus} is a UTF-8 text file, gzipped if its name ends in {@code .gz} (Debian's
 * debian-reference-zh-cn, manpages-zh and fortunes-zh packages have real ones); empty means a small
 * built-in sample, which fits in cache and so runs faster than real text. Setup checks the
 * segmenter's words on a known sentence, so a fast benchmark of wrong code fails. The same figures,
 * side by side with jieba-analysis 1.0.2, come from {@code SegmenterThroughput} in segment-jieba's
 * tests.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class SegmenterBenchmark {
  /**
   * Han chars segmented per invocation, about 3 MB of UTF-8: enough of a real corpus to touch as
   * much of the dictionary as real traffic does, rather than a cache-resident corner of it.
   */
  static final int CHARS = 1 << 20;

  /** Built-in sample (written for this benchmark), used when no corpus is given. */
  private static final String SAMPLE =
      "近似重复文本检测引擎为每篇文章计算一个六十四位的指纹，"
          + "再通过汉明距离索引在数毫秒内找到内容相近的旧文章。"
          + "新闻聚合网站每天都会收到大量转载的稿件，其中许多只是改了标题或者增加了阅读计数。"
          + "我们先用结巴分词把中文句子切成词语，再按照词频和逆文档频率给每个词加权，"
          + "最后把所有词的哈希值加权求和得到文本的指纹。"
          + "两个指纹之间不同的位数不超过三位时，就认为这两篇文本是近似重复的。"
          + "为了避免逐一比较数千万个指纹，索引把指纹分成若干块，根据抽屉原理只比较至少有一块相同的候选。";

  @Param({""})
  public String corpus;

  private Segmenter segmenter;
  private char[][] runs;
  private int words;
  private final WordSink sink = (text, start, end) -> words++;

  @Setup
  public void setUp() throws IOException {
    segmenter = Lexicon.load("jieba").segmenter();
    checkWords("我来到北京清华大学", "我|来到|北京|清华大学");
    checkWords("小明硕士毕业于中国科学院计算所", "小明|硕士|毕业|于|中国科学院|计算所");
    String text = corpus.isEmpty() ? SAMPLE : read(Path.of(corpus));
    runs = hanRuns(TextNormalizer.normalize(text));
  }

  /** Cuts {@value #CHARS} chars of Han runs; returns the number of words. */
  @Benchmark
  @OperationsPerInvocation(CHARS)
  public int segment() {
    words = 0;
    for (char[] run : runs) {
      segmenter.segment(run, 0, run.length, sink);
    }
    return words;
  }

  private void checkWords(String sentence, String expected) {
    StringBuilder got = new StringBuilder();
    char[] chars = sentence.toCharArray();
    segmenter.segment(
        chars,
        0,
        chars.length,
        (text, start, end) -> {
          if (got.length() > 0) {
            got.append('|');
          }
          got.append(text, start, end - start);
        });
    if (!got.toString().equals(expected)) {
      throw new IllegalStateException(
          segmenter.id() + " cut " + sentence + " into " + got + ", expected " + expected);
    }
  }

  private static String read(Path path) {
    try (InputStream raw = Files.newInputStream(path);
        InputStream in = path.toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read corpus " + path, e);
    }
  }

  /**
   * Maximal Han runs of {@code text}, in order, repeated as needed, until they hold exactly {@link
   * #CHARS} chars (the last one cut short, at a code point boundary).
   */
  static char[][] hanRuns(String text) {
    List<String> all = new ArrayList<>();
    int start = -1;
    for (int i = 0; i <= text.length(); ) {
      int cp = i < text.length() ? text.codePointAt(i) : ' ';
      boolean han = Character.UnicodeScript.of(cp) == Character.UnicodeScript.HAN;
      if (han && start < 0) {
        start = i;
      } else if (!han && start >= 0) {
        all.add(text.substring(start, i));
        start = -1;
      }
      i += i < text.length() ? Character.charCount(cp) : 1;
    }
    if (all.isEmpty()) {
      throw new IllegalArgumentException("the corpus has no Han characters");
    }
    List<char[]> runs = new ArrayList<>();
    int total = 0;
    for (int k = 0; total < CHARS; k = (k + 1) % all.size()) {
      String run = all.get(k);
      int take = Math.min(run.length(), CHARS - total);
      if (take < run.length() && Character.isHighSurrogate(run.charAt(take - 1))) {
        take--;
      }
      if (take == 0) {
        break;
      }
      runs.add(run.substring(0, take).toCharArray());
      total += take;
    }
    if (total != CHARS) {
      // Only possible when a surrogate pair straddles the end: pad with one common char.
      runs.add(new char[] {'的'});
    }
    return runs.toArray(new char[0][]);
  }
}
