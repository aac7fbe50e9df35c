// SPDX-License-Identifier: Apache-2.0
package org.neardup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.neardup.fingerprint.FingerprintSettings;

/**
 * The two-phase check-and-insert ({@link Deduplicator#probe}, then {@link
 * Deduplicator#checkAndInsert(long, Analysis, Deduplicator.Probe)}): however stale the probe, the
 * verdict is the one a full search gives at the moment of the insert.
 */
class DeduplicatorProbeTest {
  private static Deduplicator.Builder builder(boolean verify, int maxMatches) {
    // No segmenter: core's tests must not need the jieba dictionary.
    return Deduplicator.builder()
        .fingerprintSettings(FingerprintSettings.builder().build())
        .verify(verify)
        .maxDistance(verify ? 3 : 6)
        .maxMatches(maxMatches);
  }

  /** Texts in groups of near-copies (a base and copies with 0-2 edited words), seeded. */
  private static final class Texts {
    final SplittableRandom r;
    final List<String> bases = new ArrayList<>();

    Texts(long seed) {
      r = new SplittableRandom(seed);
    }

    String next() {
      if (bases.isEmpty() || r.nextInt(4) == 0) {
        bases.add(TestCorpus.text(r, 40));
        return bases.get(bases.size() - 1);
      }
      // Favour recent groups, so copies meet pending probes of their group.
      int g = Math.max(0, bases.size() - 1 - r.nextInt(Math.min(bases.size(), 8)));
      return TestCorpus.edit(r, bases.get(g), r.nextInt(3));
    }
  }

  /** The verdict a full search under the current state gives for inserting docId. */
  private static Verdict expected(Deduplicator d, long docId, Analysis a) {
    Verdict c = d.check(a);
    return new Verdict(
        c.isNew(), c.fingerprint(), c.isNew() ? docId : c.cluster(), c.matches(), c.joined());
  }

  /**
   * Stepped interleavings in one thread: probes wait while other documents are inserted (one by one
   * and in bulk, past {@link Deduplicator#DELTA_SCAN}), removed (matches of waiting probes among
   * them) and compacted; each insert from a probe must give the verdict of a fresh full search.
   */
  @ParameterizedTest
  @CsvSource({"true, 100, 1", "true, 2, 2", "false, 100, 3", "false, 1, 4"})
  void checkAndInsert_staleProbes_sameVerdictAsFullSearchNow(
      boolean verify, int maxMatches, long seed) {
    Deduplicator d = builder(verify, maxMatches).build();
    Analyzer analyzer = d.analyzer();
    Texts texts = new Texts(seed);
    SplittableRandom r = new SplittableRandom(seed * 31);
    List<Deduplicator.Probe> pending = new ArrayList<>();
    List<Long> live = new ArrayList<>();
    long nextId = 0;
    int fromProbes = 0;
    int bulk = 0;
    for (int step = 0; step < 4000; step++) {
      int op = r.nextInt(100);
      if (op < 30) {
        pending.add(d.probe(analyzer.analyze(texts.next())));
      } else if (op < 35) {
        // A group of probes under one hold of the read lock, as the embedded store makes them.
        Analysis[] group = new Analysis[1 + r.nextInt(5)];
        for (int i = 0; i < group.length; i++) {
          group[i] = analyzer.analyze(texts.next());
        }
        Deduplicator.Probe[] probes = new Deduplicator.Probe[group.length + 2];
        d.probeAll(group, 0, group.length, probes);
        for (int i = 0; i < group.length; i++) {
          assertThat(probes[i].analysis).isSameAs(group[i]);
          pending.add(probes[i]);
        }
        assertThat(probes[group.length]).isNull();
      } else if (op < 70 && !pending.isEmpty()) {
        Deduplicator.Probe p = pending.remove(r.nextInt(pending.size()));
        Analysis a = probedAnalysis(p);
        long id = nextId++;
        Verdict want = expected(d, id, a);
        Verdict got = d.checkAndInsert(id, a, p);
        assertThat(got).as("seed %s, step %s", seed, step).isEqualTo(want);
        live.add(id);
        fromProbes++;
      } else if (op < 82 && !live.isEmpty()) {
        // Remove a recent document: likely a match of a waiting probe.
        int i = live.size() - 1 - r.nextInt(Math.min(live.size(), 10));
        assertThat(d.remove(live.remove(i))).isTrue();
      } else if (op < 84) {
        d.compact();
      } else if (op < 85 && bulk < 3) {
        // Past DELTA_SCAN: the insert searches the index for what was stored since its probe.
        RestoreBatch batch = d.newRestoreBatch();
        for (int i = 0; i < Deduplicator.DELTA_SCAN + 100; i++) {
          long id = nextId++;
          batch.add(id, analyzer.analyze(texts.next()), new long[0]);
          live.add(id);
        }
        d.restoreAll(batch);
        bulk++;
      } else {
        long id = nextId++;
        Analysis a = analyzer.analyze(texts.next());
        Verdict want = expected(d, id, a);
        assertThat(d.checkAndInsert(id, a)).as("seed %s, step %s", seed, step).isEqualTo(want);
        live.add(id);
      }
    }
    assertThat(fromProbes).isGreaterThan(1000);
    assertThat(d.size()).isEqualTo(live.size());
  }

  private static Analysis probedAnalysis(Deduplicator.Probe p) {
    return p.analysis;
  }

  @ParameterizedTest
  @CsvSource({"true", "false"})
  void checkAndInsert_probeOfAnotherAnalysisOrDeduplicator_throwsAndStoresNothing(boolean verify) {
    Deduplicator d = builder(verify, 100).build();
    Deduplicator other = builder(verify, 100).build();
    Analysis a = d.analyzer().analyze("the river city council budget school garden market");
    Analysis b = d.analyzer().analyze("the river city council budget school garden market");
    Deduplicator.Probe p = d.probe(a);
    assertThatThrownBy(() -> d.checkAndInsert(1, b, p))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("another analysis");
    assertThatThrownBy(() -> other.checkAndInsert(1, a, p))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("another deduplicator");
    assertThat(d.size()).isZero();
    assertThat(other.size()).isZero();
    assertThat(d.checkAndInsert(1, a, p).isNew()).isTrue();
    assertThatThrownBy(() -> d.checkAndInsert(1, a, d.probe(a)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("already stored");
    assertThat(d.size()).isEqualTo(1);
  }

  /** One insert, as the threads of the stress test saw it. */
  private record Insert(long epoch, int ordinal, long docId, Analysis analysis, Verdict verdict) {}

  /** A remove or a compaction, made alone at the start of an epoch. */
  private record Change(long epoch, long removedDocId) {}

  /**
   * Many threads insert near-copies (probing outside any test lock, so their probes race with each
   * other's inserts and with removes and compactions) while a thread removes recent documents and
   * compacts. The test then replays the same operations one at a time, in the order the
   * deduplicator ordered them, on a fresh deduplicator: every verdict must be the same. (Changes
   * run under a test write lock, inserts under its read lock, so each insert is known to fall
   * between two changes; within that span the inserts' ordinals order them.)
   */
  @ParameterizedTest
  // The last row stores enough to fill several add buffers (2^15 entries), so probes, which search
  // the index without a lock, also race with buffer swaps and background merges.
  @CsvSource({
    "true, 100, 11, 1500",
    "true, 2, 12, 1500",
    "false, 100, 13, 1500",
    "false, 100, 14, 25000"
  })
  void concurrentInsertsRemovesCompactions_sameVerdictsAsSequentialReplay(
      boolean verify, int maxMatches, long seed, int perThread) throws Exception {
    Deduplicator d = builder(verify, maxMatches).build();
    Analyzer analyzer = d.analyzer();
    int threads = 4;
    // Every thread draws copies from one shared pool of groups, so copies race.
    Texts texts = new Texts(seed);
    List<Analysis> work = new ArrayList<>();
    for (int i = 0; i < threads * perThread; i++) {
      work.add(analyzer.analyze(texts.next()));
    }
    ReentrantReadWriteLock order = new ReentrantReadWriteLock();
    AtomicLong epoch = new AtomicLong();
    List<Insert> inserts = Collections.synchronizedList(new ArrayList<>());
    List<Change> changes = Collections.synchronizedList(new ArrayList<>());
    List<Long> recent = Collections.synchronizedList(new ArrayList<>());
    AtomicBoolean done = new AtomicBoolean();
    ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> fs = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      fs.add(
          pool.submit(
              () -> {
                start.await();
                for (int i = thread; i < work.size(); i += threads) {
                  if (i / threads == perThread / 2) {
                    awaitChanges(changes, 11); // the second half of the inserts meets them
                  }
                  long docId = i;
                  Analysis a = work.get(i);
                  Deduplicator.Probe p = i % 5 == 0 ? null : d.probe(a);
                  if (i % 7 == 0) {
                    Thread.yield(); // let more happen between the probe and the insert
                  }
                  order.readLock().lock();
                  try {
                    Verdict v =
                        p == null ? d.checkAndInsert(docId, a) : d.checkAndInsert(docId, a, p);
                    inserts.add(new Insert(epoch.get(), d.ordinalOf(docId), docId, a, v));
                  } finally {
                    order.readLock().unlock();
                  }
                  recent.add(docId);
                }
                return null;
              }));
    }
    fs.add(
        pool.submit(
            () -> {
              SplittableRandom r = new SplittableRandom(seed);
              start.await();
              while (!done.get()) {
                order.writeLock().lock();
                try {
                  long e = epoch.incrementAndGet();
                  Long victim = null;
                  synchronized (recent) {
                    if (!recent.isEmpty() && r.nextInt(20) != 0) {
                      int i = recent.size() - 1 - r.nextInt(Math.min(recent.size(), 16));
                      victim = recent.remove(i);
                    }
                  }
                  if (victim != null) {
                    assertThat(d.remove(victim)).isTrue();
                    changes.add(new Change(e, victim));
                  } else {
                    d.compact();
                    changes.add(new Change(e, -1));
                  }
                } finally {
                  order.writeLock().unlock();
                }
                Thread.sleep(0, 200_000);
              }
              return null;
            }));
    start.countDown();
    for (int t = 0; t < threads; t++) {
      fs.get(t).get(2, TimeUnit.MINUTES);
    }
    done.set(true);
    fs.get(threads).get(1, TimeUnit.MINUTES);
    pool.shutdown();

    List<Insert> sorted = new ArrayList<>(inserts);
    sorted.sort(Comparator.comparingLong(Insert::epoch).thenComparingInt(Insert::ordinal));
    Deduplicator replay = builder(verify, maxMatches).build();
    int c = 0;
    int duplicates = 0;
    for (Insert in : sorted) {
      while (c < changes.size() && changes.get(c).epoch() <= in.epoch()) {
        apply(replay, changes.get(c++));
      }
      Verdict want = replay.checkAndInsert(in.docId(), in.analysis());
      assertThat(in.verdict()).as("docId %s, seed %s", in.docId(), seed).isEqualTo(want);
      duplicates += want.isDuplicate() ? 1 : 0;
    }
    while (c < changes.size()) {
      apply(replay, changes.get(c++));
    }
    assertThat(replay.size()).isEqualTo(d.size());
    assertThat(changes.size()).isGreaterThan(10);
    assertThat(duplicates).isGreaterThan(sorted.size() / 4);
  }

  /**
   * Waits, at most a minute, until the remover has made {@code n} changes: on a loaded machine the
   * scheduler once gave it time for only 9 in a whole run, and the inserts then met too few removes
   * and compactions for the run to mean much.
   */
  private static void awaitChanges(List<Change> changes, int n) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (changes.size() < n && System.nanoTime() < until) {
      Thread.sleep(1);
    }
  }

  /**
   * Probes search the index without a lock, so a copy stored by one thread while another's probe
   * runs may or may not be in that search: either way exactly one copy of each group is new, and no
   * verdict lists a match twice (the insert's delta scan covers what the probe's search may also
   * have met). Four threads insert copy t of group g in step (a barrier every 32 groups), so copies
   * of a group meet each other's probes; fingerprints only, k = 3, copies 0-3 bits apart.
   */
  @Test
  void lockFreeProbes_racingCopies_exactlyOneNewPerGroupAndEachMatchOnce() throws Exception {
    Deduplicator d = builder(false, 100).maxDistance(3).build();
    int threads = 4;
    int groups = 40_000;
    SplittableRandom r = new SplittableRandom(21);
    long[][] fps = new long[groups][threads];
    for (int g = 0; g < groups; g++) {
      long base = r.nextLong();
      for (int t = 0; t < threads; t++) {
        long fp = base;
        if (r.nextBoolean()) {
          fp ^= 1L << r.nextInt(64); // so copies are at most 2 bits apart
        }
        fps[g][t] = fp;
      }
    }
    boolean[][] isNew = new boolean[groups][threads];
    CyclicBarrier step = new CyclicBarrier(threads);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<?>> fs = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      fs.add(
          pool.submit(
              () -> {
                try {
                  insertCopies(d, fps, thread, isNew, step);
                } catch (Throwable e) {
                  step.reset(); // the others stop at the barrier instead of waiting for it
                  throw e;
                }
                return null;
              }));
    }
    for (Future<?> f : fs) {
      f.get(2, TimeUnit.MINUTES);
    }
    pool.shutdown();
    for (int g = 0; g < groups; g++) {
      int n = 0;
      for (int t = 0; t < threads; t++) {
        n += isNew[g][t] ? 1 : 0;
      }
      assertThat(n).as("new copies of group %s", g).isEqualTo(1);
    }
    assertThat(d.size()).isEqualTo(groups * threads);
  }

  private static void insertCopies(
      Deduplicator d, long[][] fps, int thread, boolean[][] isNew, CyclicBarrier step)
      throws Exception {
    int threads = fps[0].length;
    for (int g = 0; g < fps.length; g++) {
      if (g % 32 == 0) {
        step.await(1, TimeUnit.MINUTES);
      }
      long docId = (long) g * threads + thread;
      Verdict v = d.checkAndInsert(docId, Analysis.ofFingerprint(fps[g][thread], 40));
      isNew[g][thread] = v.isNew();
      List<Long> ids = new ArrayList<>();
      for (Match m : v.matches()) {
        ids.add(m.docId());
        assertThat(m.docId() / threads).as("match of %s", docId).isEqualTo(g);
      }
      assertThat(ids).as("matches of %s", docId).doesNotHaveDuplicates();
    }
  }

  private static void apply(Deduplicator d, Change change) {
    if (change.removedDocId() < 0) {
      d.compact();
    } else {
      assertThat(d.remove(change.removedDocId())).isTrue();
    }
  }
}
