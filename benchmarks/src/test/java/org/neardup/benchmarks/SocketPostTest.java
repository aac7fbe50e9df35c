// SPDX-License-Identifier: Apache-2.0
package org.neardup.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A plain-socket POST against the JDK's own small HTTP server, its answers read by length. */
@SuppressForbidden(reason = "the JDK's com.sun.net.httpserver as the server under the client")
class SocketPostTest {
  private HttpServer server;
  private final List<String> seen = new ArrayList<>();
  private URI base;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/",
        ex -> {
          String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
          synchronized (seen) {
            seen.add(ex.getRequestURI().getPath() + " " + body);
          }
          byte[] answer =
              ("{\"length\":" + body.getBytes(StandardCharsets.UTF_8).length + "}")
                  .getBytes(StandardCharsets.UTF_8);
          ex.sendResponseHeaders(body.contains("refuse") ? 409 : 200, answer.length);
          try (OutputStream out = ex.getResponseBody()) {
            out.write(answer);
          }
        });
    server.start();
    base = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  public void post_severalOnOneConnection_answersReadByLength() throws IOException {
    ByteArrayOutputStream answer = new ByteArrayOutputStream();
    try (SocketPost post = new SocketPost(base)) {
      String text = "{\"id\":\"a\",\"text\":\"新闻 news 1,234\"}";
      assertThat(
              post.post(
                  base.resolve("/v1/collections/c/documents"), "application/json", text, answer))
          .isEqualTo(200);
      assertThat(answer.toString(StandardCharsets.UTF_8))
          .isEqualTo("{\"length\":" + text.getBytes(StandardCharsets.UTF_8).length + "}");
      assertThat(
              post.post(
                  base.resolve("/v1/collections/c/batch"), "application/json", "[refuse]", answer))
          .isEqualTo(409);
      assertThat(answer.toString(StandardCharsets.UTF_8)).isEqualTo("{\"length\":8}");
    }
    assertThat(seen)
        .containsExactly(
            "/v1/collections/c/documents {\"id\":\"a\",\"text\":\"新闻 news 1,234\"}",
            "/v1/collections/c/batch [refuse]");
  }

  @Test
  public void post_serverGone_throws() throws IOException {
    try (SocketPost post = new SocketPost(base)) {
      server.stop(0);
      assertThatThrownBy(
              () ->
                  post.post(
                      base.resolve("/x"), "application/json", "{}", new ByteArrayOutputStream()))
          .isInstanceOf(IOException.class);
    }
  }
}
