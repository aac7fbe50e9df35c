// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.neardup.Analyzer;
import org.neardup.store.CollectionSettings;
import org.neardup.store.CorruptStoreException;

/**
 * Opening an {@link EmbeddedStore}'s directory: deletes leftover {@code .tmp} files, loads the
 * newest snapshot, replays the log segments after it in order (cutting a torn tail of the newest,
 * refusing a corrupt snapshot or older segment with a {@link CorruptStoreException} naming the
 * file), and deletes the files the snapshot covers. What it found is in its accessors; the store
 * then makes its collections and opens the log after {@link #lastSegment()}.
 *
 * <p>Not thread-safe: one opening store uses it once.
 */
final class StoreLoader {
  private static final System.Logger LOG = System.getLogger(EmbeddedStore.class.getName());

  /** A collection as loaded, its generation holding every live document. */
  record Loaded(
      int number,
      String name,
      CollectionSettings settings,
      Analyzer analyzer,
      long nextDocId,
      Generation generation) {}

  private final Path dir;
  private final boolean indexImages; // whether the snapshot's index images are read
  private final UserDictionaries dictionaries;
  private final IntFunction<SketchFiles.@Nullable Owner> sketchFiles;
  private final List<Loaded> collections = new ArrayList<>();
  private int nextCollectionNumber = 1;
  private long snapshotSegment = -1;
  private List<Path> listedSketches = List.of(); // the sketch files the loaded snapshot lists
  private long lastSnapshotBytes;
  private long lastSnapshotHeads; // its first file's bytes, part of lastSnapshotBytes
  private long replayedBytes;
  private long truncatedBytes;
  private long lastSegment = -1;
  private int imagesUsed;
  private int bandImagesUsed;

  StoreLoader(
      Path dir,
      UserDictionaries dictionaries,
      IntFunction<SketchFiles.@Nullable Owner> sketchFiles,
      boolean indexImages) {
    this.indexImages = indexImages;
    this.dir = dir;
    this.dictionaries = dictionaries;
    this.sketchFiles = sketchFiles;
  }

  List<Loaded> collections() {
    return collections;
  }

  int nextCollectionNumber() {
    return nextCollectionNumber;
  }

  /** The segment the loaded snapshot ends with, or -1 without one. */
  long snapshotSegment() {
    return snapshotSegment;
  }

  /** The loaded snapshot's bytes: its heads and the sketch files it lists; 0 without one. */
  long lastSnapshotBytes() {
    return lastSnapshotBytes;
  }

  /** The loaded snapshot's first file (heads) in bytes; 0 without one. */
  long lastSnapshotHeads() {
    return lastSnapshotHeads;
  }

  /** Collections whose fingerprint index was read from an index image, not sorted. */
  int imagesUsed() {
    return imagesUsed;
  }

  /** Collections whose band index came from an image ({@link BandImages}). */
  int bandImagesUsed() {
    return bandImagesUsed;
  }

  /** Log bytes replayed after the snapshot. */
  long replayedBytes() {
    return replayedBytes;
  }

  /** Bytes of torn log tail cut. */
  long truncatedBytes() {
    return truncatedBytes;
  }

  /** The newest segment found (or the snapshot's), -1 in an empty directory. */
  long lastSegment() {
    return lastSegment;
  }

  /** Loads the directory: the newest snapshot, then the log after it. */
  void load(long now) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        if (p.getFileName().toString().endsWith(".tmp")) {
          Files.delete(p);
        }
      }
    }
    TreeMap<Long, Path> snapshots = new TreeMap<>();
    TreeMap<Long, Path> segments = new TreeMap<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        long s = SnapshotFormat.segmentOf(p);
        if (s >= 0) {
          snapshots.put(s, p);
        }
        long g = LogFormat.segmentOf(p);
        if (g >= 0) {
          segments.put(g, p);
        }
      }
    }
    Map<Integer, Restorer> restorers = new HashMap<>();
    Map<Integer, Pending> pending = new LinkedHashMap<>();
    if (!snapshots.isEmpty()) {
      Path snap = snapshots.lastEntry().getValue();
      loadSnapshot(snap, snapshots.lastKey(), now, pending, restorers);
      snapshotSegment = snapshots.lastKey();
      lastSnapshotHeads = Files.size(snap);
      lastSnapshotBytes = lastSnapshotHeads;
      for (Path f : listedSketches) {
        lastSnapshotBytes += Files.size(f);
      }
    }
    long expect = snapshotSegment + 1;
    long last = snapshotSegment;
    List<Long> numbers = new ArrayList<>(segments.tailMap(snapshotSegment, false).keySet());
    for (int i = 0; i < numbers.size(); i++) {
      long n = numbers.get(i);
      Path file = segments.get(n);
      if (expect > 0 && n != expect && !(snapshotSegment < 0 && i == 0)) {
        throw new CorruptStoreException(
            file,
            "log segment "
                + expect
                + " is missing (found "
                + n
                + " next); the log must be contiguous after the snapshot");
      }
      replaySegment(file, n, i == numbers.size() - 1, now, pending, restorers);
      expect = n + 1;
      last = n;
    }
    for (Map.Entry<Integer, Pending> e : pending.entrySet()) {
      Pending p = e.getValue();
      Restorer r = restorers.get(e.getKey());
      Generation g = r.finish(p.nextDocId);
      if (r.imageUsed()) {
        imagesUsed++;
      }
      if (r.bandImageUsed()) {
        bandImagesUsed++;
      }
      collections.add(new Loaded(p.number, p.name, p.settings, p.analyzer, p.nextDocId, g));
    }
    // Everything is loaded: files the snapshot covers can go.
    for (long s : snapshots.headMap(snapshotSegment, false).keySet()) {
      SnapshotFormat.delete(dir, s);
    }
    SnapshotFormat.deleteSketchesBut(dir, listedSketches); // those no snapshot lists
    IndexImages.deleteBut(dir, snapshotSegment); // an earlier snapshot's
    BandImages.deleteBut(dir, snapshotSegment, false); // and any torn temporary
    for (Map.Entry<Long, Path> e : segments.headMap(snapshotSegment, true).entrySet()) {
      Files2.deleteIfExists(e.getValue());
    }
    lastSegment = Math.max(last, snapshotSegment);
  }

  /** A collection being loaded. */
  private static final class Pending {
    final int number;
    final String name;
    final CollectionSettings settings;
    final Analyzer analyzer;
    long nextDocId;

    Pending(int number, String name, CollectionSettings settings, Analyzer analyzer, long next) {
      this.number = number;
      this.name = name;
      this.settings = settings;
      this.analyzer = analyzer;
      this.nextDocId = next;
    }
  }

  private Pending define(
      Path file, int number, String name, String settingsText, String analyzerId, long nextDocId)
      throws IOException {
    CollectionSettings settings;
    Analyzer analyzer;
    try {
      settings = CollectionSettings.parse(settingsText, dictionaries::load);
      // The analyzer it was written with, an earlier release's included (Lexicon.legacy).
      analyzer = settings.deduplicatorFor(analyzerId).analyzer();
    } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
      throw new IOException(
          file + ": collection '" + name + "' cannot be opened: " + e.getMessage(), e);
    }
    if (!analyzer.id().equals(analyzerId)) {
      throw new IOException(
          file
              + ": collection '"
              + name
              + "' was written with analyzer '"
              + analyzerId
              + "' but this build analyses its settings as '"
              + analyzer.id()
              + "'; its fingerprints would not compare. Use the release (and dictionary) that"
              + " wrote it, or re-insert its documents into a new collection");
    }
    nextCollectionNumber = Math.max(nextCollectionNumber, number + 1);
    return new Pending(number, name, settings, analyzer, nextDocId);
  }

  private void loadSnapshot(
      Path file,
      long segment,
      long now,
      Map<Integer, Pending> pending,
      Map<Integer, Restorer> restorers)
      throws IOException {
    // Sketches stay in the snapshot's sketch file when every collection keeps its sketches in a
    // file (not on the heap); the records then come without them.
    boolean apart = sketchFiles.apply(0) != null;
    try (SnapshotFormat.Reader r = new SnapshotFormat.Reader(file, apart)) {
      List<Path> sketches = r.sketchFiles();
      listedSketches = sketches;
      for (SnapshotFormat.CollectionEntry e : r.collections()) {
        Pending p = define(file, e.number(), e.name(), e.settings(), e.analyzerId(), e.nextDocId());
        pending.put(e.number(), p);
        // Sized for what follows plus a quarter: the engine grows a page or a sub-table at a
        // time, and pre-sizing saves even that work while loading.
        int expected = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(1024, e.documents() * 5 / 4));
        Restorer restorer =
            new Restorer(
                p.settings, p.analyzer, expected, true, true, sketchFiles.apply(e.number()));
        restorer.deferIndex(); // one index build at finish, no merges after the open
        if (indexImages) {
          restorer.imageFrom(dir, segment, e.number()); // or read, if one is there
        }
        if (apart && !sketches.isEmpty()) {
          restorer.takeSketchesFrom(sketches);
        }
        restorer.beginSnapshot();
        restorers.put(e.number(), restorer);
      }
      while (r.next()) {
        byte[] body = r.body();
        int c = Bytes.getInt(body, LogFormat.COLLECTION);
        Restorer restorer = restorers.get(c);
        if (restorer == null) {
          throw new CorruptStoreException(
              file, "a document names collection number " + c + ", which the header does not list");
        }
        try {
          restorer.restore(body, r.length(), now, r.entryOffset(), r.entryLength());
        } catch (IllegalArgumentException | IllegalStateException e) {
          throw new CorruptStoreException(file, "a document does not decode: " + e.getMessage());
        }
      }
      for (Restorer restorer : restorers.values()) {
        restorer.endSnapshot();
      }
    }
  }

  private void replaySegment(
      Path file,
      long number,
      boolean newest,
      long now,
      Map<Integer, Pending> pending,
      Map<Integer, Restorer> restorers)
      throws IOException {
    long valid;
    String problem;
    boolean zeroTail;
    try (SegmentReader r = SegmentReader.open(file, number)) {
      while (r.next()) {
        apply(file, r.body(), r.length(), now, pending, restorers);
      }
      valid = r.offset();
      problem = r.problem();
      zeroTail = r.zeroTail();
      replayedBytes += Math.max(0, valid - LogFormat.HEADER_SIZE);
    }
    if (problem == null) {
      if (zeroTail) {
        // The zeros the log wrote ahead of itself before it stopped: not a torn record.
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
          ch.truncate(valid);
          ch.force(true);
        }
      }
      return;
    }
    long size = Files.size(file);
    if (!newest) {
      throw new CorruptStoreException(
          file,
          valid,
          problem
              + "; only the newest segment may end in a torn record, and this one is followed by"
              + " later segments");
    }
    cutTail(file, valid, size, problem);
  }

  /** Cuts a torn tail at {@code valid}, keeping the cut bytes beside the log for inspection. */
  private void cutTail(Path file, long valid, long size, String problem) throws IOException {
    Path kept = file.resolveSibling(file.getFileName() + ".cut-" + valid);
    try (FileChannel in =
            FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        OutputStream out = Files.newOutputStream(kept)) {
      java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocate((int) Math.min(size - valid, 1 << 20));
      in.position(valid);
      while (in.read(buf) > 0) {
        out.write(buf.array(), 0, buf.position());
        buf.clear();
      }
      in.truncate(valid < LogFormat.HEADER_SIZE ? 0 : valid);
      in.force(true);
    }
    if (valid < LogFormat.HEADER_SIZE) {
      Files.delete(file); // nothing valid in it, not even the header
    }
    truncatedBytes += size - valid;
    LOG.log(
        Level.WARNING,
        "{0}: cut {1} bytes of torn log tail at byte {2} ({3}); every record before it is kept,"
            + " the cut bytes are in {4}",
        file,
        size - valid,
        valid,
        problem,
        kept.getFileName());
  }

  private void apply(
      Path file,
      byte[] body,
      int length,
      long now,
      Map<Integer, Pending> pending,
      Map<Integer, Restorer> restorers)
      throws IOException {
    int c = Bytes.getInt(body, LogFormat.COLLECTION);
    switch (body[0]) {
      case LogFormat.CREATE:
        {
          String[] s = LogFormat.createStrings(body, length);
          Pending p = define(file, c, s[0], s[1], s[2], 0);
          pending.values().removeIf(q -> q.name.equals(p.name));
          pending.put(c, p);
          Restorer restorer =
              new Restorer(p.settings, p.analyzer, 1024, true, true, sketchFiles.apply(c));
          restorer.deferIndex();
          restorers.put(c, restorer);
          break;
        }
      case LogFormat.DROP:
        {
          pending.remove(c);
          Restorer dropped = restorers.remove(c);
          if (dropped != null) {
            dropped.discard(); // its sketch file
          }
          break;
        }
      case LogFormat.INSERT:
      case LogFormat.INSERT_V1:
        {
          Pending p = pending.get(c);
          if (p == null) {
            break;
          }
          long docId = Bytes.getLong(body, LogFormat.DOC_ID);
          p.nextDocId = Math.max(p.nextDocId, docId + 1);
          try {
            restorers.get(c).restore(body, length, now);
          } catch (IllegalArgumentException e) {
            throw new CorruptStoreException(
                file, "an insert record does not decode: " + e.getMessage());
          }
          break;
        }
      case LogFormat.DELETE:
        {
          Restorer r = restorers.get(c);
          if (r != null) {
            r.remove(Bytes.getLong(body, LogFormat.DOC_ID));
          }
          break;
        }
      default:
        throw new CorruptStoreException(file, "unknown record type " + body[0]);
    }
  }
}
