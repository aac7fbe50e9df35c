// SPDX-License-Identifier: Apache-2.0
package org.neardup.benchmarks;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.neardup.Analyzer;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.Document;
import org.neardup.store.FingerprintStore;
import org.neardup.store.StoreConfig;

/**
 * Builds an embedded data directory offline from a JSONL corpus ({@code id}, {@code text}, e.g.
 * {@link NewsCorpus}'s), with real verdicts: every text is analysed (on every core) and
 * check-and-inserted in batches of 500 into collection NAME with the service's default settings, as
 * {@code neardup send} into {@code neardup serve} would, without HTTP and with the log forced only
 * at the end. The successor of {@code BulkLoad} for verified texts: BulkLoad writes a snapshot of
 * unrelated generated texts without deciding anything.
 *
 * <pre>
 * java -Xmx4g -cp benchmarks/target/benchmarks.jar org.neardup.benchmarks.NewsLoad \
 *     DIR NAME CORPUS.jsonl [key=value store options...]
 * java -Xmx4g -cp benchmarks/target/benchmarks.jar org.neardup.benchmarks.NewsLoad \
 *     DIR NAME news:BASE.jsonl:DOCS[:MIN:MAX] [key=value store options...]
 * </pre>
 *
 * <p>Options {@code collection.KEY=VALUE} are collection settings over the defaults, in {@link
 * CollectionSettings#parse}'s keys (e.g. {@code collection.capacity=128}: a smaller sketch, for
 * directories whose default sketches would not fit on the disk); the others are store options.
 *
 * <p>The second form makes the corpus as it loads ({@link NewsStream}: DOCS articles of MIN-MAX
 * characters, 1,500-3,000 by default, 40% of them reposts), for sizes whose corpus file would not
 * fit on the disk (50M news articles: ~200 GB of JSON).
 */
public final class NewsLoad {
  private static final int BATCH = 500;
  private static final String COLLECTION = "collection.";

  private NewsLoad() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 3) {
      System.err.println("usage: NewsLoad DIR NAME CORPUS.jsonl [key=value...]");
      System.exit(2);
    }
    Map<String, String> options = new HashMap<>();
    options.put("data", args[0]);
    options.put("fsync", "never");
    StringBuilder settings = new StringBuilder(CollectionSettings.defaults().toText());
    for (int i = 3; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      String key = args[i].substring(0, eq);
      if (key.startsWith(COLLECTION)) {
        settings
            .append(';')
            .append(key.substring(COLLECTION.length()))
            .append(args[i], eq, args[i].length());
      } else {
        options.put(key, args[i].substring(eq + 1));
      }
    }
    int threads = Runtime.getRuntime().availableProcessors();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    long t0 = System.nanoTime();
    long n = 0;
    long duplicates = 0;
    Source source = source(args[2]);
    try (FingerprintStore store = FingerprintStore.open("embedded", StoreConfig.of(options));
        Source p = source) {
      Collection c = store.create(args[1], CollectionSettings.parse(settings.toString()));
      Analyzer analyzer = c.analyzer();
      // The next chunk is analysed (on every core) while the main thread inserts this one: the
      // inserts are one writer's work, and before they ran with the pool idle.
      List<Future<List<Document>>> parts = analyse(p, analyzer, pool, threads);
      while (!parts.isEmpty()) {
        List<Future<List<Document>>> next = analyse(p, analyzer, pool, threads);
        for (Future<List<Document>> f : parts) {
          for (var o : c.checkAndInsertAll(f.get())) {
            n++;
            if (!o.isNew()) {
              duplicates++;
            }
            if (n % 100_000 == 0) {
              System.err.printf(
                  Locale.ROOT, "%d documents, %.0f/s%n", n, n / ((System.nanoTime() - t0) / 1e9));
            }
          }
        }
        parts = next;
      }
      store.sync();
    } finally {
      pool.shutdown();
    }
    System.out.printf(
        Locale.ROOT,
        "loaded %d documents (%d near-duplicates) into %s in %.1f s%n",
        n,
        duplicates,
        args[0],
        (System.nanoTime() - t0) / 1e9);
  }

  /** Reads the next BATCH x threads documents and starts analysing them, a batch per task. */
  private static List<Future<List<Document>>> analyse(
      Source p, Analyzer analyzer, ExecutorService pool, int threads) throws IOException {
    List<String[]> chunk = new ArrayList<>(BATCH * threads);
    String[] d;
    while (chunk.size() < BATCH * threads && (d = p.next()) != null) {
      chunk.add(d);
    }
    List<Future<List<Document>>> parts = new ArrayList<>();
    for (int from = 0; from < chunk.size(); from += BATCH) {
      List<String[]> part = List.copyOf(chunk.subList(from, Math.min(chunk.size(), from + BATCH)));
      parts.add(
          pool.submit(
              () -> {
                List<Document> docs = new ArrayList<>(part.size());
                for (String[] x : part) {
                  docs.add(new Document(x[0], analyzer.analyze(x[1])));
                }
                return docs;
              }));
    }
    return parts;
  }

  /** Where the documents come from: {id, text} pairs, null at the end. */
  private interface Source extends AutoCloseable {
    String[] next() throws IOException;

    @Override
    void close() throws IOException;
  }

  private static Source source(String spec) throws IOException {
    if (!spec.startsWith("news:")) {
      InputStream in = Files.newInputStream(Path.of(spec));
      JsonParser p = new JsonFactory().createParser(in);
      return new Source() {
        @Override
        public String[] next() throws IOException {
          return NewsLoad.next(p);
        }

        @Override
        public void close() throws IOException {
          p.close();
          in.close();
        }
      };
    }
    String[] f = spec.split(":");
    if (f.length != 3 && f.length != 5) {
      throw new IllegalArgumentException("expected news:BASE.jsonl:DOCS[:MIN:MAX], got " + spec);
    }
    long docs = Long.parseLong(f[2].replace("_", ""));
    int min = f.length == 5 ? Integer.parseInt(f[3]) : 1500;
    int max = f.length == 5 ? Integer.parseInt(f[4]) : 3000;
    NewsStream news =
        new NewsStream(MutatedCorpus.read(Path.of(f[1])), docs, 20261124L, min, max, 0.4);
    StringBuilder scratch = new StringBuilder();
    return new Source() {
      long i;

      @Override
      public String[] next() {
        if (i == news.size()) {
          return null;
        }
        String[] d = {news.id(i), news.text(i, scratch)};
        i++;
        return d;
      }

      @Override
      public void close() {}
    };
  }

  /** The next line's id and text, or null at the end. */
  private static String[] next(JsonParser p) throws IOException {
    while (p.nextToken() == JsonToken.START_OBJECT) {
      String id = null;
      String text = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken t = p.nextToken();
        if (t == JsonToken.VALUE_STRING && field.equals("id")) {
          id = p.getText();
        } else if (t == JsonToken.VALUE_STRING && field.equals("text")) {
          text = p.getText();
        } else {
          p.skipChildren();
        }
      }
      if (id != null && text != null) {
        return new String[] {id, text};
      }
    }
    return null;
  }
}
