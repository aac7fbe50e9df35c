// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.client.BatchSequence;
import org.neardup.client.Doc;
import org.neardup.client.Result;

/**
 * Batches numbered with the Neardup-Sequence header are decided in their numbers' order on the real
 * server, so a client may keep several in flight and still find the copy it sent first new.
 */
class OrderedBatchTest {
  @TempDir Path dir;

  private static final String TEXT =
      "The committee met on Tuesday to discuss the budget for next year, and agreed that the"
          + " new library should open in the spring, after the roof of the old hall is repaired.";

  @Test
  public void laterNumberArrivingFirst_waitsForTheEarlier_andTheEarlierCopyIsNew()
      throws Exception {
    try (TestServer t = TestServer.start(dir)) {
      // Number 1 first: it must wait for number 0, which holds the other copy.
      CompletableFuture<HttpResponse<String>> second = numberedAsync(t, "s1/1", line("b", TEXT));
      Thread.sleep(500); // without the order, "b" is decided (and new) by now
      assertThat(second).isNotDone();
      HttpResponse<String> first = numbered(t, "s1/0", line("a", TEXT));
      assertThat(first.statusCode()).isEqualTo(200);
      assertThat(first.body()).contains("\"id\":\"a\"").contains("\"new\":true");
      HttpResponse<String> b = second.get(1, TimeUnit.MINUTES);
      assertThat(b.statusCode()).isEqualTo(200);
      assertThat(b.body()).contains("\"id\":\"b\"").contains("\"new\":false");
    }
  }

  @Test
  public void refusedBatch_passesItsTurn() throws Exception {
    try (TestServer t = TestServer.start(dir)) {
      CompletableFuture<HttpResponse<String>> second = numberedAsync(t, "s2/1", line("b", TEXT));
      HttpResponse<String> bad = numbered(t, "s2/0", line("a", ""));
      assertThat(bad.statusCode()).isEqualTo(400);
      // Well before the 30 s request timeout that would release it otherwise.
      HttpResponse<String> b = second.get(20, TimeUnit.SECONDS);
      assertThat(b.statusCode()).isEqualTo(200);
      assertThat(b.body()).contains("\"new\":true");
      HttpResponse<String> badHeader = numbered(t, "no number", line("c", TEXT));
      assertThat(badHeader.statusCode()).isEqualTo(400);
      assertThat(badHeader.body()).contains("<stream>/<number>");
    }
  }

  @Test
  public void missingNumber_releasedAfterTheRequestTimeout() throws Exception {
    try (TestServer t =
        TestServer.start(
            dir,
            InstantSource.system(),
            b -> b.guards(Guards.defaults().withRequestTimeout(Duration.ofSeconds(1))))) {
      HttpResponse<String> r = numbered(t, "s3/5", line("a", TEXT));
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.body()).contains("\"new\":true");
    }
  }

  /**
   * The client's sequence with 8 batches in flight gives the answers of sending them one by one:
   * every copy is a duplicate of the one in the earliest batch.
   */
  @Test
  public void clientSequence_manyInFlight_earliestCopyIsNew() throws Exception {
    try (TestServer t = TestServer.start(dir)) {
      BatchSequence seq = t.client.sequence();
      List<CompletableFuture<List<Result>>> sent = new ArrayList<>();
      int batches = 40;
      for (int b = 0; b < batches; b++) {
        List<Doc> docs = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
          // Group g's copies are in batches g, g+1, ... so a later batch holds later copies.
          int g = (b + i) % 10;
          docs.add(Doc.text("b" + b + "-" + i, groupText(g)));
        }
        sent.add(seq.send("default", docs));
        if (sent.size() >= 8) {
          sent.get(sent.size() - 8).get(1, TimeUnit.MINUTES);
        }
      }
      int fresh = 0;
      for (int b = 0; b < batches; b++) {
        List<Result> results = sent.get(b).get(1, TimeUnit.MINUTES);
        for (int i = 0; i < results.size(); i++) {
          Result r = results.get(i);
          if (r.isNew()) {
            fresh++;
            assertThat(b).as("new document %s", r.id()).isZero();
          }
        }
      }
      assertThat(fresh).isEqualTo(10);
    }
  }

  /** Posts an NDJSON batch to the default collection with the Neardup-Sequence header. */
  private static HttpResponse<String> numbered(TestServer t, String sequence, String ndjson)
      throws Exception {
    return t.request(
        "POST",
        "/v1/collections/default/batch",
        ndjson,
        "Content-Type",
        "application/x-ndjson",
        "Neardup-Sequence",
        sequence);
  }

  /** {@link #numbered} on another thread. */
  private static CompletableFuture<HttpResponse<String>> numberedAsync(
      TestServer t, String sequence, String ndjson) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return numbered(t, sequence, ndjson);
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
  }

  /** One NDJSON line of a document with this id and text. */
  private static String line(String id, String text) {
    return "{\"id\":\"" + id + "\",\"text\":\"" + text + "\"}\n";
  }

  /** A text of 60 made-up words, different for each group (seeded). */
  private static String groupText(int g) {
    java.util.SplittableRandom r = new java.util.SplittableRandom(1000 + g);
    StringBuilder s = new StringBuilder();
    for (int w = 0; w < 60; w++) {
      int len = 3 + r.nextInt(6);
      for (int c = 0; c < len; c++) {
        s.append((char) ('a' + r.nextInt(26)));
      }
      s.append(' ');
    }
    return s.toString();
  }
}
