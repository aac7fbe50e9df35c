package org.neardup.store.embedded;

import org.jspecify.annotations.Nullable;
import org.neardup.Analysis;
import org.neardup.Analyzer;
import org.neardup.store.CollectionSettings;

/**
 * Fills a {@link Generation} from Insert records in DocId order, with {@link
 * org.neardup.Deduplicator#restore}: no verification, each document joins the cluster its record
 * names.
 *
 * <p>A record names its cluster by the representative's DocId, which may be gone (expired or
 * deleted: the engine keeps a removed representative as the root of its cluster, but a restore
 * cannot name a document the new engine does not hold). So the restorer remembers, per named
 * representative, the latest member it restored, and joins later members to that one: the cluster
 * stays whole and its earliest restored member represents it from now on.
 */
final class Restorer {
  private final CollectionSettings settings;
  private final Analyzer analyzer;
  private final int expected;
  private @Nullable Generation generation;
  private final LongLongMap proxy = new LongLongMap();

  /**
   * @param expected documents expected, to pre-size the generation
   */
  Restorer(CollectionSettings settings, Analyzer analyzer, int expected) {
    this.settings = settings;
    this.analyzer = analyzer;
    this.expected = expected;
  }

  /**
   * The generation restored so far. Its slots start at the first restored DocId, or at {@code
   * nextDocId} when nothing was restored, so a generation never pays for the DocIds that expired
   * before it.
   */
  Generation finish(long nextDocId) {
    Generation g = generation;
    if (g == null) {
      g = new Generation(settings, analyzer, nextDocId, expected);
      generation = g;
    }
    return g;
  }

  /** Documents restored and still held. */
  int live() {
    Generation g = generation;
    return g == null ? 0 : g.docs.live();
  }

  long ramBytesUsed() {
    Generation g = generation;
    return g == null ? 0 : g.ramBytesUsed();
  }

  /**
   * Restores one Insert body unless it expired by {@code now} or its DocId is already held.
   *
   * @return whether the document was restored
   * @throws IllegalArgumentException if the record's analysis does not decode
   */
  boolean restore(byte[] body, int length, long now) {
    long docId = Bytes.getLong(body, LogFormat.DOC_ID);
    long expiresAt = Bytes.getLong(body, LogFormat.EXPIRES_AT);
    if (expiresAt <= now) {
      return false;
    }
    Generation g = generation;
    if (g == null) {
      g = new Generation(settings, analyzer, docId, expected);
      generation = g;
    }
    int slot = g.docs.slot(docId);
    if (slot >= 0 || docId < g.docs.base) {
      return false; // already held, or before this generation began: never restore twice
    }
    int idLength = LogFormat.idLength(body);
    int analysisAt = LogFormat.ID + idLength;
    Analysis analysis = Analysis.decode(body, analysisAt, length - analysisAt);
    byte[] id = java.util.Arrays.copyOfRange(body, LogFormat.ID, analysisAt);
    int hash = IdTable.hash(id, 0, id.length);
    int clash = g.find(id, hash);
    if (clash >= 0) {
      g.remove(clash); // the same id again: only when the clock went back across a restart
    }
    long cluster = Bytes.getLong(body, LogFormat.CLUSTER);
    long target = docId;
    if (cluster != docId) {
      if (g.engine.contains(cluster)) {
        target = cluster;
      } else {
        long p = proxy.get(cluster);
        if (p != LongLongMap.MISSING && g.engine.contains(p)) {
          target = p;
        }
      }
      proxy.put(cluster, docId);
    }
    g.engine.restore(docId, analysis, target);
    g.add(
        docId,
        id,
        hash,
        analysis.fingerprint(),
        Bytes.getLong(body, LogFormat.TIMESTAMP),
        expiresAt);
    return true;
  }

  /** Restores an insert that arrived during a rebuild. */
  void restore(
      long docId, Analysis analysis, long cluster, byte[] id, long ts, long exp, long now) {
    byte[] body = LogFormat.insert(0, ts, exp, id, analysis.encode());
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
      g.remove(slot);
    }
  }
}
