// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.neardup.testkit.Fingerprints;

/**
 * The background jobs of {@link BlockPermutedIndex} (freezes, merges, compactions), stepped by hand
 * with a {@link StepExecutor}: searches equal {@link LinearScanIndex}'s at every point of every
 * interleaving, a remove made while a job reads its entry survives the job's publication, and the
 * writer never freezes or merges in its own thread.
 */
class BlockPermutedIndexMergeTest {

  @Test
  void add_manyFullBuffers_neverFreezesOrMergesOnTheWritersThread() {
    StepExecutor executor = new StepExecutor();
    BlockScheme scheme = BlockScheme.DEFAULT;
    BlockPermutedIndex index = BlockPermutedIndex.create(scheme, 64, executor);
    LinearScanIndex oracle = new LinearScanIndex();
    SplittableRandom random = new SplittableRandom(1);
    long[] fps = Fingerprints.clustered(random, 64 * 20 + 5, 30, 4);
    for (int i = 0; i < fps.length; i++) {
      index.add(fps[i], i);
      oracle.add(fps[i], i);
    }
    // Nothing ran: the 20 full buffers wait, frozen, each searched as it is.
    assertThat(executor.ran()).isZero();
    assertThat(executor.queued()).isEqualTo(20);
    assertThat(index.segmentCount()).isZero();
    assertThat(index.frozenCount()).isEqualTo(20);
    assertThat(index.ramBytesUsed()).isGreaterThan(20 * new AddBuffer(scheme, 64).ramBytesUsed());
    index.checkInvariants();
    compareSome(index, oracle, random, fps, 60);
    executor.drain();
    assertThat(index.frozenCount()).isZero();
    assertThat(index.segmentCount()).isBetween(1, 3);
    index.checkInvariants();
    compareSome(index, oracle, random, fps, 60);
  }

  @Test
  void add_withARealBackgroundThread_runsEveryJobOnThatThread() throws Exception {
    ExecutorService thread = Executors.newSingleThreadExecutor(r -> new Thread(r, "test-merge"));
    try {
      Set<String> ran = ConcurrentHashMap.newKeySet();
      Executor recording =
          task ->
              thread.execute(
                  () -> {
                    ran.add(Thread.currentThread().getName());
                    task.run();
                  });
      BlockPermutedIndex index = BlockPermutedIndex.create(BlockScheme.DEFAULT, 256, recording);
      SplittableRandom random = new SplittableRandom(2);
      for (int i = 0; i < 256 * 40; i++) {
        index.add(random.nextLong(), i);
      }
      index.awaitMerges();
      assertThat(ran).containsExactly("test-merge");
      assertThat(index.segmentCount()).isBetween(1, 3);
      assertThat(index.frozenCount()).isZero();
      index.checkInvariants();
    } finally {
      thread.shutdown();
    }
  }

  /**
   * A remove that lands after a freeze read the buffer's tombstones must reach the segment it
   * built. Two capacities: 2^16 freezes by walking the hash chains, 64 by sorting.
   */
  @Test
  void remove_whileAFreezeBuilds_isCarriedOverIntoItsSegment() {
    for (int capacity : new int[] {64, 1 << 16}) {
      StepExecutor executor = new StepExecutor();
      BlockPermutedIndex index = BlockPermutedIndex.create(BlockScheme.DEFAULT, capacity, executor);
      LinearScanIndex oracle = new LinearScanIndex();
      SplittableRandom random = new SplittableRandom(3);
      long[] fps = Fingerprints.clustered(random, capacity + 1, 20, 3);
      long[] ids = new long[fps.length];
      for (int i = 0; i < fps.length; i++) {
        ids[i] = i;
      }
      // exact (fingerprint, docId) copies: interchangeable, so a remove may take either
      fps[11] = fps[10];
      ids[11] = ids[10];
      fps[21] = fps[20];
      ids[21] = ids[20];
      for (int i = 0; i < fps.length; i++) {
        index.add(fps[i], ids[i]);
        oracle.add(fps[i], ids[i]);
      }
      assertThat(index.frozenCount()).isEqualTo(1);
      remove(index, oracle, fps[5], ids[5]); // before the build: in its snapshot
      assertThat(executor.runOldest()).isTrue(); // build
      assertThat(index.frozenCount()).isEqualTo(1);
      // after the build, before publication: carried over
      remove(index, oracle, fps[6], ids[6]);
      remove(index, oracle, fps[10], ids[10]);
      remove(index, oracle, fps[20], ids[20]);
      remove(index, oracle, fps[20], ids[20]);
      remove(index, oracle, fps[5], ids[5]); // gone already: false
      compareAt(index, oracle, fps);
      assertThat(executor.runOldest()).isTrue(); // publish
      assertThat(index.frozenCount()).isZero();
      assertThat(index.segmentCount()).isEqualTo(1);
      assertThat(executor.queued()).isZero();
      index.checkInvariants();
      compareAt(index, oracle, fps);
      remove(index, oracle, fps[6], ids[6]); // false: the segment holds its tombstone
      remove(index, oracle, fps[10], ids[10]); // the second copy
      compareAt(index, oracle, fps);
    }
  }

  @Test
  void remove_whileAMergeOrCompactionBuilds_isCarriedOverIntoItsOutput() {
    StepExecutor executor = new StepExecutor();
    BlockScheme scheme = BlockScheme.parse("5:2");
    BlockPermutedIndex index = BlockPermutedIndex.create(scheme, 64, executor);
    LinearScanIndex oracle = new LinearScanIndex();
    SplittableRandom random = new SplittableRandom(4);
    int n = 400;
    long[] fps = Fingerprints.clustered(random, n, 25, 4);
    long[] ids = new long[n];
    for (int i = 0; i < n; i++) {
      ids[i] = i;
    }
    fps[250] = fps[50]; // one (fingerprint, docId) pair in both segments
    ids[250] = ids[50];
    index.addAll(fps, ids, 0, 200);
    oracle.addAll(fps, ids, 0, 200);
    assertThat(executor.queued()).isZero();
    index.addAll(fps, ids, 200, n); // two segments of equal size: MergePolicy merges them
    oracle.addAll(fps, ids, 200, n);
    assertThat(index.segmentCount()).isEqualTo(2);
    assertThat(executor.queued()).isEqualTo(1);
    remove(index, oracle, fps[1], ids[1]); // in the snapshot
    remove(index, oracle, fps[201], ids[201]);
    long before = index.ramBytesUsed();
    assertThat(executor.runOldest()).isTrue(); // build
    // the merged segment is counted while it waits to replace its inputs
    assertThat(index.ramBytesUsed()).isGreaterThan(before + 30L * (n - 2));
    for (int i = 2; i < n; i += 7) {
      remove(index, oracle, fps[i], ids[i]); // both inputs, after the snapshot
    }
    remove(index, oracle, fps[50], ids[50]); // one of the two copies
    compareAt(index, oracle, fps);
    assertThat(executor.runOldest()).isTrue(); // publish
    assertThat(index.segmentCount()).isEqualTo(1);
    assertThat(index.ramBytesUsed()).isLessThan(before);
    index.checkInvariants();
    compareAt(index, oracle, fps);

    // More than half dead: compaction, a job too, and a remove while it builds.
    for (int i = 0; i < n; i++) {
      if (i % 3 != 0) {
        remove(index, oracle, fps[i], ids[i]);
      }
    }
    assertThat(executor.queued()).isEqualTo(1);
    assertThat(executor.runOldest()).isTrue(); // build
    remove(index, oracle, fps[3], ids[3]);
    remove(index, oracle, fps[300], ids[300]);
    remove(index, oracle, fps[50], ids[50]); // the last copy
    assertThat(executor.runOldest()).isTrue(); // publish
    assertThat(executor.queued()).isZero();
    index.checkInvariants();
    compareAt(index, oracle, fps);
    for (int i = 0; i < n; i++) {
      remove(index, oracle, fps[i], ids[i]);
    }
    executor.drain();
    index.checkInvariants();
    assertThat(index.size()).isZero();
    assertThat(index.segmentCount()).isZero();
  }

  @Test
  void awaitMerges_afterTheExecutorRejectsAJob_throwsButSearchesStayExact() {
    Executor rejecting =
        task -> {
          throw new RejectedExecutionException("shut down");
        };
    BlockPermutedIndex index = BlockPermutedIndex.create(BlockScheme.DEFAULT, 64, rejecting);
    LinearScanIndex oracle = new LinearScanIndex();
    SplittableRandom random = new SplittableRandom(5);
    long[] fps = Fingerprints.clustered(random, 64 * 5, 10, 3);
    for (int i = 0; i < fps.length; i++) {
      index.add(fps[i], i);
      oracle.add(fps[i], i);
    }
    for (int i = 0; i < fps.length; i += 5) {
      remove(index, oracle, fps[i], i);
    }
    assertThatThrownBy(index::awaitMerges)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("a background merge of this index failed")
        .hasCauseInstanceOf(RejectedExecutionException.class);
    assertThatThrownBy(index::forceMerge).isInstanceOf(IllegalStateException.class);
    assertThat(index.frozenCount()).isEqualTo(4);
    index.checkInvariants();
    compareAt(index, oracle, fps);
  }

  static Stream<Arguments> interleavings() {
    return Stream.of(
        Arguments.of("4:1", 16, 1L),
        Arguments.of("4:1", 64, 2L),
        Arguments.of("5:2", 32, 3L),
        Arguments.of("6:3", 16, 4L),
        Arguments.of("3:1", 64, 5L));
  }

  /**
   * Random programs of adds, removes, bulk loads, forced merges and single job steps (a build or a
   * publication, picked at random among those queued): after every step, searches equal the
   * oracle's.
   */
  @ParameterizedTest(name = "{0} buffer={1} seed={2}")
  @MethodSource("interleavings")
  void search_randomInterleavingsOfJobSteps_matchesLinearScanAfterEveryStep(
      String schemeText, int capacity, long seed) {
    BlockScheme scheme = BlockScheme.parse(schemeText);
    SplittableRandom random = new SplittableRandom(seed);
    StepExecutor executor = new StepExecutor();
    BlockPermutedIndex index = BlockPermutedIndex.create(scheme, capacity, executor);
    LinearScanIndex oracle = new LinearScanIndex();
    long[] pool = Fingerprints.clustered(random, 4000, 40, 6);
    List<long[]> present = new ArrayList<>();
    List<String> log = new ArrayList<>();
    int next = 0;
    try {
      for (int step = 0; step < 3000; step++) {
        int r = random.nextInt(100);
        if (r < 50) {
          long fp = pool[random.nextInt(pool.length)];
          long id = random.nextInt(8) == 0 ? random.nextInt(20) : next++;
          index.add(fp, id);
          oracle.add(fp, id);
          present.add(new long[] {fp, id});
          log.add(String.format(Locale.ROOT, "add %016x %d", fp, id));
        } else if (r < 66 && !present.isEmpty()) {
          long[] e = present.remove(random.nextInt(present.size()));
          remove(index, oracle, e[0], e[1]);
          log.add(String.format(Locale.ROOT, "remove %016x %d", e[0], e[1]));
        } else if (r < 68) {
          long fp = pool[random.nextInt(pool.length)];
          remove(index, oracle, fp, 1_000_000);
        } else if (r < 97) {
          boolean ran = executor.runAny(random);
          log.add("job step " + ran);
        } else if (r < 99) {
          int count = capacity + random.nextInt(2 * capacity);
          long[] fps = new long[count];
          long[] ids = new long[count];
          for (int i = 0; i < count; i++) {
            fps[i] = pool[random.nextInt(pool.length)];
            ids[i] = next++;
            present.add(new long[] {fps[i], ids[i]});
          }
          index.addAll(fps, ids, 0, count);
          oracle.addAll(fps, ids, 0, count);
          log.add("addAll " + count);
        } else {
          executor.drain(); // forceMerge waits for the jobs: run them first
          index.forceMerge();
          log.add("forceMerge");
          assertThat(index.segmentCount()).isLessThanOrEqualTo(1);
        }
        compareSome(index, oracle, random, pool, 3);
        if (step % 10 == 0) {
          index.checkInvariants();
        }
      }
      executor.drain();
      index.checkInvariants();
      assertThat(index.segmentCount()).isLessThanOrEqualTo(4);
      BlockPermutedIndexOracleTest.compare(index, oracle, random, pool, 10);
    } catch (AssertionError | RuntimeException e) {
      int from = Math.max(0, log.size() - 30);
      throw new AssertionError(
          "scheme "
              + schemeText
              + " buffer "
              + capacity
              + " seed "
              + seed
              + "; last steps: "
              + String.join("; ", log.subList(from, log.size()))
              + "; "
              + index,
          e);
    }
  }

  static void remove(BlockPermutedIndex index, LinearScanIndex oracle, long fp, long id) {
    boolean expected = oracle.remove(fp, id);
    assertThat(index.remove(fp, id)).as("remove %016x %d", fp, id).isEqualTo(expected);
  }

  /** Queries near stored fingerprints at a few distances, and the size. */
  static void compareSome(
      BlockPermutedIndex index,
      LinearScanIndex oracle,
      SplittableRandom random,
      long[] fps,
      int n) {
    assertThat(index.size()).isEqualTo(oracle.size());
    for (int qi = 0; qi < n; qi++) {
      long q = Fingerprints.flip(random, fps[random.nextInt(fps.length)], random.nextInt(5));
      int k = random.nextInt(7);
      assertThat(BlockPermutedIndexOracleTest.collect(index, q, k))
          .as("query %016x k %d", q, k)
          .isEqualTo(BlockPermutedIndexOracleTest.collect(oracle, q, k));
    }
  }

  /** The first 400 stored fingerprints (those the tests remove) as queries, at k = 0 and 3. */
  static void compareAt(BlockPermutedIndex index, LinearScanIndex oracle, long[] fps) {
    assertThat(index.size()).isEqualTo(oracle.size());
    for (int i = 0; i < Math.min(fps.length, 400); i++) {
      long q = fps[i];
      for (int k : new int[] {0, 3}) {
        assertThat(BlockPermutedIndexOracleTest.collect(index, q, k))
            .as("query %016x k %d", q, k)
            .isEqualTo(BlockPermutedIndexOracleTest.collect(oracle, q, k));
      }
    }
  }
}
