// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.neardup.Analysis;
import org.neardup.Analyzer;
import org.neardup.Deduplicator;
import org.neardup.Match;
import org.neardup.Verdict;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.CollectionStats;
import org.neardup.store.Document;
import org.neardup.store.Outcome;
import org.neardup.store.Outcome.Status;
import org.neardup.store.RemoteDecision;
import org.neardup.store.StoredDocument;

/**
 * A collection of the {@link EmbeddedStore}: a {@link Generation} in memory, made durable through
 * the store's log.
 *
 * <p>Thread-safety and order: writers (insert, delete, expiry, the swap at the end of a rebuild)
 * hold the write lock; readers (check, get, stats) the read lock. An insert runs in two phases: it
 * first {@linkplain Deduplicator#probe probes} the engine without this lock (the index search and
 * verification, the expensive part, so the probes of many requests run in parallel with each other
 * and with inserts; the engine locks what needs it), then decides with the engine from its probe
 * and appends its log record under the write lock, so the log holds decisions in the order they
 * were made. A probe from a generation a rebuild has replaced since is dropped and the decision
 * searches again. The insert waits for the log to acknowledge outside the lock, and because the log
 * acknowledges in order, an acknowledged duplicate's original is durable too.
 */
final class EmbeddedCollection implements Collection {
  /*
   * Invariants (under the write lock): every live slot of gen.docs is filed in gen.ids and held
   * by gen.engine; nextDocId > every docId ever used; minExpiresAt <= expiresAt of every live
   * slot; every slot below sweepFrom is not live. While rebuild != null, every change made to gen
   * after the cut is also queued in rebuild.pending, in order.
   */
  private static final int SWEEP_CHUNK = 1 << 14;
  private static final int REMOVE_CHUNK = 1 << 10;
  private static final int BATCH_CHUNK = 256;
  private static final int PROBE_GROUP = 16;

  private final EmbeddedStore store;
  final int number;
  private final String name;
  private final CollectionSettings settings;
  private final Analyzer analyzer;
  final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();

  // Volatile: probeAll reads it without the lock.
  private volatile Generation gen;
  private long nextDocId;
  private volatile boolean dropped;
  private @Nullable Rebuild rebuild;
  private long minExpiresAt = Long.MIN_VALUE;
  private long insertedMinExpiresAt = Long.MAX_VALUE;
  private int sweepFrom;
  private long lastAppend;

  private final LongAdder inserted = new LongAdder();
  private final LongAdder duplicates = new LongAdder();
  private final LongAdder checked = new LongAdder();
  private final LongAdder expired = new LongAdder();
  private final LongAdder deleted = new LongAdder();

  EmbeddedCollection(
      EmbeddedStore store,
      int number,
      String name,
      CollectionSettings settings,
      Analyzer analyzer,
      long nextDocId,
      Generation gen) {
    this.store = store;
    this.number = number;
    this.name = name;
    this.settings = settings;
    this.analyzer = analyzer;
    this.nextDocId = nextDocId;
    this.gen = gen;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public CollectionSettings settings() {
    return settings;
  }

  @Override
  public Analyzer analyzer() {
    return analyzer;
  }

  /**
   * The current generation's engine, for diagnostics (the benchmarks module's {@code CheckTime}).
   */
  Deduplicator engine() {
    return gen.engine;
  }

  // --- validation -------------------------------------------------------------------------

  private void checkOpen() {
    if (dropped) {
      throw new IllegalStateException("collection '" + name + "' was dropped");
    }
  }

  // --- check-and-insert ---------------------------------------------------------------------

  /** A validated document, its probe and its log record, made outside the lock. */
  private static final class Prepared {
    final Document doc;
    final byte[] id;
    final int hash;
    final long timestamp;
    final long expiresAt;

    /** Expired on arrival: checked, not stored, under the write lock. */
    final boolean expired;

    /** The engine's probe (phase 1) and the generation whose engine made it, or null. */
    Deduplicator.@Nullable Probe probe;

    @Nullable Generation probed;

    /** Its Insert record's body (see {@link #body}), or null until made. */
    private byte @Nullable [] body;

    Prepared(Document doc, byte[] id, long timestamp, long expiresAt, boolean expired) {
      this.doc = doc;
      this.id = id;
      this.hash = IdTable.hash(id, 0, id.length);
      this.timestamp = timestamp;
      this.expiresAt = expiresAt;
      this.expired = expired;
    }

    /**
     * The Insert record's body (without Joined), made once: from the probe's encoded analysis when
     * there is a probe, whose sketch bytes its insert stores too, so the sketch is encoded once.
     */
    byte[] body(int collection) {
      byte[] b = body;
      if (b == null) {
        Deduplicator.Probe p = probe;
        byte[] analysis = p != null ? p.encodedAnalysis() : doc.analysis().encode();
        b = LogFormat.insert(collection, timestamp, expiresAt, id, analysis);
        body = b;
      }
      return b;
    }
  }

  private Prepared prepare(Document d, int position, long now) {
    byte[] id = RemoteDecision.checkId(d.id(), position);
    RemoteDecision.checkAnalysis(d.analysis(), position);
    long ts = d.timestamp() == Document.NO_TIMESTAMP ? now : d.timestamp();
    long exp = settings.expiresAt(d.timestamp(), now);
    return new Prepared(d, id, ts, exp, exp <= now);
  }

  @Override
  public Outcome checkAndInsert(Document document) throws IOException {
    long[] position = new long[1];
    Outcome o = decide(document, position);
    if (position[0] > 0) {
      store.log().await(position[0]);
    }
    return o;
  }

  @Override
  public CompletableFuture<Outcome> checkAndInsertAsync(Document document) {
    long[] position = new long[1];
    Outcome o;
    try {
      o = decide(document, position);
    } catch (IOException e) {
      return CompletableFuture.failedFuture(e);
    }
    return position[0] > 0
        ? store.log().whenAcknowledged(position[0], o)
        : CompletableFuture.completedFuture(o);
  }

  /** Validates, decides and appends one document; sets position[0] to its record's end, if any. */
  private Outcome decide(Document document, long[] position) throws IOException {
    Prepared p = prepare(document, -1, store.clock().millis());
    probeAll(List.of(p));
    ReentrantReadWriteLock.WriteLock w = lock.writeLock();
    w.lock();
    try {
      checkOpen();
      lastAppend = 0;
      Outcome o = insertLocked(p);
      position[0] = lastAppend;
      return o;
    } finally {
      w.unlock();
    }
  }

  @Override
  public List<Outcome> checkAndInsertAll(List<Document> documents) throws IOException {
    long[] position = new long[1];
    List<Outcome> out = decideAll(documents, position);
    if (position[0] > 0) {
      store.log().await(position[0]);
    }
    return out;
  }

  @Override
  public CompletableFuture<List<Outcome>> checkAndInsertAllAsync(List<Document> documents) {
    return checkAndInsertAllAsync(documents, Parallel.CALLER);
  }

  @Override
  public CompletableFuture<List<Outcome>> checkAndInsertAllAsync(
      List<Document> documents, Parallel parallel) {
    return checkAndInsertAllAsync(documents, parallel, Function.identity());
  }

  @Override
  public <T> CompletableFuture<T> checkAndInsertAllAsync(
      List<Document> documents, Parallel parallel, Function<List<Outcome>, T> decided) {
    long[] position = new long[1];
    List<Outcome> out;
    try {
      out = decideAll(documents, position, parallel);
    } catch (IOException e) {
      return CompletableFuture.failedFuture(e);
    }
    // Asked for first, so the log thread forces the records while this thread runs decided.
    CompletableFuture<List<Outcome>> durable =
        position[0] > 0
            ? store.log().whenAcknowledged(position[0], out)
            : CompletableFuture.completedFuture(out);
    T value;
    try {
      value = decided.apply(out);
    } catch (RuntimeException e) {
      return durable.thenApply(
          o -> {
            throw e;
          });
    }
    return durable.thenApply(o -> value);
  }

  private List<Outcome> decideAll(List<Document> documents, long[] position) throws IOException {
    return decideAll(documents, position, Parallel.CALLER);
  }

  private List<Outcome> decideAll(List<Document> documents, long[] position, Parallel parallel)
      throws IOException {
    List<Prepared> prepared = prepareAndProbe(documents, parallel);
    List<Outcome> out = new ArrayList<>(documents.size());
    // Chunks keep other writers' latency low; the order within the list is kept.
    for (int from = 0; from < prepared.size(); from += BATCH_CHUNK) {
      int to = Math.min(prepared.size(), from + BATCH_CHUNK);
      ReentrantReadWriteLock.WriteLock w = lock.writeLock();
      w.lock();
      try {
        checkOpen();
        for (int i = from; i < to; i++) {
          lastAppend = 0;
          out.add(insertLocked(prepared.get(i)));
          position[0] = Math.max(position[0], lastAppend);
        }
      } finally {
        w.unlock();
      }
    }
    return out;
  }

  /**
   * Validates, probes and encodes the documents in groups of {@value #PROBE_GROUP}, the groups run
   * by {@code parallel}; throws the first invalid document's error (by position) once every group
   * has run, before anything is stored.
   */
  private List<Prepared> prepareAndProbe(List<Document> documents, Parallel parallel) {
    long now = store.clock().millis();
    int n = documents.size();
    Prepared[] prepared = new Prepared[n];
    int groups = (n + PROBE_GROUP - 1) / PROBE_GROUP;
    IllegalArgumentException[] invalid = new IllegalArgumentException[groups];
    parallel.run(
        groups,
        t -> {
          int from = t * PROBE_GROUP;
          int to = Math.min(n, from + PROBE_GROUP);
          try {
            for (int i = from; i < to; i++) {
              prepared[i] = prepare(documents.get(i), i, now);
            }
          } catch (IllegalArgumentException e) {
            invalid[t] = e; // the group's first; the batch fails, so its probes are not needed
            return;
          }
          probeAll(Arrays.asList(prepared).subList(from, to));
        });
    for (IllegalArgumentException e : invalid) {
      if (e != null) {
        throw e;
      }
    }
    return Arrays.asList(prepared);
  }

  /**
   * Phase 1 of an insert: the engine's probes, without this collection's lock, so that they run in
   * parallel with each other and with inserts (the engine locks what needs it, see {@link
   * Deduplicator#probeAll}); {@value #PROBE_GROUP} documents per call, so the engine takes its read
   * lock, when a group needs it, once per group. A probe of a generation that a rebuild replaces
   * meanwhile is redone by the decision ({@code p.probed}). Documents already expired are checked
   * under the write lock instead. Then each probed document's log record is made from its probe.
   */
  private void probeAll(List<Prepared> prepared) {
    int n = prepared.size();
    int group = Math.min(PROBE_GROUP, n);
    Analysis[] analyses = new Analysis[group];
    Deduplicator.Probe[] probes = new Deduplicator.Probe[group];
    int[] at = new int[group];
    for (int from = 0; from < n; ) {
      int k = 0;
      int i = from;
      for (; i < n && k < group; i++) {
        Prepared p = prepared.get(i);
        if (!p.expired) { // expired ones are checked under the write lock
          analyses[k] = p.doc.analysis();
          at[k++] = i;
        }
      }
      from = i;
      if (k == 0) {
        continue;
      }
      if (dropped) {
        return; // the decision reports it
      }
      Generation g = gen;
      g.engine.probeAll(analyses, 0, k, probes);
      for (int j = 0; j < k; j++) {
        Prepared p = prepared.get(at[j]);
        p.probe = probes[j];
        p.probed = g;
        p.body(number);
      }
    }
  }

  /** Decides and records one document; sets lastAppend when it appended a record. */
  private Outcome insertLocked(Prepared p) throws IOException {
    Generation g = gen;
    Analysis a = p.doc.analysis();
    int existing = g.find(p.id, p.hash);
    if (existing >= 0) {
      long docId = g.docId(existing);
      return new Outcome(
          Status.EXISTS,
          p.doc.id(),
          false,
          g.fingerprint(existing),
          g.idOf(g.engine.clusterOf(docId)),
          List.of());
    }
    if (p.expired) {
      Verdict v = g.engine.check(a);
      checked.increment();
      return outcome(g, Status.EXPIRED, p.doc.id(), v);
    }
    store.log().checkHealthy();
    long docId = nextDocId;
    Deduplicator.Probe probe = p.probe;
    Verdict v =
        probe != null && p.probed == g
            ? g.engine.checkAndInsert(docId, a, probe)
            : g.engine.checkAndInsert(docId, a);
    nextDocId++;
    g.add(docId, p.id, p.hash, p.timestamp, p.expiresAt);
    byte[] body = LogFormat.withJoined(p.body(number), v.joined());
    Bytes.putLong(body, LogFormat.DOC_ID, docId);
    Bytes.putLong(body, LogFormat.CLUSTER, v.cluster());
    lastAppend = store.log().append(body);
    Rebuild r = rebuild;
    if (r != null) {
      r.pending.add(
          new PendingInsert(docId, a, v.cluster(), v.joined(), p.id, p.timestamp, p.expiresAt));
    }
    minExpiresAt = Math.min(minExpiresAt, p.expiresAt);
    insertedMinExpiresAt = Math.min(insertedMinExpiresAt, p.expiresAt);
    inserted.increment();
    if (v.isDuplicate()) {
      duplicates.increment();
    }
    // A new document represents itself: its id needs no decoding.
    String cluster = v.cluster() == docId ? p.doc.id() : g.idOf(v.cluster());
    return new Outcome(
        Status.STORED, p.doc.id(), v.isNew(), v.fingerprint(), cluster, matches(g, v));
  }

  private static Outcome outcome(Generation g, Status status, @Nullable String id, Verdict v) {
    String cluster = v.cluster() < 0 ? null : g.idOf(v.cluster());
    return new Outcome(status, id, v.isNew(), v.fingerprint(), cluster, matches(g, v));
  }

  private static List<Outcome.Match> matches(Generation g, Verdict v) {
    if (v.matches().isEmpty()) {
      return List.of();
    }
    List<Outcome.Match> matches = new ArrayList<>(v.matches().size());
    for (Match m : v.matches()) {
      matches.add(new Outcome.Match(g.idOf(m.docId()), m.distance(), m.similarity()));
    }
    return matches;
  }

  // --- reads --------------------------------------------------------------------------------

  @Override
  public Outcome check(Analysis analysis) {
    RemoteDecision.checkAnalysis(analysis, -1);
    ReentrantReadWriteLock.ReadLock r = lock.readLock();
    r.lock();
    try {
      checkOpen();
      Generation g = gen;
      Verdict v = g.engine.check(analysis);
      checked.increment();
      return outcome(g, Status.CHECKED, null, v);
    } finally {
      r.unlock();
    }
  }

  @Override
  public Optional<StoredDocument> get(String id) {
    byte[] b = id.getBytes(StandardCharsets.UTF_8);
    int hash = IdTable.hash(b, 0, b.length);
    ReentrantReadWriteLock.ReadLock r = lock.readLock();
    r.lock();
    try {
      checkOpen();
      Generation g = gen;
      int slot = g.find(b, hash);
      if (slot < 0) {
        return Optional.empty();
      }
      long docId = g.docId(slot);
      return Optional.of(
          new StoredDocument(
              id,
              g.fingerprint(slot),
              g.docs.timestamp(slot),
              g.docs.expiresAt(slot),
              g.idOf(g.engine.clusterOf(docId))));
    } finally {
      r.unlock();
    }
  }

  @Override
  public boolean delete(String id) throws IOException {
    byte[] b = id.getBytes(StandardCharsets.UTF_8);
    int hash = IdTable.hash(b, 0, b.length);
    long position;
    ReentrantReadWriteLock.WriteLock w = lock.writeLock();
    w.lock();
    try {
      checkOpen();
      Generation g = gen;
      int slot = g.find(b, hash);
      if (slot < 0) {
        return false;
      }
      store.log().checkHealthy();
      long docId = g.docId(slot);
      g.remove(slot);
      position = store.log().append(LogFormat.delete(number, docId));
      queueRemoval(docId);
      deleted.increment();
    } finally {
      w.unlock();
    }
    store.log().await(position);
    return true;
  }

  private void queueRemoval(long docId) {
    Rebuild r = rebuild;
    if (r != null) {
      r.pending.add(docId);
    }
  }

  // --- retention ----------------------------------------------------------------------------

  @Override
  public int expire() {
    if (settings.retention().isZero()) {
      return 0;
    }
    long now = store.clock().millis();
    Generation g;
    int from;
    int to;
    ReentrantReadWriteLock.WriteLock w = lock.writeLock();
    w.lock();
    try {
      if (dropped || now < minExpiresAt) {
        return 0;
      }
      g = gen;
      from = sweepFrom;
      to = g.docs.slots();
      insertedMinExpiresAt = Long.MAX_VALUE;
    } finally {
      w.unlock();
    }
    // Scan under the read lock a chunk at a time, so writers wait microseconds, not the sweep.
    int[] victims = new int[64];
    int count = 0;
    long nextMin = Long.MAX_VALUE;
    int firstLive = -1;
    ReentrantReadWriteLock.ReadLock r = lock.readLock();
    for (int start = from; start < to; start += SWEEP_CHUNK) {
      int end = Math.min(to, start + SWEEP_CHUNK);
      r.lock();
      try {
        if (gen != g) {
          return 0; // a rebuild swapped generations; the next sweep starts over
        }
        for (int slot = start; slot < end; slot++) {
          if (!g.docs.isLive(slot)) {
            continue;
          }
          long e = g.docs.expiresAt(slot);
          if (e <= now) {
            if (count == victims.length) {
              victims = Arrays.copyOf(victims, count * 2);
            }
            victims[count++] = slot;
          } else {
            nextMin = Math.min(nextMin, e);
            if (firstLive < 0) {
              firstLive = slot;
            }
          }
        }
      } finally {
        r.unlock();
      }
    }
    int removed = 0;
    for (int i = 0; i < count || i == 0; i += REMOVE_CHUNK) {
      w.lock();
      try {
        if (gen != g || dropped) {
          return removed;
        }
        for (int j = i; j < Math.min(count, i + REMOVE_CHUNK); j++) {
          int slot = victims[j];
          if (g.docs.isLive(slot) && g.docs.expiresAt(slot) <= now) {
            g.remove(slot);
            queueRemoval(g.docId(slot));
            removed++;
          }
        }
        if (i + REMOVE_CHUNK >= count) {
          sweepFrom = firstLive < 0 ? to : firstLive;
          minExpiresAt = Math.min(nextMin, insertedMinExpiresAt);
        }
      } finally {
        w.unlock();
      }
    }
    expired.add(removed);
    return removed;
  }

  // --- stats --------------------------------------------------------------------------------

  @Override
  public CollectionStats stats() {
    ReentrantReadWriteLock.ReadLock r = lock.readLock();
    r.lock();
    try {
      Rebuild rb = rebuild;
      return new CollectionStats(
          gen.docs.live(),
          gen.ramBytesUsed() + (rb == null ? 0 : rb.restorer.ramBytesUsed()),
          inserted.sum(),
          duplicates.sum(),
          checked.sum(),
          expired.sum(),
          deleted.sum(),
          gen.docs.idArrayBytes(),
          gen.docs.idLengths());
    } finally {
      r.unlock();
    }
  }

  /** Slots of the current generation that hold removed documents. */
  int deadSlots() {
    ReentrantReadWriteLock.ReadLock r = lock.readLock();
    r.lock();
    try {
      return gen.docs.slots() - gen.docs.live();
    } finally {
      r.unlock();
    }
  }

  int liveDocuments() {
    ReentrantReadWriteLock.ReadLock r = lock.readLock();
    r.lock();
    try {
      return gen.docs.live();
    } finally {
      r.unlock();
    }
  }

  // --- store-side hooks ---------------------------------------------------------------------

  /** Marks the collection dropped; caller holds the write lock. */
  void markDropped() {
    assert lock.isWriteLockedByCurrentThread();
    dropped = true;
    if (rebuild != null) {
      rebuild.restorer.discard();
    }
    rebuild = null;
    gen.close();
  }

  /** Frees the generation's files when the store closes. */
  void closeGeneration() {
    lock.writeLock().lock();
    try {
      gen.close();
    } finally {
      lock.writeLock().unlock();
    }
  }

  boolean isDropped() {
    return dropped;
  }

  /**
   * Puts a generation built from imported records in place of this collection's, which must be
   * empty and never written to; later documents get DocIds from {@code next} on. For {@link
   * EmbeddedTransfer}, whose records are in the log already.
   */
  void load(Generation g, long next) {
    lock.writeLock().lock();
    try {
      checkOpen();
      if (nextDocId != 0 || gen.docs.slots() != 0) {
        throw new IllegalStateException("collection '" + name + "' is not empty");
      }
      gen = g;
      nextDocId = next;
      minExpiresAt = Long.MIN_VALUE; // the next sweep looks at everything once
      sweepFrom = 0;
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** The snapshot header entry; caller holds the write lock. */
  SnapshotFormat.CollectionEntry entry() {
    assert lock.isWriteLockedByCurrentThread();
    return new SnapshotFormat.CollectionEntry(
        number, nextDocId, gen.docs.live(), name, settings.toText(), analyzer.id());
  }

  /**
   * Starts a rebuild at the cut if enough of the generation is dead (or any is, when forced), or if
   * its scratch sketch file has reached {@code scratchBytes}; caller holds the write lock.
   *
   * <p>The scratch file holds the sketch of every document stored since the generation began (since
   * the open or the last rebuild), and a compaction copies them into its snapshot too: a service
   * that ran long without removals held its sketches twice on disk. A rebuild reads the new
   * snapshot's heads, leaves every sketch in the snapshot's files, and drops the scratch file.
   */
  boolean beginRebuild(boolean force, int minDead, long scratchBytes) {
    assert lock.isWriteLockedByCurrentThread();
    int live = gen.docs.live();
    int dead = gen.docs.slots() - live;
    boolean scratch = live > 0 && gen.sketchFileBytes() >= scratchBytes;
    if (!scratch && (dead == 0 || (!force && (dead < minDead || dead < live)))) {
      return false;
    }
    rebuild =
        new Rebuild(
            new Restorer(settings, analyzer, Math.max(1024, live), store.sketchFiles(number)),
            nextDocId);
    return true;
  }

  boolean isRebuilding() {
    return rebuild != null;
  }

  /**
   * For the snapshot: into {@code out[0, n)}, the representative of each live document of {@code
   * docIds[0, n)}, or -1 where it is not live (removed, expired, or the collection dropped). One
   * hold of the read lock for them all: a compaction asks for every stored document, and a lock per
   * document contended with the inserts.
   */
  void snapshotClusters(long[] docIds, int n, long now, long[] out) {
    ReentrantReadWriteLock.ReadLock r = lock.readLock();
    r.lock();
    try {
      if (dropped) {
        Arrays.fill(out, 0, n, -1);
        return;
      }
      Generation g = gen;
      g.engine.clustersOf(docIds, n, out);
      for (int i = 0; i < n; i++) {
        int slot = g.docs.slot(docIds[i]);
        if (slot < 0 || !g.docs.isLive(slot) || g.docs.expiresAt(slot) <= now) {
          out[i] = -1;
        }
      }
    } finally {
      r.unlock();
    }
  }

  /**
   * Readies the rebuild for the documents of the snapshot the compaction just wrote: their sketch
   * entries stay in that snapshot's {@code sketchFiles} (null: the documents come whole, for
   * sketches on the heap). Called by the compacting thread only.
   */
  void rebuildBeginSnapshot(@Nullable List<Path> sketchFiles) {
    Rebuild r = rebuild; // written under the write lock by the same compacting thread
    if (r != null) {
      if (sketchFiles != null) {
        r.restorer.takeSketchesFrom(sketchFiles);
      }
      r.restorer.beginSnapshot();
    }
  }

  /**
   * Feeds one document of the new snapshot to the rebuild (its head and its entry's place, or its
   * whole body when {@code entryOffset} is -1); the gathered documents go into the new generation
   * whenever they reach {@code batchBytes}, so the rebuild's batch is bounded in bytes whatever the
   * number of documents. Called by the compacting thread only.
   */
  void rebuildRestore(
      byte[] body, int length, long now, long entryOffset, int entryLength, long batchBytes) {
    Rebuild r = rebuild; // written under the write lock by the same compacting thread
    if (r != null && r.restorer.restore(body, length, now, entryOffset, entryLength)) {
      r.gathered += length;
      r.peak = Math.max(r.peak, r.gathered);
      if (r.gathered >= batchBytes) {
        r.restorer.flush();
        r.gathered = 0;
      }
    }
  }

  /** Ends {@link #rebuildBeginSnapshot}: every snapshot document has been fed. */
  void rebuildEndSnapshot() {
    Rebuild r = rebuild;
    if (r != null) {
      r.restorer.endSnapshot();
    }
  }

  /** The most record bytes the rebuild gathered before giving them to the new generation. */
  long rebuildPeakBytes() {
    Rebuild r = rebuild;
    return r == null ? 0 : r.peak;
  }

  void abortRebuild() {
    lock.writeLock().lock();
    try {
      if (rebuild != null) {
        rebuild.restorer.discard();
      }
      rebuild = null;
    } finally {
      lock.writeLock().unlock();
    }
  }

  /**
   * Applies what happened since the cut to the new generation, then swaps it in: most of the
   * catching up runs outside the lock, the last few changes and the swap under it.
   */
  void finishRebuild() {
    ReentrantReadWriteLock.WriteLock w = lock.writeLock();
    Rebuild first = rebuild; // written under the write lock by this same compacting thread
    if (first != null) {
      first.restorer.flush(); // the bulk of the engine's work, outside the lock
    }
    while (true) {
      List<Object> batch;
      Rebuild r;
      w.lock();
      try {
        r = rebuild;
        if (r == null) {
          return; // dropped meanwhile
        }
        batch = r.pending;
        r.pending = new ArrayList<>();
        if (batch.size() < 1024) {
          apply(r, batch);
          Generation next = r.restorer.finish(r.cut);
          Generation old = gen;
          gen = next;
          old.close();
          rebuild = null;
          sweepFrom = 0;
          minExpiresAt = Long.MIN_VALUE; // the next sweep looks at everything once
          return;
        }
      } finally {
        w.unlock();
      }
      apply(r, batch);
      r.restorer.flush();
    }
  }

  private void apply(Rebuild r, List<Object> ops) {
    long now = store.clock().millis();
    for (Object op : ops) {
      if (op instanceof PendingInsert) {
        PendingInsert p = (PendingInsert) op;
        r.restorer.restore(
            p.docId, p.analysis, p.cluster, p.joined, p.id, p.timestamp, p.expiresAt, now);
      } else {
        r.restorer.remove((Long) op);
      }
    }
  }

  /** A rebuild in progress: the new generation and the changes made since the cut. */
  private static final class Rebuild {
    final Restorer restorer;
    final long cut;
    List<Object> pending = new ArrayList<>();
    long gathered; // record bytes restored since the restorer's last flush
    long peak;

    Rebuild(Restorer restorer, long cut) {
      this.restorer = restorer;
      this.cut = cut;
    }
  }

  private record PendingInsert(
      long docId,
      Analysis analysis,
      long cluster,
      List<Long> joined,
      byte[] id,
      long timestamp,
      long expiresAt) {}

  @Override
  public String toString() {
    return "EmbeddedCollection[" + name + ", " + settings + "]";
  }
}
