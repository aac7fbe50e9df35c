// SPDX-License-Identifier: Apache-2.0
package org.neardup;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.jspecify.annotations.Nullable;
import org.neardup.decide.Decision;
import org.neardup.decide.MatchSet;
import org.neardup.decide.Verifier;
import org.neardup.fingerprint.FingerprintSettings;
import org.neardup.fingerprint.Fingerprinter;
import org.neardup.index.BlockScheme;
import org.neardup.index.HammingIndex;
import org.neardup.index.IndexImage;
import org.neardup.internal.Checks;
import org.neardup.text.Lexicon;
import org.neardup.verify.BandImage;
import org.neardup.verify.BandScheme;
import org.neardup.verify.ShingleSketch;
import org.neardup.verify.Shingler;
import org.neardup.verify.SketchStore;

/**
 * Checks each new text against everything stored and stores it in the same step.
 *
 * <p>A text is a near-duplicate of a stored one when, with verification on (the default), the
 * Jaccard similarity of their shingles reaches {@code threshold}; candidates come from the
 * fingerprint index (within {@code maxDistance} bits) and from MinHash band keys, never from a
 * scan. A {@link org.neardup.verify.HeadFilter} drops candidates far below the threshold from their
 * sixteen smallest shingle hashes before the full comparison (a pair at the threshold is lost about
 * once in a million). With verification off, a match is any stored fingerprint within {@code
 * maxDistance} bits. Clusters are the connected components of matches; each is represented by its
 * earliest member.
 *
 * <p>Thread-safe. {@link #checkAndInsert} is linearizable: of two near-duplicate texts inserted at
 * once from two threads, exactly one is new. Analysis (the expensive part: segmentation, hashing)
 * runs outside any lock. A check-and-insert then runs in two phases: a {@link #probe} searches the
 * index without a lock (the index allows readers alongside its one writer) and verifies candidates
 * under the read lock, taken only when there is something to verify, so probes of many threads run
 * in parallel with each other and their searches with inserts; the insert itself takes the write
 * lock only to look at what was stored or removed since its probe (usually a few hundred
 * fingerprints, scanned linearly) and to store the document. {@link #check} runs under the read
 * lock.
 *
 * <p>Memory per stored document: the index's bytes per fingerprint (34 for the default scheme), 8
 * for the fingerprint, 8 for the cluster, nothing for the docId when docIds arrive in increasing
 * order (runs of consecutive docIds, 12 bytes per run: see {@code DocIdTable}), otherwise 8 for the
 * docId and ~18 for the id map, and when verifying 11 to 21 per band key in the band index, and
 * what the {@link SketchStore} holds: on the heap by default, 8 per band key kept for removal, 8 of
 * bookkeeping and the encoded shingle sketch (see {@link ShingleSketch}). {@link #remove} frees the
 * index entries; the rest comes back on {@link #compact()}.
 *
 * <p>A composition of parts, each in a class of its own: the {@link Analyzer} (text to fingerprint
 * and sketch), {@link StoredDocuments} (what is stored, by ordinal, and its indexes), {@link
 * LocalCandidates} (the candidate search over those indexes), the shared {@link Decision} (the same
 * rules a networked store applies to the candidates it fetches), {@link Clustering} (unions and
 * representatives), {@link Compaction} (retention) and {@link Restoring} (snapshots and logs). This
 * class holds the lock and the two-phase check-and-insert.
 */
public final class Deduplicator {
  /** The default largest Hamming distance of a fingerprint match. */
  public static final int DEFAULT_MAX_DISTANCE = 3;

  /** The default Jaccard similarity at which two texts are near-duplicates. */
  public static final double DEFAULT_THRESHOLD = 0.8;

  /** The default number of matches reported per verdict. */
  public static final int DEFAULT_MAX_MATCHES = 100;

  /** The most fingerprints stored since a probe that an insert scans linearly (see there). */
  static final int DELTA_SCAN = LocalCandidates.DELTA_SCAN;

  /*
   * Documents get dense ordinals in arrival order; every per-document structure is addressed by
   * ordinal, and the fingerprint index and band index store ordinals, not docIds (see
   * StoredDocuments for the invariants). compact() replaces `docs` by a renumbered copy.
   *
   * Two phases (probe, then insert): a probe records `seen` and `epoch` = the number of
   * compactions, and the verified matches among ordinals below `seen`. It reads epoch, then `docs`,
   * then docs.published as seen, without a lock, and searches docs.index, keeping candidates below
   * seen: store() writes `published` after the index holds the ordinal, so the search sees every
   * ordinal below seen (the index shows every entry whose add completed before the search began);
   * compact() writes `docs` then epoch last, so a probe that read the new epoch reads the new
   * documents. Candidates (and band-index lookups below seen) are verified under the read lock,
   * checking first that epoch has not moved; a probe with no candidates and nothing to verify takes
   * no lock. A candidate removed after the search is skipped by the verification or caught by the
   * insert. Ordinals are never reused and stored documents never change, so at the insert (write
   * lock) the matches among all live ordinals are: the probe's matches that are still live, plus
   * the matches among ordinals in [seen, count) (the delta), found by a linear scan of their
   * fingerprints and a band-index lookup restricted to them. If a compaction renumbered the
   * ordinals (epoch differs) or one of the probe's matches was removed since (the probe may have
   * skipped verifying candidates of that match's cluster, see MatchSet.canSkip), the insert finds
   * everything again under the write lock. The verdict is therefore the one a single search under
   * the write lock would give; the write lock is the linearization point.
   */

  private final Analyzer analyzer;
  private final int maxDistance;
  private final double threshold;
  private final Decision decision;
  private final boolean verify;
  private final int bandCount;
  private final SketchStore.Factory sketchStores;

  /** What is stored; replaced by compact(). Volatile: probes read it without a lock. */
  private volatile StoredDocuments docs;

  /** The number of compactions so far: a probe made before one is stale (ordinals renumbered). */
  private volatile long epoch;

  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final ThreadLocal<Scratch> scratch;

  private Deduplicator(Builder b, Analyzer analyzer) {
    this.analyzer = analyzer;
    this.maxDistance = b.maxDistance;
    this.threshold = b.threshold;
    this.verify = b.verify;
    this.decision = new Decision(new Verifier(b.maxDistance, b.threshold, b.verify), b.maxMatches);
    this.bandCount = analyzer.shingler() == null ? 0 : analyzer.shingler().bands().bands();
    this.sketchStores = b.sketchStores;
    this.docs =
        new StoredDocuments(
            b.scheme, bandCount, verify, newSketchStore(b.expectedSize), b.expectedSize);
    HammingIndex index = docs.index;
    if (maxDistance > index.maxSupportedDistance()) {
      docs.sketches.close();
    }
    Checks.checkArgument(
        maxDistance <= index.maxSupportedDistance(),
        "maxDistance must be in [0, %s], got %s",
        index.maxSupportedDistance(),
        maxDistance);
    this.scratch = ThreadLocal.withInitial(() -> new Scratch(decision));
  }

  /** The builder's sketch store when verifying; an empty heap one (never used) when not. */
  private SketchStore newSketchStore(int expected) {
    return verify ? sketchStores.create(bandCount, expected) : SketchStore.onHeap().create(0, 0);
  }

  /** A builder with every default: jieba, k = 3, verification at Jaccard 0.8. */
  public static Builder builder() {
    return new Builder();
  }

  public Analyzer analyzer() {
    return analyzer;
  }

  public int maxDistance() {
    return maxDistance;
  }

  public double threshold() {
    return threshold;
  }

  public boolean verifies() {
    return verify;
  }

  /**
   * Checks {@code text} against every stored document and stores it under {@code docId}.
   *
   * @throws IllegalArgumentException if the text has no letters or digits, or docId is already
   *     stored; nothing is stored then
   */
  public Verdict checkAndInsert(long docId, CharSequence text) {
    Objects.requireNonNull(text, "text");
    return checkAndInsert(docId, analyzer.analyze(text));
  }

  /**
   * As {@link #checkAndInsert(long, CharSequence)} for a text already analysed by {@link
   * #analyzer()}.
   */
  public Verdict checkAndInsert(long docId, Analysis analysis) {
    return checkAndInsert(docId, analysis, probe(analysis));
  }

  /**
   * Into s.matches: the stored documents among ordinals {@code >= from} whose similarity passes,
   * candidates verified; under either lock.
   */
  private void searchVerified(StoredDocuments d, Analysis analysis, Scratch s, int from) {
    s.candidates.gather(d, analysis, maxDistance, from);
    verifyCandidates(analysis, s);
  }

  /** Appends to s.matches the near-duplicates among s's candidates (the shared decision). */
  private void verifyCandidates(Analysis analysis, Scratch s) {
    decision.verify(analysis, s.candidates, s.matches, s.slice);
    s.candidates.release();
  }

  /**
   * The first phase of a check-and-insert: searches the index and verifies the candidates among the
   * documents stored now, under the read lock, so that probes of many threads run in parallel (and
   * with {@link #check}). It stores nothing; {@link #checkAndInsert(long, Analysis, Probe)}
   * finishes the insert. Costs what a {@link #check} costs.
   *
   * @throws IllegalArgumentException if the analysis is empty or made with other settings
   */
  public Probe probe(Analysis analysis) {
    Probe[] out = new Probe[1];
    probeAll(new Analysis[] {analysis}, 0, 1, out);
    return out[0];
  }

  /**
   * {@link #probe} for {@code analyses[from, to)} into {@code out[from, to)}, under one hold of the
   * read lock: a writer may wait for the whole group, so keep groups small (a few tens).
   *
   * @throws IllegalArgumentException if an analysis is empty or made with other settings; no probe
   *     is made then
   */
  public void probeAll(Analysis[] analyses, int from, int to, Probe[] out) {
    Objects.checkFromToIndex(from, to, analyses.length);
    Objects.checkFromToIndex(from, to, out.length);
    for (int i = from; i < to; i++) {
      checkAnalysis(analyses[i]);
    }
    checkIndexed(docs);
    // Before any lock: the inserts that take these probes run one at a time (the embedded store
    // holds its collection lock across them), and there the encoding was 4 of a warm server's 24
    // insert samples per short text (docs/BENCHMARKS.md, the seventeenth session).
    byte[][] encoded = new byte[to - from][];
    if (verify) {
      for (int i = from; i < to; i++) {
        encoded[i - from] = analyses[i].sketch().shingles().encode();
      }
    }
    Scratch s = scratch.get();
    // Without a lock: the index searches (most of a probe's cost), which the index allows
    // concurrently with its one writer. Read in this order, see the design note.
    long e = epoch;
    StoredDocuments d = docs;
    int seen = d.published;
    LocalCandidates.Group group = s.candidates.group;
    group.search(d.index, analyses, from, to, maxDistance, seen);
    if (!verify && group.total() == 0) {
      s.matches.clear();
      for (int i = from; i < to; i++) {
        out[i] = new Probe(this, analyses[i], seen, e, s, encoded[i - from]);
      }
      return;
    }
    ReentrantReadWriteLock.ReadLock r = lock.readLock();
    r.lock();
    try {
      if (epoch != e) { // a compaction renumbered the ordinals meanwhile: search again
        StoredDocuments now = docs;
        for (int i = from; i < to; i++) {
          s.matches.clear();
          searchVerified(now, analyses[i], s, 0);
          out[i] = new Probe(this, analyses[i], now.count, epoch, s, encoded[i - from]);
        }
        return;
      }
      for (int i = from; i < to; i++) {
        s.matches.clear();
        s.candidates.fromGroup(d, i - from, analyses[i], seen);
        verifyCandidates(analyses[i], s);
        out[i] = new Probe(this, analyses[i], seen, e, s, encoded[i - from]);
      }
    } finally {
      r.unlock();
    }
  }

  /**
   * Checks {@code analysis} against every stored document and stores it under {@code docId}, from a
   * {@link #probe} of the same analysis made earlier by any thread: under the write lock it only
   * examines what was stored or removed since the probe, which costs a linear scan of the
   * fingerprints stored since (up to {@value #DELTA_SCAN}, then an index search restricted to them)
   * and a band-index lookup. The verdict is exactly the one {@link #checkAndInsert(long, Analysis)}
   * would give at this moment, however old the probe (a probe older than a {@link #compact()}, or
   * one whose match was removed since, is redone under the write lock), so check-and-insert stays
   * linearizable.
   *
   * @throws IllegalArgumentException if the probe was made by another deduplicator or for another
   *     analysis, or as {@link #checkAndInsert(long, CharSequence)}; nothing is stored then
   */
  public Verdict checkAndInsert(long docId, Analysis analysis, Probe probe) {
    Objects.requireNonNull(probe, "probe");
    Checks.checkArgument(
        probe.owner == this && probe.analysis == analysis,
        "the probe was made %s",
        probe.owner == this ? "for another analysis" : "by another deduplicator");
    byte[] encoded = probe.encoded; // this analysis's (checked above), encoded when it was probed
    ReentrantReadWriteLock.WriteLock w = lock.writeLock();
    w.lock();
    try {
      StoredDocuments d = docs;
      checkIndexed(d);
      Scratch s = scratch.get();
      if (!catchUp(d, analysis, probe, s)) {
        s.matches.clear();
        searchVerified(d, analysis, s, 0);
      }
      MatchSet found = s.matches;
      List<Match> matches = report(d, found);
      List<Long> joined = Clustering.joined(d, found);
      int ordinal = d.store(docId, analysis, encoded);
      long cluster = Clustering.join(d, ordinal, found);
      return new Verdict(found.isEmpty(), analysis.fingerprint(), cluster, matches, joined);
    } finally {
      w.unlock();
    }
  }

  /**
   * Under the write lock: fills s with the matches among every live ordinal from the probe's
   * matches and the delta since it; false when the probe is stale and everything must be found
   * again (see the design note).
   */
  private boolean catchUp(StoredDocuments d, Analysis analysis, Probe probe, Scratch s) {
    if (probe.epoch != epoch) {
      return false;
    }
    s.matches.clear();
    MatchSet earlier = probe.matches;
    for (int i = 0; i < earlier.size(); i++) {
      int o = (int) earlier.ordinal(i);
      if (d.removed.get(o)) {
        return false;
      }
      s.matches.add(o, d.root(o), earlier.distance(i), earlier.similarity(i));
    }
    if (probe.seen < d.count) {
      searchVerified(d, analysis, s, probe.seen);
    }
    return true;
  }

  /**
   * Stores an analysis without checking it, for rebuilding a deduplicator from a log or snapshot in
   * the original insertion order: the document joins the clusters of every docId in {@code joined}
   * that is stored (a verdict's {@link Verdict#joined()}). Nothing is verified, so restoring N
   * documents costs N index inserts.
   *
   * @throws IllegalArgumentException if docId is already stored or the analysis is empty
   */
  public void restore(long docId, Analysis analysis, long[] joined) {
    checkAnalysis(analysis);
    byte[] encoded = verify ? analysis.sketch().shingles().encode() : null;
    ReentrantReadWriteLock.WriteLock w = lock.writeLock();
    w.lock();
    try {
      checkIndexed(docs);
      Restoring.restore(docs, docId, analysis, encoded, joined);
    } finally {
      w.unlock();
    }
  }

  /**
   * As {@link #restore(long, Analysis, long[])} with one link; kept for callers that log only the
   * verdict's cluster.
   */
  public void restore(long docId, Analysis analysis, long clusterDocId) {
    restore(docId, analysis, new long[] {clusterDocId});
  }

  /** An empty batch for {@link #restoreAll(RestoreBatch)} with this deduplicator's settings. */
  public RestoreBatch newRestoreBatch() {
    return new RestoreBatch(bandCount, verify);
  }

  /**
   * As {@link #restore(long, Analysis, long[])} for each document in turn, in one step: {@code
   * joined[i]} are the links of {@code docIds[i]}.
   *
   * @throws IllegalArgumentException if the arrays' lengths differ, or as {@link
   *     #restoreAll(RestoreBatch)}; nothing is stored then
   */
  public void restoreAll(long[] docIds, Analysis[] analyses, long[][] joined) {
    Checks.checkArgument(
        docIds.length == analyses.length && docIds.length == joined.length,
        "docIds, analyses and joined must have one entry per document, got %s, %s and %s",
        docIds.length,
        analyses.length,
        joined.length);
    RestoreBatch batch = newRestoreBatch();
    for (int i = 0; i < docIds.length; i++) {
      batch.add(docIds[i], analyses[i], joined[i]);
    }
    restoreAll(batch);
  }

  /**
   * Stores a batch of documents without checking them, with the meaning of calling {@link
   * #restore(long, Analysis, long[])} on each in batch order (the same clusters and
   * representatives, the same verdicts afterwards), but in bulk: the fingerprint index gets the
   * whole batch as one sorted segment ({@link HammingIndex#addAll}), several million documents per
   * second, where one-by-one restores cost about 1.4 us each at 10M documents. A link to a document
   * later in the batch is ignored, as a one-by-one restore would.
   *
   * <p>Holds the write lock for the whole batch; the batch can be reused after {@link
   * RestoreBatch#clear()}.
   *
   * @throws IllegalArgumentException if the batch was made by a deduplicator with other settings,
   *     or a docId is already stored or appears twice in the batch; nothing is stored then
   */
  public void restoreAll(RestoreBatch batch) {
    Objects.requireNonNull(batch, "batch");
    Checks.checkArgument(
        batch.bands == bandCount && batch.verify == verify,
        "the batch was made for %s band keys and verify = %s, this deduplicator uses %s and %s",
        batch.bands,
        batch.verify,
        bandCount,
        verify);
    if (batch.size == 0) {
      return;
    }
    ReentrantReadWriteLock.WriteLock w = lock.writeLock();
    w.lock();
    try {
      Restoring.restoreAll(docs, batch);
    } finally {
      w.unlock();
    }
  }

  /**
   * Makes the following {@link #restoreAll(RestoreBatch)} calls leave the fingerprint index alone
   * until {@link #indexDeferred()}, which indexes all their documents in one sorted segment. For
   * opening a store, which restores batch after batch: a segment per batch and the background
   * merges that join them rewrite every entry two or three times more (at 10M documents: segments
   * of 4M, 4M and 2M, merged into 8M and then 10M, the last merge still running when the store was
   * ready).
   *
   * <p>Until {@link #indexDeferred()}, only {@link #restoreAll(RestoreBatch)}, {@link #remove} and
   * the lookups by docId may be called: a check, probe, insert, single restore or compaction throws
   * {@link IllegalStateException}, as the index lacks the restored documents. Does nothing if
   * already deferring.
   */
  public void deferIndexing() {
    ReentrantReadWriteLock.WriteLock w = lock.writeLock();
    w.lock();
    try {
      docs.deferIndexing();
    } finally {
      w.unlock();
    }
  }

  /**
   * Ends {@link #deferIndexing()}: indexes every live document restored since, in one segment built
   * in the caller's thread, and allows checks and inserts again. Does nothing unless deferring.
   */
  public void indexDeferred() {
    ReentrantReadWriteLock.WriteLock w = lock.writeLock();
    w.lock();
    try {
      docs.indexDeferred();
    } finally {
      w.unlock();
    }
  }

  /**
   * As {@link #indexDeferred()}, but the documents restored first take their index entries from
   * {@code image} instead of a sort: the image must hold, at position i, the fingerprint of the
   * i-th document restored since {@link #deferIndexing()} (after {@link IndexImage#renumber} for
   * the documents the caller did not restore), which a sample of its entries is checked against.
   * Documents removed since they were restored are removed from it; the ones restored after it are
   * indexed as {@link #indexDeferred()} does. The answers are those {@link #indexDeferred()} gives.
   *
   * @return whether the image was used; when false nothing changed and the caller calls {@link
   *     #indexDeferred()}
   */
  public boolean indexDeferred(IndexImage image) {
    ReentrantReadWriteLock.WriteLock w = lock.writeLock();
    w.lock();
    try {
      return docs.indexDeferred(image);
    } finally {
      w.unlock();
    }
  }

  /**
   * Makes the following {@link #restoreAll(RestoreBatch)} calls leave the band index alone until
   * {@link #bandsFromImage} or {@link #fileDeferredBands()} (or {@link #indexDeferred()}, which
   * files them first): for opening a store that has an image of the band index beside its snapshot.
   * Only before the first restore, after {@link #deferIndexing()}; does nothing without
   * verification.
   *
   * @throws IllegalStateException if documents were restored already or indexing is not deferred
   */
  public void deferBands() {
    ReentrantReadWriteLock.WriteLock w = lock.writeLock();
    w.lock();
    try {
      docs.deferBands();
    } finally {
      w.unlock();
    }
  }

  /**
   * Ends {@link #deferBands()} by taking the band index of the documents restored since from {@code
   * image}: its position i (after {@link BandImage#renumber} for the documents the caller did not
   * restore) must be the i-th document restored, and it must name every restored document.
   *
   * @return whether the image was used; when false nothing changed and the caller calls {@link
   *     #fileDeferredBands()}
   */
  public boolean bandsFromImage(BandImage image) {
    ReentrantReadWriteLock.WriteLock w = lock.writeLock();
    w.lock();
    try {
      return docs.bandsFromImage(image);
    } finally {
      w.unlock();
    }
  }

  /**
   * Ends {@link #deferBands()} by filing the band keys of every document restored since, read back
   * from the sketch store. Does nothing unless deferring.
   */
  public void fileDeferredBands() {
    ReentrantReadWriteLock.WriteLock w = lock.writeLock();
    w.lock();
    try {
      docs.fileDeferredBands();
    } finally {
      w.unlock();
    }
  }

  /**
   * The fingerprint index's live entries: the live documents' count once indexed (the invariant
   * that the index holds live ordinals only, which tests check; a removed ordinal left in it would
   * not change a verdict).
   */
  long indexedEntries() {
    return docs.index.size();
  }

  private static void checkIndexed(StoredDocuments d) {
    if (d.unindexedFrom >= 0) {
      throw new IllegalStateException(
          "the fingerprint index lacks the documents restored since deferIndexing(): call"
              + " indexDeferred() first");
    }
  }

  /**
   * Rebuilds every structure without the removed documents, so their memory comes back: {@link
   * #remove} only marks a document's ordinal removed, and its slots stay until this call.
   *
   * <p>Afterwards the same docIds are stored, every verdict is the same, and so are the clusters,
   * with one rule for the representatives: a cluster is represented by its earliest
   * <em>surviving</em> member. (Before compaction a removed representative keeps representing its
   * cluster; compaction forgets removed documents, so their ids stop appearing as representatives.)
   * Live documents keep their relative order, so "earliest" keeps its meaning.
   *
   * <p>Cost: time proportional to the live documents (the index is rebuilt in bulk, as by {@link
   * #restoreAll}), and the new structures are built beside the old ones, so memory peaks at about
   * twice the live documents' share. Holds the write lock throughout: checks and inserts wait. For
   * a service that cannot pause, rebuild a new deduplicator aside (as the embedded store does) and
   * swap it in.
   *
   * @return the number of removed documents whose slots were freed
   */
  public int compact() {
    ReentrantReadWriteLock.WriteLock w = lock.writeLock();
    w.lock();
    try {
      StoredDocuments old = docs;
      checkIndexed(old);
      int dropped = old.count - old.live;
      if (dropped == 0) {
        return 0;
      }
      docs = Compaction.compact(old, newSketchStore(old.live));
      epoch++; // last: a probe that reads the new epoch sees everything above
      // No reader holds the old store: readers read it under the lock, and this holds it.
      old.sketches.close();
      return dropped;
    } finally {
      w.unlock();
    }
  }

  /** Checks {@code text} against every stored document; stores nothing. */
  public Verdict check(CharSequence text) {
    return check(analyzer.analyze(text));
  }

  /** As {@link #check(CharSequence)} for a text already analysed. */
  public Verdict check(Analysis analysis) {
    checkAnalysis(analysis);
    ReentrantReadWriteLock.ReadLock r = lock.readLock();
    r.lock();
    try {
      StoredDocuments d = docs;
      checkIndexed(d);
      Scratch s = scratch.get();
      s.matches.clear();
      searchVerified(d, analysis, s, 0);
      List<Match> matches = report(d, s.matches);
      List<Long> joined = Clustering.joined(d, s.matches);
      // The earliest representative would represent the text had it been stored.
      long cluster = joined.isEmpty() ? -1 : joined.get(0);
      return new Verdict(s.matches.isEmpty(), analysis.fingerprint(), cluster, matches, joined);
    } finally {
      r.unlock();
    }
  }

  /**
   * Forgets a stored document: it stops matching and its index entries are freed. Its cluster keeps
   * its other members (and its representative id).
   *
   * @return whether the docId was stored
   */
  public boolean remove(long docId) {
    ReentrantReadWriteLock.WriteLock w = lock.writeLock();
    w.lock();
    try {
      return docs.remove(docId);
    } finally {
      w.unlock();
    }
  }

  /** Whether docId is stored. */
  public boolean contains(long docId) {
    return ordinalOf(docId) >= 0;
  }

  /**
   * The ordinal of a stored docId, or -1: the position of its insert among the stored documents,
   * until the next compaction renumbers them (keeping their order). For tests.
   */
  int ordinalOf(long docId) {
    ReentrantReadWriteLock.ReadLock r = lock.readLock();
    r.lock();
    try {
      return docs.ids.get(docId);
    } finally {
      r.unlock();
    }
  }

  /**
   * The fingerprint of a stored docId, for a store that keeps no copy of its own.
   *
   * @throws IllegalArgumentException if docId is not stored
   */
  public long fingerprintOf(long docId) {
    ReentrantReadWriteLock.ReadLock r = lock.readLock();
    r.lock();
    try {
      int ordinal = docs.ids.get(docId);
      Checks.checkArgument(ordinal >= 0, "docId %s is not stored", docId);
      return docs.fingerprints.get(ordinal);
    } finally {
      r.unlock();
    }
  }

  /** The cluster representative of a stored docId, or -1 when it is not stored. */
  public long clusterOf(long docId) {
    ReentrantReadWriteLock.ReadLock r = lock.readLock();
    r.lock();
    try {
      return docs.representative(docId);
    } finally {
      r.unlock();
    }
  }

  /**
   * {@link #clusterOf} for {@code docIds[0, n)} into {@code out[0, n)}, under one hold of the read
   * lock (a compaction looks up every stored document; a lock per document made it contend with the
   * inserts it runs beside). Fastest when the docIds come in ordinal order, as a snapshot lists
   * them (see {@link Clustering#representatives}).
   */
  public void clustersOf(long[] docIds, int n, long[] out) {
    Objects.checkFromToIndex(0, n, docIds.length);
    Objects.checkFromToIndex(0, n, out.length);
    ReentrantReadWriteLock.ReadLock r = lock.readLock();
    r.lock();
    try {
      Clustering.representatives(docs, docIds, n, out);
    } finally {
      r.unlock();
    }
  }

  /** Band keys per document when verifying (the band scheme's bands), else 0. */
  public int bandCount() {
    return verify ? bandCount : 0;
  }

  /** The number of stored documents. */
  public int size() {
    return docs.live;
  }

  /** Heap bytes of the index, band keys, sketches and bookkeeping. */
  public long ramBytesUsed() {
    ReentrantReadWriteLock.ReadLock r = lock.readLock();
    r.lock();
    try {
      return docs.ramBytesUsed();
    } finally {
      r.unlock();
    }
  }

  private void checkAnalysis(Analysis analysis) {
    Objects.requireNonNull(analysis, "analysis");
    Checks.checkArgument(!analysis.isEmpty(), "text has no letters or digits");
    if (verify) {
      Checks.checkArgument(
          analysis.sketch().bandKeys().length == bandCount,
          "the analysis has %s band keys, this deduplicator uses %s: it was made with other settings",
          analysis.sketch().bandKeys().length,
          bandCount);
    }
  }

  /** The matches a verdict lists (see {@link MatchSet#reported()}) as Match records. */
  private static List<Match> report(StoredDocuments d, MatchSet m) {
    if (m.isEmpty()) {
      return List.of();
    }
    int[] order = m.reported();
    Match[] out = new Match[order.length];
    for (int j = 0; j < order.length; j++) {
      int i = order[j];
      out[j] = new Match(d.ids.docId((int) m.ordinal(i)), m.distance(i), m.similarity(i));
    }
    return List.of(out);
  }

  /**
   * The first phase of a check-and-insert ({@link #probe}): the verified matches among the
   * documents stored when it ran. Immutable; holds a reference to its analysis and its encoded
   * shingles. Made by one thread, it may be used by another once published safely.
   */
  public static final class Probe {
    final Deduplicator owner;
    final Analysis analysis;
    final int seen;
    final long epoch;
    final MatchSet matches;

    /**
     * The analysis's shingles as the insert stores them ({@code ShingleSketch.encode}), or null
     * without verification: encoded by the probing thread, so that the insert, which a store runs
     * one at a time under its own lock, does not encode them too.
     */
    final byte @Nullable [] encoded;

    Probe(
        Deduplicator owner,
        Analysis analysis,
        int seen,
        long epoch,
        Scratch s,
        byte @Nullable [] encoded) {
      this.owner = owner;
      this.analysis = analysis;
      this.seen = seen;
      this.epoch = epoch;
      this.matches = s.matches.isEmpty() ? s.empty : s.matches.copy();
      this.encoded = encoded;
    }

    /** Whether the probe found a near-duplicate among the documents stored when it ran. */
    public boolean foundAny() {
      return !matches.isEmpty();
    }

    /**
     * The stored form of the probe's analysis, byte for byte {@link Analysis#encode()}, made with
     * the shingles the probe encoded for the insert: a store that logs the analysis beside the
     * insert encodes its sketch once, not twice (the second encoding was ~1.7% of a news text's
     * worker CPU in the embedded store, docs/BENCHMARKS.md).
     */
    public byte[] encodedAnalysis() {
      return encoded == null ? analysis.encode() : analysis.encode(encoded);
    }
  }

  /** Per-thread candidate and match buffers. */
  private static final class Scratch {
    final LocalCandidates candidates;
    final MatchSet matches;

    /** Where a candidate's sketch is read to. */
    final SketchStore.Slice slice = new SketchStore.Slice();

    /** An empty match set, shared by the probes that found nothing. */
    final MatchSet empty;

    Scratch(Decision decision) {
      candidates = new LocalCandidates();
      matches = decision.newMatchSet();
      empty = decision.newMatchSet();
    }
  }

  /** Configures a {@link Deduplicator}. */
  public static final class Builder {
    private @Nullable FingerprintSettings settings;
    private String lexicon = "jieba";
    private int maxDistance = DEFAULT_MAX_DISTANCE;
    private double threshold = DEFAULT_THRESHOLD;
    private boolean verify = true;
    private boolean foldNumbers = false;
    private int sketchCapacity = Shingler.DEFAULT_CAPACITY;
    private @Nullable BandScheme bandScheme;
    private BlockScheme scheme = BlockScheme.DEFAULT;
    private int maxMatches = DEFAULT_MAX_MATCHES;
    private int expectedSize = 1024;
    private SketchStore.Factory sketchStores = SketchStore.onHeap();

    private Builder() {}

    /**
     * Where sketches and band keys are kept (see {@link SketchStore}); on the Java heap by default.
     * A compaction creates a new store and closes the old one.
     */
    public Builder sketchStores(SketchStore.Factory factory) {
      this.sketchStores = Objects.requireNonNull(factory, "factory");
      return this;
    }

    /**
     * Fingerprint settings; by default those of {@link FingerprintSettings#builder(Lexicon)} for
     * the lexicon.
     */
    public Builder fingerprintSettings(FingerprintSettings settings) {
      this.settings = Objects.requireNonNull(settings, "settings");
      return this;
    }

    /** The lexicon (Chinese segmenter and IDF) by name; {@code jieba} by default. */
    public Builder lexicon(String name) {
      this.lexicon = Objects.requireNonNull(name, "name");
      return this;
    }

    /**
     * k: the largest Hamming distance of a fingerprint candidate (and match, without verification).
     */
    public Builder maxDistance(int k) {
      Checks.checkArgument(k >= 0 && k <= 64, "maxDistance must be in [0, 64], got %s", k);
      this.maxDistance = k;
      return this;
    }

    /** The Jaccard similarity at which two texts are near-duplicates; turns verification on. */
    public Builder threshold(double threshold) {
      Checks.checkArgument(
          threshold > 0 && threshold <= 1, "threshold must be in (0, 1], got %s", threshold);
      this.threshold = threshold;
      this.verify = true;
      return this;
    }

    /**
     * Whether to verify candidates (on by default); off means fingerprint distance alone decides.
     */
    public Builder verify(boolean verify) {
      this.verify = verify;
      return this;
    }

    /**
     * Whether every digit counts as 0 in verification, so texts that differ only in counters, dates
     * or times match; off by default (digits are content).
     */
    public Builder foldNumbers(boolean fold) {
      this.foldNumbers = fold;
      return this;
    }

    /** Shingle hashes kept per document for verification; 512 by default. */
    public Builder sketchCapacity(int capacity) {
      Checks.checkArgument(
          capacity >= 16 && capacity <= 1 << 20,
          "sketchCapacity must be in [16, 1048576], got %s",
          capacity);
      this.sketchCapacity = capacity;
      return this;
    }

    /** MinHash banding; by default derived from the threshold. */
    public Builder bands(BandScheme bands) {
      this.bandScheme = Objects.requireNonNull(bands, "bands");
      return this;
    }

    public Builder scheme(BlockScheme scheme) {
      this.scheme = Objects.requireNonNull(scheme, "scheme");
      return this;
    }

    /** At most this many matches are listed in a verdict (all are used for clustering). */
    public Builder maxMatches(int maxMatches) {
      Checks.checkArgument(maxMatches >= 1, "maxMatches must be >= 1, got %s", maxMatches);
      this.maxMatches = maxMatches;
      return this;
    }

    /** Pre-sizes the structures. */
    public Builder expectedSize(int n) {
      Checks.checkArgument(n >= 0, "expectedSize must be >= 0, got %s", n);
      this.expectedSize = n;
      return this;
    }

    /** The analyzer these settings describe, without building a deduplicator. */
    public Analyzer analyzer() {
      FingerprintSettings s =
          settings != null ? settings : FingerprintSettings.builder(Lexicon.load(lexicon)).build();
      Shingler shingler = null;
      if (verify) {
        BandScheme b = bandScheme != null ? bandScheme : BandScheme.forThreshold(threshold, 0.997);
        shingler = new Shingler(sketchCapacity, b, foldNumbers);
      }
      return new Analyzer(Fingerprinter.create(s), shingler);
    }

    public Deduplicator build() {
      return new Deduplicator(this, analyzer());
    }

    /** Builds a deduplicator around an existing analyzer, which must match verify. */
    public Deduplicator build(Analyzer analyzer) {
      Checks.checkArgument(
          (analyzer.shingler() != null) == verify,
          "the analyzer %s a shingler but verify is %s",
          analyzer.shingler() != null ? "has" : "lacks",
          verify);
      return new Deduplicator(this, analyzer);
    }
  }
}
