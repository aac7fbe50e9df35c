// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.neardup.testkit.Fingerprints;

/**
 * One writer adds (and removes) while readers search and the shared background threads freeze and
 * merge: every result must hold only entries that may be present while it ran, each once, and every
 * entry added before the search began and not removed before it ended. A small buffer makes the
 * index freeze and merge many times while the readers run.
 */
class BlockPermutedIndexConcurrencyTest {

  @Test
  void search_whileOneWriterAdds_seesConsistentSnapshots() throws Exception {
    for (String scheme : new String[] {"4:1", "5:2"}) {
      run(BlockScheme.parse(scheme), 3);
      run(BlockScheme.parse(scheme), 5); // multi-probe path
    }
  }

  private static void run(BlockScheme scheme, int k) throws Exception {
    SplittableRandom random = new SplittableRandom(31 + k);
    int n = 60_000;
    long[] fps = Fingerprints.clustered(random, n, 300, 6);
    long[] queries = Fingerprints.queries(random, fps, 4096, 4);
    BlockPermutedIndex index = BlockPermutedIndex.create(scheme, 512);
    AtomicInteger added = new AtomicInteger(); // entries [0, added) are fully added
    AtomicReference<Throwable> failure = new AtomicReference<>();
    AtomicInteger searches = new AtomicInteger();
    List<Thread> readers = new ArrayList<>();
    for (int r = 0; r < 3; r++) {
      int seed = r;
      Thread t =
          new Thread(
              () -> {
                SplittableRandom rr = new SplittableRandom(seed);
                try {
                  while (added.get() < n && failure.get() == null) {
                    long q = queries[rr.nextInt(queries.length)];
                    int before = added.get();
                    Set<Long> seen = new HashSet<>();
                    index.search(
                        q,
                        k,
                        (id, fp, d) -> {
                          // a real entry, reported once, with its true distance
                          assertThat(id).isBetween(0L, (long) n - 1);
                          assertThat(fp).isEqualTo(fps[(int) id]);
                          assertThat(d).isEqualTo(Long.bitCount(fp ^ q));
                          assertThat(seen.add(id)).as("reported twice: %s", id).isTrue();
                        });
                    for (int i = 0; i < before; i++) {
                      if (Long.bitCount(fps[i] ^ q) <= k) {
                        assertThat(seen)
                            .as("missing %s added before the search", i)
                            .contains((long) i);
                      }
                    }
                    searches.incrementAndGet();
                  }
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
              });
      t.start();
      readers.add(t);
    }
    for (int i = 0; i < n; i++) {
      if (i == n / 2) {
        // Half-way, wait for the readers' first search, so some searches run while the writer
        // adds even when the writer would otherwise finish before a reader is scheduled.
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (searches.get() == 0 && failure.get() == null && System.nanoTime() < deadline) {
          Thread.onSpinWait();
        }
      }
      index.add(fps[i], i);
      added.set(i + 1);
    }
    for (Thread t : readers) {
      t.join();
    }
    if (failure.get() != null) {
      throw new AssertionError("scheme " + scheme + " k " + k, failure.get());
    }
    assertThat(searches.get()).isPositive();
    index.checkInvariants();
    assertThat(index.size()).isEqualTo(n);
  }

  /**
   * The writer runs a fixed program of adds and removes, so a reader knows from the count of
   * completed operations before and after its search which entries must and must not appear. Op j
   * completed iff done > j; when a reader reads done == e after its search, op e may have run
   * during it, and no later op had started.
   */
  @Test
  void search_whileWriterAddsAndRemovesAndJobsPublish_seesExactlyTheCompletedOps()
      throws Exception {
    SplittableRandom random = new SplittableRandom(77);
    int n = 60_000;
    int k = 3;
    long[] fps = Fingerprints.clustered(random, n, 400, 5);
    // the program: op j adds entry addOf[j], or removes entry removeOf[j]
    int[] addOp = new int[n];
    int[] removeOp = new int[n];
    Arrays.fill(removeOp, Integer.MAX_VALUE);
    List<int[]> program = new ArrayList<>();
    List<Integer> live = new ArrayList<>();
    for (int x = 0; x < n; x++) {
      addOp[x] = program.size();
      program.add(new int[] {0, x});
      live.add(x);
      if (random.nextInt(3) == 0) {
        int victim = live.remove(random.nextInt(live.size()));
        removeOp[victim] = program.size();
        program.add(new int[] {1, victim});
      }
    }
    long[] queries = Fingerprints.queries(random, fps, 2048, 4);
    int[][] near = new int[queries.length][]; // entries within k of each query
    for (int qi = 0; qi < queries.length; qi++) {
      long q = queries[qi];
      near[qi] = IntStream.range(0, n).filter(x -> Long.bitCount(fps[x] ^ q) <= k).toArray();
    }
    BlockPermutedIndex index = BlockPermutedIndex.create(BlockScheme.DEFAULT, 1024);
    AtomicInteger done = new AtomicInteger();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    AtomicIntegerArray seenBy = new AtomicIntegerArray(1); // searches, for the final check
    List<Thread> readers = new ArrayList<>();
    int ops = program.size();
    for (int r = 0; r < 3; r++) {
      int seed = r;
      Thread t =
          new Thread(
              () -> {
                SplittableRandom rr = new SplittableRandom(seed);
                try {
                  while (!stop.get() && failure.get() == null) {
                    int qi = rr.nextInt(queries.length);
                    long q = queries[qi];
                    int before = done.get();
                    Set<Long> seen = new HashSet<>();
                    index.search(
                        q,
                        k,
                        (id, fp, d) -> {
                          assertThat(fp).isEqualTo(fps[(int) id]);
                          assertThat(d).isEqualTo(Long.bitCount(fp ^ q));
                          assertThat(seen.add(id)).as("reported twice: %s", id).isTrue();
                        });
                    int after = done.get();
                    for (long id : seen) {
                      assertThat(addOp[(int) id])
                          .as("added after the search: %s", id)
                          .isLessThanOrEqualTo(after);
                      assertThat(removeOp[(int) id])
                          .as("removed before the search: %s", id)
                          .isGreaterThanOrEqualTo(before);
                    }
                    for (int x : near[qi]) {
                      if (addOp[x] < before && removeOp[x] > after) {
                        assertThat(seen).as("missing %s", x).contains((long) x);
                      }
                    }
                    seenBy.incrementAndGet(0);
                  }
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
              });
      t.start();
      readers.add(t);
    }
    for (int j = 0; j < ops && failure.get() == null; j++) {
      if (j == ops / 2) {
        // As above: some searches must overlap the writer's operations.
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (seenBy.get(0) == 0 && failure.get() == null && System.nanoTime() < deadline) {
          Thread.onSpinWait();
        }
      }
      int[] op = program.get(j);
      if (op[0] == 0) {
        index.add(fps[op[1]], op[1]);
      } else {
        assertThat(index.remove(fps[op[1]], op[1])).isTrue();
      }
      done.set(j + 1);
    }
    done.set(ops); // also releases the readers if the writer stopped early
    index.awaitMerges(); // the readers search on while the last jobs publish
    stop.set(true);
    for (Thread t : readers) {
      t.join();
    }
    if (failure.get() != null) {
      throw new AssertionError(failure.get());
    }
    assertThat(seenBy.get(0)).isPositive();
    index.checkInvariants();
    assertThat(index.size()).isEqualTo(live.size());
    assertThat(index.frozenCount()).isZero();
    assertThat(index.segmentCount()).isBetween(1, 3);
  }
}
