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
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.neardup.Analysis;
import org.neardup.Analyzer;
import org.neardup.index.BlockScheme;
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
 *
 * <pre>
 * java -cp ... org.neardup.store.embedded.BulkLoad expand SOURCE_DIR DIR N [SEED]
 * </pre>
 *
 * {@code expand} makes a data directory of N documents out of a smaller one that real check-and-
 * inserts filled (e.g. {@code NewsLoad}'s news articles, whose analysis is what costs: ~1 ms of CPU
 * per article), at the speed of the disk: the source's documents as they are, then copies of them
 * in turn until there are N, each copy with an id of its own ({@code cP-ID} for pass P), the next
 * DocId, itself as its cluster, a random fingerprint and random band keys (so that it is neither a
 * duplicate of its original nor in its band buckets), and its original's sketch, letters, timestamp
 * and expiry. Heap, disk and open time per document are then those of news articles; what the
 * copies cannot give is real clusters among them. SOURCE_DIR must hold one collection, all in its
 * snapshot (run {@link Checkpoint} on it first). Beside the snapshot it writes the collection's
 * index image ({@link IndexImages}) and band image ({@link BandImages}), as a compaction would, so
 * the directory opens as a service's own does after a checkpoint; before, opening a 50M directory
 * for the first time sorted the index, and a {@code Checkpoint} to write the image rewrote the
 * heads (~6 GB at 50M) with the whole collection on the heap.
 */
public final class BulkLoad {
  private BulkLoad() {}

  public static void main(String[] args) throws IOException {
    if (args.length >= 4 && args[0].equals("expand")) {
      long t0 = System.nanoTime();
      long n = Long.parseLong(args[3].replace("_", ""));
      long bytes =
          expand(
              Path.of(args[1]), Path.of(args[2]), n, args.length > 4 ? Long.parseLong(args[4]) : 1);
      System.out.printf(
          Locale.ROOT,
          "wrote %d documents to %s from %s: %.1f MB (snapshot, sketches, index image) in %.1f s%n",
          n,
          args[2],
          args[1],
          bytes / 1e6,
          (System.nanoTime() - t0) / 1e9);
      return;
    }
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

  /** Writes {@code expand}'s snapshot and index image (see the class doc); returns their size. */
  static long expand(Path source, Path dir, long n, long seed) throws IOException {
    return expand(source, dir, n, seed, IMAGE_MIN);
  }

  /** As {@link #expand(Path, Path, long, long)}, with an image from {@code imageMin} documents. */
  static long expand(Path source, Path dir, long n, long seed, long imageMin) throws IOException {
    createEmpty(dir);
    Path snapshot;
    try (Stream<Path> s = Files.list(source)) {
      List<Path> snaps =
          s.filter(p -> SnapshotFormat.segmentOf(p) >= 0).sorted().collect(Collectors.toList());
      if (snaps.isEmpty()) {
        throw new IOException(source + " holds no snapshot; run Checkpoint on it first");
      }
      snapshot = snaps.get(snaps.size() - 1);
    }
    long segment = SnapshotFormat.segmentOf(snapshot);
    try (Stream<Path> s = Files.list(source)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        if (LogFormat.segmentOf(p) > segment && Files.size(p) > LogFormat.HEADER_SIZE) {
          throw new IOException(
              p + " has records after the snapshot; run Checkpoint on " + source + " first");
        }
      }
    }
    SnapshotFormat.CollectionEntry c;
    try (SnapshotFormat.Reader r = new SnapshotFormat.Reader(snapshot)) {
      if (r.collections().size() != 1) {
        throw new IOException(
            snapshot + " holds " + r.collections().size() + " collections; expand takes one");
      }
      c = r.collections().get(0);
    }
    SplittableRandom random = new SplittableRandom(seed);
    long next = c.nextDocId();
    long written = 0;
    BandImages.Writer bands = new BandImages.Writer(dir, 0, c.number());
    SnapshotCopier.ImageSource image = new SnapshotCopier.ImageSource(bands);
    long bytes;
    try (BandImages.Writer closeBands = bands;
        SnapshotFormat.Writer w =
            new SnapshotFormat.Writer(
                dir,
                0,
                InstantSource.system().millis(),
                List.of(
                    new SnapshotFormat.CollectionEntry(
                        c.number(),
                        c.nextDocId() + n,
                        n,
                        c.name(),
                        c.settings(),
                        c.analyzerId())))) {
      for (int pass = 0; written < n; pass++) {
        long before = written;
        try (SnapshotFormat.Reader r = new SnapshotFormat.Reader(snapshot)) {
          while (written < n && r.next()) {
            byte[] body = r.body();
            int length = r.length();
            if (pass == 0) {
              w.document(body, 0, length);
              image.add(body, length);
            } else {
              byte[] copy = copy(body, length, pass, next++, random);
              w.document(copy, 0, copy.length);
              image.add(copy, copy.length);
            }
            written++;
          }
        }
        if (written == before) {
          throw new IOException(snapshot + " holds no documents to copy");
        }
      }
      bytes = w.commit();
      if (n >= imageMin) {
        BlockScheme scheme = CollectionSettings.parse(c.settings()).analysis().scheme();
        bytes += IndexImages.write(dir, 0, c.number(), scheme, image.fingerprints, image.hash);
        bytes += bands.finish();
      }
    }
    return bytes;
  }

  /** The fewest documents a compaction writes an index image for (the store's default). */
  private static final int IMAGE_MIN = 1 << 16;

  /** A copy of an insert body as the class doc says. */
  private static byte[] copy(byte[] body, int length, int pass, long docId, SplittableRandom r) {
    int idLength = LogFormat.idLength(body);
    byte[] id =
        ("c" + pass + "-" + new String(body, LogFormat.ID, idLength, StandardCharsets.UTF_8))
            .getBytes(StandardCharsets.UTF_8);
    int analysisAt = LogFormat.analysisOffset(body, length);
    byte[] analysis = java.util.Arrays.copyOfRange(body, analysisAt, length);
    Bytes.putLong(analysis, 0, r.nextLong());
    long split = SnapshotFormat.sketchAt(body, length);
    int keysEnd = (int) (split >>> 8) - analysisAt;
    for (int k = (int) (split & 0xFF); k > 0; k--) {
      Bytes.putLong(analysis, keysEnd - k * 8, r.nextLong());
    }
    byte[] out =
        LogFormat.insert(
            Bytes.getInt(body, LogFormat.COLLECTION),
            Bytes.getLong(body, LogFormat.TIMESTAMP),
            Bytes.getLong(body, LogFormat.EXPIRES_AT),
            id,
            analysis);
    Bytes.putLong(out, LogFormat.DOC_ID, docId);
    Bytes.putLong(out, LogFormat.CLUSTER, docId);
    return out;
  }

  private static void createEmpty(Path dir) throws IOException {
    Files.createDirectories(dir);
    try (Stream<Path> s = Files.list(dir)) {
      if (s.findAny().isPresent()) {
        throw new IOException(dir + " is not empty; BulkLoad only creates new data directories");
      }
    }
  }

  /** Writes the snapshot; returns its size. The directory must be empty or missing. */
  static long write(Path dir, String name, long n, boolean text, long seed, int words)
      throws IOException {
    createEmpty(dir);
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
