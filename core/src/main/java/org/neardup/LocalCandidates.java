// SPDX-License-Identifier: Apache-2.0
package org.neardup;

import java.util.Arrays;
import java.util.Objects;
import java.util.function.IntConsumer;
import org.jspecify.annotations.Nullable;
import org.neardup.decide.Candidates;
import org.neardup.index.HammingIndex;
import org.neardup.index.MatchConsumer;
import org.neardup.verify.BandIndex;
import org.neardup.verify.SketchStore;

/**
 * The candidate search over a deduplicator's own indexes ({@link StoredDocuments}): the stored
 * fingerprints within k bits of a query and the documents sharing one of its band keys (as the band
 * index keeps them: 39 bits of each), as ordinals, handed to the shared {@link
 * org.neardup.decide.Decision} as {@link Candidates} that read the stored documents' columns in
 * place (no copy per candidate).
 *
 * <p>Not thread-safe: one per thread, reused. The index finds only fingerprints within k bits, so
 * every candidate counts whatever its distance ({@link #anyDistance} is true).
 */
final class LocalCandidates implements Candidates {
  /**
   * The most fingerprints stored since a probe that an insert scans linearly (about half a
   * nanosecond each); beyond, it searches the index for them (a few microseconds).
   */
  static final int DELTA_SCAN = 2048;

  /** The documents the candidates are read from; null between searches (see release). */
  private @Nullable StoredDocuments docs;

  private int[] ordinals = new int[64];
  private int count;

  /** The index candidates of a group of probes, searched without a lock. */
  final Group group = new Group();

  /** Forgets the candidates; the next ones are read from {@code docs}. */
  void reset(StoredDocuments docs) {
    this.docs = docs;
    count = 0;
  }

  /**
   * Forgets which documents the candidates were read from, so that a thread's buffers do not keep
   * the documents a compaction replaced.
   */
  void release() {
    docs = null;
  }

  private StoredDocuments docs() {
    return Objects.requireNonNull(docs, "no search since release()");
  }

  void add(int ordinal) {
    if (count == ordinals.length) {
      ordinals = Arrays.copyOf(ordinals, count * 2);
    }
    ordinals[count++] = ordinal;
  }

  /**
   * Collects the candidates among ordinals {@code >= from} of {@code docs}: stored fingerprints
   * within maxDistance bits and documents sharing a band key. For a small delta (from > 0, at most
   * {@link #DELTA_SCAN} ordinals) the fingerprints are scanned linearly instead of searching the
   * index. Under either lock.
   */
  void gather(StoredDocuments docs, Analysis analysis, int maxDistance, int from) {
    reset(docs);
    long fp = analysis.fingerprint();
    int stored = docs.count;
    if (from > 0 && stored - from <= DELTA_SCAN) {
      // Removed ones are skipped by the decision.
      docs.fingerprints.forEachNear(from, stored, fp, maxDistance, o -> add((int) o));
    } else if (from > 0) {
      docs.index.search(
          fp,
          maxDistance,
          (ordinal, f, d) -> {
            if (ordinal >= from) {
              add((int) ordinal);
            }
          });
    } else {
      docs.index.search(fp, maxDistance, (ordinal, f, d) -> add((int) ordinal));
    }
    addBandCandidates(docs, analysis, from, Integer.MAX_VALUE);
  }

  /** The band index lookup's buffers. */
  private final BandIndex.Lookup bandLookup = new BandIndex.Lookup();

  /** The band candidates' ordinal bounds (see bandHit). */
  private int bandFrom;

  private int bandBelow;

  /** A document the band index lists under a key: a candidate when in [bandFrom, bandBelow). */
  private final IntConsumer bandHit =
      o -> {
        if (o >= bandFrom && o < bandBelow) {
          add(o);
        }
      };

  /** Adds the documents in [from, below) that share a band key with the analysis. */
  private void addBandCandidates(StoredDocuments docs, Analysis analysis, int from, int below) {
    BandIndex bands = docs.bands;
    if (bands == null) {
      return;
    }
    bandFrom = from;
    bandBelow = below;
    bands.forEach(analysis.sketch().bandKeys(), bandHit, bandLookup, from);
  }

  /**
   * Starts the candidates of probe {@code j} of the group searched last: its index candidates, and
   * the documents below {@code seen} sharing one of the band keys of its {@code analysis}. Under
   * either lock.
   */
  void fromGroup(StoredDocuments docs, int j, Analysis analysis, int seen) {
    reset(docs);
    for (int c = group.bounds[j], end = group.bounds[j + 1]; c < end; c++) {
      add(group.candidates[c]);
    }
    addBandCandidates(docs, analysis, 0, seen);
  }

  @Override
  public int sortUnique() {
    Arrays.sort(ordinals, 0, count);
    int m = 0;
    for (int i = 0; i < count; i++) {
      if (m == 0 || ordinals[m - 1] != ordinals[i]) {
        ordinals[m++] = ordinals[i];
      }
    }
    count = m;
    return m;
  }

  @Override
  public long ordinal(int i) {
    return ordinals[i];
  }

  @Override
  public boolean removed(int i) {
    return docs().removed.get(ordinals[i]);
  }

  @Override
  public long fingerprint(int i) {
    return docs().fingerprints.get(ordinals[i]);
  }

  @Override
  public boolean anyDistance(int i) {
    return true;
  }

  @Override
  public long root(int i) {
    return docs().clusters.find(ordinals[i]);
  }

  @Override
  public void sketch(int i, SketchStore.Slice into) {
    docs().sketches.sketch(ordinals[i], into);
  }

  /**
   * The index candidates of a group of probes, searched without a lock: those of probe j are {@code
   * candidates[bounds[j], bounds[j + 1])}; ordinals at or above {@code seen} (stored after the
   * probe read it) are left to the insert's delta scan.
   */
  static final class Group implements MatchConsumer {
    int[] candidates = new int[64];
    int[] bounds = new int[17];
    int probes;
    int count;
    int seen;

    /** Searches the index for each fingerprint, keeping the ordinals below {@code seen}. */
    void search(HammingIndex index, Analysis[] analyses, int from, int to, int k, int seen) {
      this.seen = seen;
      probes = 0;
      count = 0;
      for (int i = from; i < to; i++) {
        start();
        index.search(analyses[i].fingerprint(), k, this);
      }
      start();
    }

    /** Starts the next probe's candidates (and, after the last, ends the group). */
    private void start() {
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
}
