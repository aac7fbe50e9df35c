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
 * </pre>
 */
public final class NewsLoad {
  private static final int BATCH = 500;

  private NewsLoad() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 3) {
      System.err.println("usage: NewsLoad DIR NAME CORPUS.jsonl [key=value...]");
      System.exit(2);
    }
    Map<String, String> options = new HashMap<>();
    options.put("data", args[0]);
    options.put("fsync", "never");
    for (int i = 3; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      options.put(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    int threads = Runtime.getRuntime().availableProcessors();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    long t0 = System.nanoTime();
    long n = 0;
    long duplicates = 0;
    try (FingerprintStore store = FingerprintStore.open("embedded", StoreConfig.of(options));
        InputStream in = Files.newInputStream(Path.of(args[2]));
        JsonParser p = new JsonFactory().createParser(in)) {
      Collection c = store.create(args[1], CollectionSettings.defaults());
      Analyzer analyzer = c.analyzer();
      List<String[]> chunk = new ArrayList<>(BATCH);
      while (true) {
        chunk.clear();
        String[] d;
        while (chunk.size() < BATCH * threads && (d = next(p)) != null) {
          chunk.add(d);
        }
        if (chunk.isEmpty()) {
          break;
        }
        List<Future<List<Document>>> parts = new ArrayList<>();
        for (int from = 0; from < chunk.size(); from += BATCH) {
          List<String[]> part =
              List.copyOf(chunk.subList(from, Math.min(chunk.size(), from + BATCH)));
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
        for (Future<List<Document>> f : parts) {
          for (var o : c.checkAndInsertAll(f.get())) {
            n++;
            if (!o.isNew()) {
              duplicates++;
            }
          }
        }
        if (n % 100_000 < BATCH * threads) {
          System.err.printf(
              Locale.ROOT, "%d documents, %.0f/s%n", n, n / ((System.nanoTime() - t0) / 1e9));
        }
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
