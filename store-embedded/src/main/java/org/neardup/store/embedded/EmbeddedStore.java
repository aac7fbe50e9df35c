// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.neardup.Analyzer;
import org.neardup.internal.DaemonThreads;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.CorruptStoreException;
import org.neardup.store.FingerprintStore;

/**
 * The default {@link FingerprintStore}: collections in memory, made durable in one local directory
 * by an append-only log with group commit and periodic snapshots (see the package doc for the
 * directory and {@link LogFormat}, {@link SnapshotFormat} for the files).
 *
 * <p>Thread-safe. Writes are acknowledged per the {@link FsyncPolicy}; every acknowledged write
 * survives {@code kill -9}, and with {@link FsyncPolicy#ALWAYS} (the default) a power loss.
 *
 * <p>Opening loads the newest snapshot and replays the log segments after it, restoring each
 * document without re-verifying it; a torn tail of the newest segment (a crash mid-write) is cut at
 * the last valid record with a warning, a corrupt snapshot or a corrupt older segment is refused
 * with a {@link CorruptStoreException} naming the file. One process at a time may open a directory.
 *
 * <p>Maintenance (a background thread unless {@link Builder#background(boolean) turned off}, else
 * {@link #maintain()}): every second, expired documents are removed; when the log has grown as
 * large as the last snapshot's heads (its first file, what every compaction rewrites; at least
 * {@link Builder#snapshotBytes}, at most {@link Builder#maxLogBytes}), or a collection holds more
 * removed documents than live ones, a compaction writes a new snapshot from the old one and the
 * log, deletes them, and rebuilds those collections' memory without their removed documents while
 * they keep serving.
 */
public final class EmbeddedStore implements FingerprintStore {
  /*
   * Locks, always taken in this order: compactionLock; collectionsLock; collection write locks in
   * increasing number; the log's own locks. The cut of a compaction holds collectionsLock and
   * every collection's write lock while it rotates the log, so each log segment ends between two
   * whole decisions and the snapshot of segments <= N is exactly "every record before the cut".
   */
  private static final System.Logger LOG = System.getLogger(EmbeddedStore.class.getName());

  private final Path dir;
  private final UserDictionaries dictionaries;
  private final InstantSource clock;
  private final FsyncPolicy fsync;
  private final Duration fsyncInterval;
  private final long snapshotBytes;
  private final long maxLogBytes;
  private final long rebuildBatchBytes;
  private final long snapshotBytesPerSecond;
  // The snapshot a background compaction is writing, paced; close() tells it to hurry.
  private volatile SnapshotFormat.@Nullable Writer pacedWriter;
  private final int minDeadForRebuild;
  private final boolean snapshotOnClose;
  private final @Nullable SketchFiles sketchFiles;
  private final boolean copySketches;
  private final boolean indexImages;
  private final int indexImageMin;
  private volatile long lastImageBytes;
  private volatile long lastBandImageBytes;
  private int openImages; // collections the open took from an index image
  private int openBandImages; // collections the open took the band index of from an image
  private final FileChannel lockChannel;
  private final FileLock fileLock;
  private Log log;

  private final ReentrantLock collectionsLock = new ReentrantLock();
  private final ReentrantLock compactionLock = new ReentrantLock();
  private final ConcurrentHashMap<String, EmbeddedCollection> byName = new ConcurrentHashMap<>();
  private final Map<Integer, EmbeddedCollection> byNumber = new HashMap<>();
  private int nextCollectionNumber = 1;

  // Written under compactionLock (or while opening); read by maintenance and metrics.
  private volatile long snapshotSegment = -1;
  private volatile long lastSnapshotBytes;
  // The last snapshot's first file (heads): what the next compaction writes again whatever else.
  private volatile long lastSnapshotHeads;
  // The most record bytes the last rebuild gathered before restoring them.
  private volatile long lastRebuildBatchBytes;
  // What the last compaction wrote: its snapshot file and its own sketch file (not the kept ones).
  private volatile long lastSnapshotWritten;
  private volatile long replayedBytes;
  private volatile long appendedAtCut;

  private final @Nullable ScheduledExecutorService maintenance;
  private final @Nullable ExecutorService compactor;
  private final AtomicBoolean compacting = new AtomicBoolean();
  private volatile boolean closed;

  private final AtomicLong compactions = new AtomicLong();
  private final AtomicLong rebuilds = new AtomicLong();
  private volatile long lastCompactionMillis;
  private volatile long openMillis;
  private volatile long truncatedBytes;

  private EmbeddedStore(Builder b) throws IOException {
    this.dir = b.dir;
    this.dictionaries = new UserDictionaries(b.dir);
    this.clock = b.clock;
    this.fsync = b.fsync;
    this.fsyncInterval = b.fsyncInterval;
    this.snapshotBytes = b.snapshotBytes;
    this.maxLogBytes = b.maxLogBytes;
    this.rebuildBatchBytes = b.rebuildBatchBytes;
    this.snapshotBytesPerSecond = b.snapshotBytesPerSecond;
    this.minDeadForRebuild = b.minDeadForRebuild;
    this.snapshotOnClose = b.snapshotOnClose;
    this.sketchFiles = b.sketchesOnHeap ? null : new SketchFiles(b.dir);
    this.copySketches = b.copySketches;
    this.indexImages = b.indexImages;
    this.indexImageMin = Math.max(1, b.indexImageMin);
    Files.createDirectories(dir);
    this.lockChannel =
        FileChannel.open(dir.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock l;
    try {
      l = lockChannel.tryLock();
    } catch (OverlappingFileLockException e) {
      l = null;
    }
    if (l == null) {
      lockChannel.close();
      throw new IOException(
          "data directory " + dir + " is in use by another neardup store (its lock file is held)");
    }
    this.fileLock = l;
    try {
      long t0 = System.nanoTime();
      load();
      openMillis = (System.nanoTime() - t0) / 1_000_000;
    } catch (IOException | RuntimeException e) {
      releaseLock();
      throw e;
    }
    if (b.background) {
      maintenance =
          Executors.newSingleThreadScheduledExecutor(
              DaemonThreads.named("neardup-maintenance-" + dir.getFileName()));
      compactor = Executors.newSingleThreadExecutor(DaemonThreads.named("neardup-compaction"));
      long every = b.maintenanceInterval.toMillis();
      maintenance.scheduleWithFixedDelay(
          this::maintainQuietly, every, every, TimeUnit.MILLISECONDS);
    } else {
      maintenance = null;
      compactor = null;
    }
  }

  /** A builder for a store in {@code dir}, created if missing. */
  public static Builder builder(Path dir) {
    return new Builder(dir);
  }

  @Override
  public String kind() {
    return EmbeddedStoreProvider.KIND;
  }

  Log log() {
    return log;
  }

  InstantSource clock() {
    return clock;
  }

  /** Where a new generation of collection c keeps its sketches: files, or null for the heap. */
  SketchFiles.@Nullable Owner sketchFiles(int collection) {
    return sketchFiles == null ? null : sketchFiles.owner(collection);
  }

  public Path directory() {
    return dir;
  }

  // --- open ---------------------------------------------------------------------------------

  private void load() throws IOException {
    StoreLoader l = new StoreLoader(dir, dictionaries, this::sketchFiles, indexImages);
    l.load(clock.millis());
    openImages = l.imagesUsed();
    openBandImages = l.bandImagesUsed();
    for (StoreLoader.Loaded c : l.collections()) {
      EmbeddedCollection ec =
          new EmbeddedCollection(
              this,
              c.number(),
              c.name(),
              c.settings(),
              c.analyzer(),
              c.nextDocId(),
              c.generation());
      byName.put(c.name(), ec);
      byNumber.put(c.number(), ec);
    }
    nextCollectionNumber = l.nextCollectionNumber();
    snapshotSegment = l.snapshotSegment();
    lastSnapshotBytes = l.lastSnapshotBytes();
    lastSnapshotHeads = l.lastSnapshotHeads();
    replayedBytes = l.replayedBytes();
    truncatedBytes = l.truncatedBytes();
    log = Log.create(dir, l.lastSegment() + 1, fsync, fsyncInterval);
    appendedAtCut = 0;
  }

  // --- collections --------------------------------------------------------------------------

  @Override
  public Collection create(String name, CollectionSettings settings) throws IOException {
    FingerprintStore.checkName(name);
    Objects.requireNonNull(settings, "settings");
    Analyzer analyzer = settings.deduplicator().analyzer(); // may load a dictionary: no lock
    if (settings.chinese().userDictionary() != null) {
      dictionaries.save(settings.chinese().userDictionary()); // before the log names it
    }
    if (settings.analysis().idf() != null) {
      dictionaries.save(settings.analysis().idf()); // an IDF table, kept the same way
    }
    long position;
    EmbeddedCollection c;
    collectionsLock.lock();
    try {
      checkNotClosed();
      if (byName.containsKey(name)) {
        throw new IllegalArgumentException("collection '" + name + "' exists");
      }
      int number = nextCollectionNumber;
      position = log.append(LogFormat.create(number, name, settings.toText(), analyzer.id()));
      nextCollectionNumber++;
      c =
          new EmbeddedCollection(
              this,
              number,
              name,
              settings,
              analyzer,
              0,
              new Generation(settings, analyzer, 0, 1024, sketchFiles(number)));
      byName.put(name, c);
      byNumber.put(number, c);
    } finally {
      collectionsLock.unlock();
    }
    log.await(position);
    return c;
  }

  @Override
  public @Nullable Collection collection(String name) {
    return byName.get(name);
  }

  @Override
  public List<Collection> collections() {
    List<Collection> out = new ArrayList<>(byName.values());
    out.sort(Comparator.comparing(Collection::name));
    return out;
  }

  @Override
  public boolean drop(String name) throws IOException {
    long position;
    collectionsLock.lock();
    try {
      checkNotClosed();
      EmbeddedCollection c = byName.get(name);
      if (c == null) {
        return false;
      }
      c.lock.writeLock().lock();
      try {
        position = log.append(LogFormat.drop(c.number));
        c.markDropped();
      } finally {
        c.lock.writeLock().unlock();
      }
      byName.remove(name);
      byNumber.remove(c.number);
    } finally {
      collectionsLock.unlock();
    }
    log.await(position);
    return true;
  }

  private void checkNotClosed() {
    if (closed) {
      throw new IllegalStateException("the store in " + dir + " is closed");
    }
  }

  // --- durability and maintenance -----------------------------------------------------------

  @Override
  public void sync() throws IOException {
    log.sync();
  }

  @Override
  public boolean isHealthy() {
    return !closed && log.isHealthy();
  }

  /** Log bytes written since the snapshot: what the next open replays. */
  long logBytesSinceSnapshot() {
    return replayedBytes + log.appended() - appendedAtCut;
  }

  /**
   * Removes expired documents from every collection, then compacts if the log or a collection's
   * removed documents call for it. The background thread calls this every second; call it yourself
   * when the store was built without {@link Builder#background(boolean) background}.
   */
  public void maintain() throws IOException {
    expireAll();
    if (compactionDue()) {
      compact(false, true, false);
    }
  }

  private void maintainQuietly() {
    try {
      expireAll();
      if (compactionDue() && compactor != null && compacting.compareAndSet(false, true)) {
        compactor.execute(
            () -> {
              try {
                compact(false, true, true);
              } catch (IOException | RuntimeException e) {
                LOG.log(Level.ERROR, "compaction of " + dir + " failed; will retry", e);
              } finally {
                compacting.set(false);
              }
            });
      }
    } catch (RuntimeException e) {
      LOG.log(Level.ERROR, "maintenance of " + dir + " failed", e);
    }
  }

  private void expireAll() {
    for (EmbeddedCollection c : byName.values()) {
      c.expire();
    }
  }

  private boolean compactionDue() {
    if (closed || !log.isHealthy()) {
      return false;
    }
    if (logBytesSinceSnapshot() >= logBytesDue()) {
      return true;
    }
    for (EmbeddedCollection c : byName.values()) {
      int dead = c.deadSlots();
      if (dead >= minDeadForRebuild && dead >= c.liveDocuments()) {
        return true;
      }
    }
    return false;
  }

  /**
   * The log bytes that call for a compaction: the last snapshot's heads, within [{@link
   * Builder#snapshotBytes}, {@link Builder#maxLogBytes}].
   */
  long logBytesDue() {
    return Math.max(snapshotBytes, Math.min(maxLogBytes, lastSnapshotHeads));
  }

  /**
   * The scratch sketch bytes at which a compaction rebuilds a collection even without removed
   * documents: half the last snapshot's sketches (at least {@link Builder#snapshotBytes}), so that
   * the directory holds the live sketches at most about 1.5 times (snapshot and scratch file) plus
   * the log, instead of twice and growing until a restart.
   */
  private long scratchBytesForRebuild() {
    return Math.max(snapshotBytes, (lastSnapshotBytes - lastSnapshotHeads) / 2);
  }

  /** Writes a snapshot now and rebuilds every collection that holds removed documents. */
  @Override
  public void checkpoint() throws IOException {
    compact(true, true, false);
  }

  /**
   * A background compaction run now, on the calling thread, at full speed and without rebuilds (for
   * {@link CompactionTimer}).
   */
  void compactNow() throws IOException {
    compact(false, false, false);
  }

  /**
   * Cuts the log, writes a snapshot of everything before the cut from the previous snapshot and the
   * log, deletes what it replaces, and rebuilds collections with removed documents.
   */
  private void compact(boolean forceRebuild, boolean allowRebuild, boolean paced)
      throws IOException {
    compactionLock.lock();
    try {
      long t0 = System.nanoTime();
      long previous = snapshotSegment;
      long closedSegment;
      List<SnapshotFormat.CollectionEntry> entries = new ArrayList<>();
      Map<Integer, EmbeddedCollection> cut = new TreeMap<>();
      collectionsLock.lock();
      try {
        log.checkHealthy();
        cut.putAll(byNumber);
        for (EmbeddedCollection c : cut.values()) {
          c.lock.writeLock().lock();
        }
        try {
          closedSegment = log.rotate();
          for (EmbeddedCollection c : cut.values()) {
            entries.add(c.entry());
            if (allowRebuild
                && c.beginRebuild(
                    forceRebuild, forceRebuild ? 1 : minDeadForRebuild, scratchBytesForRebuild())) {
              rebuilds.incrementAndGet();
            }
          }
          appendedAtCut = log.appended();
          replayedBytes = 0;
        } finally {
          for (EmbeddedCollection c : cut.values()) {
            c.lock.writeLock().unlock();
          }
        }
      } finally {
        collectionsLock.unlock();
      }
      long size;
      long now = clock.millis();
      List<Path> listed = new ArrayList<>(); // the new snapshot's sketch files
      Map<Integer, SnapshotCopier.ImageSource> images;
      SnapshotCopier abandon = null; // its band images are dropped if the snapshot fails
      SnapshotFormat.Reader old =
          previous < 0
              ? null
              : new SnapshotFormat.Reader(dir.resolve(SnapshotFormat.fileName(previous)), true);
      try (SnapshotFormat.Reader closeOld = old;
          SnapshotFormat.Writer w =
              new SnapshotFormat.Writer(
                  dir,
                  closedSegment,
                  clock.millis(),
                  entries,
                  paced ? snapshotBytesPerSecond : 0,
                  keep(old, previous, closedSegment, listed))) {
        if (paced) {
          pacedWriter = w;
          if (closed || maintenance == null || maintenance.isShutdown()) {
            w.hurry();
          }
        }
        listed.add(dir.resolve(SnapshotFormat.sketchFileName(closedSegment)));
        long[] keptAt = keptAt(old, listed);
        SnapshotCopier copier =
            new SnapshotCopier(
                w, cut, now, old, keptAt, indexImages, indexImages ? dir : null, closedSegment);
        abandon = copier;
        if (old != null) {
          while (old.next()) {
            copier.add(old.body(), old.length(), old.entryOffset(), old.entryLength());
          }
        }
        for (long n = previous + 1; n <= closedSegment; n++) {
          Path file = dir.resolve(LogFormat.fileName(n));
          if (!Files.exists(file)) {
            continue; // a segment with nothing valid in it was deleted at open
          }
          try (SegmentReader r = SegmentReader.open(file, n)) {
            while (r.next()) {
              if (LogFormat.isInsert(r.body()[0])) {
                copier.add(r.body(), r.length());
              }
            }
            if (r.problem() != null) {
              throw new CorruptStoreException(file, r.offset(), r.problem());
            }
          }
        }
        copier.flush();
        images = copier.images();
        size = w.commit();
        lastSnapshotWritten = w.bytesWritten();
      } catch (IOException | RuntimeException e) {
        for (EmbeddedCollection c : cut.values()) {
          c.abortRebuild();
        }
        if (abandon != null) {
          abandon.abortImages();
        }
        throw e;
      } finally {
        pacedWriter = null;
      }
      Path written = dir.resolve(SnapshotFormat.fileName(closedSegment));
      snapshotSegment = closedSegment;
      lastSnapshotBytes = size;
      try {
        lastSnapshotHeads = Files.size(written);
        if (previous >= 0) {
          SnapshotFormat.delete(dir, previous);
        }
        for (long n = previous + 1; n <= closedSegment; n++) {
          Files2.deleteIfExists(dir.resolve(LogFormat.fileName(n)));
        }
        try {
          // The new snapshot is durable: no open will read the files it does not list. A
          // generation reading one keeps its handle (the disk comes back when it is replaced).
          SnapshotFormat.deleteSketchesBut(dir, listed);
        } catch (IOException e) {
          LOG.log(Level.WARNING, "cannot delete an unlisted sketch file; the next open will", e);
        }
        writeImages(closedSegment, cut, images);
        compactions.incrementAndGet();
        rebuildFrom(written, cut, now);
      } catch (IOException | RuntimeException e) {
        // A rebuild left pending would queue every later change for ever.
        for (EmbeddedCollection c : cut.values()) {
          c.abortRebuild();
        }
        throw e;
      } finally {
        lastCompactionMillis = (System.nanoTime() - t0) / 1_000_000;
      }
    } finally {
      compactionLock.unlock();
    }
  }

  /**
   * Writes the index image of each collection in the snapshot just made durable ({@link
   * IndexImages}) and deletes the earlier ones. An image only speeds up the next open: one that
   * cannot be written is logged and left out, and the open sorts instead.
   */
  private void writeImages(
      long segment,
      Map<Integer, EmbeddedCollection> cut,
      Map<Integer, SnapshotCopier.ImageSource> images) {
    long bytes = 0;
    long bandBytes = 0;
    try {
      IndexImages.deleteBut(dir, segment);
      BandImages.deleteBut(dir, segment, true);
      for (Map.Entry<Integer, SnapshotCopier.ImageSource> e : images.entrySet()) {
        EmbeddedCollection c = cut.get(e.getKey());
        SnapshotCopier.ImageSource source = e.getValue();
        boolean worth = c != null && source.fingerprints.size() >= indexImageMin;
        if (worth) {
          bytes +=
              IndexImages.write(
                  dir,
                  segment,
                  e.getKey(),
                  c.settings().analysis().scheme(),
                  source.fingerprints,
                  source.hash);
        }
        if (source.bands != null) {
          if (worth) {
            bandBytes += source.bands.finish();
          } else {
            source.bands.close();
          }
        }
        e.setValue(new SnapshotCopier.ImageSource()); // its fingerprints can go
      }
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.WARNING, "cannot write an index image; the next open sorts the index", e);
      for (SnapshotCopier.ImageSource source : images.values()) {
        if (source.bands != null) {
          try {
            source.bands.close();
          } catch (IOException suppressed) {
            e.addSuppressed(suppressed);
          }
        }
      }
    }
    lastImageBytes = bytes;
    lastBandImageBytes = bandBytes;
  }

  /**
   * Fills the new generation of every collection being rebuilt from {@code snapshot}, the one this
   * compaction just wrote and made durable, as an open does: the heads are read in file order (one
   * stream through a 1 MiB buffer) and each sketch entry stays where the snapshot put it, in its
   * kept or own sketch file, unread; the new generation's sketch file starts from those files. With
   * sketches on the heap, the documents come whole (each entry read in file order). The restore
   * batches are bounded in bytes ({@link Builder#rebuildBatchBytes}), not in documents: before, the
   * rebuild took the whole bodies the copy read, and a batch of up to 4M news articles' sketches
   * (~6 GB) did not fit a 3 GB heap at 1M documents. Then the changes made since the cut are
   * applied and each new generation is swapped in.
   */
  private void rebuildFrom(Path snapshot, Map<Integer, EmbeddedCollection> cut, long now)
      throws IOException {
    List<EmbeddedCollection> rebuilding = new ArrayList<>();
    for (EmbeddedCollection c : cut.values()) {
      if (c.isRebuilding()) {
        rebuilding.add(c);
      }
    }
    if (rebuilding.isEmpty()) {
      return;
    }
    boolean apart = sketchFiles != null;
    Files2.reading(snapshot);
    try (SnapshotFormat.Reader r = new SnapshotFormat.Reader(snapshot, apart)) {
      List<Path> sketches = r.sketchFiles();
      for (EmbeddedCollection c : rebuilding) {
        c.rebuildBeginSnapshot(apart && !sketches.isEmpty() ? sketches : null);
      }
      while (r.next()) {
        byte[] body = r.body();
        EmbeddedCollection c = cut.get(Bytes.getInt(body, LogFormat.COLLECTION));
        if (c == null) {
          continue;
        }
        try {
          c.rebuildRestore(
              body, r.length(), now, r.entryOffset(), r.entryLength(), rebuildBatchBytes);
        } catch (IllegalArgumentException | IllegalStateException e) {
          throw new CorruptStoreException(
              snapshot, "a document does not decode: " + e.getMessage());
        }
      }
      for (EmbeddedCollection c : rebuilding) {
        c.rebuildEndSnapshot();
      }
    }
    long peak = 0;
    for (EmbeddedCollection c : rebuilding) {
      peak = Math.max(peak, c.rebuildPeakBytes());
      c.finishRebuild();
    }
    lastRebuildBatchBytes = peak;
  }

  /**
   * The sketch files of {@code old} (the previous snapshot, read apart) that the next snapshot
   * keeps, as {@link SketchPolicy} weighs them; their paths are added to {@code listed}.
   */
  private List<SnapshotFormat.Kept> keep(
      SnapshotFormat.@Nullable Reader old, long previous, long closedSegment, List<Path> listed)
      throws IOException {
    if (copySketches || old == null || old.sketchFiles().isEmpty()) {
      return List.of();
    }
    List<Path> files = old.sketchFiles();
    SketchSpan span = old.span();
    long[] sizes = new long[files.size()];
    for (int i = 0; i < sizes.length; i++) {
      sizes[i] = Files.size(files.get(i));
    }
    long added = 0;
    for (long n = previous + 1; n <= closedSegment; n++) {
      Path f = dir.resolve(LogFormat.fileName(n));
      added += Files.exists(f) ? Files.size(f) : 0;
    }
    boolean[] fold = SketchPolicy.fold(sizes, old.footerLive(), added);
    List<SnapshotFormat.Kept> kept = new ArrayList<>();
    for (int i = 0; i < sizes.length; i++) {
      if (!fold[i]) {
        long segment = i < old.kept().size() ? old.kept().get(i).segment() : previous;
        kept.add(new SnapshotFormat.Kept(segment, sizes[i]));
        listed.add(files.get(i));
      }
    }
    assert span.files() == sizes.length;
    return kept;
  }

  /** For each file of {@code old}'s span, where it starts among the {@code listed}, or -1. */
  private static long[] keptAt(SnapshotFormat.@Nullable Reader old, List<Path> listed)
      throws IOException {
    if (old == null) {
      return new long[0];
    }
    List<Path> files = old.sketchFiles();
    long[] at = new long[files.size()];
    java.util.Arrays.fill(at, -1);
    long start = 0;
    for (int k = 0; k + 1 < listed.size(); k++) { // the last is the new snapshot's own
      int i = files.indexOf(listed.get(k));
      at[i] = start;
      start += Files.size(listed.get(k));
    }
    return at;
  }

  @Override
  public Map<String, Number> metrics() {
    Map<String, Number> m = new LinkedHashMap<>();
    m.put("log_records_total", log.records.sum());
    m.put("log_bytes_written_total", log.bytesWritten.sum());
    m.put("log_fsyncs_total", log.syncs.sum());
    m.put("log_fsync_seconds_total", log.syncNanos.sum() / 1e9);
    m.put("log_bytes_since_snapshot", logBytesSinceSnapshot());
    m.put("snapshot_bytes", lastSnapshotBytes);
    m.put("snapshot_head_bytes", lastSnapshotHeads);
    m.put("log_bytes_due", logBytesDue());
    m.put("last_rebuild_batch_bytes", lastRebuildBatchBytes);
    m.put("last_snapshot_bytes_written", lastSnapshotWritten);
    m.put("index_image_bytes", lastImageBytes);
    m.put("band_image_bytes", lastBandImageBytes);
    m.put("open_index_images", openImages);
    m.put("open_band_images", openBandImages);
    m.put("compactions_total", compactions.get());
    m.put("rebuilds_total", rebuilds.get());
    m.put("last_compaction_seconds", lastCompactionMillis / 1e3);
    m.put("open_seconds", openMillis / 1e3);
    m.put("torn_bytes_cut_total", truncatedBytes);
    m.put("healthy", isHealthy() ? 1 : 0);
    return m;
  }

  /** How long the last open took to load the snapshot and replay the log, in milliseconds. */
  public long openMillis() {
    return openMillis;
  }

  /**
   * Stops maintenance, writes a snapshot if the log has grown since the last one (so the next open
   * is fast), forces and closes the log and releases the directory. Idempotent.
   */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    try {
      if (maintenance != null) {
        maintenance.shutdown();
        compactor.shutdown();
        SnapshotFormat.Writer w = pacedWriter;
        if (w != null) {
          w.hurry();
        }
        awaitQuietly(maintenance);
        awaitQuietly(compactor);
      }
      if (snapshotOnClose && log.isHealthy() && logBytesSinceSnapshot() > 0) {
        compact(false, false, false);
      }
    } finally {
      closed = true;
      try {
        log.close();
      } finally {
        try {
          for (EmbeddedCollection c : byName.values()) {
            c.closeGeneration();
          }
        } finally {
          releaseLock();
        }
      }
    }
  }

  private static void awaitQuietly(ExecutorService e) {
    try {
      if (!e.awaitTermination(10, TimeUnit.MINUTES)) {
        LOG.log(Level.WARNING, "maintenance did not stop within 10 minutes");
      }
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
    }
  }

  private void releaseLock() throws IOException {
    try {
      fileLock.release();
    } finally {
      lockChannel.close();
    }
  }

  /**
   * The lock every compaction holds. While {@link EmbeddedTransfer} holds it no compaction runs
   * (one that is due waits), so a snapshot it reads is not replaced and a collection it fills is
   * not snapshotted half-filled. Reentrant: {@link #checkpoint()} and {@link #close()} work under
   * it.
   */
  java.util.concurrent.locks.Lock compactionHold() {
    return compactionLock;
  }

  /** The newest snapshot, or null if none was written; stable under {@link #compactionHold}. */
  @Nullable Path snapshotFile() {
    long s = snapshotSegment;
    return s < 0 ? null : dir.resolve(SnapshotFormat.fileName(s));
  }

  @Override
  public String toString() {
    return "EmbeddedStore[" + dir + ", fsync=" + fsync + "]";
  }

  /** Configures an {@link EmbeddedStore}. */
  public static final class Builder {
    private final Path dir;
    private InstantSource clock = InstantSource.system();
    private FsyncPolicy fsync = FsyncPolicy.ALWAYS;
    private Duration fsyncInterval = Duration.ofMillis(10);
    private boolean background = true;
    private Duration maintenanceInterval = Duration.ofSeconds(1);
    private long snapshotBytes = 64L << 20;
    private long maxLogBytes = 1L << 30;
    private long rebuildBatchBytes = 64L << 20;
    private long snapshotBytesPerSecond = 64L << 20;
    private int minDeadForRebuild = 1 << 16;
    private boolean snapshotOnClose = true;
    private boolean sketchesOnHeap = false;
    private boolean copySketches = false;
    private boolean indexImages = true;
    private int indexImageMin = 1 << 16;

    private Builder(Path dir) {
      this.dir = Objects.requireNonNull(dir, "dir");
    }

    /** The clock of arrival times and expiry; the system clock by default. */
    public Builder clock(InstantSource clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** When the log is forced to disk; {@link FsyncPolicy#ALWAYS} by default. */
    public Builder fsync(FsyncPolicy policy) {
      this.fsync = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /** The fsync period of {@link FsyncPolicy#INTERVAL}; 10 ms by default. */
    public Builder fsyncInterval(Duration interval) {
      if (interval.isNegative() || interval.isZero() || interval.toSeconds() >= 60) {
        throw new IllegalArgumentException("fsync interval must be in (0, 60s), got " + interval);
      }
      this.fsyncInterval = interval;
      return this;
    }

    /** Whether a background thread runs {@link #maintain()}; on by default. */
    public Builder background(boolean on) {
      this.background = on;
      return this;
    }

    /** How often maintenance runs; every second by default. */
    public Builder maintenanceInterval(Duration interval) {
      if (interval.isNegative() || interval.isZero() || interval.toHours() >= 1) {
        throw new IllegalArgumentException(
            "maintenance interval must be in (0, 1h), got " + interval);
      }
      this.maintenanceInterval = interval;
      return this;
    }

    /**
     * The log size that calls for a compaction at the least; 64 MiB by default. A compaction also
     * waits for the log to grow as large as the last snapshot's heads (its first file, ~124 bytes
     * per news article), which every compaction writes again, so that its cost stays proportional
     * to the writes; see {@link #maxLogBytes}.
     */
    public Builder snapshotBytes(long bytes) {
      if (bytes < 0) {
        throw new IllegalArgumentException("snapshot bytes must be >= 0, got " + bytes);
      }
      this.snapshotBytes = bytes;
      return this;
    }

    /**
     * The log size that calls for a compaction at the most, whatever the snapshot's size; 1 GiB by
     * default (at least {@link #snapshotBytes} is always waited for).
     *
     * <p>Why the heads and this cap, not the whole snapshot: since format 4 a compaction writes the
     * heads again, the sketches the log brought and the live entries of the sketch files it folds,
     * and keeps the others where they are. Compared with the whole snapshot (kept sketch files
     * included), a 10M news directory let its log grow to ~17.8 GB before compacting: the disk
     * doubled, and an open would replay all of it. Compared with the heads (H), each compaction
     * writes about H + L for a log of L >= H, at most twice the log's bytes plus the folds, and the
     * disk holds the snapshot S, the log and, while it runs, the new heads and the log's sketches:
     * S + 2L + H, at most S + 3H (1.2 S for news articles, whose heads are 7% of S). Beyond 1 GiB
     * of heads (~8M news articles) the cap keeps what an open replays, and the disk, bounded, for a
     * write amplification of 1 + H / cap per log byte (7 at 50M news articles, 6.2 GB of heads).
     */
    public Builder maxLogBytes(long bytes) {
      if (bytes < 1) {
        throw new IllegalArgumentException("max log bytes must be >= 1, got " + bytes);
      }
      this.maxLogBytes = bytes;
      return this;
    }

    /**
     * The record bytes a rebuild gathers before restoring them into the new generation; 64 MiB by
     * default. Bounds the rebuild's batch memory (heads, or whole records with sketches on the
     * heap) whatever the number of documents; each batch becomes one segment of the new
     * generation's fingerprint index, which merges them in the background.
     */
    Builder rebuildBatchBytes(long bytes) {
      if (bytes < 1) {
        throw new IllegalArgumentException("rebuild batch bytes must be >= 1, got " + bytes);
      }
      this.rebuildBatchBytes = bytes;
      return this;
    }

    /**
     * The rate at which a background compaction writes its snapshot, in bytes per second; 64 MiB/s
     * by default, 0 for no limit. A snapshot is written while the service is under load, and at
     * full speed it took a core and a burst of disk writes for seconds (the batch p99 went from 6.7
     * to 18-25 ms, docs/BENCHMARKS.md); paced, it forces its data every MiB and sleeps. It must
     * stay above the log's growth rate (100 bytes or so per stored fingerprint), or compactions
     * fall behind. Snapshots at close and on {@code checkpoint} run at full speed.
     */
    public Builder snapshotBytesPerSecond(long bytesPerSecond) {
      if (bytesPerSecond < 0) {
        throw new IllegalArgumentException(
            "snapshot bytes per second must be >= 0, got " + bytesPerSecond);
      }
      this.snapshotBytesPerSecond = bytesPerSecond;
      return this;
    }

    /**
     * Removed documents a collection must hold (and more than its live ones) before maintenance
     * rebuilds it; 65,536 by default.
     */
    public Builder minDeadForRebuild(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("minDeadForRebuild must be >= 1, got " + n);
      }
      this.minDeadForRebuild = n;
      return this;
    }

    /** Whether {@link EmbeddedStore#close()} writes a snapshot; on by default. */
    public Builder snapshotOnClose(boolean on) {
      this.snapshotOnClose = on;
      return this;
    }

    /**
     * Whether the collections keep their sketches (and band keys) on the Java heap, as before
     * format 4, instead of in scratch files beside the log ({@link SketchFile}); off by default. On
     * the heap a verified document costs its sketch's bytes of heap (~1.8 KB for a news article),
     * in files 8 bytes of heap and the sketch's bytes of page cache.
     */
    public Builder sketchesOnHeap(boolean on) {
      this.sketchesOnHeap = on;
      return this;
    }

    /**
     * Whether every compaction copies every sketch into its snapshot's own sketch file, as before
     * format version 4, instead of keeping the earlier snapshots' files where {@link SketchPolicy}
     * says so; off by default. For tests and side-by-side measurements.
     */
    Builder copySketches(boolean on) {
      this.copySketches = on;
      return this;
    }

    /**
     * Whether every compaction writes each collection's fingerprint index beside its snapshot
     * ({@link IndexImages}) and an open reads it instead of sorting the index; on by default. Off
     * for side-by-side measurements and tests; an open without it passes images over.
     */
    Builder indexImages(boolean on) {
      this.indexImages = on;
      return this;
    }

    /**
     * The fewest documents for which a collection's index image is written: 2^16 by default, below
     * which the open's sort takes a few milliseconds and the image's directories (1 MiB for the
     * default scheme) would outweigh its entries. Tests set 1.
     */
    Builder indexImageMin(int documents) {
      this.indexImageMin = documents;
      return this;
    }

    /**
     * Opens the store.
     *
     * @throws CorruptStoreException if the newest snapshot or a log segment other than the newest
     *     fails its checks
     * @throws IOException if the directory is in use by another process or cannot be read
     */
    public EmbeddedStore open() throws IOException {
      return new EmbeddedStore(this);
    }
  }
}
