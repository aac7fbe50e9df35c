// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.neardup.store.embedded.StoreTesting.doc;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.store.Collection;
import org.neardup.store.Document;
import org.neardup.store.Outcome;
import org.neardup.testkit.Texts;

/**
 * A batch's {@code decided} step ({@link Collection#checkAndInsertAllAsync(List,
 * Collection.Parallel, java.util.function.Function)}), which the server uses to render its answer
 * while the log forces the batch: it runs once, on the calling thread, on the outcomes the batch
 * gets without it; the future completes with its result; and if it throws, the future fails with
 * that exception, but only after the batch is stored and durable (a restart still has it).
 */
class DecidedWhileDurableTest {
  @TempDir Path dir;

  private static List<Document> batch(Collection c, SplittableRandom r, String prefix, int n) {
    List<Document> docs = new ArrayList<>();
    String text = Texts.text(r, 40);
    for (int i = 0; i < n; i++) {
      // every third an edit of the one before: some duplicates inside the batch
      text = i % 3 == 2 ? Texts.edit(r, text) : Texts.text(r, 20 + r.nextInt(40));
      docs.add(doc(c, prefix + i, text));
    }
    return docs;
  }

  @Test
  public void decided_runsOnceOnCaller_sameOutcomes_futureCarriesItsResult() throws Exception {
    try (EmbeddedStore a = EmbeddedStore.builder(dir.resolve("a")).background(false).open();
        EmbeddedStore b = EmbeddedStore.builder(dir.resolve("b")).background(false).open()) {
      Collection ca = a.create("news", StoreTesting.SETTINGS);
      Collection cb = b.create("news", StoreTesting.SETTINGS);
      SplittableRandom ra = new SplittableRandom(18);
      SplittableRandom rb = new SplittableRandom(18);
      for (int round = 0; round < 5; round++) {
        List<Outcome> want =
            ca.checkAndInsertAllAsync(
                    batch(ca, ra, "r" + round + "-", 30), Collection.Parallel.CALLER)
                .get(1, TimeUnit.MINUTES);
        AtomicInteger calls = new AtomicInteger();
        AtomicReference<Thread> on = new AtomicReference<>();
        AtomicReference<List<Outcome>> seen = new AtomicReference<>();
        CompletableFuture<String> f =
            cb.checkAndInsertAllAsync(
                batch(cb, rb, "r" + round + "-", 30),
                Collection.Parallel.CALLER,
                outcomes -> {
                  calls.incrementAndGet();
                  on.set(Thread.currentThread());
                  seen.set(outcomes);
                  return "rendered " + outcomes.size();
                });
        assertThat(calls).as("decided runs before the call returns").hasValue(1);
        assertThat(on.get()).isSameAs(Thread.currentThread());
        assertThat(f.get(1, TimeUnit.MINUTES)).isEqualTo("rendered 30");
        assertThat(calls).hasValue(1);
        assertThat(seen.get().stream().map(OutcomeText::answer).toList())
            .as("round %s", round)
            .isEqualTo(want.stream().map(OutcomeText::answer).toList());
      }
    }
  }

  @Test
  public void decidedThrows_futureFailsWithIt_batchStillDurable() throws Exception {
    SplittableRandom r = new SplittableRandom(5);
    IllegalStateException boom = new IllegalStateException("rendering failed");
    try (EmbeddedStore s = EmbeddedStore.builder(dir).background(false).open()) {
      Collection c = s.create("news", StoreTesting.SETTINGS);
      CompletableFuture<Object> f =
          c.checkAndInsertAllAsync(
              batch(c, r, "d", 20),
              Collection.Parallel.CALLER,
              outcomes -> {
                throw boom;
              });
      assertThatThrownBy(() -> f.get(1, TimeUnit.MINUTES))
          .isInstanceOf(ExecutionException.class)
          .hasCause(boom);
      assertThat(c.stats().documents()).isEqualTo(20);
    }
    // Stored for good: a reopened store has the batch.
    try (EmbeddedStore s = EmbeddedStore.builder(dir).background(false).open()) {
      assertThat(s.collection("news").stats().documents()).isEqualTo(20);
    }
  }
}
