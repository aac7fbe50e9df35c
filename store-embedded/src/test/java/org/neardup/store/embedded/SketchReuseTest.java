// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.neardup.store.embedded.OutcomeText.answer;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.CopyOption;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.Document;
import org.neardup.testkit.ManualClock;
import org.neardup.testkit.Texts;

/**
 * Compactions that keep the earlier snapshots' sketch files (format version 4) answer as those that
 * copy every sketch, lose nothing when they fail between their steps, and give a sketch file's disk
 * back once enough of it is dead.
 */
class SketchReuseTest {
  private static final long T0 = 1_700_000_000_000L;
  private static final CollectionSettings SETTINGS =
      StoreTesting.SETTINGS.withRetention(Duration.ofHours(8));

  @TempDir Path dir;

  @AfterEach
  void realFiles() {
    FileLayer.install(null);
  }

  private static EmbeddedStore open(Path d, ManualClock clock, boolean copy) throws IOException {
    return EmbeddedStore.builder(d)
        .clock(clock)
        .background(false)
        .minDeadForRebuild(8)
        .copySketches(copy)
        .open();
  }

  /**
   * Property: the same random run of inserts (new texts and edits of earlier ones), deletes,
   * expiries, compactions with and without rebuilds, and reopens, in a store that keeps sketch
   * files and in one that copies every sketch at each compaction, gives the same answers at every
   * step; the keeping store writes less.
   */
  @Test
  void keepingAndCopying_answerAlike_throughCompactionsDeletesExpiryAndReopens()
      throws IOException {
    for (long seed = 1; seed <= 2; seed++) {
      Path keep = dir.resolve("keep-" + seed);
      Path copy = dir.resolve("copy-" + seed);
      long[] written = new long[2];
      List<String> kept = run(keep, false, seed, written, 0);
      List<String> copied = run(copy, true, seed, written, 1);
      int first = 0;
      while (first < Math.min(kept.size(), copied.size())
          && kept.get(first).equals(copied.get(first))) {
        first++;
      }
      assertThat(first + ": " + (first < kept.size() ? kept.get(first) : "end"))
          .as("seed %s", seed)
          .isEqualTo(first + ": " + (first < copied.size() ? copied.get(first) : "end"));
      assertThat(written[0]).as("seed %s: bytes written", seed).isLessThan(written[1]);
      SplitSnapshotTest.assertListedSketchesOnly(keep);
      assertThat(StoreTesting.files(copy, ".ndsketch")).hasSize(1);
    }
  }

  private List<String> run(Path d, boolean copy, long seed, long[] written, int slot)
      throws IOException {
    SplittableRandom r = new SplittableRandom(seed);
    ManualClock clock = new ManualClock(T0);
    List<String> texts = new ArrayList<>();
    List<String> out = new ArrayList<>();
    int next = 0;
    EmbeddedStore s = open(d, clock, copy);
    try {
      Collection c = s.create("news", SETTINGS);
      for (int step = 0; step < 700; step++) {
        int op = r.nextInt(100);
        if (op < 70 || texts.isEmpty()) {
          String text =
              !texts.isEmpty() && r.nextInt(3) == 0
                  ? Texts.edit(r, texts.get(r.nextInt(texts.size())))
                  : Texts.text(r, 12 + r.nextInt(40));
          texts.add(text);
          // Some arrive old and expire within the run.
          long t = r.nextInt(8) == 0 ? clock.millis() - Duration.ofHours(7).toMillis() : 0;
          Document doc =
              t == 0
                  ? new Document("d" + next, c.analyzer().analyze(text))
                  : new Document("d" + next, c.analyzer().analyze(text), t);
          next++;
          out.add(answer(c.checkAndInsert(doc)));
        } else if (op < 85) {
          out.add("delete " + c.delete("d" + r.nextInt(next)));
        } else if (op < 90) {
          String text = Texts.edit(r, texts.get(r.nextInt(texts.size())));
          out.add("check " + answer(c.check(c.analyzer().analyze(text))));
        } else if (op < 95) {
          clock.advance(Duration.ofMinutes(20 + r.nextInt(60)));
          s.maintain();
          out.add("live " + c.stats().documents());
        } else if (op < 98) {
          if (r.nextBoolean()) {
            s.checkpoint(); // rebuilds the collection
          } else {
            s.compactNow(); // keeps the generation
          }
          written[slot] += s.metrics().get("last_snapshot_bytes_written").longValue();
        } else {
          s.close();
          s = open(d, clock, copy);
          c = s.collection("news");
          out.add("reopened " + c.stats().documents());
        }
      }
      for (int i = 0; i < next; i++) {
        out.add(c.get("d" + i).map(x -> x.id() + " " + x.cluster()).orElse("none d" + i));
      }
    } finally {
      s.close();
    }
    return out;
  }

  /** Makes the n-th matching operation fail, once. */
  private static final class FailingLayer extends FileLayer {
    private final String what;
    private final String suffix;
    private int left;

    FailingLayer(String what, String suffix, int nth) {
      this.what = what;
      this.suffix = suffix;
      this.left = nth;
    }

    private void maybeFail(String op, Path p) throws IOException {
      if (op.equals(what) && p.getFileName().toString().endsWith(suffix) && --left == 0) {
        throw new IOException("injected: " + op + " " + p.getFileName());
      }
    }

    @Override
    FileChannel open(Path file, OpenOption... options) throws IOException {
      maybeFail("open", file);
      return REAL.open(file, options);
    }

    @Override
    void syncDirectory(Path d) throws IOException {
      REAL.syncDirectory(d);
    }

    @Override
    void move(Path from, Path to, CopyOption... options) throws IOException {
      maybeFail("move", to);
      REAL.move(from, to, options);
    }

    @Override
    boolean deleteIfExists(Path file) throws IOException {
      maybeFail("delete", file);
      return REAL.deleteIfExists(file);
    }

    @Override
    void reading(Path file) throws IOException {
      maybeFail("read", file);
    }
  }

  /**
   * A compaction that fails at each of its steps (writing its sketch file, renaming it, renaming
   * its snapshot, deleting what it replaces, reading the new snapshot back for a rebuild) leaves a
   * directory that opens with every acknowledged document, and no sketch file that its snapshot
   * does not list; a rebuild that failed leaves the old generation serving, and the next one runs.
   */
  @Test
  void compactionFailingAtEachStep_losesNothingAcknowledged() throws IOException {
    String[][] steps = {
      {"open", ".ndsketch.tmp"},
      {"move", ".ndsketch"},
      {"move", ".ndsnap"},
      {"delete", ".ndsketch"},
      {"read", ".ndsnap"}
    };
    SplittableRandom r = new SplittableRandom(7);
    for (String[] step : steps) {
      Path d = dir.resolve(step[0] + step[1].replace('.', '-'));
      ManualClock clock = new ManualClock(T0);
      List<String> ids = new ArrayList<>();
      try (EmbeddedStore s = open(d, clock, false)) {
        Collection c = s.create("news", SETTINGS);
        for (int round = 0; round < 3; round++) {
          for (int i = 0; i < (round == 2 ? 150 : 60); i++) {
            String id = "r" + round + "-" + i;
            c.checkAndInsert(new Document(id, c.analyzer().analyze(Texts.text(r, 20))));
            ids.add(id);
          }
          for (int i = 0; i < 20; i++) {
            String id = ids.remove(r.nextInt(ids.size()));
            assertThat(c.delete(id)).isTrue();
          }
          if (round < 2) {
            s.compactNow();
          } else if (step[0].equals("read")) {
            // After the snapshot is durable, before the rebuild: it is given up, the old
            // generation (with its removed documents) goes on serving.
            FileLayer.install(new FailingLayer(step[0], step[1], 1));
            assertThatThrownBy(s::checkpoint).hasMessageContaining("injected");
            FileLayer.install(null);
            for (String id : ids) {
              assertThat(c.get(id)).as("%s after a failed rebuild", id).isPresent();
            }
            c.checkAndInsert(new Document("after", c.analyzer().analyze(Texts.text(r, 20))));
            ids.add("after");
            long rebuilds = s.metrics().get("rebuilds_total").longValue();
            s.checkpoint(); // the removed documents are still there to rebuild without
            assertThat(s.metrics().get("rebuilds_total").longValue()).isEqualTo(rebuilds + 1);
          } else if (step[0].equals("delete")) {
            // After the snapshot is durable: the compaction goes on, the open deletes the file.
            FileLayer.install(new FailingLayer(step[0], step[1], 1));
            s.compactNow();
            FileLayer.install(null);
            assertThat(StoreTesting.files(d, ".ndsketch")).hasSizeGreaterThan(1);
            c.checkAndInsert(new Document("after", c.analyzer().analyze(Texts.text(r, 20))));
            ids.add("after");
          } else {
            FileLayer.install(new FailingLayer(step[0], step[1], 1));
            assertThatThrownBy(s::compactNow)
                .as("step %s %s", step[0], step[1])
                .hasMessageContaining("injected");
            FileLayer.install(null);
            c.checkAndInsert(new Document("after", c.analyzer().analyze(Texts.text(r, 20))));
            ids.add("after");
          }
        }
      }
      try (EmbeddedStore s = open(d, clock, false)) {
        Collection c = s.collection("news");
        assertThat(c.stats().documents()).as("step %s %s", step[0], step[1]).isEqualTo(ids.size());
        for (String id : ids) {
          assertThat(c.get(id)).as("%s after step %s %s", id, step[0], step[1]).isPresent();
        }
        SplitSnapshotTest.assertListedSketchesOnly(d);
        s.checkpoint();
      }
      try (EmbeddedStore s = open(d, clock, false)) {
        assertThat(s.collection("news").stats().documents()).isEqualTo(ids.size());
        SplitSnapshotTest.assertListedSketchesOnly(d);
      }
    }
  }

  private static long sketchBytes(Path d) throws IOException {
    long n = 0;
    for (Path p : StoreTesting.files(d, ".ndsketch")) {
      n += Files.size(p);
    }
    return n;
  }

  /**
   * A snapshot keeps the previous one's sketch file while most of it is live, and folds its live
   * entries into its own once more than half of it is dead, which gives the disk back; the answers
   * stay the same.
   */
  @Test
  void mostlyDeadSketchFile_isFoldedAndItsDiskComesBack() throws IOException {
    ManualClock clock = new ManualClock(T0);
    SplittableRandom r = new SplittableRandom(11);
    List<String> texts = new ArrayList<>();
    Path first;
    List<String> before = new ArrayList<>();
    try (EmbeddedStore s = open(dir, clock, false)) {
      Collection c = s.create("news", SETTINGS);
      for (int i = 0; i < 400; i++) {
        texts.add(Texts.text(r, 40 + r.nextInt(40)));
        c.checkAndInsert(new Document("d" + i, c.analyzer().analyze(texts.get(i))));
      }
      s.compactNow();
      first = StoreTesting.onlyFile(dir, ".ndsketch");
      for (int i = 0; i < 10; i++) {
        c.checkAndInsert(new Document("e" + i, c.analyzer().analyze(Texts.text(r, 30))));
      }
      s.compactNow();
      // Kept: the second snapshot wrote its heads and ten new entries, not the 400 sketches.
      assertThat(first).exists();
      assertThat(StoreTesting.files(dir, ".ndsketch")).hasSize(2).contains(first);
      assertThat(Files.size(StoreTesting.lastFile(dir, ".ndsketch")))
          .isLessThan(Files.size(first) / 10);
      for (int i = 0; i < 400; i++) {
        if (i % 10 < 7) {
          assertThat(c.delete("d" + i)).isTrue();
        }
      }
      s.checkpoint(); // its footer finds 70% of the first file dead
      assertThat(first).exists();
      long held = sketchBytes(dir);
      s.checkpoint(); // folds it
      assertThat(first).doesNotExist();
      assertThat(sketchBytes(dir)).isLessThan(held / 2);
      for (int i = 0; i < 400; i++) {
        before.add(answer(c.check(c.analyzer().analyze(texts.get(i)))));
      }
    }
    try (EmbeddedStore s = open(dir, clock, false)) {
      Collection c = s.collection("news");
      assertThat(c.stats().documents()).isEqualTo(400 - 280 + 10);
      List<String> after = new ArrayList<>();
      for (int i = 0; i < 400; i++) {
        after.add(answer(c.check(c.analyzer().analyze(texts.get(i)))));
      }
      assertThat(after).isEqualTo(before);
      SplitSnapshotTest.assertListedSketchesOnly(dir);
    }
  }
}
