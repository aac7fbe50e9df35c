// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.client.CollectionInfo;
import org.neardup.client.Doc;
import org.neardup.client.NeardupClient;
import org.neardup.client.Result;
import org.neardup.client.StoredDoc;
import org.neardup.testkit.Texts;

/** The API end to end: the real server, the real client, over loopback. */
class ApiTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private TestServer t;
  private NeardupClient client;
  private final SplittableRandom random = new SplittableRandom(11);

  @BeforeEach
  void start() throws Exception {
    t = TestServer.start(dir);
    client = t.client;
  }

  @AfterEach
  void stop() throws Exception {
    t.close();
  }

  @Test
  public void insert_copyAndEdit_areDuplicatesOfTheFirst() throws Exception {
    String text = Texts.text(random, 40);
    Result first = client.insert("default", "https://example.com/a?x=1&y=2", text);
    assertThat(first.status()).isEqualTo("stored");
    assertThat(first.isNew()).isTrue();
    assertThat(first.cluster()).isEqualTo("https://example.com/a?x=1&y=2");
    assertThat(first.matches()).isEmpty();
    assertThat(first.fingerprint()).isEqualTo(client.fingerprint("default", text));

    Result copy = client.insert("default", "b", Texts.edit(random, text));
    assertThat(copy.isNew()).isFalse();
    assertThat(copy.cluster()).isEqualTo("https://example.com/a?x=1&y=2");
    assertThat(copy.matches())
        .singleElement()
        .satisfies(
            m -> {
              assertThat(m.id()).isEqualTo("https://example.com/a?x=1&y=2");
              assertThat(m.similarity()).isBetween(0.8, 1.0);
            });

    Result check = client.check("default", text);
    assertThat(check.status()).isEqualTo("checked");
    assertThat(check.id()).isNull();
    assertThat(check.isNew()).isFalse();
    assertThat(client.collection("default").orElseThrow().documents()).isEqualTo(2);
  }

  @Test
  public void insert_sameIdTwice_answers409ExistsAndChangesNothing() throws Exception {
    String text = Texts.text(random, 30);
    Result first = client.insert("default", "a", text);
    Result again = client.insert("default", "a", Texts.text(random, 30));
    assertThat(again.exists()).isTrue();
    assertThat(again.fingerprint()).isEqualTo(first.fingerprint());
    assertThat(again.error()).contains("already stored");
    HttpResponse<String> raw =
        t.post(
            "/v1/collections/default/documents", "{\"id\":\"a\",\"text\":\"whatever words here\"}");
    assertThat(raw.statusCode()).isEqualTo(409);
    assertThat(JSON.readTree(raw.body()).get("status").asText()).isEqualTo("exists");
  }

  @Test
  public void getAndDelete_byIdWithSlashesAndUnicode() throws Exception {
    String id = "https://例子.com/新闻/2025?id=1&p=a b";
    Instant ts = Instant.parse("2025-06-01T12:00:00Z");
    Result r = client.insert("default", Doc.text(id, Texts.text(random, 30)).at(ts));
    StoredDoc d = client.get("default", id).orElseThrow();
    assertThat(d.id()).isEqualTo(id);
    assertThat(d.fingerprint()).isEqualTo(r.fingerprint());
    assertThat(d.timestamp()).isEqualTo(ts.toEpochMilli());
    assertThat(d.expiresAt()).isNull();
    assertThat(d.cluster()).isEqualTo(id);
    assertThat(client.delete("default", id)).isTrue();
    assertThat(client.delete("default", id)).isFalse();
    assertThat(client.get("default", id)).isEmpty();
  }

  @Test
  public void batch_ndjsonAndArray_answerInOrderLikeOneByOne() throws Exception {
    String a = Texts.text(random, 30);
    String b = Texts.text(random, 30);
    List<Result> rs =
        client.batch(
            "default",
            List.of(Doc.text("1", a), Doc.text("2", b), Doc.text("3", a), Doc.text("1", b)));
    assertThat(rs)
        .extracting(Result::status)
        .containsExactly("stored", "stored", "stored", "exists");
    assertThat(rs).extracting(Result::isNew).containsExactly(true, true, false, false);
    assertThat(rs.get(2).cluster()).isEqualTo("1");

    HttpResponse<String> arr =
        t.post(
            "/v1/collections/default/batch",
            "[{\"id\":\"4\",\"text\":"
                + JSON.writeValueAsString(b)
                + "},"
                + "{\"id\":\"5\",\"text\":\"something else entirely, not like the others\"}]");
    assertThat(arr.statusCode()).isEqualTo(200);
    assertThat(arr.headers().firstValue("Content-Type")).hasValue("application/json");
    JsonNode out = JSON.readTree(arr.body());
    assertThat(out.isArray()).isTrue();
    assertThat(out.get(0).get("cluster").asText()).isEqualTo("2");
    assertThat(out.get(1).get("new").asBoolean()).isTrue();
  }

  @Test
  public void collections_createListGetDrop_eachWithItsOwnSettings() throws Exception {
    CollectionInfo c =
        client.createCollection(
            "fps",
            Map.of(
                "verify",
                false,
                "k",
                2,
                "retention",
                "48h",
                "retentionBasis",
                "arrival",
                "lexicon",
                "none"));
    assertThat(c.settings())
        .containsEntry("k", 2)
        .containsEntry("verify", false)
        .containsEntry("retention", "PT48H")
        .containsEntry("retentionBasis", "arrival");
    assertThat(client.collections())
        .extracting(CollectionInfo::name)
        .containsExactly("default", "fps");

    long fp = 0x00ff_00ff_00ff_00ffL;
    assertThat(client.insert("fps", Doc.fingerprint("x", fp)).isNew()).isTrue();
    Result near = client.insert("fps", Doc.fingerprint("y", fp ^ 3));
    assertThat(near.isNew()).isFalse();
    assertThat(near.matches().get(0).distance()).isEqualTo(2);
    assertThat(near.matches().get(0).similarity()).isNaN();
    assertThat(client.check("fps", fp ^ 0x700).isNew()).isTrue(); // 3 bits from x, 5 from y: > k
    assertThat(client.get("fps", "x").orElseThrow().expiresAt()).isNotNull();

    // The same id and text in another collection is independent.
    assertThat(client.insert("default", "x", Texts.text(random, 20)).isNew()).isTrue();

    assertThat(client.dropCollection("fps")).isTrue();
    assertThat(client.dropCollection("fps")).isFalse();
    assertThat(client.collection("fps")).isEmpty();
  }

  @Test
  public void stats_countWhatHappened() throws Exception {
    String text = Texts.text(random, 30);
    client.insert("default", "a", text);
    client.insert("default", "b", text);
    client.check("default", text);
    client.delete("default", "a");
    JsonNode s = JSON.readTree(t.get("/v1/collections/default/stats").body());
    assertThat(s.get("documents").asLong()).isEqualTo(1);
    assertThat(s.get("inserted").asLong()).isEqualTo(2);
    assertThat(s.get("duplicates").asLong()).isEqualTo(1);
    assertThat(s.get("checked").asLong()).isEqualTo(1);
    assertThat(s.get("deleted").asLong()).isEqualTo(1);
    assertThat(s.get("ramBytes").asLong()).isPositive();
  }

  /** Each answered batch is timed once per stage; a refused one is not timed. */
  @Test
  public void batchStages_countAnsweredBatchesOnly() throws Exception {
    client.batch("default", List.of(Doc.text("s1", Texts.text(random, 30))));
    client.batch("default", List.of(Doc.text("s2", Texts.text(random, 30))));
    assertThat(t.post("/v1/collections/default/batch", "[{\"id\":\"\"}]").statusCode())
        .isEqualTo(400);
    assertTimedTwice(client.metrics(), "neardup_batch_stage_seconds", Metrics.BATCH_STAGES);
  }

  /** Each answered single insert is timed once per stage; a refused one is not timed. */
  @Test
  public void singleStages_countAnsweredInsertsOnly() throws Exception {
    client.insert("default", "s1", Texts.text(random, 30));
    client.insert("default", "s2", Texts.text(random, 30));
    assertThat(t.post("/v1/collections/default/documents", "{\"id\":\"\"}").statusCode())
        .isEqualTo(400);
    assertTimedTwice(client.metrics(), "neardup_single_stage_seconds", Metrics.SINGLE_STAGES);
  }

  /**
   * A recording that enables {@code org.neardup.SingleCheck} gets one event per answered single,
   * whose stages add up to its total; a refused one gets none.
   */
  @Test
  @SuppressForbidden(reason = "reads the flight recording through jdk.jfr")
  public void singleCheckEvent_onePerAnsweredInsert_stagesAddUpToTotal() throws Exception {
    List<jdk.jfr.consumer.RecordedEvent> events;
    try (jdk.jfr.Recording r = new jdk.jfr.Recording()) {
      r.enable("org.neardup.SingleCheck");
      r.start();
      client.insert("default", "e1", Texts.text(random, 30));
      client.insert("default", "e2", Texts.text(random, 30));
      assertThat(t.post("/v1/collections/default/documents", "{\"id\":\"\"}").statusCode())
          .isEqualTo(400);
      r.stop();
      Path file = dir.resolve("singles.jfr");
      r.dump(file);
      events =
          jdk.jfr.consumer.RecordingFile.readAllEvents(file).stream()
              .filter(e -> e.getEventType().getName().equals("org.neardup.SingleCheck"))
              .toList();
    }
    assertThat(events).hasSize(2);
    for (jdk.jfr.consumer.RecordedEvent e : events) {
      long sum = 0;
      for (String stage : Metrics.SINGLE_STAGES) {
        assertThat(e.getLong(stage)).as(stage).isNotNegative();
        sum += e.getLong(stage);
      }
      assertThat(sum).isEqualTo(e.getLong("total")).isPositive();
    }
  }

  /** Each of {@code stages} of the histogram {@code metric} counts two requests. */
  private static void assertTimedTwice(String metrics, String metric, List<String> stages) {
    for (String stage : stages) {
      assertThat(metrics)
          .as(stage)
          .contains(metric + "_count{stage=\"" + stage + "\"} 2")
          .contains(metric + "_bucket{stage=\"" + stage + "\",le=\"");
    }
  }

  @Test
  public void healthReadyOpenApiMetrics() throws Exception {
    assertThat(t.get("/health").statusCode()).isEqualTo(200);
    assertThat(client.ready()).isTrue();
    JsonNode api = JSON.readTree(t.get("/openapi.json").body());
    assertThat(api.get("openapi").asText()).startsWith("3.");
    for (Route r : Route.values()) {
      String path = r.template.replace("{c}", "{collection}");
      assertThat(api.get("paths").has(path)).as(path).isTrue();
      assertThat(
              api.get("paths")
                  .get(path)
                  .has(r.method.toString().toLowerCase(java.util.Locale.ROOT)))
          .as(r.toString())
          .isTrue();
    }
    client.insert("default", "a", Texts.text(random, 30));
    String m = client.metrics();
    assertThat(m)
        .contains("neardup_http_requests_seconds_bucket{")
        .contains("route=\"/v1/collections/{c}/documents\"")
        .contains("neardup_http_requests_seconds_count{")
        .contains("neardup_index_documents{collection=\"default\"} 1.0")
        .contains("neardup_index_bytes{collection=\"default\"}")
        .contains("neardup_index_expired_total{collection=\"default\"} 0.0")
        .contains("neardup_queue_depth")
        .contains("neardup_documents_total{collection=\"default\",result=\"new\"} 1.0")
        .contains("neardup_store_log_fsyncs_total");
  }
}
