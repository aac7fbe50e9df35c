// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.Locale;
import org.neardup.store.embedded.EmbeddedStore;

/**
 * {@code DropRounds DIR ROUNDS}: the service on DIR, then ROUNDS times create a collection (with
 * the default lexicon, jieba), insert one document, scrape /metrics, drop it; prints {@code ok N
 * rounds, heap X MB} and exits 0, or dies of OutOfMemoryError. Run by {@link DropMemoryIT} in a
 * small heap.
 */
public final class DropRounds {
  private DropRounds() {}

  public static void main(String[] args) throws Exception {
    Path dir = Files.createDirectories(Path.of(args[0]));
    int rounds = Integer.parseInt(args[1]);
    ServerConfig config = ServerConfig.builder().port(0).defaultCollection(null).build();
    try (NeardupServer server =
        NeardupServer.start(
            config, EmbeddedStore.builder(dir).clock(InstantSource.system()).open())) {
      HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      for (int i = 0; i < rounds; i++) {
        String name = "c" + i;
        send(http, server.uri(), "POST", "/v1/collections", "{\"name\":\"" + name + "\"}", 201);
        send(
            http,
            server.uri(),
            "POST",
            "/v1/collections/" + name + "/documents",
            "{\"id\":\"a\",\"text\":\"the council approved the budget, round " + i + "\"}",
            200);
        send(http, server.uri(), "GET", "/metrics", "", 200);
        send(http, server.uri(), "DELETE", "/v1/collections/" + name, "", 200);
      }
      System.gc();
      Runtime rt = Runtime.getRuntime();
      System.out.printf(
          Locale.ROOT,
          "ok %d rounds, heap %.0f MB of %.0f MB%n",
          rounds,
          (rt.totalMemory() - rt.freeMemory()) / 1e6,
          rt.maxMemory() / 1e6);
    }
  }

  private static void send(
      HttpClient http, URI base, String method, String path, String body, int expected)
      throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(base + path))
                .method(method, HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != expected) {
      throw new IllegalStateException(method + " " + path + " answered " + r.body());
    }
  }
}
