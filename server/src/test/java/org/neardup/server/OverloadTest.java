// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.client.Doc;
import org.neardup.client.NeardupException;
import org.neardup.client.Result;
import org.neardup.store.embedded.EmbeddedStore;

/**
 * When the bounded queue is full the server answers 503 with Retry-After at once instead of holding
 * more work, and serves normally again once it drains.
 */
class OverloadTest {
  @TempDir Path dir;

  @Test
  public void queueFull_answers503WithRetryAfter_thenRecovers() throws Exception {
    GatedStore store = new GatedStore(EmbeddedStore.builder(dir).background(false).open());
    try (TestServer t = new TestServer(store, b -> b.maxInFlight(4).workerThreads(8))) {
      List<CompletableFuture<Result>> held = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        held.add(
            t.client.insertAsync(
                "default", Doc.text("held" + i, "some words number " + i + " here and there")));
      }
      store.awaitWaiting(4);
      for (int i = 0; i < 10; i++) {
        HttpResponse<String> r =
            t.post(
                "/v1/collections/default/documents",
                "{\"id\":\"x" + i + "\",\"text\":\"more words\"}");
        assertThat(r.statusCode()).isEqualTo(503);
        assertThat(r.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(r.body()).contains("at capacity");
      }
      // Reads are bounded too, and health stays answerable for probes.
      assertThat(t.get("/v1/collections").statusCode()).isEqualTo(503);
      assertThat(t.get("/health").statusCode()).isEqualTo(200);

      store.gate.countDown();
      for (CompletableFuture<Result> f : held) {
        assertThat(f.get(30, TimeUnit.SECONDS).stored()).isTrue();
      }
      assertThat(t.client.insert("default", "after", "the queue drained so this goes in").stored())
          .isTrue();
      String m = t.client.metrics();
      assertThat(m).contains("neardup_queue_rejected_total 11.0");
      assertThat(t.client.get("default", "x0")).isEmpty();
    }
  }

  @Test
  public void bytesInFlightFull_answers503() throws Exception {
    GatedStore store = new GatedStore(EmbeddedStore.builder(dir).background(false).open());
    try (TestServer t = new TestServer(store, b -> b.maxQueuedBytes(12_000))) {
      String big = "word ".repeat(1600); // 8 kB
      CompletableFuture<Result> first = t.client.insertAsync("default", Doc.text("big1", big));
      store.awaitWaiting(1);
      try {
        t.client.insert("default", Doc.text("big2", big + " more"));
        throw new AssertionError("expected 503");
      } catch (NeardupException e) {
        assertThat(e.status()).isEqualTo(503);
        assertThat(e.retryAfterSeconds()).isEqualTo(1);
        assertThat(e.isRetryable()).isTrue();
      }
      // A small request still fits.
      store.gate.countDown();
      assertThat(t.client.insert("default", "small", "a few words only").stored()).isTrue();
      assertThat(first.get(30, TimeUnit.SECONDS).stored()).isTrue();
    }
  }
}
