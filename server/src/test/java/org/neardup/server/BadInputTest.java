// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.testkit.Texts;

/**
 * Every bad request gets a 4xx with {@code {"error": ...}} naming the problem, and stores nothing.
 */
class BadInputTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String DOCS = "/v1/collections/default/documents";

  @TempDir Path dir;
  private TestServer t;

  @BeforeEach
  void start() throws Exception {
    t =
        TestServer.start(
            dir, java.time.InstantSource.system(), b -> b.maxRequestBytes(64 << 10).maxBatch(5));
  }

  @AfterEach
  void stop() throws Exception {
    t.close();
  }

  /** Asserts the status and that the error message contains every fragment. */
  private void refused(HttpResponse<String> r, int status, String... fragments) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
    JsonNode n = JSON.readTree(r.body());
    assertThat(n.get("error").asText()).contains(fragments);
  }

  private void nothingStored() throws Exception {
    JsonNode s = JSON.readTree(t.get("/v1/collections/default/stats").body());
    assertThat(s.get("documents").asLong()).isZero();
  }

  @Test
  public void malformedJson() throws Exception {
    refused(t.post(DOCS, "{\"id\": \"a\", \"text\": "), 400, "malformed JSON", "line 1");
    refused(t.post(DOCS, "{\"id\": \"a\", \"text\": \"x y\"} trailing"), 400, "malformed JSON");
    refused(
        t.post(DOCS, "{\"id\": \"a\", \"id\": \"b\", \"text\": \"x y\"}"),
        400,
        "Duplicate field 'id'");
    refused(t.post(DOCS, ""), 400, "empty");
    refused(t.post(DOCS, "[1,2]"), 400, "expected a JSON object, got an array");
    nothingStored();
  }

  @Test
  public void wrongTypesAndMissingFields() throws Exception {
    refused(
        t.post(DOCS, "{\"id\": 5, \"text\": \"words words\"}"),
        400,
        "'id' must be a string, got a number");
    refused(
        t.post(DOCS, "{\"id\": \"a\", \"text\": [\"x\"]}"),
        400,
        "'text' must be a string, got an array");
    refused(t.post(DOCS, "{\"text\": \"words words\"}"), 400, "'id' is required");
    refused(
        t.post(DOCS, "{\"id\": \"\", \"text\": \"words words\"}"), 400, "'id' must not be empty");
    refused(t.post(DOCS, "{\"id\": \"a\"}"), 400, "exactly one of 'text' and 'fingerprint'");
    refused(
        t.post(DOCS, "{\"id\": \"a\", \"text\": \"w w\", \"fingerprint\": \"0123456789abcdef\"}"),
        400,
        "exactly one");
    refused(
        t.post(DOCS, "{\"id\": \"a\", \"txt\": \"words\"}"),
        400,
        "unknown field 'txt'",
        "known: fingerprint, id, text, timestamp");
    refused(
        t.post(DOCS, "{\"id\": \"a\", \"text\": \"w w\", \"timestamp\": \"yesterday\"}"),
        400,
        "'timestamp' must be epoch milliseconds",
        "'yesterday'");
    refused(
        t.post(DOCS, "{\"id\": \"a\", \"text\": \"w w\", \"timestamp\": -5}"), 400, "'timestamp'");
    refused(
        t.post(DOCS, "{\"id\": \"" + "x".repeat(5000) + "\", \"text\": \"w w\"}"),
        400,
        "at most 4096 bytes");
    nothingStored();
  }

  @Test
  public void emptyTextAndBadFingerprints() throws Exception {
    refused(
        t.post(DOCS, "{\"id\": \"a\", \"text\": \"   \"}"), 400, "'text' has no letters or digits");
    refused(
        t.post(DOCS, "{\"id\": \"a\", \"text\": \"!!! ... ???\"}"), 400, "no letters or digits");
    refused(
        t.post(DOCS, "{\"id\": \"a\", \"fingerprint\": \"xyz\"}"),
        400,
        "16 hex digits",
        "3 characters");
    refused(
        t.post(DOCS, "{\"id\": \"a\", \"fingerprint\": \"0123456789abcdeg\"}"),
        400,
        "16 hex digits");
    refused(
        t.post(DOCS, "{\"id\": \"a\", \"fingerprint\": \"0123456789abcdef\"}"),
        400,
        "verifies candidates",
        "\"verify\": false");
    nothingStored();
  }

  @Test
  public void unknownCollectionsIdsAndEndpoints() throws Exception {
    refused(
        t.post("/v1/collections/nope/documents", "{\"id\": \"a\", \"text\": \"w w\"}"),
        404,
        "no collection named 'nope'",
        "default");
    refused(
        t.get("/v1/collections/default/documents?id=missing"),
        404,
        "no document with id 'missing'");
    refused(t.get("/v1/collections/default/documents"), 400, "query parameter 'id' is required");
    refused(
        t.request("DELETE", "/v1/collections/default/documents?id=missing", ""), 404, "missing");
    refused(t.request("DELETE", "/v1/collections/nope", ""), 404, "nope");
    refused(t.get("/v2/whatever"), 404, "no endpoint GET /v2/whatever", "/openapi.json");
    HttpResponse<String> r = t.request("PUT", DOCS, "{}");
    refused(r, 405, "PUT is not allowed", "POST, GET, DELETE");
    nothingStored();
  }

  @Test
  public void collectionRequests() throws Exception {
    refused(t.post("/v1/collections", "{\"name\": \"../etc\"}"), 400, "collection name");
    refused(
        t.post("/v1/collections", "{\"name\": \"x\", \"k\": \"three\"}"),
        400,
        "'k' must be an integer, got a string");
    refused(
        t.post("/v1/collections", "{\"name\": \"x\", \"threshold\": 1.5}"),
        400,
        "threshold must be in (0, 1]");
    refused(
        t.post("/v1/collections", "{\"name\": \"x\", \"retention\": \"forever\"}"),
        400,
        "duration");
    refused(
        t.post("/v1/collections", "{\"name\": \"x\", \"lexicon\": \"klingon\"}"),
        400,
        "no lexicon named 'klingon'");
    refused(
        t.post("/v1/collections", "{\"name\": \"x\", \"colour\": \"red\"}"),
        400,
        "unknown field 'colour'");
    refused(t.post("/v1/collections", "{\"name\": \"default\"}"), 409, "exists");
    assertThat(t.client.collections()).hasSize(1);
  }

  @Test
  public void batchWithOneBadDocument_storesNothingAndNamesIt() throws Exception {
    String good = JSON.writeValueAsString(Texts.text(new SplittableRandom(1), 20));
    refused(
        t.request(
            "POST",
            "/v1/collections/default/batch",
            "{\"id\":\"a\",\"text\":" + good + "}\n{\"id\":\"b\",\"text\":\"?!\"}\n",
            "Content-Type",
            "application/x-ndjson"),
        400,
        "document 1: field 'text' has no letters or digits");
    refused(
        t.post("/v1/collections/default/batch", "[{\"id\":\"a\",\"text\":" + good + "}, 7]"),
        400,
        "document 1: expected a JSON object");
    refused(
        t.post("/v1/collections/default/batch", "{\"id\":\"a\",\"text\":" + good + "}\n{\"id\":"),
        400,
        "NDJSON line 2",
        "malformed JSON");
    refused(t.post("/v1/collections/default/batch", "[]"), 400, "empty");
    nothingStored();
  }

  @Test
  public void limits_chunkedBodyTooLarge_answers413() throws Exception {
    String huge = "{\"id\":\"a\",\"text\":\"" + "word ".repeat(20_000) + "\"}";
    // Without Content-Length (chunked), the limit holds while reading.
    java.net.http.HttpResponse<String> chunked =
        t.http.send(
            java.net.http.HttpRequest.newBuilder(t.uri(DOCS))
                .POST(
                    java.net.http.HttpRequest.BodyPublishers.ofInputStream(
                        () ->
                            new java.io.ByteArrayInputStream(
                                huge.getBytes(java.nio.charset.StandardCharsets.UTF_8))))
                .build(),
            java.net.http.HttpResponse.BodyHandlers.ofString());
    refused(chunked, 413, "exceeds 65536 bytes");
    nothingStored();
  }

  @Test
  public void limits_bodyAndBatchLength_answer413() throws Exception {
    StringBuilder six = new StringBuilder("[");
    for (int i = 0; i < 6; i++) {
      six.append(i == 0 ? "" : ",")
          .append("{\"id\":\"d")
          .append(i)
          .append("\",\"text\":\"some words\"}");
    }
    refused(
        t.post("/v1/collections/default/batch", six.append("]").toString()),
        413,
        "at most 5 documents");
    String huge = "{\"id\":\"a\",\"text\":\"" + "word ".repeat(20_000) + "\"}";
    refused(t.post(DOCS, huge), 413, "exceeds 65536 bytes");
    nothingStored();
    // The server still serves after refusing.
    assertThat(t.client.insert("default", "ok", "a small text with some words").stored()).isTrue();
  }
}
