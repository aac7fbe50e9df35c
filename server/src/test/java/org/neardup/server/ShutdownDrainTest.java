// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.client.Doc;
import org.neardup.client.Result;
import org.neardup.store.embedded.EmbeddedStore;

/** A graceful close answers the requests in progress before it closes connections and the store. */
class ShutdownDrainTest {
  @TempDir Path dir;

  @Test
  public void close_withRequestsInProgress_answersThemFirst() throws Exception {
    GatedStore store = new GatedStore(EmbeddedStore.builder(dir).background(false).open());
    // Each held request holds a worker thread (the gate blocks inside the store).
    TestServer t = new TestServer(store, b -> b.workerThreads(4));
    List<CompletableFuture<Result>> held = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      held.add(
          t.client.insertAsync("default", Doc.text("held" + i, "words of a held request " + i)));
    }
    store.awaitWaiting(3);
    CompletableFuture<Void> closing =
        CompletableFuture.runAsync(
            () -> {
              try {
                t.close();
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    Thread.sleep(300);
    assertThat(closing).isNotDone(); // waiting for the held requests
    // Meanwhile new requests are refused, not queued.
    assertThat(
            t.post("/v1/collections/default/documents", "{\"id\":\"late\",\"text\":\"late words\"}")
                .statusCode())
        .isEqualTo(503);
    store.gate.countDown();
    for (CompletableFuture<Result> f : held) {
      assertThat(f.get(30, TimeUnit.SECONDS).stored()).isTrue();
    }
    closing.get(30, TimeUnit.SECONDS);
    try (EmbeddedStore reopened = EmbeddedStore.builder(dir).background(false).open()) {
      assertThat(reopened.collection("default").stats().documents()).isEqualTo(3);
    }
  }
}
