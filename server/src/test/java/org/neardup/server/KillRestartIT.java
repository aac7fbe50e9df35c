// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.Analyzer;
import org.neardup.client.Doc;
import org.neardup.client.NeardupClient;
import org.neardup.client.Result;
import org.neardup.client.StoredDoc;
import org.neardup.testkit.ServeProcess;
import org.neardup.testkit.Texts;

/**
 * Durability under {@code kill -9}: the service runs as a separate process, several clients load it
 * with inserts, batches and deletes, it is killed with SIGKILL at a random moment, restarted on the
 * same directory, and checked: every acknowledged insert is there with its fingerprint, every
 * acknowledged delete is gone, and of what was in flight at the kill, each document is wholly there
 * or not at all, and a batch's stored documents are a prefix of it.
 *
 * <p>CI kills 5 times; {@code -Dneardup.kills=25} runs the long version.
 */
class KillRestartIT {
  private static final Duration START = Duration.ofSeconds(120);

  @TempDir Path dir;

  private final Analyzer analyzer = TestServer.SETTINGS.deduplicator().analyzer();

  /** What the clients know. */
  private final Map<String, Long> acked = new ConcurrentHashMap<>();

  private final Map<String, Long> inDoubt = new ConcurrentHashMap<>();
  private final List<List<String>> batchesInDoubt = Collections.synchronizedList(new ArrayList<>());
  private final Set<String> deleted = ConcurrentHashMap.newKeySet();
  private final Set<String> deletesInDoubt = ConcurrentHashMap.newKeySet();
  private final List<String> checkNext = Collections.synchronizedList(new ArrayList<>());
  private long presentInDoubt;
  private long absentInDoubt;

  @Test
  public void kill9AtRandomPoints_losesNoAcknowledgedWrite() throws Exception {
    int kills = Integer.getInteger("neardup.kills", 5);
    long seed = Long.getLong("neardup.seed", 99);
    SplittableRandom random = new SplittableRandom(seed);
    Path data = dir.resolve("data");
    Path stderr = dir.resolve("server.err");
    long t0 = System.nanoTime();
    List<Double> starts = new ArrayList<>();
    for (int round = 0; ; round++) {
      long s0 = System.nanoTime();
      try (ServeProcess p = serve(data, stderr)) {
        starts.add((System.nanoTime() - s0) / 1e9);
        NeardupClient client =
            NeardupClient.builder(p.uri(START)).timeout(Duration.ofSeconds(30)).build();
        verify(client, round == kills);
        if (round == kills) {
          break;
        }
        load(client, p, round, random.split(), 200 + random.nextInt(1200));
      }
    }
    System.out.printf(
        java.util.Locale.ROOT,
        "kill/restart: %d kills (SIGKILL), %d acknowledged documents present, %d acknowledged"
            + " deletes absent, in flight at the kills: %d present, %d absent; 0 lost;"
            + " starts %.1f-%.1f s; %.0f s in all; seed %d%n",
        kills,
        acked.size(),
        deleted.size(),
        presentInDoubt,
        absentInDoubt,
        starts.stream().mapToDouble(Double::doubleValue).min().orElse(0),
        starts.stream().mapToDouble(Double::doubleValue).max().orElse(0),
        (System.nanoTime() - t0) / 1e9,
        seed);
  }

  /** Loads the service from several threads and kills it after {@code millis}. */
  private void load(
      NeardupClient client, ServeProcess p, int round, SplittableRandom random, int millis)
      throws Exception {
    int threads = 8;
    AtomicBoolean killed = new AtomicBoolean();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<?>> fs = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      SplittableRandom r = random.split();
      String prefix = "r" + round + "t" + t + "-";
      fs.add(pool.submit(() -> work(client, prefix, r, killed)));
    }
    Thread.sleep(millis);
    killed.set(true);
    p.kill();
    for (Future<?> f : fs) {
      f.get(2, TimeUnit.MINUTES);
    }
    pool.shutdown();
  }

  private Void work(NeardupClient client, String prefix, SplittableRandom r, AtomicBoolean killed) {
    List<String> mine = new ArrayList<>();
    String previous = Texts.text(r, 20);
    for (int i = 0; !killed.get(); i++) {
      int op = r.nextInt(10);
      try {
        if (op < 7) {
          String id = prefix + i;
          String text = r.nextInt(4) == 0 ? Texts.edit(r, previous) : Texts.text(r, 20);
          previous = text;
          long fp = analyzer.analyze(text).fingerprint();
          inDoubt.put(id, fp);
          Result res = client.insert("default", id, text);
          assertThat(res.stored()).isTrue();
          assertThat(res.fingerprint()).isEqualTo(fp);
          acked.put(id, fp);
          inDoubt.remove(id);
          mine.add(id);
        } else if (op < 9) {
          List<Doc> docs = new ArrayList<>();
          List<String> ids = new ArrayList<>();
          for (int j = 0; j < 5; j++) {
            String id = prefix + i + "b" + j;
            String text = Texts.text(r, 20);
            inDoubt.put(id, analyzer.analyze(text).fingerprint());
            docs.add(Doc.text(id, text));
            ids.add(id);
          }
          batchesInDoubt.add(ids);
          List<Result> res = client.batch("default", docs);
          for (int j = 0; j < ids.size(); j++) {
            assertThat(res.get(j).stored()).isTrue();
            acked.put(ids.get(j), inDoubt.remove(ids.get(j)));
          }
          batchesInDoubt.remove(ids);
          mine.addAll(ids);
        } else if (!mine.isEmpty()) {
          String id = mine.remove(r.nextInt(mine.size()));
          deletesInDoubt.add(id);
          assertThat(client.delete("default", id)).isTrue();
          acked.remove(id);
          deleted.add(id);
          deletesInDoubt.remove(id);
        }
      } catch (IOException e) {
        // The service was killed under this request: what it sent stays in doubt.
        if (!killed.get()) {
          throw new AssertionError("request failed before the kill", e);
        }
        return null;
      }
    }
    return null;
  }

  /** Resolves what was in flight and checks what was acknowledged. */
  private void verify(NeardupClient client, boolean everything) throws IOException {
    for (List<String> batch : new ArrayList<>(batchesInDoubt)) {
      boolean gap = false;
      for (String id : batch) {
        boolean present = client.get("default", id).isPresent();
        assertThat(present && gap).as("batch %s is stored with a gap at %s", batch, id).isFalse();
        gap |= !present;
      }
    }
    batchesInDoubt.clear();
    for (Map.Entry<String, Long> e : new ArrayList<>(inDoubt.entrySet())) {
      Optional<StoredDoc> d = client.get("default", e.getKey());
      if (d.isPresent()) {
        assertThat(d.get().fingerprint()).as("in-flight %s", e.getKey()).isEqualTo(e.getValue());
        acked.put(e.getKey(), e.getValue());
        checkNext.add(e.getKey());
        presentInDoubt++;
      } else {
        absentInDoubt++;
      }
    }
    inDoubt.clear();
    for (String id : new ArrayList<>(deletesInDoubt)) {
      if (client.get("default", id).isEmpty()) {
        acked.remove(id);
        deleted.add(id);
      }
    }
    deletesInDoubt.clear();
    // Every acknowledged document, and nothing else, is stored: the count says so at once...
    assertThat(client.collection("default").orElseThrow().documents())
        .as("documents stored vs acknowledged")
        .isEqualTo(acked.size());
    // ...and a look at each one confirms it (all of them at the end; a sample meanwhile).
    List<String> ids = new ArrayList<>(acked.keySet());
    if (!everything) {
      Collections.shuffle(ids, new java.util.Random(ids.size()));
      ids = ids.subList(0, Math.min(300, ids.size()));
    }
    for (String id : ids) {
      StoredDoc d = client.get("default", id).orElseThrow(() -> new AssertionError("lost " + id));
      assertThat(d.fingerprint()).as(id).isEqualTo(acked.get(id));
    }
    for (String id : everything ? new ArrayList<>(deleted) : List.<String>of()) {
      assertThat(client.get("default", id)).as("deleted %s came back", id).isEmpty();
    }
  }

  /** The service on {@code data}, with assertions on, once it listens. */
  private static ServeProcess serve(Path data, Path stderr) throws Exception {
    ServeProcess p = ServeProcess.start(stderr, List.of("-ea"), List.of("--data", data.toString()));
    p.uri(START);
    return p;
  }
}
