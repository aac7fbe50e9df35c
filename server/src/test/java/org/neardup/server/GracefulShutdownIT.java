// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.client.NeardupClient;
import org.neardup.client.NeardupException;
import org.neardup.client.Result;
import org.neardup.testkit.ServeProcess;
import org.neardup.testkit.Texts;

/**
 * SIGTERM under load: the service stops accepting, lets requests in progress finish, syncs and
 * writes a snapshot, so the next start replays nothing and has every acknowledged document.
 */
class GracefulShutdownIT {
  private static final Duration START = Duration.ofSeconds(120);

  @TempDir Path dir;

  @Test
  public void sigterm_drainsSyncsAndSnapshots() throws Exception {
    Path data = dir.resolve("data");
    Path stderr = dir.resolve("server.err");
    Map<String, Long> acked = new ConcurrentHashMap<>();
    Map<String, Boolean> inDoubt = new ConcurrentHashMap<>();
    int exit;
    try (ServeProcess p = serve(data, stderr)) {
      NeardupClient client = NeardupClient.builder(p.uri(START)).build();
      AtomicBoolean stop = new AtomicBoolean();
      ExecutorService pool = Executors.newFixedThreadPool(4);
      List<Future<?>> fs = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        SplittableRandom r = new SplittableRandom(t);
        int thread = t;
        fs.add(
            pool.submit(
                () -> {
                  for (int i = 0; !stop.get(); i++) {
                    String id = thread + "-" + i;
                    try {
                      Result res = client.insert("default", id, Texts.text(r, 20));
                      acked.put(id, res.fingerprint());
                    } catch (NeardupException e) {
                      assertThat(e.status()).isEqualTo(503); // shutting down: refused, not lost
                    } catch (IOException e) {
                      // The connection closed under the request (the listener is closed, or the
                      // client lost the answer): the document may or may not be stored.
                      inDoubt.put(id, true);
                      return null;
                    }
                  }
                  return null;
                }));
      }
      while (acked.size() < 200) {
        Thread.sleep(10);
      }
      exit = p.terminate();
      stop.set(true);
      for (Future<?> f : fs) {
        f.get(1, TimeUnit.MINUTES);
      }
      pool.shutdown();
    }
    assertThat(exit).as("exit code after SIGTERM").isEqualTo(143);
    String err = Files.readString(stderr);
    assertThat(err).doesNotContain("Exception");
    assertThat(Files.list(data).filter(f -> f.toString().endsWith(".ndsnap")).count()).isEqualTo(1);

    try (ServeProcess p = serve(data, stderr)) {
      NeardupClient client = NeardupClient.builder(p.uri(START)).build();
      assertThat(client.metrics())
          .contains("neardup_store_log_bytes_since_snapshot{store=\"embedded\"} 0.0");
      long stored = client.collection("default").orElseThrow().documents();
      System.out.printf(
          java.util.Locale.ROOT,
          "graceful shutdown: %d acknowledged, %d in flight when the listener closed, %d stored%n",
          acked.size(),
          inDoubt.size(),
          stored);
      assertThat(stored).isBetween((long) acked.size(), (long) acked.size() + inDoubt.size());
      for (Map.Entry<String, Long> e : acked.entrySet()) {
        assertThat(client.get("default", e.getKey()).orElseThrow().fingerprint())
            .isEqualTo(e.getValue());
      }
    }
  }

  /** The service on {@code data}, with assertions on, once it listens. */
  private static ServeProcess serve(Path data, Path stderr) throws Exception {
    ServeProcess p = ServeProcess.start(stderr, List.of("-ea"), List.of("--data", data.toString()));
    p.uri(START);
    return p;
  }
}
