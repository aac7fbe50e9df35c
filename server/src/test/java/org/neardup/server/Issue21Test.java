// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.BindException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.store.embedded.EmbeddedStore;

/**
 * Issue 21, the service's part: messages and answers that hid what a user needs.
 *
 * <ul>
 *   <li>Malformed JSON named its location "REDACTED (StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION
 *       disabled)" inside Jackson's message.
 *   <li>NDJSON batch answers started every line after the first with a space: Jackson's generator
 *       puts its root value separator between values.
 *   <li>/openapi.json named http://127.0.0.1:8080 as the server whatever the host and port.
 *   <li>A taken port said "Address already in use" without the port.
 * </ul>
 */
class Issue21Test {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path dir;
  private TestServer t;

  @BeforeEach
  void start() throws Exception {
    t = TestServer.start(dir.resolve("a"));
  }

  @AfterEach
  void stop() throws Exception {
    t.close();
  }

  @Test
  void malformedJson_unclosedObject_saysLineAndColumnNotRedacted() throws Exception {
    HttpResponse<String> r =
        t.post("/v1/collections/default/documents", "{\"id\": \"a\", \"text\": \"some words\"");
    assertThat(r.statusCode()).isEqualTo(400);
    String error = JSON.readTree(r.body()).get("error").asText();
    assertThat(error)
        .startsWith("malformed JSON at line 1, column ")
        .contains("start marker at line 1, column 1")
        .doesNotContain("REDACTED")
        .doesNotContain("Source");
  }

  @Test
  void ndjsonBatch_answerLines_startWithTheObject() throws Exception {
    HttpResponse<String> r =
        t.request(
            "POST",
            "/v1/collections/default/batch",
            "{\"id\":\"a\",\"text\":\"one two three four\"}\n"
                + "{\"id\":\"b\",\"text\":\"five six seven eight\"}\n"
                + "{\"id\":\"c\",\"text\":\"nine ten eleven twelve\"}\n",
            "Content-Type",
            "application/x-ndjson");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    String[] lines = r.body().split("\n", -1);
    assertThat(lines).hasSize(4);
    assertThat(lines[3]).isEmpty();
    for (int i = 0; i < 3; i++) {
      assertThat(lines[i]).startsWith("{");
      assertThat(JSON.readTree(lines[i]).get("id").asText())
          .isEqualTo(String.valueOf("abc".charAt(i)));
    }
  }

  @Test
  void openApi_server_isTheHostAndPortAsked() throws Exception {
    HttpResponse<String> r = t.get("/openapi.json");
    assertThat(r.statusCode()).isEqualTo(200);
    JsonNode servers = JSON.readTree(r.body()).get("servers");
    assertThat(servers).hasSize(1);
    assertThat(servers.get(0).get("url").asText())
        .isEqualTo("http://127.0.0.1:" + t.server.port())
        .isEqualTo(t.server.uri().toString());
  }

  @Test
  void start_portTaken_namesThePort() throws Exception {
    int port = t.server.port();
    EmbeddedStore other = EmbeddedStore.builder(dir.resolve("b")).background(false).open();
    try {
      assertThatThrownBy(
              () ->
                  NeardupServer.start(
                      ServerConfig.builder()
                          .port(port)
                          .defaults(TestServer.SETTINGS)
                          .shutdownTimeout(Duration.ofSeconds(5))
                          .build(),
                      other))
          .isInstanceOf(BindException.class)
          .hasMessageStartingWith("cannot listen on 127.0.0.1:" + port + ": ")
          .hasMessageContaining("--port");
    } finally {
      other.close();
    }
  }
}
