// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.client.Doc;
import org.neardup.client.Result;
import org.neardup.store.embedded.EmbeddedStore;
import org.neardup.testkit.ManualClock;
import org.neardup.testkit.Texts;

/**
 * The retention window over HTTP, with an injected clock: a document stops matching once it is
 * older than the window, by its timestamp or by its arrival, and the expiry shows in the metrics.
 */
class RetentionHttpTest {
  @TempDir Path dir;

  @Test
  public void expiredDocuments_stopMatchingAndAreCounted() throws Exception {
    ManualClock clock = new ManualClock();
    EmbeddedStore store = EmbeddedStore.builder(dir).clock(clock).background(false).open();
    try (TestServer t = new TestServer(store, b -> b)) {
      t.client.createCollection("news", Map.of("retention", "48h", "lexicon", "none"));
      SplittableRandom r = new SplittableRandom(5);
      String old = Texts.text(r, 30);
      String young = Texts.text(r, 30);
      Instant now = clock.instant();
      // Published 47 hours ago: by timestamp, one hour is left.
      t.client.insert("news", Doc.text("old", old).at(now.minus(Duration.ofHours(47))));
      t.client.insert("news", Doc.text("young", young));
      // Published 3 days ago: outside the window already, checked but not stored.
      Result stale =
          t.client.insert(
              "news", Doc.text("stale", Texts.text(r, 30)).at(now.minus(Duration.ofDays(3))));
      assertThat(stale.status()).isEqualTo("expired");
      assertThat(t.client.get("news", "stale")).isEmpty();

      clock.advance(Duration.ofHours(1));
      store.maintain(); // what the background thread does every second
      assertThat(t.client.get("news", "old")).isEmpty();
      assertThat(t.client.check("news", old).isNew()).isTrue();
      assertThat(t.client.check("news", young).isNew()).isFalse();
      assertThat(t.client.insert("news", "old-again", old).isNew()).isTrue();
      assertThat(t.client.metrics())
          .contains("neardup_index_expired_total{collection=\"news\"} 1.0");
      assertThat(t.client.collection("news").orElseThrow().stats()).containsEntry("expired", 1L);
    }
  }
}
