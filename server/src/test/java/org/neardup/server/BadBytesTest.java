// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Invalid UTF-8 and invalid Unicode get a 400 naming the problem and store nothing, in single
 * requests, JSON-array and NDJSON batches and query-string ids; settings that would overflow are
 * refused at creation. Before the fix, the overlong id was stored as {@code x/}, the batches stored
 * all their documents, the lone surrogate was stored as {@code col?}, and the collection with the
 * huge retention was created (every insert then answered 500 "long overflow").
 */
class BadBytesTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String DOCS = "/v1/collections/default/documents";
  private static final String TEXT = "the council approved the budget after a long debate";

  @TempDir Path dir;
  private TestServer t;

  @BeforeEach
  void start() throws Exception {
    t = TestServer.start(dir);
  }

  @AfterEach
  void stop() throws Exception {
    t.close();
  }

  private HttpResponse<String> post(String path, byte[] body, String type) throws Exception {
    return t.http.send(
        HttpRequest.newBuilder(t.uri(path))
            .header("Content-Type", type)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  /** {@code prefix + raw bytes + suffix}, the strings as UTF-8. */
  private static byte[] with(String prefix, int[] raw, String suffix) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(prefix.getBytes(StandardCharsets.UTF_8));
    for (int b : raw) {
      out.write(b);
    }
    out.writeBytes(suffix.getBytes(StandardCharsets.UTF_8));
    return out.toByteArray();
  }

  private static final int[][] BAD = {
    {0xC0, 0xAF}, // overlong '/'
    {0xED, 0xA0, 0x80}, // an encoded surrogate
    {0xF4, 0x90, 0x80, 0x80}, // above U+10FFFF
  };

  private void refused(HttpResponse<String> r, String... fragments) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
    assertThat(JSON.readTree(r.body()).get("error").asText()).contains(fragments);
  }

  private long stored() throws Exception {
    JsonNode s = JSON.readTree(t.get("/v1/collections/default/stats").body());
    return s.get("documents").asLong();
  }

  @Test
  public void invalidUtf8_inIdsAndTexts_singleAndBatches_storesNothing() throws Exception {
    for (int[] bad : BAD) {
      refused(
          post(DOCS, with("{\"id\":\"x", bad, "\",\"text\":\"" + TEXT + "\"}"), "application/json"),
          "not valid UTF-8");
      refused(
          post(
              DOCS, with("{\"id\":\"y\",\"text\":\"" + TEXT + " ", bad, "\"}"), "application/json"),
          "not valid UTF-8");
      refused(
          post(
              "/v1/collections/default/batch",
              with(
                  "[{\"id\":\"a\",\"text\":\"" + TEXT + "\"},{\"id\":\"b",
                  bad,
                  "\",\"text\":\"" + TEXT + " two\"}]"),
              "application/json"),
          "not valid UTF-8");
      refused(
          post(
              "/v1/collections/default/batch",
              with(
                  "{\"id\":\"a\",\"text\":\"" + TEXT + "\"}\n{\"id\":\"b",
                  bad,
                  "\",\"text\":\"" + TEXT + " two\"}\n"),
              "application/x-ndjson"),
          "not valid UTF-8");
    }
    assertThat(stored()).isZero();
    assertThat(t.get(DOCS + "?id=x%2F").statusCode()).isEqualTo(404);
  }

  @Test
  public void loneSurrogateIds_areRefused_pairsAreFine() throws Exception {
    refused(
        t.post(DOCS, "{\"id\":\"col\\ud800\",\"text\":\"" + TEXT + "\"}"),
        "'id' is not valid Unicode",
        "\\ud800");
    refused(t.post(DOCS, "{\"id\":\"col\\udbff\",\"text\":\"" + TEXT + "\"}"), "not valid Unicode");
    refused(t.post(DOCS, "{\"id\":\"\\udc00col\",\"text\":\"" + TEXT + "\"}"), "not valid Unicode");
    refused(
        post(
            "/v1/collections/default/batch",
            ("[{\"id\":\"a\",\"text\":\"" + TEXT + "\"},{\"id\":\"b\\ud800\",\"text\":\"x y\"}]")
                .getBytes(StandardCharsets.UTF_8),
            "application/json"),
        "document 1: field 'id' is not valid Unicode");
    assertThat(stored()).isZero();
    // A surrogate pair, escaped, is one character: stored and read back under the same id.
    assertThat(
            t.post(DOCS, "{\"id\":\"smile\\ud83d\\ude00\",\"text\":\"" + TEXT + "\"}").statusCode())
        .isEqualTo(200);
    HttpResponse<String> got = t.get(DOCS + "?id=smile%F0%9F%98%80");
    assertThat(got.statusCode()).as(got.body()).isEqualTo(200);
    assertThat(JSON.readTree(got.body()).get("id").asText()).isEqualTo("smile\ud83d\ude00");
  }

  @Test
  public void queryStringIds_mustBeValidUtf8() throws Exception {
    assertThat(t.post(DOCS, "{\"id\":\"x/\",\"text\":\"" + TEXT + "\"}").statusCode())
        .isEqualTo(200);
    refused(t.get(DOCS + "?id=x%C0%AF"), "'id' is not valid UTF-8");
    refused(t.get(DOCS + "?id=%ED%A0%80"), "'id' is not valid UTF-8");
    refused(t.request("DELETE", DOCS + "?id=x%C0%AF", ""), "'id' is not valid UTF-8");
    assertThat(t.get(DOCS + "?id=x%2F").statusCode()).isEqualTo(200);
    assertThat(t.get(DOCS + "?id=x/").statusCode()).isEqualTo(200);
    assertThat(stored()).isEqualTo(1);
  }

  @Test
  public void settingsThatOverflow_areRefusedAtCreation() throws Exception {
    refused(
        t.post("/v1/collections", "{\"name\":\"r1\",\"retention\":9223372036854775807}"),
        "retention must be in [0, 36500d]");
    refused(
        t.post("/v1/collections", "{\"name\":\"r2\",\"retention\":\"PT2562047788015215H\"}"),
        "retention must be in [0, 36500d]");
    refused(t.post("/v1/collections", "{\"name\":\"r3\",\"retention\":\"36501d\"}"), "retention");
    assertThat(t.get("/v1/collections/r1").statusCode()).isEqualTo(404);
    assertThat(t.get("/v1/collections/r2").statusCode()).isEqualTo(404);
    // The longest allowed retention works end to end.
    assertThat(t.post("/v1/collections", "{\"name\":\"r4\",\"retention\":\"36500d\"}").statusCode())
        .isEqualTo(201);
    HttpResponse<String> r =
        t.post("/v1/collections/r4/documents", "{\"id\":\"a\",\"text\":\"" + TEXT + "\"}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
  }
}
