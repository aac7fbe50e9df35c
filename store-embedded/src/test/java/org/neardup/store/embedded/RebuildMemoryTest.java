// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.neardup.store.embedded.OutcomeText.answer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.store.Collection;
import org.neardup.store.Document;
import org.neardup.testkit.Texts;

/**
 * A checkpoint with rebuild ran out of memory at {@code -Xmx3g} on 1M news articles: the rebuild
 * restored the whole bodies the snapshot's copy read, sketches included, and its restore batches
 * held up to 4M documents (~6 GB of sketches). It now restores the new snapshot's heads with each
 * sketch entry left in place, in batches bounded in bytes.
 */
class RebuildMemoryTest {
  @TempDir Path dir;

  /** Long texts: sketches of 1-2 KB, as news articles'. */
  private static List<String> texts(SplittableRandom r, int n) {
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      texts.add(
          i > 0 && i % 5 == 0 ? Texts.edit(r, texts.get(i - 1)) : Texts.text(r, 300 + i % 200));
    }
    return texts;
  }

  /**
   * Inserts the texts, checkpoints, deletes every seventh, checks every text, checkpoints again
   * (the rebuild) and checks every text again; returns both rounds of answers, then those of the
   * directory reopened.
   */
  private static List<String> run(Path d, List<String> texts, boolean onHeap, long[] gathered)
      throws IOException {
    List<String> out = new ArrayList<>();
    try (EmbeddedStore s =
        EmbeddedStore.builder(d)
            .background(false)
            .sketchesOnHeap(onHeap)
            .rebuildBatchBytes(8 << 10)
            .open()) {
      Collection c = s.create("news", StoreTesting.SETTINGS);
      for (int i = 0; i < texts.size(); i++) {
        c.checkAndInsert(new Document("d" + i, c.analyzer().analyze(texts.get(i))));
      }
      s.checkpoint(); // nothing removed: no rebuild, one snapshot with every sketch
      assertThat(s.metrics().get("rebuilds_total").longValue()).isZero();
      for (int i = 0; i < texts.size(); i += 7) {
        c.delete("d" + i);
      }
      for (String t : texts) {
        out.add("before " + answer(c.check(c.analyzer().analyze(t))));
      }
      s.checkpoint();
      assertThat(s.metrics().get("rebuilds_total").longValue()).isEqualTo(1);
      gathered[0] = s.metrics().get("last_rebuild_batch_bytes").longValue();
      for (String t : texts) {
        out.add("rebuilt " + answer(c.check(c.analyzer().analyze(t))));
      }
    }
    try (EmbeddedStore s = EmbeddedStore.builder(d).background(false).open()) {
      Collection c = s.collection("news");
      for (String t : texts) {
        out.add("reopened " + answer(c.check(c.analyzer().analyze(t))));
      }
    }
    return out;
  }

  /**
   * The rebuild gathers no more than its byte bound (plus one record) before restoring, its records
   * are heads without sketches, and the rebuilt collection answers as one rebuilt from whole bodies
   * (sketches on the heap) and as the directory reopened. (Before and after a rebuild the answers
   * may differ in one way: a removed representative stops representing its cluster.)
   */
  @Test
  void checkpoint_rebuildBatches_areBoundedInBytes_andHoldNoSketches() throws IOException {
    List<String> texts = texts(new SplittableRandom(18), 400);
    long[] inFiles = new long[1];
    long[] onHeap = new long[1];
    List<String> a = run(dir.resolve("files"), texts, false, inFiles);
    List<String> b = run(dir.resolve("heap"), texts, true, onHeap);
    assertThat(a).isEqualTo(b);
    int n = texts.size();
    assertThat(a.subList(n, 2 * n).stream().map(x -> x.substring(8)).toList())
        .isEqualTo(a.subList(2 * n, 3 * n).stream().map(x -> x.substring(9)).toList());
    // A head is ~100 bytes here: the bound (8 KiB) plus one head, far below a whole record.
    assertThat(inFiles[0]).isPositive().isLessThan((8 << 10) + 1024);
    // Whole records (sketches on the heap) fill the same bound with fewer, larger records.
    assertThat(onHeap[0]).isGreaterThanOrEqualTo(8 << 10).isLessThan((8 << 10) + 64_000);
    long sketches = 0;
    for (Path f : StoreTesting.files(dir.resolve("files"), ".ndsketch")) {
      sketches += Files.size(f);
    }
    assertThat(sketches).as("the sketches a whole-body batch held").isGreaterThan(200_000);
  }

  /**
   * A checkpoint with rebuild of 60,000 documents with ~1.4 KB sketches each (~85 MB of them) in a
   * JVM of 96 MB of heap, as {@code Checkpoint} runs it (it peaks at ~70-76 MB). The rebuild before
   * this change gathered every whole body in one restore batch and died of an OutOfMemoryError
   * here, and still at 192 MB.
   */
  @Test
  void checkpointWithRebuild_ofLongTexts_fitsASmallHeap() throws Exception {
    Path source = dir.resolve("source");
    Path big = dir.resolve("big");
    SplittableRandom r = new SplittableRandom(7);
    try (EmbeddedStore s = EmbeddedStore.builder(source).background(false).open()) {
      Collection c = s.create("news", StoreTesting.SETTINGS);
      List<String> texts = texts(r, 100);
      for (int i = 0; i < texts.size(); i++) {
        c.checkAndInsert(new Document("d" + i, c.analyzer().analyze(texts.get(i))));
      }
    }
    BulkLoad.expand(source, big, 60_000, 3);
    long sketches = Files.size(StoreTesting.onlyFile(big, ".ndsketch"));
    assertThat(sketches).isGreaterThan(60_000_000L);
    try (EmbeddedStore s =
        EmbeddedStore.builder(big).background(false).snapshotOnClose(false).open()) {
      Collection c = s.collection("news");
      for (int i = 0; i < 100; i++) {
        c.delete("c1-d" + i); // removed documents: the checkpoint rebuilds
      }
    }
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx96m");
    cmd.add("-XX:+ExitOnOutOfMemoryError");
    cmd.add("-cp");
    cmd.add(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
    cmd.add(Checkpoint.class.getName());
    cmd.add(big.toString());
    Path out = dir.resolve("checkpoint.out");
    Process p =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
    try {
      assertThat(p.waitFor(5, TimeUnit.MINUTES)).as("the checkpoint ends").isTrue();
    } finally {
      p.destroyForcibly();
    }
    String printed = Files.readString(out, StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as(printed).isZero();
    assertThat(printed).contains("1 rebuilds");
    try (EmbeddedStore s = EmbeddedStore.builder(big).background(false).open()) {
      assertThat(s.collection("news").stats().documents()).isEqualTo(60_000 - 100);
      assertThat(s.collection("news").get("c1-d3")).isEmpty();
      assertThat(s.collection("news").get("c2-d3")).isPresent();
    }
  }
}
