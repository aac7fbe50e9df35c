// SPDX-License-Identifier: Apache-2.0

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.huaban.analysis.jieba.JiebaSegmenter;
import com.huaban.analysis.jieba.SegToken;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * The reference that benchmarks/fingerprint-vs-baseline.sh holds {@code neardup fingerprint} to: a
 * plain Java TF-IDF simhash. Not part of the product; compiled by the script against jars fetched
 * from Maven Central.
 *
 * <p>{@code java BaselineSimhash zh|letters|lucene DOCS.jsonl IDF.txt.gz MEGABYTES}: reads the documents'
 * text fields into memory, fingerprints them in passes until warm (at least 10 s or 3 passes), then
 * times passes covering MEGABYTES of text (UTF-8 bytes of the text fields) and prints MB/s.
 *
 * <p>{@code zh}: jieba-analysis {@code JiebaSegmenter.process(text, SEARCH)}, words of two or more
 * characters weighted by term frequency times jieba's IDF (the median IDF for unknown words), the
 * top 20, then the 64-bit sign vector over FNV-1a word hashes. {@code letters}: runs of letters and
 * digits, lower-cased, weighted by term frequency (no IDF table for English), the same top 20 and
 * sign vector. {@code lucene}: Lucene's {@code StandardAnalyzer} (lucene-core 9.12.3: the Unicode
 * word-break rules of UAX #29, lower-cased, no stop words; Han characters one token each), its
 * tokens weighted by term frequency, the same top 20 and sign vector; the analyzer is built once
 * and its token stream reused, as Lucene does per thread.
 */
public final class BaselineSimhash {
  private static final int TOP = 20;

  private final Map<String, Double> idf = new HashMap<>();
  private double medianIdf = 1;
  private final JiebaSegmenter jieba;
  private final boolean letters;
  private final Analyzer lucene;

  private BaselineSimhash(String kind, Path idfFile) throws IOException {
    this.lucene = kind.equals("lucene") ? new StandardAnalyzer() : null;
    this.letters = kind.equals("letters") || lucene != null;
    this.jieba = letters ? null : new JiebaSegmenter();
    if (!letters) {
      try (BufferedReader r =
          new BufferedReader(
              new InputStreamReader(
                  new GZIPInputStream(Files.newInputStream(idfFile)), StandardCharsets.UTF_8))) {
        List<Double> all = new ArrayList<>();
        for (String line; (line = r.readLine()) != null; ) {
          int sp = line.lastIndexOf(' ');
          if (sp > 0) {
            double v = Double.parseDouble(line.substring(sp + 1));
            idf.put(line.substring(0, sp), v);
            all.add(v);
          }
        }
        double[] v = all.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(v);
        medianIdf = v[v.length / 2];
      }
    }
  }

  static long fnv1a(String s) {
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      h ^= c & 0xff;
      h *= 0x100000001b3L;
      h ^= c >>> 8;
      h *= 0x100000001b3L;
    }
    return h;
  }

  long fingerprint(String text) {
    Map<String, Integer> tf = new HashMap<>();
    if (lucene != null) {
      try (TokenStream ts = lucene.tokenStream("text", text)) {
        CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
        ts.reset();
        while (ts.incrementToken()) {
          tf.merge(new String(term.buffer(), 0, term.length()), 1, Integer::sum);
        }
        ts.end();
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    } else if (letters) {
      int i = 0;
      int n = text.length();
      while (i < n) {
        while (i < n && !Character.isLetterOrDigit(text.charAt(i))) {
          i++;
        }
        int start = i;
        while (i < n && Character.isLetterOrDigit(text.charAt(i))) {
          i++;
        }
        if (i > start) {
          tf.merge(text.substring(start, i).toLowerCase(Locale.ROOT), 1, Integer::sum);
        }
      }
    } else {
      for (SegToken t : jieba.process(text, JiebaSegmenter.SegMode.SEARCH)) {
        String w = t.word.strip();
        if (w.length() >= 2) {
          tf.merge(w, 1, Integer::sum);
        }
      }
    }
    String[] words = tf.keySet().toArray(new String[0]);
    double[] weight = new double[words.length];
    Integer[] order = new Integer[words.length];
    for (int i = 0; i < words.length; i++) {
      weight[i] = tf.get(words[i]) * (letters ? 1.0 : idf.getOrDefault(words[i], medianIdf));
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Double.compare(weight[b], weight[a]));
    double[] sums = new double[64];
    double total = 0;
    for (int k = 0; k < Math.min(TOP, order.length); k++) {
      long h = fnv1a(words[order[k]]);
      double w = weight[order[k]];
      total += w;
      for (int b = 0; b < 64; b++) {
        if (((h >>> b) & 1L) != 0) {
          sums[b] += w;
        }
      }
    }
    long fp = 0;
    for (int b = 0; b < 64; b++) {
      if (2 * sums[b] > total) {
        fp |= 1L << b;
      }
    }
    return fp;
  }

  static List<String> texts(Path docs) throws IOException {
    List<String> out = new ArrayList<>();
    JsonFactory f = new JsonFactory();
    try (BufferedReader r = Files.newBufferedReader(docs, StandardCharsets.UTF_8)) {
      for (String line; (line = r.readLine()) != null; ) {
        try (JsonParser p = f.createParser(line)) {
          p.nextToken();
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.getCurrentName();
            p.nextToken();
            if (name.equals("text")) {
              out.add(p.getText());
            } else {
              p.skipChildren();
            }
          }
        }
      }
    }
    return out;
  }

  public static void main(String[] args) throws IOException {
    List<String> texts = texts(Path.of(args[1]));
    double mbWanted = Double.parseDouble(args[3]);
    long bytesPerPass = 0;
    for (String t : texts) {
      bytesPerPass += t.getBytes(StandardCharsets.UTF_8).length;
    }
    long t0 = System.nanoTime();
    BaselineSimhash b = new BaselineSimhash(args[0], Path.of(args[2]));
    long loaded = System.nanoTime();
    long sink = 0;
    int warm = 0;
    while (warm < 3 || System.nanoTime() - loaded < 10_000_000_000L) {
      for (String t : texts) {
        sink += b.fingerprint(t);
      }
      warm++;
    }
    long bytes = 0;
    long start = System.nanoTime();
    while (bytes < mbWanted * 1e6) {
      for (String t : texts) {
        sink += b.fingerprint(t);
      }
      bytes += bytesPerPass;
    }
    double secs = (System.nanoTime() - start) / 1e9;
    System.out.printf(
        Locale.ROOT,
        "baseline %s: %d documents per pass, %.3f MB per pass; dictionary load %.2f s; %d warm-up"
            + " passes; timed %.1f MB in %.2f s: %.2f MB/s (sum %016x)%n",
        args[0],
        texts.size(),
        bytesPerPass / 1e6,
        (loaded - t0) / 1e9,
        warm,
        bytes / 1e6,
        secs,
        bytes / 1e6 / secs,
        sink);
  }
}
