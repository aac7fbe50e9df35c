// SPDX-License-Identifier: Apache-2.0
package org.neardup.segment.jieba;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.neardup.text.TextNormalizer;
import org.neardup.text.WordSink;

/**
 * Single-thread throughput of {@link JiebaSegmenter} next to jieba-analysis 1.0.2's {@code
 * sentenceProcess} on the same Han runs. Not a unit test; run it by hand:
 *
 * <pre>
 * mvn -o -q -pl segment-jieba -am test-compile dependency:build-classpath \
 *     -Dmdep.includeScope=test -Dmdep.outputFile=/tmp/cp.txt
 * java -cp segment-jieba/target/test-classes:segment-jieba/target/classes:$(cat /tmp/cp.txt) \
 *     org.neardup.segment.jieba.SegmenterThroughput [TEXT_FILE] [SECONDS_PER_ROUND]
 * </pre>
 *
 * <p>TEXT_FILE is any UTF-8 text; it is normalised as core does (NFKC, lower case) and cut into
 * maximal runs of Han characters, which both segmenters then cut. Without it, the runs of the
 * committed golden file (200,000 chars of real text in 29,268 runs) are used. Rates count the Han
 * chars segmented and their UTF-8 bytes (3 per char in the BMP).
 */
public final class SegmenterThroughput {
  private SegmenterThroughput() {}

  public static void main(String[] args) throws IOException {
    double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 2.0;
    List<char[]> runs = args.length > 0 ? hanRuns(Path.of(args[0])) : goldenRuns();
    long chars = 0;
    long bytes = 0;
    for (char[] r : runs) {
      chars += r.length;
      bytes += new String(r).getBytes(StandardCharsets.UTF_8).length;
    }
    System.out.printf(
        Locale.ROOT,
        "input: %s, %d runs, %d Han chars, %.2f MB UTF-8; JVM %s%n",
        args.length > 0 ? args[0] : Golden.REAL,
        runs.size(),
        chars,
        bytes / 1e6,
        Runtime.version());

    long t0 = System.nanoTime();
    JiebaSegmenter ours = (JiebaSegmenter) JiebaLexicon.instance().segmenter();
    long t1 = System.nanoTime();
    System.out.printf(
        Locale.ROOT,
        "neardup JiebaSegmenter: load %.0f ms, %.1f MB dictionary + model%n",
        (t1 - t0) / 1e6,
        ours.ramBytesUsed() / 1e6);
    long[] sum = new long[1];
    WordSink sink = (t, s, e) -> sum[0] += e - s;
    Runnable oursPass =
        () -> {
          for (char[] r : runs) {
            ours.segment(r, 0, r.length, sink);
          }
        };

    PrintStreamSilencer.silence();
    t0 = System.nanoTime();
    com.huaban.analysis.jieba.JiebaSegmenter huaban =
        new com.huaban.analysis.jieba.JiebaSegmenter();
    huaban.sentenceProcess("中国"); // its dictionary loads on first use
    t1 = System.nanoTime();
    PrintStreamSilencer.restore();
    System.out.printf(Locale.ROOT, "jieba-analysis 1.0.2:   load %.0f ms%n", (t1 - t0) / 1e6);
    List<String> strings = new ArrayList<>(runs.size());
    for (char[] r : runs) {
      strings.add(new String(r));
    }
    Runnable huabanPass =
        () -> {
          for (String s : strings) {
            for (String w : huaban.sentenceProcess(s)) {
              sum[0] += w.length();
            }
          }
        };

    double[] first = {time(oursPass), time(huabanPass)};
    System.out.printf(
        Locale.ROOT,
        "first (cold) pass:  ours %.2f M chars/s, jieba-analysis %.2f M chars/s%n",
        chars / first[0] / 1e6,
        chars / first[1] / 1e6);
    // Warm up both for a few rounds, then alternate measured rounds.
    for (int i = 0; i < 3; i++) {
      round(oursPass, seconds);
      round(huabanPass, seconds);
    }
    int rounds = 5;
    double[] a = new double[rounds];
    double[] b = new double[rounds];
    double[] aCpu = new double[rounds];
    double[] bCpu = new double[rounds];
    for (int i = 0; i < rounds; i++) {
      double[] ra = round(oursPass, seconds);
      double[] rb = round(huabanPass, seconds);
      a[i] = chars / ra[0];
      aCpu[i] = chars / ra[1];
      b[i] = chars / rb[0];
      bCpu[i] = chars / rb[1];
      System.out.printf(
          Locale.ROOT,
          "round %d: neardup %6.2f M chars/s %6.1f MB/s (per CPU-s %6.2f M) | jieba-analysis"
              + " %5.2f M chars/s %5.1f MB/s (per CPU-s %5.2f M)%n",
          i + 1,
          a[i] / 1e6,
          a[i] * bytes / chars / 1e6,
          aCpu[i] / 1e6,
          b[i] / 1e6,
          b[i] * bytes / chars / 1e6,
          bCpu[i] / 1e6);
    }
    Arrays.sort(a);
    Arrays.sort(b);
    Arrays.sort(aCpu);
    Arrays.sort(bCpu);
    System.out.printf(
        Locale.ROOT,
        "median: neardup %.2f M chars/s (%.1f MB/s; per CPU-s %.2f M), jieba-analysis %.2f M chars/s"
            + " (%.1f MB/s; per CPU-s %.2f M), ratio %.1fx; range neardup %.2f-%.2f M chars/s;"
            + " load average %.2f (checksum %d)%n",
        a[rounds / 2] / 1e6,
        a[rounds / 2] * bytes / chars / 1e6,
        aCpu[rounds / 2] / 1e6,
        b[rounds / 2] / 1e6,
        b[rounds / 2] * bytes / chars / 1e6,
        bCpu[rounds / 2] / 1e6,
        a[rounds / 2] / b[rounds / 2],
        a[0] / 1e6,
        a[rounds - 1] / 1e6,
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
        sum[0]);
  }

  /** Seconds for one pass. */
  private static double time(Runnable pass) {
    long t0 = System.nanoTime();
    pass.run();
    return (System.nanoTime() - t0) / 1e9;
  }

  /**
   * Repeats the pass for about {@code seconds}; returns the mean wall-clock and CPU seconds per
   * pass. CPU time is this thread's, so it leaves out the time other processes held the core.
   */
  private static double[] round(Runnable pass, double seconds) {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long c0 = mx.getCurrentThreadCpuTime();
    long t0 = System.nanoTime();
    long deadline = t0 + (long) (seconds * 1e9);
    int n = 0;
    long now;
    do {
      pass.run();
      n++;
      now = System.nanoTime();
    } while (now < deadline);
    long cpu = mx.getCurrentThreadCpuTime() - c0;
    return new double[] {(now - t0) / 1e9 / n, cpu / 1e9 / n};
  }

  private static List<char[]> goldenRuns() {
    List<char[]> runs = new ArrayList<>();
    for (List<String> words : Golden.resource(Golden.REAL)) {
      runs.add(String.join("", words).toCharArray());
    }
    return runs;
  }

  /** Maximal runs of Han code points of the normalised text. */
  static List<char[]> hanRuns(Path file) throws IOException {
    String text = TextNormalizer.normalize(Files.readString(file, StandardCharsets.UTF_8));
    List<char[]> runs = new ArrayList<>();
    int start = -1;
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      boolean han = Character.UnicodeScript.of(cp) == Character.UnicodeScript.HAN;
      if (han && start < 0) {
        start = i;
      } else if (!han && start >= 0) {
        runs.add(text.substring(start, i).toCharArray());
        start = -1;
      }
      i += Character.charCount(cp);
    }
    if (start >= 0) {
      runs.add(text.substring(start).toCharArray());
    }
    return runs;
  }

  /** jieba-analysis prints its load times to System.out; keep the report readable. */
  @SuppressForbidden(reason = "swaps System.out around jieba-analysis's load messages")
  private static final class PrintStreamSilencer {
    private static java.io.PrintStream saved = System.out;

    static void silence() {
      saved = System.out;
      System.setOut(
          new java.io.PrintStream(
              java.io.OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8));
    }

    static void restore() {
      System.setOut(saved);
    }
  }
}
