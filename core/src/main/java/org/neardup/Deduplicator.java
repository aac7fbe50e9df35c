// SPDX-License-Identifier: Apache-2.0
package org.neardup;

import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.jspecify.annotations.Nullable;
import org.neardup.cluster.Clusters;
import org.neardup.decide.MatchSet;
import org.neardup.decide.Verifier;
import org.neardup.fingerprint.FingerprintSettings;
import org.neardup.fingerprint.Fingerprinter;
import org.neardup.index.BlockPermutedIndex;
import org.neardup.index.BlockScheme;
import org.neardup.index.HammingIndex;
import org.neardup.index.MatchConsumer;
import org.neardup.internal.Checks;
import org.neardup.internal.LongIntMap;
import org.neardup.internal.PagedLongArray;
import org.neardup.text.Lexicon;
import org.neardup.verify.BandIndex;
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
 * for the docId, 8 for the fingerprint, 8 for the cluster, ~18 for the id map, and when verifying
 * 11 to 21 per band key in the band index, and what the {@link SketchStore} holds: on the heap by
 * default, 8 per band key kept for removal, 8 of bookkeeping and the encoded shingle sketch (see
 * {@link ShingleSketch}). {@link #remove} frees the index entries; the rest comes back on {@link
 * #compact()}.
 */
public final class Deduplicator {
  /** The default largest Hamming distance of a fingerprint match. */
  public static final int DEFAULT_MAX_DISTANCE = 3;

  /** The default Jaccard similarity at which two texts are near-duplicates. */
  public static final double DEFAULT_THRESHOLD = 0.8;

  /** The default number of matches reported per verdict. */
  public static final int DEFAULT_MAX_MATCHES = 100;

  /**
   * The most fingerprints stored since a probe that an insert scans linearly (about half a
   * nanosecond each); beyond, it searches the index for them (a few microseconds).
   */
  static final int DELTA_SCAN = 2048;

  /*
   * Documents get dense ordinals in arrival order; every per-document structure is addressed by
   * ordinal, and the fingerprint index and band index store ordinals, not docIds.
   *
   * Invariants (under the lock): docIds, fingerprints have `count` entries, sketches
   * (band keys and sketch) count entries when verifying; ordinals maps the docId of every live ordinal
   * to it, and no other; `removed` holds exactly the other ordinals below count; the index and the
   * band index hold the entries of live ordinals only; clusters has count elements and each root
   * is the smallest ordinal of its cluster, so ordinal order is the "earliest member" order, which
   * compact() keeps by renumbering live ordinals in order.
   *
   * Two phases (probe, then insert): a probe records `seen` and `epoch` = the number of
   * compactions, and the verified matches among ordinals below `seen`. It reads epoch, then
   * `published` as seen, then `index`, without a lock, and searches that index, keeping candidates
   * below seen: store() writes `published` after the index holds the ordinal, so the search sees
   * every ordinal below seen (the index shows every entry whose add completed before the search
   * began); compact() writes epoch last, so a probe that read the new epoch reads the new index.
   * Candidates (and band-index lookups below seen) are verified under the read lock, checking first
   * that epoch has not moved; a probe with no candidates and nothing to verify takes no lock. A
   * candidate removed after the search is skipped by the verification or caught by the insert.
   * Ordinals are never reused and stored documents never change, so at the insert (write lock) the
   * matches among all live ordinals are: the probe's matches that are still live, plus the matches
   * among ordinals in [seen, count) (the delta), found by a linear scan of their fingerprints and a
   * band-index lookup restricted to them. If a compaction renumbered the ordinals (epoch differs) or
   * one of the probe's matches was removed since (the probe may have skipped verifying candidates
   * of that match's cluster, see find), the insert finds everything again under the write lock.
   * The verdict is therefore the one a single find under the write lock would give; the write lock
   * is the linearization point.
   *
   * Growth: every per-ordinal array is paged and every hash table grows one sub-table at a time
   * (see PagedLongArray, LongIntMap, BandIndex), so no insert copies or rehashes the whole: the
   * longest insert while growing is bounded by one sub-table's split (GrowthLatency measures it).
   */
  private static final byte[] NO_BYTES = new byte[0];

  private final Analyzer analyzer;
  private final int maxDistance;
  private final double threshold;
  private final Verifier verifier;
  private final boolean verify;
  private final int maxMatches;
  private final BlockScheme scheme;
  private final int bandCount;
  // Volatile: probes read it without a lock (see probeAll).
  private volatile HammingIndex index;
  private @Nullable BandIndex bands;
  private LongIntMap ordinals;
  private Clusters clusters;
  private final SketchStore.Factory sketchStores;

  /**
   * Sketches and band keys of every ordinal (when verifying; kept for verification and removal).
   */
  private SketchStore sketches;

  private BitSet removed = new BitSet();
  private PagedLongArray docIds;
  private PagedLongArray fingerprints;

  /** Band keys of the ordinal being removed; guarded by the write lock. */
  private final long[] keyBuffer;

  private int count;

  /**
   * {@code count}, written once the index holds every ordinal below it: a probe reads it, without a
   * lock, before it searches the index.
   */
  private volatile int published;

  private int live;

  /** The number of compactions so far: a probe made before one is stale (ordinals renumbered). */
  private volatile long epoch;

  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final ThreadLocal<Scratch> scratch;

  private Deduplicator(Builder b, Analyzer analyzer) {
    this.analyzer = analyzer;
    this.maxDistance = b.maxDistance;
    this.threshold = b.threshold;
    this.verify = b.verify;
    this.verifier = new Verifier(b.maxDistance, b.threshold, b.verify);
    this.scratch = ThreadLocal.withInitial(() -> new Scratch(b.maxMatches, b.verify));
    this.maxMatches = b.maxMatches;
    this.scheme = b.scheme;
    this.index = BlockPermutedIndex.create(b.scheme);
    Checks.checkArgument(
        maxDistance <= index.maxSupportedDistance(),
        "maxDistance must be in [0, %s], got %s",
        index.maxSupportedDistance(),
        maxDistance);
    this.bandCount = analyzer.shingler() == null ? 0 : analyzer.shingler().bands().bands();
    this.keyBuffer = new long[bandCount];
    int expected = b.expectedSize;
    this.bands = verify ? new BandIndex(saturatedInt((long) expected * bandCount)) : null;
    this.ordinals = new LongIntMap(expected);
    this.clusters = new Clusters(expected);
    this.sketchStores = b.sketchStores;
    this.sketches = newSketchStore(expected);
    this.docIds = new PagedLongArray(expected);
    this.fingerprints = new PagedLongArray(expected);
  }

  /** The builder's sketch store when verifying; an empty heap one (never used) when not. */
  private SketchStore newSketchStore(int expected) {
    return verify ? sketchStores.create(bandCount, expected) : SketchStore.onHeap().create(0, 0);
  }

  private static int saturatedInt(long n) {
    return (int) Math.min(Integer.MAX_VALUE - 8, n);
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

  /** Into s: the stored documents whose similarity to the analysis passes, candidates verified. */
  private void searchVerified(Analysis analysis, Scratch s) {
    s.matches.clear();
    gather(analysis, s, 0);
    verifyCandidates(analysis, s);
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
    Scratch s = scratch.get();
    // Without a lock: the index searches (most of a probe's cost), which the index allows
    // concurrently with its one writer. Read in this order, see the design note.
    long e = epoch;
    int seen = published;
    HammingIndex idx = index;
    Group group = s.group;
    group.reset(seen);
    for (int i = from; i < to; i++) {
      group.start();
      idx.search(analyses[i].fingerprint(), maxDistance, group);
    }
    group.start();
    if (!verify && group.total() == 0) {
      s.matches.clear();
      for (int i = from; i < to; i++) {
        out[i] = new Probe(this, analyses[i], seen, e, s);
      }
      return;
    }
    ReentrantReadWriteLock.ReadLock r = lock.readLock();
    r.lock();
    try {
      if (epoch != e) { // a compaction renumbered the ordinals meanwhile: search again
        for (int i = from; i < to; i++) {
          searchVerified(analyses[i], s);
          out[i] = new Probe(this, analyses[i], count, epoch, s);
        }
        return;
      }
      for (int i = from; i < to; i++) {
        s.matches.clear();
        s.candidateCount = 0;
        for (int c = group.bounds[i - from], end = group.bounds[i - from + 1]; c < end; c++) {
          s.addCandidate(group.candidates[c]);
        }
        if (bands != null) {
          bands.forEach(
              analyses[i].sketch().bandKeys(),
              o -> {
                if (o < seen) {
                  s.addCandidate(o);
                }
              });
        }
        verifyCandidates(analyses[i], s);
        out[i] = new Probe(this, analyses[i], seen, e, s);
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
    byte[] encoded = verify ? analysis.sketch().shingles().encode() : null;
    ReentrantReadWriteLock.WriteLock w = lock.writeLock();
    w.lock();
    try {
      Scratch s = scratch.get();
      if (!catchUp(analysis, probe, s)) {
        searchVerified(analysis, s);
      }
      List<Match> matches = report(analysis, s);
      List<Long> joined = joined(s);
      int ordinal = store(docId, analysis, encoded);
      MatchSet found = s.matches;
      for (int i = 0; i < found.size(); i++) {
        clusters.union(ordinal, (int) found.ordinal(i));
      }
      long cluster = docIds.get(clusters.find(ordinal));
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
  private boolean catchUp(Analysis analysis, Probe probe, Scratch s) {
    if (probe.epoch != epoch) {
      return false;
    }
    s.matches.clear();
    MatchSet earlier = probe.matches;
    for (int i = 0; i < earlier.size(); i++) {
      int o = (int) earlier.ordinal(i);
      if (removed.get(o)) {
        return false;
      }
      s.matches.add(o, clusters.find(o), earlier.distance(i), earlier.similarity(i));
    }
    if (probe.seen < count) {
      gather(analysis, s, probe.seen);
      verifyCandidates(analysis, s);
    }
    return true;
  }

  /** The docIds of the distinct cluster representatives among the matches (earliest first). */
  private List<Long> joined(Scratch s) {
    if (s.matches.isEmpty()) {
      return List.of();
    }
    long[] roots = s.matches.joinedRoots();
    Long[] out = new Long[roots.length];
    for (int i = 0; i < roots.length; i++) {
      out[i] = docIds.get(roots[i]);
    }
    return List.of(out);
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
      int ordinal = store(docId, analysis, encoded);
      for (long link : joined) {
        int other = link == docId ? -1 : ordinals.get(link);
        if (other >= 0) {
          clusters.union(ordinal, other);
        }
      }
    } finally {
      w.unlock();
    }
  }

  /**
   * As {@link #restore(long, Analysis, long[])} with one link; kept for callers that log only the
   * verdict's cluster.
   */
  public void restore(long docId, Analysis analysis, long clusterDocId) {
    checkAnalysis(analysis);
    byte[] encoded = verify ? analysis.sketch().shingles().encode() : null;
    ReentrantReadWriteLock.WriteLock w = lock.writeLock();
    w.lock();
    try {
      int ordinal = store(docId, analysis, encoded);
      int rep = clusterDocId == docId ? -1 : ordinals.get(clusterDocId);
      if (rep >= 0) {
        clusters.union(ordinal, rep);
      }
    } finally {
      w.unlock();
    }
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
    int n = batch.size;
    if (n == 0) {
      return;
    }
    ReentrantReadWriteLock.WriteLock w = lock.writeLock();
    w.lock();
    try {
      Checks.checkArgument(
          (long) count + n <= Integer.MAX_VALUE - 8,
          "a deduplicator holds fewer than 2^31 ordinals: %s + %s is too many",
          count,
          n);
      int first = count;
      // Ordinals first: they find duplicate docIds before anything else is touched.
      for (int i = 0; i < n; i++) {
        long docId = batch.docIds.get(i);
        int previous = ordinals.putIfAbsent(docId, first + i);
        if (previous >= 0) {
          for (int j = 0; j < i; j++) {
            ordinals.remove(batch.docIds.get(j));
          }
          throw new IllegalArgumentException(
              Checks.format(
                  previous < first
                      ? "docId %s is already stored"
                      : "docId %s appears twice in the batch",
                  docId));
        }
      }
      long[] fps = new long[n];
      long[] ords = new long[n];
      long[] keys = keyBuffer;
      for (int i = 0; i < n; i++) {
        int ordinal = first + i;
        long fp = batch.fingerprints.get(i);
        fps[i] = fp;
        ords[i] = ordinal;
        docIds.append(batch.docIds.get(i));
        fingerprints.append(fp);
        clusters.add();
        if (bands != null) {
          batch.bandKeys.get((long) i * bandCount, keys, 0, bandCount);
          int pooled =
              sketches.add(
                  keys,
                  bandCount,
                  batch.sketches.array(i),
                  batch.sketches.offset(i),
                  batch.sketches.length(i));
          assert pooled == ordinal : "sketch store out of step: " + pooled + " != " + ordinal;
          bands.add(keys, ordinal);
        }
        long from = i == 0 ? 0 : batch.linkEnds.get(i - 1);
        long to = batch.linkEnds.get(i);
        for (long k = from; k < to; k++) {
          int other = ordinals.get(batch.links.get(k));
          if (other >= 0 && other < ordinal) {
            clusters.union(ordinal, other);
          }
        }
      }
      count += n;
      live += n;
      index.addAll(fps, ords, 0, n);
      published = count;
    } finally {
      w.unlock();
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
      int dropped = count - live;
      if (dropped == 0) {
        return 0;
      }
      int n = live;
      PagedLongArray newDocIds = new PagedLongArray(n);
      PagedLongArray newFingerprints = new PagedLongArray(n);
      LongIntMap newOrdinals = new LongIntMap(n);
      Clusters newClusters = new Clusters(n);
      SketchStore newSketches = newSketchStore(n);
      SketchStore.Slice slice = new SketchStore.Slice();
      BandIndex newBands = verify ? new BandIndex(saturatedInt((long) n * bandCount)) : null;
      // Old root -> new ordinal of its earliest surviving member, the new root.
      LongIntMap newRoot = new LongIntMap(0);
      long[] fps = new long[n];
      long[] ords = new long[n];
      long[] keys = keyBuffer;
      int next = 0;
      for (int o = removed.nextClearBit(0); o < count; o = removed.nextClearBit(o + 1)) {
        int i = next++;
        long docId = docIds.get(o);
        long fp = fingerprints.get(o);
        newDocIds.append(docId);
        newFingerprints.append(fp);
        newOrdinals.put(docId, i);
        newClusters.add();
        int root = clusters.find(o);
        int earliest = newRoot.get(root);
        if (earliest < 0) {
          newRoot.put(root, i);
        } else {
          newClusters.union(i, earliest);
        }
        if (newBands != null) {
          sketches.sketch(o, slice);
          sketches.bandKeys(o, keys);
          newSketches.add(keys, bandCount, slice.array, slice.offset, slice.length);
          newBands.add(keys, i);
        }
        fps[i] = fp;
        ords[i] = i;
      }
      assert next == n : "live count " + n + ", found " + next;
      HammingIndex newIndex = BlockPermutedIndex.create(scheme);
      newIndex.addAll(fps, ords, 0, n);
      index = newIndex;
      bands = newBands;
      ordinals = newOrdinals;
      clusters = newClusters;
      SketchStore oldSketches = sketches;
      sketches = newSketches;
      docIds = newDocIds;
      fingerprints = newFingerprints;
      removed = new BitSet();
      count = n;
      published = n;
      epoch++; // last: a probe that reads the new epoch sees everything above
      // No reader holds the old store: readers read it under the lock, and this holds it.
      oldSketches.close();
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
      Scratch s = scratch.get();
      searchVerified(analysis, s);
      List<Match> matches = report(analysis, s);
      List<Long> joined = joined(s);
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
      int ordinal = ordinals.remove(docId);
      if (ordinal < 0) {
        return false;
      }
      index.remove(fingerprints.get(ordinal), ordinal);
      if (bands != null) {
        sketches.bandKeys(ordinal, keyBuffer);
        bands.remove(keyBuffer, ordinal);
        sketches.clear(ordinal);
      }
      removed.set(ordinal);
      live--;
      return true;
    } finally {
      w.unlock();
    }
  }

  /** Whether docId is stored. */
  public boolean contains(long docId) {
    ReentrantReadWriteLock.ReadLock r = lock.readLock();
    r.lock();
    try {
      return ordinals.get(docId) >= 0;
    } finally {
      r.unlock();
    }
  }

  /**
   * The ordinal of a stored docId, or -1: the position of its insert among the stored documents,
   * until the next compaction renumbers them (keeping their order). For tests.
   */
  int ordinalOf(long docId) {
    ReentrantReadWriteLock.ReadLock r = lock.readLock();
    r.lock();
    try {
      return ordinals.get(docId);
    } finally {
      r.unlock();
    }
  }

  /** The cluster representative of a stored docId, or -1 when it is not stored. */
  public long clusterOf(long docId) {
    ReentrantReadWriteLock.ReadLock r = lock.readLock();
    r.lock();
    try {
      return clusterOfLocked(docId);
    } finally {
      r.unlock();
    }
  }

  /** {@link #clusterOf}, under either lock. */
  private long clusterOfLocked(long docId) {
    int ordinal = ordinals.get(docId);
    return ordinal < 0 ? -1 : docIds.get(clusters.find(ordinal));
  }

  /**
   * {@link #clusterOf} for {@code docIds[0, n)} into {@code out[0, n)}, under one hold of the read
   * lock (a compaction looks up every stored document; a lock per document made it contend with the
   * inserts it runs beside).
   *
   * <p>Fastest when the docIds come in ordinal order, as a snapshot lists them: each is first
   * looked for at the ordinal after the previous one, a read of the next element of an array, and
   * only when it is not there in the hash table (a random read of memory; half of a compaction's
   * time went there).
   */
  public void clustersOf(long[] docIds, int n, long[] out) {
    Objects.checkFromToIndex(0, n, docIds.length);
    Objects.checkFromToIndex(0, n, out.length);
    ReentrantReadWriteLock.ReadLock r = lock.readLock();
    r.lock();
    try {
      int next = -1; // where the next docId probably is
      for (int i = 0; i < n; i++) {
        long docId = docIds[i];
        // A live ordinal holding docId is the one ordinals maps it to (see the invariants); a
        // removed one proves nothing, as the docId may have been stored again since.
        boolean there = next >= 0 && next < count && this.docIds.get(next) == docId;
        int ordinal = there && !removed.get(next) ? next : ordinals.get(docId);
        if (ordinal < 0) {
          out[i] = -1;
          next = there ? next + 1 : -1;
          continue;
        }
        int root = clusters.find(ordinal);
        out[i] = root == ordinal ? docId : this.docIds.get(root);
        next = ordinal + 1;
      }
    } finally {
      r.unlock();
    }
  }

  /** The number of stored documents. */
  public int size() {
    return live;
  }

  /** Heap bytes of the index, band keys, sketches and bookkeeping. */
  public long ramBytesUsed() {
    ReentrantReadWriteLock.ReadLock r = lock.readLock();
    r.lock();
    try {
      long bytes = index.ramBytesUsed() + ordinals.ramBytesUsed() + clusters.ramBytesUsed();
      bytes += sketches.ramBytesUsed() + docIds.ramBytesUsed() + fingerprints.ramBytesUsed();
      bytes += removed.size() / 8;
      if (bands != null) {
        bytes += bands.ramBytesUsed();
      }
      return bytes;
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

  private int store(long docId, Analysis analysis, byte @Nullable [] encoded) {
    int ordinal = count;
    Checks.checkArgument(
        ordinals.putIfAbsent(docId, ordinal) < 0, "docId %s is already stored", docId);
    count++;
    docIds.append(docId);
    fingerprints.append(analysis.fingerprint());
    clusters.add();
    index.add(analysis.fingerprint(), ordinal);
    published = count;
    if (bands != null) {
      byte[] sketch = encoded == null ? NO_BYTES : encoded;
      long[] keys = analysis.sketch().bandKeys();
      int pooled = sketches.add(keys, keys.length, sketch, 0, sketch.length);
      assert pooled == ordinal : "sketch store out of step: " + pooled + " != " + ordinal;
      bands.add(keys, ordinal);
    }
    live++;
    return ordinal;
  }

  /**
   * Collects into s the candidates among ordinals {@code >= from}: stored fingerprints within
   * maxDistance bits and documents sharing a band key. For a small delta (from > 0, at most
   * DELTA_SCAN ordinals) the fingerprints are scanned linearly instead of searching the index.
   * Under either lock.
   */
  private void gather(Analysis analysis, Scratch s, int from) {
    s.candidateCount = 0;
    long fp = analysis.fingerprint();
    if (from > 0 && count - from <= DELTA_SCAN) {
      // Removed ones are skipped by verifyCandidates.
      fingerprints.forEachNear(from, count, fp, maxDistance, o -> s.addCandidate((int) o));
    } else if (from > 0) {
      index.search(
          fp,
          maxDistance,
          (ordinal, f, d) -> {
            if (ordinal >= from) {
              s.addCandidate((int) ordinal);
            }
          });
    } else {
      index.search(fp, maxDistance, (ordinal, f, d) -> s.addCandidate((int) ordinal));
    }
    if (bands != null) {
      long[] keys = analysis.sketch().bandKeys();
      if (from == 0) {
        bands.forEach(keys, s::addCandidate);
      } else {
        bands.forEach(
            keys,
            o -> {
              if (o >= from) {
                s.addCandidate(o);
              }
            });
      }
    }
  }

  /**
   * Verifies s's candidates (any order, repeats allowed), all above the ordinals of the matches s
   * holds already, and appends the matches to s in ordinal order. Under either lock.
   */
  private void verifyCandidates(Analysis analysis, Scratch s) {
    int n = s.uniqueCandidates();
    long fp = analysis.fingerprint();
    ShingleSketch mine = verify ? analysis.sketch().shingles() : null;
    MatchSet out = s.matches;
    SketchStore.Slice theirs = s.slice;
    for (int i = 0; i < n; i++) {
      int o = s.candidates[i];
      if (removed.get(o)) {
        continue;
      }
      int distance = Long.bitCount(fp ^ fingerprints.get(o));
      int root = clusters.find(o);
      if (verify && out.canSkip(root)) {
        continue;
      }
      double similarity;
      if (verify) {
        sketches.sketch(o, theirs);
        similarity =
            verifier.similarity(distance, mine, theirs.array, theirs.offset, theirs.length);
      } else {
        similarity = verifier.similarity(distance, null, null, 0, 0);
      }
      if (similarity != Verifier.REJECTED) {
        out.add(o, root, distance, similarity);
      }
    }
  }

  /** The matches a verdict lists (see {@link MatchSet#reported()}) as Match records. */
  private List<Match> report(Analysis analysis, Scratch s) {
    MatchSet m = s.matches;
    if (m.isEmpty()) {
      return List.of();
    }
    int[] order = m.reported();
    Match[] out = new Match[order.length];
    for (int j = 0; j < order.length; j++) {
      int i = order[j];
      out[j] = new Match(docIds.get(m.ordinal(i)), m.distance(i), m.similarity(i));
    }
    return List.of(out);
  }

  /**
   * The first phase of a check-and-insert ({@link #probe}): the verified matches among the
   * documents stored when it ran. Immutable; holds a reference to its analysis. Made by one thread,
   * it may be used by another once published safely.
   */
  public static final class Probe {
    final Deduplicator owner;
    final Analysis analysis;
    final int seen;
    final long epoch;
    final MatchSet matches;

    Probe(Deduplicator owner, Analysis analysis, int seen, long epoch, Scratch s) {
      this.owner = owner;
      this.analysis = analysis;
      this.seen = seen;
      this.epoch = epoch;
      this.matches = s.matches.isEmpty() ? s.empty : s.matches.copy();
    }

    /** Whether the probe found a near-duplicate among the documents stored when it ran. */
    public boolean foundAny() {
      return !matches.isEmpty();
    }
  }

  /**
   * The index candidates of a group of probes, searched without a lock: those of probe j are {@code
   * candidates[bounds[j], bounds[j + 1])}; ordinals at or above {@code seen} (stored after the
   * probe read it) are left to the insert's delta scan.
   */
  private static final class Group implements MatchConsumer {
    int[] candidates = new int[64];
    int[] bounds = new int[17];
    int probes;
    int count;
    int seen;

    void reset(int seen) {
      this.seen = seen;
      probes = 0;
      count = 0;
    }

    /** Starts the next probe's candidates (and, after the last, ends the group). */
    void start() {
      if (probes == bounds.length) {
        bounds = Arrays.copyOf(bounds, probes * 2);
      }
      bounds[probes++] = count;
    }

    int total() {
      return count;
    }

    @Override
    public void accept(long ordinal, long fingerprint, int distance) {
      if (ordinal < seen) {
        if (count == candidates.length) {
          candidates = Arrays.copyOf(candidates, count * 2);
        }
        candidates[count++] = (int) ordinal;
      }
    }
  }

  /** Per-thread candidate and match buffers. */
  private static final class Scratch {
    final Group group = new Group();
    final MatchSet matches;

    /** Where a candidate's sketch is read to. */
    final SketchStore.Slice slice = new SketchStore.Slice();

    /** An empty match set, shared by the probes that found nothing. */
    final MatchSet empty;

    int[] candidates = new int[64];
    int candidateCount;

    Scratch(int maxMatches, boolean verify) {
      matches = new MatchSet(maxMatches, verify);
      empty = new MatchSet(maxMatches, verify);
    }

    void addCandidate(int ordinal) {
      if (candidateCount == candidates.length) {
        candidates = Arrays.copyOf(candidates, candidateCount * 2);
      }
      candidates[candidateCount++] = ordinal;
    }

    /** Sorts and de-duplicates the candidates; returns how many remain. */
    int uniqueCandidates() {
      Arrays.sort(candidates, 0, candidateCount);
      int m = 0;
      for (int i = 0; i < candidateCount; i++) {
        if (m == 0 || candidates[m - 1] != candidates[i]) {
          candidates[m++] = candidates[i];
        }
      }
      candidateCount = m;
      return m;
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
