// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.neardup.Analysis;
import org.neardup.store.Document;
import org.neardup.store.Outcome;

class GroupCommitTest {
  private static Outcome stored(Document d) {
    return new Outcome(
        Outcome.Status.STORED, d.id(), true, d.analysis().fingerprint(), d.id(), List.of());
  }

  /**
   * Many threads at once: every document runs in exactly one group, groups run one at a time and
   * hold at most max documents, and each thread gets its own document's outcome.
   */
  @Test
  void submit_manyThreads_eachDocumentOnceAndItsOwnOutcome() throws Exception {
    GroupCommit g = new GroupCommit(8);
    List<List<String>> groups = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger running = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(32);
    try {
      List<Future<?>> fs = new ArrayList<>();
      for (int t = 0; t < 32; t++) {
        int thread = t;
        fs.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < 50; i++) {
                    String id = thread + "-" + i;
                    Outcome o =
                        g.submit(
                            new Document(id, Analysis.ofFingerprint(thread * 1000L + i, 1)),
                            docs -> {
                              assertThat(running.incrementAndGet()).isEqualTo(1);
                              List<String> ids = new ArrayList<>();
                              List<Outcome> out = new ArrayList<>();
                              for (Document d : docs) {
                                ids.add(d.id());
                                out.add(stored(d));
                              }
                              groups.add(ids);
                              try {
                                Thread.sleep(1); // lets others queue up
                              } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                              }
                              running.decrementAndGet();
                              return out;
                            });
                    assertThat(o.id()).isEqualTo(id);
                    assertThat(o.fingerprint()).isEqualTo(thread * 1000L + i);
                  }
                  return null;
                }));
      }
      for (Future<?> f : fs) {
        f.get(120, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    Set<String> seen = new HashSet<>();
    int largest = 0;
    for (List<String> ids : groups) {
      assertThat(ids).hasSizeBetween(1, 8);
      largest = Math.max(largest, ids.size());
      for (String id : ids) {
        assertThat(seen.add(id)).as("%s ran twice", id).isTrue();
      }
    }
    assertThat(seen).hasSize(32 * 50);
    // 32 threads and a group that takes a millisecond: groups of several form.
    assertThat(largest).isGreaterThan(1);
  }

  @Test
  void submit_batchThrows_everyDocumentOfTheGroupGetsTheError() {
    GroupCommit g = new GroupCommit(8);
    assertThatThrownBy(
            () ->
                g.submit(
                    new Document("a", Analysis.ofFingerprint(1, 1)),
                    docs -> {
                      throw new IllegalStateException("collection 'x' was dropped");
                    }))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("dropped");
    // The lead was released: the next document runs.
    Outcome o =
        g.submit(
            new Document("b", Analysis.ofFingerprint(2, 1)), docs -> List.of(stored(docs.get(0))));
    assertThat(o.id()).isEqualTo("b");
  }
}
