// SPDX-License-Identifier: Apache-2.0
package org.neardup;

import java.util.Arrays;
import java.util.BitSet;
import java.util.function.IntToLongFunction;
import org.jspecify.annotations.Nullable;
import org.neardup.internal.LongIntMap;
import org.neardup.internal.PagedLongArray;

/**
 * The two-way mapping between a {@link StoredDocuments}' ordinals and the caller's docIds: the
 * docId of every ordinal, and the live ordinal of a stored docId.
 *
 * <p>Most callers give docIds in increasing order (the embedded store numbers its documents 0, 1,
 * 2, ...; a restore or a compaction lists them in that order), so the table starts as runs: each
 * run is a stretch of consecutive ordinals holding consecutive docIds, and costs 12 bytes however
 * long it is. A docId that does not follow the last one (a caller with its own numbering, or a
 * removed docId stored again) switches the table, once and for good, to a hash map plus an array of
 * docIds: ~26 bytes per document, what every document cost before.
 *
 * <p>Not thread-safe: the deduplicator's lock guards it, as the rest of {@link StoredDocuments}.
 */
final class DocIdTable {
  /*
   * Runs mode (map == null): run r covers ordinals [runFirst[r], runFirst[r + 1]) (the last one up
   * to size) and holds docIds runStart[r] + (ordinal - runFirst[r]). Invariants: runFirst[0] == 0
   * when size > 0; runFirst and runStart strictly increase; a run's docIds end below the next run's
   * runStart - 1 (a gap, otherwise the runs would be one); lastDocId == docId(size - 1). A docId
   * maps to its ordinal if that ordinal is not in `removed` (the owner's set: removing a document
   * marks it there and nothing here changes).
   *
   * Map mode: ids[o] is the docId of ordinal o for o < size; map holds docId -> ordinal for every
   * live ordinal and nothing else (remove() deletes from it, so `removed` is not consulted).
   *
   * Cost in runs mode: one binary search over the runs per lookup, O(1) with one run (the usual
   * case: a window whose oldest documents expired leaves one run).
   */
  private final BitSet removed;
  private long[] runStart = new long[4];
  private int[] runFirst = new int[4];
  private int runs;
  private long lastDocId;
  private int size;
  private @Nullable LongIntMap map;
  private @Nullable PagedLongArray ids;
  // The runs' columns as keys of lastAtMost; they read the fields, which grow by copies.
  private final IntToLongFunction firstOrdinal = r -> runFirst[r];
  private final IntToLongFunction firstDocId = r -> runStart[r];

  /**
   * @param removed the owner's removed ordinals, read (never written) by lookups in runs mode
   */
  DocIdTable(BitSet removed) {
    this.removed = removed;
  }

  /** The number of ordinals, removed ones included. */
  int size() {
    return size;
  }

  /** Whether the table is still in runs (no per-document memory). */
  boolean inRuns() {
    return map == null;
  }

  /** The number of runs (runs mode), for tests and accounting. */
  int runs() {
    return runs;
  }

  /** The docId of an ordinal below {@link #size()}, removed or not. */
  long docId(int ordinal) {
    assert ordinal >= 0 && ordinal < size : ordinal + " of " + size;
    PagedLongArray a = ids;
    if (a != null) {
      return a.get(ordinal);
    }
    int r = runs == 1 ? 0 : runOf(ordinal);
    return runStart[r] + (ordinal - runFirst[r]);
  }

  /** The live ordinal holding docId, or -1. */
  int get(long docId) {
    LongIntMap m = map;
    if (m != null) {
      return m.get(docId);
    }
    if (size == 0 || docId < runStart[0] || docId > lastDocId) {
      return -1;
    }
    int r = runs == 1 ? 0 : runAt(docId);
    long o = runFirst[r] + (docId - runStart[r]);
    int end = r + 1 < runs ? runFirst[r + 1] : size;
    if (o >= end || removed.get((int) o)) {
      return -1;
    }
    return (int) o;
  }

  /**
   * Gives docId the next ordinal ({@link #size()}) and returns -1, or returns the live ordinal
   * already holding docId and appends nothing.
   */
  int append(long docId) {
    if (map == null) {
      if (size == 0 || docId > lastDocId) {
        if (size == 0 || docId != lastDocId + 1) {
          if (runs == runStart.length) {
            runStart = Arrays.copyOf(runStart, runs * 2);
            runFirst = Arrays.copyOf(runFirst, runs * 2);
          }
          runStart[runs] = docId;
          runFirst[runs] = size;
          runs++;
        }
        lastDocId = docId;
        size++;
        return -1;
      }
      int there = get(docId);
      if (there >= 0) {
        return there;
      }
      toMap();
    }
    LongIntMap m = map;
    PagedLongArray a = ids;
    assert m != null && a != null;
    int there = m.putIfAbsent(docId, size);
    if (there >= 0) {
      return there;
    }
    if (size < a.size()) { // reused after a truncate
      a.set(size, docId);
    } else {
      a.append(docId);
    }
    size++;
    return -1;
  }

  /**
   * Forgets docId's mapping and returns its ordinal, or -1 when it is not live. In runs mode the
   * caller must then mark the ordinal in its removed set (nothing here changes).
   */
  int remove(long docId) {
    LongIntMap m = map;
    return m != null ? m.remove(docId) : get(docId);
  }

  /**
   * Takes back the ordinals from {@code newSize} on (appended by a restore batch that then failed):
   * their docIds are no longer stored. None of them may be removed.
   */
  void truncate(int newSize) {
    assert newSize >= 0 && newSize <= size;
    LongIntMap m = map;
    PagedLongArray a = ids;
    if (m != null && a != null) {
      for (int o = newSize; o < size; o++) {
        m.remove(a.get(o));
      }
      size = newSize;
      return;
    }
    while (runs > 0 && runFirst[runs - 1] >= newSize) {
      runs--;
    }
    size = newSize;
    if (size > 0) {
      lastDocId = docId(size - 1);
    }
  }

  /** Switches to map mode: a docId that does not follow the last one. */
  private void toMap() {
    LongIntMap m = new LongIntMap(Math.max(size, 16));
    PagedLongArray a = new PagedLongArray(Math.max(size, 16));
    for (int o = 0; o < size; o++) {
      long docId = docId(o);
      a.append(docId);
      if (!removed.get(o)) {
        m.put(docId, o);
      }
    }
    map = m;
    ids = a;
    runStart = new long[0];
    runFirst = new int[0];
    runs = 0;
  }

  /** The run holding ordinal (runs mode, size > 0). */
  private int runOf(int ordinal) {
    return lastAtMost(firstOrdinal, runs, ordinal);
  }

  /** The last run whose first docId is at most docId (runs mode, docId >= runStart[0]). */
  private int runAt(long docId) {
    return lastAtMost(firstDocId, runs, docId);
  }

  /**
   * The last index i in [0, n) whose key is at most x, for keys that increase with i and a first
   * key at most x (0 if none is larger): one binary search for both of the runs' columns, the int[]
   * of first ordinals and the long[] of first docIds, each read through {@code key}.
   */
  static int lastAtMost(IntToLongFunction key, int n, long x) {
    int lo = 0;
    int hi = n - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (key.applyAsLong(mid) <= x) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  long ramBytesUsed() {
    LongIntMap m = map;
    PagedLongArray a = ids;
    if (m != null && a != null) {
      return m.ramBytesUsed() + a.ramBytesUsed();
    }
    return 64 + 12L * runStart.length;
  }

  /** Checks the design note's invariants; for tests. */
  void checkInvariants() {
    if (map != null) {
      return;
    }
    if (size == 0) {
      return;
    }
    if (runs < 1 || runFirst[0] != 0) {
      throw new AssertionError("the first run must start at ordinal 0");
    }
    for (int r = 1; r < runs; r++) {
      long prevEnd = runStart[r - 1] + (runFirst[r] - runFirst[r - 1]) - 1;
      if (runFirst[r] <= runFirst[r - 1] || runStart[r] <= prevEnd + 1) {
        throw new AssertionError("runs " + (r - 1) + " and " + r + " overlap or touch");
      }
    }
    if (lastDocId != docId(size - 1)) {
      throw new AssertionError("lastDocId " + lastDocId + " != " + docId(size - 1));
    }
  }
}
