// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.neardup.Analysis;
import org.neardup.Analyzer;
import org.neardup.RestoreBatch;
import org.neardup.index.IndexImage;
import org.neardup.internal.DaemonThreads;
import org.neardup.internal.PagedIntArray;
import org.neardup.internal.PagedLongArray;
import org.neardup.store.CollectionSettings;
import org.neardup.verify.BandImage;

/**
 * Fills a {@link Generation} from insert records in DocId order: no verification, each document
 * joins the clusters its record names. The engine's part is gathered into a {@link RestoreBatch}
 * and restored in bulk ({@link org.neardup.Deduplicator#restoreAll(RestoreBatch)}), which loads the
 * fingerprint index as one sorted segment; the documents' facts and ids are filed at once, so
 * duplicates and links are decided as records arrive.
 *
 * <p>An Insert names the representatives of every cluster the document joined (its Joined; an
 * InsertV1 or a snapshot document names only its Cluster). A named representative may be gone
 * (expired or deleted: the engine keeps a removed representative as the root of its cluster, but a
 * restore cannot name a document the new engine does not hold). So the restorer remembers, per
 * named representative, the latest member it restored, and joins later members to that one: the
 * cluster stays whole and its earliest restored member represents it from now on.
 */
final class Restorer {
  /*
   * Invariants: every document filed in the generation with docId < pendingFrom is held by the
   * engine; those from pendingFrom on are in `batch` or in the batch `inFlight` is restoring, in
   * docId order, and not yet in the engine. Anything that touches the engine's view of a pending
   * document (removal) calls sync() first. At most one batch is in flight.
   */

  /**
   * Documents gathered before a flush: a bound on the batch's memory (about 50 bytes per
   * fingerprint-only document, twice that while one batch loads and the next gathers). Each batch
   * becomes a segment of the fingerprint index, unless the index is deferred ({@link #deferIndex},
   * the open): then the whole generation becomes one segment at {@link #finish}.
   */
  static final int MAX_BATCH = 1 << 22;

  private final CollectionSettings settings;
  private final Analyzer analyzer;
  private final int expected;
  private final boolean background;
  private final boolean checksummed;
  private final SketchFiles.@Nullable Owner sketchFiles;
  private @Nullable Generation generation;
  private @Nullable RestoreBatch batch;
  private long pendingFrom = Long.MAX_VALUE;
  private final LongLongMap proxy = new LongLongMap();
  private long[] links = new long[4];
  // Where the gathered documents' sketch entries are in the snapshot's sketch file (-1: in the
  // record), one per gathered document, while taking them from there (takeSketchesFrom).
  private @Nullable PagedLongArray places;
  private @Nullable PagedIntArray placeLengths;
  private @Nullable ThreadPoolExecutor loader;
  private @Nullable Future<?> inFlight;
  // Between beginSnapshot and endSnapshot: ids are unique, not looked up, filed in bulk.
  private boolean snapshotIds;
  // Whether the engine indexes the fingerprints once, at finish (deferIndex).
  private boolean deferIndex;
  // The index image to try at finish (imageFrom), and what the snapshot's records were: their
  // count, those not restored, the hash of their fingerprints in order.
  private @Nullable Path imageDir;
  private long imageSegment;
  private int imageCollection;
  private int snapshotPositions;
  private final BitSet notRestored = new BitSet();
  private long snapshotHash = IndexImages.EMPTY_HASH;
  private boolean imageUsed;
  // Whether the snapshot's band keys are left unfiled for a band image (BandImages), and whether
  // endSnapshot took the band index from it.
  private boolean bandsDeferred;
  private boolean bandImageUsed;
  // The band image being read meanwhile, on a thread of its own, while bandsDeferred.
  private java.util.concurrent.@Nullable FutureTask<BandImages.Read> bandRead;

  /**
   * @param expected documents expected, to pre-size the generation
   */
  Restorer(
      CollectionSettings settings,
      Analyzer analyzer,
      int expected,
      SketchFiles.@Nullable Owner sketchFiles) {
    this(settings, analyzer, expected, false, true, sketchFiles);
  }

  /**
   * @param background whether full batches are restored into the engine on a second thread while
   *     the caller gathers the next (for opening a store, where both cores are free: reading and
   *     filing records and loading the engine take about the same time)
   * @param checksummed whether every record comes from this store's own files (snapshot, log, a
   *     compaction's copy), which checked each sketch when it was inserted and a CRC32C guards
   *     since: then a sketch is not decoded again ({@link RestoreBatch#addChecksummed}); false for
   *     an import, whose records come from outside
   */
  Restorer(
      CollectionSettings settings,
      Analyzer analyzer,
      int expected,
      boolean background,
      boolean checksummed,
      SketchFiles.@Nullable Owner sketchFiles) {
    this.checksummed = checksummed;
    this.sketchFiles = sketchFiles;
    this.settings = settings;
    this.analyzer = analyzer;
    this.expected = expected;
    this.background = background;
  }

  /**
   * Makes the generation's sketch file start from a snapshot's sketch files (version 3 or 4, in the
   * order of the snapshot's span), so that documents restored with an entry place ({@link
   * #restore(byte[], int, long, long, int)}) keep their sketch there, unread. Before the first
   * restore; does nothing for sketches on the heap.
   */
  void takeSketchesFrom(List<Path> snapshotSketches) {
    SketchFiles.Owner o = sketchFiles;
    if (o == null) {
      return;
    }
    if (generation != null) {
      throw new IllegalStateException("the sketch file's base is set before the first restore");
    }
    o.base(snapshotSketches);
    places = new PagedLongArray();
    placeLengths = new PagedIntArray();
  }

  /**
   * The documents restored until {@link #endSnapshot} come from one snapshot. A snapshot is written
   * from one generation, whose live ids are unique (its id table's invariant), so none of them is
   * looked up for a clash with an id restored before, and the id table files them in bulk ({@link
   * IdTable#putDeferred}): at open, looking each id up and filing it one at a time was about a
   * third of the CPU.
   */
  void beginSnapshot() {
    snapshotIds = true;
    // With an image of the band index beside the snapshot, the snapshot's band keys are not filed:
    // endSnapshot takes the index from the image, or files them then if it does not fit.
    Path dir = imageDir;
    bandsDeferred =
        deferIndex
            && generation == null
            && dir != null
            && BandImages.present(dir, imageSegment, imageCollection);
    if (bandsDeferred && dir != null) {
      // Read while the snapshot is: it is checked against the snapshot's documents at its end.
      long segment = imageSegment;
      int collection = imageCollection;
      java.util.concurrent.FutureTask<BandImages.Read> read =
          new java.util.concurrent.FutureTask<>(() -> BandImages.read(dir, segment, collection));
      Thread t = DaemonThreads.unstarted("neardup-band-image", read);
      t.start();
      bandRead = read;
    }
  }

  /**
   * Ends {@link #beginSnapshot}: the ids restored since are filed. The gathered documents start
   * into the engine first, so that with a background restorer the engine's part and the ids' run on
   * the two cores side by side (both were waiting for the snapshot's last record).
   */
  void endSnapshot() {
    snapshotIds = false;
    Generation g = generation;
    if (g != null) {
      if (background) {
        flush();
      }
      g.ids.flush();
      if (bandsDeferred) {
        bandsFromImage(g);
      }
    }
    bandsDeferred = false;
    bandRead = null;
  }

  /** The band image read since beginSnapshot, or null when it did not read. */
  private BandImages.@Nullable Read awaitBandRead() {
    java.util.concurrent.FutureTask<BandImages.Read> read = bandRead;
    if (read == null) {
      return null;
    }
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return read.get();
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException e) {
          return null; // BandImages.read catches what a bad file throws: an Error, passed over
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Gives the engine the band index of the snapshot's documents from its image when it is the image
   * of the same documents (count and fingerprint hash), else files their band keys: read while the
   * last batch restores, taken once it is done.
   */
  private void bandsFromImage(Generation g) {
    BandImages.Read read = awaitBandRead();
    sync();
    if (read != null && read.of(snapshotPositions, snapshotHash)) {
      BandImage image = read.image;
      image.renumber(notRestored);
      bandImageUsed = g.engine.bandsFromImage(image);
    }
    if (!bandImageUsed) {
      g.engine.fileDeferredBands();
    }
  }

  /** Whether {@link #endSnapshot} took the band index from an image. */
  boolean bandImageUsed() {
    return bandImageUsed;
  }

  /**
   * Makes the engine index every restored fingerprint once, in one segment, at {@link #finish}
   * ({@link org.neardup.Deduplicator#deferIndexing}) instead of a segment per batch that background
   * merges then join: for opening a store, where nothing checks the generation before it is
   * finished. Before the first restore.
   */
  void deferIndex() {
    if (generation != null) {
      throw new IllegalStateException("deferIndex is called before the first restore");
    }
    deferIndex = true;
  }

  /**
   * Makes {@link #finish} take the fingerprint index of the snapshot's documents from the index
   * image beside snapshot {@code segment} for collection {@code collection} ({@link IndexImages}),
   * if there is one made from the same documents in the same order, instead of sorting it: the
   * snapshot's documents not restored (expired) become dead entries, those removed since become
   * removes. Before {@link #beginSnapshot}, with {@link #deferIndex}.
   */
  void imageFrom(Path dir, long segment, int collection) {
    imageDir = dir;
    imageSegment = segment;
    imageCollection = collection;
  }

  /** Whether {@link #finish} took the index from an image. */
  boolean imageUsed() {
    return imageUsed;
  }

  /** Whether restore takes entry places: only with a sketch file to take them. */
  boolean takesPlaces() {
    return places != null;
  }

  private Generation generation(long base) {
    Generation g = generation;
    if (g == null) {
      g = new Generation(settings, analyzer, base, expected, sketchFiles);
      if (deferIndex) {
        g.engine.deferIndexing();
      }
      if (bandsDeferred) {
        g.engine.deferBands();
      }
      generation = g;
      batch = g.engine.newRestoreBatch();
    }
    return g;
  }

  /** Frees the generation being built, for a rebuild given up. */
  void discard() {
    Generation g = generation;
    if (g != null) {
      g.close();
    }
  }

  /**
   * The generation restored so far, every gathered document in its engine. Its slots start at the
   * first restored DocId, or at {@code nextDocId} when nothing was restored, so a generation never
   * pays for the DocIds that expired before it.
   */
  Generation finish(long nextDocId) {
    Generation g = generation(nextDocId);
    sync();
    ThreadPoolExecutor l = loader;
    if (l != null) {
      l.shutdown();
      loader = null;
    }
    IndexImage image =
        imageDir == null || snapshotPositions == 0
            ? null
            : IndexImages.read(
                imageDir, imageSegment, imageCollection, snapshotPositions, snapshotHash);
    if (image != null) {
      image.renumber(notRestored);
      imageUsed = g.engine.indexDeferred(image);
    }
    if (!imageUsed) {
      g.engine.indexDeferred();
    }
    return g;
  }

  /** Starts restoring the gathered documents into the engine (in the background if so made). */
  void flush() {
    RestoreBatch b = batch;
    Generation g = generation;
    if (b == null || g == null || b.size() == 0) {
      return;
    }
    PagedLongArray p = places;
    PagedIntArray pl = placeLengths;
    if (p != null) {
      places = new PagedLongArray();
      placeLengths = new PagedIntArray();
    }
    SketchFiles.Owner o = sketchFiles;
    SketchFile f = p == null || o == null ? null : o.current();
    Runnable load =
        () -> {
          if (f != null) {
            f.takeFromBase(p, pl);
          }
          try {
            g.engine.restoreAll(b);
          } finally {
            if (f != null) {
              f.takeFromBase(null, null);
            }
          }
        };
    if (!background) {
      load.run();
      b.clear();
      pendingFrom = Long.MAX_VALUE;
      return;
    }
    await();
    batch = g.engine.newRestoreBatch();
    ThreadPoolExecutor l = loader;
    if (l == null) {
      l =
          new ThreadPoolExecutor(
              1,
              1,
              1,
              TimeUnit.SECONDS,
              new LinkedBlockingQueue<>(),
              DaemonThreads.named("neardup-restore"));
      l.allowCoreThreadTimeOut(true);
      loader = l;
    }
    inFlight = l.submit(load);
  }

  /** Restores every gathered document into the engine and waits until it is done. */
  void sync() {
    flush();
    await();
    pendingFrom = Long.MAX_VALUE;
  }

  private void await() {
    Future<?> f = inFlight;
    if (f == null) {
      return;
    }
    inFlight = null;
    boolean interrupted = false;
    while (true) {
      try {
        f.get();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      } catch (ExecutionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof RuntimeException) {
          throw (RuntimeException) cause;
        }
        if (cause instanceof Error) {
          throw (Error) cause;
        }
        throw new IllegalStateException(cause);
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** Documents restored and still held. */
  int live() {
    Generation g = generation;
    return g == null ? 0 : g.docs.live();
  }

  long ramBytesUsed() {
    Generation g = generation;
    RestoreBatch b = batch;
    PagedLongArray p = places;
    PagedIntArray pl = placeLengths;
    return (g == null ? 0 : g.ramBytesUsed())
        + (b == null ? 0 : b.ramBytesUsed())
        + (p == null ? 0 : p.ramBytesUsed())
        + (pl == null ? 0 : pl.ramBytesUsed());
  }

  /**
   * Restores one insert body (either version) unless it expired by {@code now} or its DocId is
   * already held.
   *
   * @return whether the document was restored
   * @throws IllegalArgumentException if the record's joined list or analysis does not decode
   */
  boolean restore(byte[] body, int length, long now) {
    return restore(body, length, now, -1, 0);
  }

  /**
   * As {@link #restore(byte[], int, long)}; with {@code entryOffset >= 0}, the body is a version 3
   * snapshot's Head and its sketch entry is {@code entryLength} bytes at {@code entryOffset} of the
   * sketch file {@link #takeSketchesFrom} named, where it stays.
   */
  boolean restore(byte[] body, int length, long now, long entryOffset, int entryLength) {
    if (imageDir == null || !snapshotIds) {
      return restoreRecord(body, length, now, entryOffset, entryLength);
    }
    // A snapshot's record, position by position, for the image (see imageFrom).
    int position = snapshotPositions++;
    snapshotHash =
        IndexImages.hash(snapshotHash, Bytes.getLong(body, LogFormat.analysisOffset(body, length)));
    boolean restored = restoreRecord(body, length, now, entryOffset, entryLength);
    if (!restored) {
      notRestored.set(position);
    }
    return restored;
  }

  private boolean restoreRecord(
      byte[] body, int length, long now, long entryOffset, int entryLength) {
    if (entryOffset >= 0 && places == null) {
      throw new IllegalStateException("a sketch entry's place without takeSketchesFrom");
    }
    long docId = Bytes.getLong(body, LogFormat.DOC_ID);
    long expiresAt = Bytes.getLong(body, LogFormat.EXPIRES_AT);
    if (expiresAt <= now) {
      return false;
    }
    Generation g = generation(docId);
    int slot = g.docs.slot(docId);
    if (slot >= 0 || docId < g.docs.base) {
      return false; // already held, or before this generation began: never restore twice
    }
    int idLength = LogFormat.idLength(body);
    int joined = LogFormat.joinedCount(body, length);
    int analysisAt = LogFormat.analysisOffset(body, length);
    if (analysisAt + 8 > length) {
      throw new IllegalArgumentException("insert record ends before its analysis");
    }
    byte[] id = java.util.Arrays.copyOfRange(body, LogFormat.ID, LogFormat.ID + idLength);
    int hash = IdTable.hash(id, 0, id.length);
    int clash = snapshotIds ? -1 : g.find(id, hash);
    if (clash >= 0) {
      remove(g.docId(clash)); // the same id again: only when the clock went back across a restart
    }
    long cluster = Bytes.getLong(body, LogFormat.CLUSTER);
    int n = 0;
    if (links.length < Math.max(1, joined)) {
      links = new long[Math.max(joined, links.length * 2)];
    }
    if (joined == 0) {
      if (cluster != docId) {
        n = link(g, cluster, n);
      }
    } else {
      for (int i = 0; i < joined; i++) {
        n = link(g, LogFormat.joined(body, i), n);
      }
    }
    RestoreBatch b = batch;
    if (checksummed) {
      b.addChecksummed(docId, body, analysisAt, length - analysisAt, links, n);
    } else {
      b.add(docId, body, analysisAt, length - analysisAt, links, n); // checks the analysis
    }
    PagedLongArray p = places;
    if (p != null) {
      p.append(entryOffset);
      java.util.Objects.requireNonNull(placeLengths).append(entryLength);
    }
    if (pendingFrom == Long.MAX_VALUE) {
      pendingFrom = docId;
    }
    if (joined == 0) {
      if (cluster != docId) {
        proxy.put(cluster, docId);
      }
    } else {
      for (int i = 0; i < joined; i++) {
        proxy.put(LogFormat.joined(body, i), docId);
      }
    }
    g.add(docId, id, hash, Bytes.getLong(body, LogFormat.TIMESTAMP), expiresAt, snapshotIds);
    if (b.size() >= MAX_BATCH) {
      flush();
    }
    return true;
  }

  /** Adds the document that stands for named representative {@code rep} to links, if any. */
  private int link(Generation g, long rep, int n) {
    long target = rep;
    if (!holds(g, target)) {
      target = proxy.get(rep);
      if (target == LongLongMap.MISSING || !holds(g, target)) {
        return n;
      }
    }
    links[n] = target;
    return n + 1;
  }

  private static boolean holds(Generation g, long docId) {
    int slot = g.docs.slot(docId);
    return slot >= 0 && g.docs.isLive(slot);
  }

  /** Restores an insert that arrived during a rebuild. */
  void restore(
      long docId,
      Analysis analysis,
      long cluster,
      List<Long> joined,
      byte[] id,
      long ts,
      long exp,
      long now) {
    byte[] body = LogFormat.withJoined(LogFormat.insert(0, ts, exp, id, analysis.encode()), joined);
    Bytes.putLong(body, LogFormat.DOC_ID, docId);
    Bytes.putLong(body, LogFormat.CLUSTER, cluster);
    restore(body, body.length, now);
  }

  /** Removes a document if this generation holds it live. */
  void remove(long docId) {
    Generation g = generation;
    if (g == null) {
      return;
    }
    int slot = g.docs.slot(docId);
    if (slot >= 0 && g.docs.isLive(slot)) {
      if (docId >= pendingFrom) {
        sync();
      }
      g.remove(slot);
    }
  }
}
