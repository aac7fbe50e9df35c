package org.neardup.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.neardup.testkit.Fingerprints;

/**
 * One writer adds while readers search: every result must be a subset of the final contents and
 * include every match added before the search began. A small buffer makes the writer freeze and
 * merge segments many times while the readers run.
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
}
