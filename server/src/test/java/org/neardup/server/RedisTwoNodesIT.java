// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.client.NeardupClient;
import org.neardup.testkit.ExactlyOneRace;
import org.neardup.testkit.RedisServer;
import org.neardup.testkit.ServeProcess;

/**
 * Exactly one survivor across nodes: two real service processes on one real redis-server, 64 client
 * threads sending groups of 8 near-copies spread over both nodes at once ({@link ExactlyOneRace}).
 * Each group has exactly one new document and every copy names it as its cluster, whichever node
 * answered it.
 *
 * <p>CI runs 2,000 groups; {@code -Dneardup.groups=N} runs another size.
 */
class RedisTwoNodesIT {
  @TempDir Path dir;

  /**
   * A service node on the redis store, as a separate process: a worker waits for the store, so more
   * workers than cores keep both nodes busy.
   */
  private ServeProcess node(String url, String name, String... options) throws IOException {
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                "--workers",
                "16",
                "--store",
                "redis",
                "--store-option",
                "url=" + url,
                "--store-option",
                "prefix=two-nodes"));
    for (String option : options) {
      args.add("--store-option");
      args.add(option);
    }
    return ServeProcess.start(dir.resolve(name + ".err"), List.of(), args);
  }

  /**
   * The race's nodes wait up to 30 s for a Redis reply instead of the store's default 5 s, and its
   * clients 3 minutes for an answer instead of 60 s: on a machine at load ~37 one Redis call once
   * took longer than 5 s (a 503 for that request, and the race failed on it). The test checks
   * exactly one new document per group, not latency; the kill test below keeps the default, since a
   * killed server fails calls at once (connection refused or reset), not by the timeout.
   */
  private static final String PATIENT = "timeout-ms=30000";

  @Test
  public void twoNodes_concurrentNearCopies_exactlyOneNewPerGroup() throws Exception {
    try (RedisServer redis = RedisServer.start();
        // Both at once: either may create the default collection, the other finds it.
        ServeProcess p1 = node(redis.url(), "node1", PATIENT);
        ServeProcess p2 = node(redis.url(), "node2", PATIENT);
        NeardupClient n1 =
            NeardupClient.builder(p1.uri(Duration.ofMinutes(2)))
                .timeout(Duration.ofMinutes(3))
                .build();
        NeardupClient n2 =
            NeardupClient.builder(p2.uri(Duration.ofMinutes(2)))
                .timeout(Duration.ofMinutes(3))
                .build()) {
      ExactlyOneRace.of("two nodes on redis", 2000, 20261124L).run(List.of(n1, n2));
    }
  }

  /**
   * redis-server killed under a node: inserts and checks answer 503 with Retry-After at once,
   * {@code /ready} answers 503; once it is back (append-only file, fsync always), the node serves
   * again by itself and every insert it acknowledged is there.
   */
  @Test
  public void redisKilled_node503ThenRecovers() throws Exception {
    java.net.http.HttpClient http =
        java.net.http.HttpClient.newBuilder()
            .connectTimeout(java.time.Duration.ofSeconds(30))
            .build();
    try (RedisServer redis = RedisServer.start("--appendonly", "yes", "--appendfsync", "always");
        ServeProcess p = node(redis.url(), "node")) {
      URI u = p.uri(Duration.ofMinutes(2));
      java.util.function.Function<String, java.net.http.HttpResponse<String>> insert =
          id -> {
            try {
              return http.send(
                  java.net.http.HttpRequest.newBuilder(
                          u.resolve("/v1/collections/default/documents"))
                      .timeout(java.time.Duration.ofSeconds(60))
                      .header("Content-Type", "application/json")
                      .POST(
                          java.net.http.HttpRequest.BodyPublishers.ofString(
                              "{\"id\":\""
                                  + id
                                  + "\",\"text\":\"words of document "
                                  + id
                                  + " that say little\"}"))
                      .build(),
                  java.net.http.HttpResponse.BodyHandlers.ofString());
            } catch (IOException | InterruptedException e) {
              throw new AssertionError(e);
            }
          };
      assertThat(insert.apply("before").statusCode()).isEqualTo(200);
      redis.kill();
      long t0 = System.nanoTime();
      java.net.http.HttpResponse<String> down = insert.apply("during");
      assertThat(down.statusCode()).isEqualTo(503);
      assertThat(down.headers().firstValue("Retry-After")).isPresent();
      assertThat(System.nanoTime() - t0).isLessThan(TimeUnit.SECONDS.toNanos(30));
      java.net.http.HttpResponse<String> ready =
          http.send(
              java.net.http.HttpRequest.newBuilder(u.resolve("/ready")).build(),
              java.net.http.HttpResponse.BodyHandlers.ofString());
      assertThat(ready.statusCode()).isEqualTo(503);
      assertThat(ready.body())
          .contains("store unhealthy")
          .contains("redis at redis://127.0.0.1:" + redis.port() + " is unavailable");
      redis.restart();
      assertThat(insert.apply("after").statusCode()).isEqualTo(200);
      try (NeardupClient client = NeardupClient.builder(u).build()) {
        assertThat(client.get("default", "before")).isPresent();
        assertThat(client.get("default", "after")).isPresent();
        assertThat(client.ready()).isTrue();
      }
    }
  }
}
