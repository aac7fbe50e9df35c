// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.neardup.Analysis;
import org.neardup.Analyzer;
import org.neardup.store.CollectionSettings;

/**
 * Builds a data directory offline: one collection holding N generated documents, written straight
 * into a snapshot, so a service can start on millions of documents without millions of requests.
 * For benchmarks and capacity planning.
 *
 * <pre>
 * java -cp ... org.neardup.store.embedded.BulkLoad DIR NAME N [fingerprints|text] [SEED] [WORDS]
 * </pre>
 *
 * {@code fingerprints} (the default) stores random fingerprints in a collection without
 * verification; {@code text} stores generated texts of WORDS words (30 by default) in a verifying
 * collection, analysed with lexicon {@code none}. Ids are URL-like, {@code
 * https://example.com/news/N.html}.
 */
public final class BulkLoad {
  private BulkLoad() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 3) {
      System.err.println(
          "usage: BulkLoad DIR COLLECTION DOCUMENTS [fingerprints|text] [SEED] [WORDS]");
      System.exit(2);
    }
    Path dir = Path.of(args[0]);
    String name = args[1];
    long n = Long.parseLong(args[2]);
    boolean text = args.length > 3 && args[3].equals("text");
    long seed = args.length > 4 ? Long.parseLong(args[4]) : 1;
    int words = args.length > 5 ? Integer.parseInt(args[5]) : 30;
    long t0 = System.nanoTime();
    long bytes = write(dir, name, n, text, seed, words);
    System.out.printf(
        Locale.ROOT,
        "wrote %d documents to %s (collection %s, %s): %.1f MB in %.1f s%n",
        n,
        dir,
        name,
        text ? "texts of " + words + " words" : "fingerprints",
        bytes / 1e6,
        (System.nanoTime() - t0) / 1e9);
  }

  /** Writes the snapshot; returns its size. The directory must be empty or missing. */
  static long write(Path dir, String name, long n, boolean text, long seed, int words)
      throws IOException {
    Files.createDirectories(dir);
    try (Stream<Path> s = Files.list(dir)) {
      if (s.findAny().isPresent()) {
        throw new IOException(dir + " is not empty; BulkLoad only creates new data directories");
      }
    }
    CollectionSettings settings =
        CollectionSettings.defaults().withLexicon(CollectionSettings.NO_LEXICON).withVerify(text);
    Analyzer analyzer = settings.deduplicator().analyzer();
    SplittableRandom random = new SplittableRandom(seed);
    long now = InstantSource.system().millis();
    String[] vocabulary = new String[20_000];
    for (int i = 0; i < vocabulary.length; i++) {
      StringBuilder w = new StringBuilder();
      for (int j = 0; j < 3 + i % 7; j++) {
        w.append((char) ('a' + random.nextInt(26)));
      }
      vocabulary[i] = w.toString();
    }
    StringBuilder sb = new StringBuilder();
    try (SnapshotFormat.Writer w =
        new SnapshotFormat.Writer(
            dir,
            0,
            now,
            List.of(
                new SnapshotFormat.CollectionEntry(
                    1, n, n, name, settings.toText(), analyzer.id())))) {
      for (long i = 0; i < n; i++) {
        Analysis a;
        if (text) {
          sb.setLength(0);
          for (int k = 0; k < words; k++) {
            sb.append(k == 0 ? "" : " ").append(vocabulary[random.nextInt(vocabulary.length)]);
          }
          a = analyzer.analyze(sb);
        } else {
          a = Analysis.ofFingerprint(random.nextLong(), 1);
        }
        byte[] id = ("https://example.com/news/" + i + ".html").getBytes(StandardCharsets.UTF_8);
        byte[] body = LogFormat.insert(1, now, Long.MAX_VALUE, id, a.encode());
        Bytes.putLong(body, LogFormat.DOC_ID, i);
        Bytes.putLong(body, LogFormat.CLUSTER, i);
        w.document(body, 0, body.length);
      }
      return w.commit();
    }
  }
}
