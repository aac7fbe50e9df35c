// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.Analysis;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.Document;

/**
 * The durability promise of {@code fsync=always} under simulated power cuts ({@link
 * PowerCutFiles}): writers insert, batch and delete on three threads while a fourth runs
 * maintenance with a tiny compaction threshold (so cuts land in log writes, snapshot writes,
 * renames and the deletes of compactions), the power goes at a random operation, the files are put
 * back as the disk holds them, and the store reopened must hold every acknowledged insert and none
 * of the acknowledged deletes. The same run with one skipped fsync of the log must lose
 * acknowledged writes, which shows the check can fail.
 */
class PowerCutTest {
  @TempDir Path dir;

  @AfterEach
  void realFiles() {
    FileLayer.install(null);
  }

  /** What a run found. */
  record Run(
      int cuts,
      int acknowledged,
      long checked,
      long lost,
      int trialsLosing,
      Map<String, Integer> during) {
    @Override
    public String toString() {
      return String.format(
          java.util.Locale.ROOT,
          "power cuts %d, acknowledged writes %d (checked %d times in all after the cuts), lost %d"
              + " (in %d cuts), cuts during %s",
          cuts,
          acknowledged,
          checked,
          lost,
          trialsLosing,
          during);
    }
  }

  private static EmbeddedStore open(Path dir) throws IOException {
    return EmbeddedStore.builder(dir)
        .fsync(FsyncPolicy.ALWAYS)
        .background(false)
        .snapshotBytes(4096)
        .snapshotBytesPerSecond(0)
        .minDeadForRebuild(1)
        .indexImageMin(1) // every compaction writes index images, every open reads them
        .open();
  }

  private static String category(String during) {
    if (during.startsWith("delete")) {
      return "compaction delete";
    }
    if (during.contains(".ndlog")) {
      return "log";
    }
    if (during.contains(".ndsnap")) {
      return during.startsWith("rename") ? "snapshot rename" : "snapshot write";
    }
    return during.startsWith("sync directory") ? "directory sync" : during;
  }

  /**
   * Runs {@code trials} cuts on one data directory; {@code layerFor} makes each trial's layer from
   * a random cut point.
   */
  static Run run(Path dir, int trials, long seed, IntFunction<PowerCutFiles> layerFor)
      throws Exception {
    try (EmbeddedStore s = open(dir)) {
      s.create("c", CollectionSettings.defaults().withVerify(false).withLexicon("none"));
    }
    SplittableRandom random = new SplittableRandom(seed);
    Map<String, Boolean> expected = new HashMap<>(); // acknowledged: present or deleted
    List<String> uncertain = new ArrayList<>();
    long checked = 0;
    long lost = 0;
    int losing = 0;
    Map<String, Integer> during = new TreeMap<>();
    for (int trial = 0; trial < trials; trial++) {
      PowerCutFiles layer = layerFor.apply(trial);
      FileLayer.install(layer);
      Map<String, Boolean> acked = new ConcurrentHashMap<>();
      List<String> tried = java.util.Collections.synchronizedList(new ArrayList<>());
      EmbeddedStore store = null;
      try {
        store = open(dir);
        EmbeddedStore st = store;
        Collection c = store.collection("c");
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < 3; w++) {
          long wseed = random.nextLong();
          String prefix = "t" + trial + "w" + w + "-";
          threads.add(new Thread(() -> write(c, layer, prefix, wseed, acked, tried)));
        }
        threads.add(new Thread(() -> maintain(st, layer)));
        threads.forEach(Thread::start);
        for (Thread t : threads) {
          t.join(60_000);
          if (t.isAlive()) {
            StringBuilder dump = new StringBuilder();
            Thread.getAllStackTraces()
                .forEach(
                    (th, trace) -> {
                      dump.append(th.getName()).append('\n');
                      for (StackTraceElement e : trace) {
                        dump.append("    ").append(e).append('\n');
                      }
                    });
            throw new AssertionError(
                "a thread did not stop after the cut (" + layer.cutDuring() + ")\n" + dump);
          }
        }
      } catch (IOException e) {
        // the power went while the store opened
      } finally {
        layer.powerCut();
        if (store != null) {
          try {
            store.close();
          } catch (IOException | RuntimeException e) {
            // expected: nothing can be written any more
          }
        }
      }
      FileLayer.install(null);
      during.merge(category(layer.cutDuring()), 1, Integer::sum);
      expected.putAll(acked);
      int lostHere = 0;
      try (EmbeddedStore s = open(dir)) {
        Collection c = s.collection("c");
        for (Map.Entry<String, Boolean> e : expected.entrySet()) {
          checked++;
          if (c.get(e.getKey()).isPresent() != e.getValue()) {
            lostHere++;
            e.setValue(c.get(e.getKey()).isPresent()); // count each loss once
          }
        }
        // Writes in flight at the cut may be there or not; from now on they are what the store
        // says, since the reopened store is closed with the real files.
        synchronized (tried) {
          for (String id : tried) {
            if (!acked.containsKey(id)) {
              uncertain.add(id);
              expected.put(id, c.get(id).isPresent());
            }
          }
        }
      }
      lost += lostHere;
      losing += lostHere > 0 ? 1 : 0;
    }
    return new Run(trials, expected.size(), checked, lost, losing, during);
  }

  private static void write(
      Collection c,
      PowerCutFiles layer,
      String prefix,
      long seed,
      Map<String, Boolean> acked,
      List<String> tried) {
    SplittableRandom r = new SplittableRandom(seed);
    List<String> present = new ArrayList<>();
    int n = 0;
    try {
      while (!layer.isCut()) {
        int op = r.nextInt(100);
        if (op < 70) {
          String id = prefix + n++;
          tried.add(id);
          c.checkAndInsert(new Document(id, Analysis.ofFingerprint(r.nextLong(), 1)));
          acked.put(id, true);
          present.add(id);
        } else if (op < 85) {
          List<Document> batch = new ArrayList<>();
          for (int i = r.nextInt(1, 6); i > 0; i--) {
            String id = prefix + n++;
            tried.add(id);
            batch.add(new Document(id, Analysis.ofFingerprint(r.nextLong(), 1)));
          }
          c.checkAndInsertAll(batch);
          for (Document d : batch) {
            acked.put(d.id(), true);
            present.add(d.id());
          }
        } else if (!present.isEmpty()) {
          String id = present.remove(r.nextInt(present.size()));
          tried.add(id);
          acked.remove(id); // unknown until the delete is acknowledged
          if (c.delete(id)) {
            acked.put(id, false);
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      // the power went: this write was not acknowledged
    }
  }

  private static void maintain(EmbeddedStore s, PowerCutFiles layer) {
    try {
      for (int i = 0; !layer.isCut(); i++) {
        if (i % 5 == 4) {
          s.checkpoint();
        } else {
          s.maintain();
        }
        Thread.sleep(1);
      }
    } catch (IOException | RuntimeException | InterruptedException e) {
      if (!layer.isCut()) {
        throw new AssertionError("maintenance failed before the cut", e);
      }
    }
  }

  @Test
  public void fsyncAlways_everyAcknowledgedWriteSurvivesEveryCut() throws Exception {
    SplittableRandom cuts = new SplittableRandom(17);
    Run r =
        run(
            dir,
            60,
            17,
            trial -> {
              switch (trial % 3) {
                case 0: // any operation
                  return new PowerCutFiles(1 + cuts.nextInt(400));
                case 1: // within a snapshot: its writes, force, rename, directory sync
                  return new PowerCutFiles(1 + cuts.nextInt(40))
                      .cutOn(w -> w.contains(".ndsnap") || w.startsWith("sync directory"));
                default: // the end of a compaction: the deletes of what it replaced
                  return new PowerCutFiles(1 + cuts.nextInt(6)).cutOn(w -> w.startsWith("delete"));
              }
            });
    System.out.println("PowerCutTest fsync=always: " + r);
    assertThat(r.lost()).as(r.toString()).isZero();
    assertThat(r.checked()).isGreaterThan(1000);
    assertThat(r.during().getOrDefault("snapshot write", 0)).as(r.toString()).isPositive();
    assertThat(r.during().getOrDefault("compaction delete", 0)).as(r.toString()).isPositive();
  }

  @Test
  public void aLogThatSkipsOneFsync_losesAcknowledgedWrites_andTheCheckSeesIt() throws Exception {
    SplittableRandom nth = new SplittableRandom(3);
    Run r =
        run(
            dir,
            10,
            18,
            trial ->
                new PowerCutFiles(Long.MAX_VALUE)
                    .skipOneForce(
                        p -> p.getFileName().toString().endsWith(".ndlog"), nth.nextInt(5, 40)));
    System.out.println("PowerCutTest one log fsync skipped: " + r);
    assertThat(r.lost()).as(r.toString()).isPositive();
  }

  /**
   * A log thread that dies of an unchecked exception fails its waiting writers; before, they waited
   * for an acknowledgement forever (found by this test's layer, whose first version threw
   * NonReadableChannelException in the log thread).
   */
  @Test
  public void aLogThreadThatDiesOfAnUncheckedException_failsItsWriters() throws Exception {
    PowerCutFiles layer = new PowerCutFiles(Long.MAX_VALUE);
    FileLayer.install(layer);
    try (EmbeddedStore s = open(dir)) {
      Collection c =
          s.create("c", CollectionSettings.defaults().withVerify(false).withLexicon("none"));
      layer.failNextUnchecked(w -> w.startsWith("write log-")); // the log's append, not the zeros
      java.util.concurrent.CompletableFuture<Throwable> failed =
          new java.util.concurrent.CompletableFuture<>();
      Thread t =
          new Thread(
              () -> {
                try {
                  c.checkAndInsert(new Document("a", Analysis.ofFingerprint(42, 1)));
                  failed.complete(null);
                } catch (IOException | RuntimeException e) {
                  failed.complete(e);
                }
              });
      t.setDaemon(true);
      t.start();
      Throwable e = failed.get(60, java.util.concurrent.TimeUnit.SECONDS);
      assertThat(e).isInstanceOf(IOException.class);
      assertThat(s.isHealthy()).isFalse();
    } catch (IOException e) {
      // close: the log failed
    }
  }
}
