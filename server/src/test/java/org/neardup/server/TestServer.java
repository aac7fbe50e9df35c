// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.function.UnaryOperator;
import org.neardup.client.NeardupClient;
import org.neardup.store.CollectionSettings;
import org.neardup.store.FingerprintStore;
import org.neardup.store.embedded.EmbeddedStore;

/**
 * The real server on an ephemeral loopback port, started the way {@link Main} starts it, over an
 * embedded store in a temporary directory; plus a client and raw HTTP helpers.
 */
final class TestServer implements AutoCloseable {
  static final CollectionSettings SETTINGS =
      CollectionSettings.defaults().withLexicon(CollectionSettings.NO_LEXICON);

  final NeardupServer server;
  final NeardupClient client;
  final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  TestServer(FingerprintStore store, UnaryOperator<ServerConfig.Builder> configure)
      throws IOException {
    ServerConfig.Builder b =
        ServerConfig.builder().port(0).defaults(SETTINGS).shutdownTimeout(Duration.ofSeconds(5));
    ServerConfig config = configure.apply(b).build();
    this.server = NeardupServer.start(config, store);
    this.client = NeardupClient.builder(server.uri()).token(config.token()).build();
  }

  static TestServer start(Path dir) throws IOException {
    return start(dir, InstantSource.system(), b -> b);
  }

  static TestServer start(
      Path dir, InstantSource clock, UnaryOperator<ServerConfig.Builder> configure)
      throws IOException {
    return new TestServer(
        EmbeddedStore.builder(dir).clock(clock).background(false).open(), configure);
  }

  URI uri(String path) {
    return URI.create(server.uri() + path);
  }

  HttpResponse<String> request(String method, String path, String body, String... headers)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri(path))
            .method(method, HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
    return request("POST", path, body, "Content-Type", "application/json");
  }

  HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return request("GET", path, "");
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
