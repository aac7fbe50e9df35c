// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.neardup.store.embedded.OutcomeText.answer;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.Document;
import org.neardup.testkit.ManualClock;
import org.neardup.testkit.Texts;

/**
 * A store opened from a version 3 snapshot keeps the snapshot's sketches in its sketch file and
 * reads them in place ({@link SketchFile#takeFromBase}): it must answer exactly as a store that
 * keeps every sketch on the heap (which reads the snapshot whole), after documents expired at open
 * (gaps between the entries it takes), deletions (band keys read back from the snapshot's file),
 * new inserts beside them, and another snapshot and open.
 */
class SplitSnapshotTest {
  private static final long T0 = 1_700_000_000_000L;
  private static final CollectionSettings SETTINGS =
      StoreTesting.SETTINGS.withRetention(Duration.ofHours(10));

  @TempDir Path split;
  @TempDir Path heap;

  private final ManualClock clock = new ManualClock(T0);

  private EmbeddedStore open(Path dir, boolean onHeap) throws IOException {
    return EmbeddedStore.builder(dir).clock(clock).background(false).sketchesOnHeap(onHeap).open();
  }

  @Test
  public void reopenFromSplitSnapshot_answersAsTheHeapStore() throws IOException {
    long seed = 20261125;
    SplittableRandom r = new SplittableRandom(seed);
    List<String> texts = new ArrayList<>();
    long[] times = new long[600];
    for (int i = 0; i < 600; i++) {
      // A third near-copies of an earlier text, so clusters and verified matches form.
      String text =
          !texts.isEmpty() && r.nextInt(3) == 0
              ? Texts.edit(r, texts.get(r.nextInt(texts.size())))
              : Texts.text(r, 12 + r.nextInt(40));
      texts.add(text);
      // Timestamps from T0 - 9 h to T0: those before T0 - 8 h expire at the second open, spread
      // over the file (every tenth one), so the entries taken from the snapshot have gaps.
      times[i] = i % 10 == 3 ? T0 - Duration.ofHours(9).toMillis() + i : T0 - 1000L * (600 - i);
    }
    List<String> splitAnswers = run(split, false, texts, times, new SplittableRandom(seed + 1));
    List<String> heapAnswers = run(heap, true, texts, times, new SplittableRandom(seed + 1));
    int first = 0;
    while (first < Math.min(splitAnswers.size(), heapAnswers.size())
        && splitAnswers.get(first).equals(heapAnswers.get(first))) {
      first++;
    }
    // The first step where they part, with its index, rather than two long lists.
    assertThat(first + ": " + (first < splitAnswers.size() ? splitAnswers.get(first) : "end"))
        .as("seed %s", seed)
        .isEqualTo(first + ": " + (first < heapAnswers.size() ? heapAnswers.get(first) : "end"));
    assertListedSketchesOnly(split);
  }

  /** What is left on disk is what the snapshot lists (version 4 keeps earlier ones' files). */
  static void assertListedSketchesOnly(Path dir) throws IOException {
    try (SnapshotFormat.Reader r =
        new SnapshotFormat.Reader(StoreTesting.onlyFile(dir, ".ndsnap"), true)) {
      assertThat(StoreTesting.files(dir, ".ndsketch"))
          .containsExactlyInAnyOrderElementsOf(r.sketchFiles());
    }
  }

  /** Loads, snapshots, reopens two hours later, deletes, inserts, checks, reopens; the answers. */
  private List<String> run(
      Path dir, boolean onHeap, List<String> texts, long[] times, SplittableRandom r)
      throws IOException {
    clock.set(T0);
    List<String> out = new ArrayList<>();
    try (EmbeddedStore s = open(dir, onHeap)) {
      Collection c = s.create("news", SETTINGS);
      for (int i = 0; i < times.length; i++) {
        out.add(
            answer(
                c.checkAndInsert(
                    new Document("d" + i, c.analyzer().analyze(texts.get(i)), times[i]))));
      }
    } // the close writes the snapshot
    clock.set(T0 + Duration.ofHours(2).toMillis());
    for (int round = 0; round < 2; round++) {
      try (EmbeddedStore s = open(dir, onHeap)) {
        Collection c = s.collection("news");
        out.add("live " + c.stats().documents());
        for (int i = 0; i < 150; i++) {
          if (i == 75) {
            // A snapshot copied from the split one while this generation reads the old one's
            // sketch file, which the snapshot deletes (no rebuild: nothing was removed yet);
            // then removals, whose band keys come from that file.
            s.checkpoint();
            for (int k = 0; k < 40; k++) {
              out.add("delete " + c.delete("d" + (round * 7 + k * 13) % times.length));
            }
          }
          String text = Texts.edit(r, texts.get(r.nextInt(texts.size())));
          out.add(answer(c.check(c.analyzer().analyze(text))));
          out.add(
              answer(
                  c.checkAndInsert(
                      new Document(
                          "n" + round + "-" + i, c.analyzer().analyze(text), clock.millis()))));
        }
      }
    }
    return out;
  }

  /**
   * A version 2 snapshot (sketches inline, written here byte by byte as that release did) opens
   * with every document and answer, and the checkpoint after it writes version 3, which opens with
   * the same answers.
   */
  @Test
  public void version2Snapshot_opensAndUpgradesToVersion3() throws IOException {
    SplittableRandom r = new SplittableRandom(2);
    CollectionSettings settings = StoreTesting.SETTINGS;
    org.neardup.Analyzer analyzer = settings.deduplicator().analyzer();
    List<String> texts = new ArrayList<>();
    java.io.ByteArrayOutputStream docs = new java.io.ByteArrayOutputStream();
    for (int i = 0; i < 200; i++) {
      String text =
          i % 5 == 4 ? Texts.edit(r, texts.get(i - 1)) : Texts.text(r, 15 + r.nextInt(30));
      texts.add(text);
      byte[] body =
          LogFormat.insert(
              1,
              T0,
              Long.MAX_VALUE,
              ("d" + i).getBytes(java.nio.charset.StandardCharsets.UTF_8),
              analyzer.analyze(text).encode());
      Bytes.putLong(body, LogFormat.DOC_ID, i);
      Bytes.putLong(body, LogFormat.CLUSTER, i);
      docs.write(java.nio.ByteBuffer.allocate(4).putInt(body.length).array(), 0, 4);
      docs.write(body, 0, body.length);
    }
    byte[] name = "news".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    byte[] st = settings.toText().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    byte[] an = analyzer.id().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    java.nio.ByteBuffer b =
        java.nio.ByteBuffer.allocate(100 + name.length + st.length + an.length + docs.size());
    b.putLong(SnapshotFormat.MAGIC).putInt(2).putLong(0).putLong(T0).putInt(1);
    b.putInt(1).putLong(200).putLong(200);
    for (byte[] x : new byte[][] {name, st, an}) {
      b.putShort((short) x.length).put(x);
    }
    b.put(docs.toByteArray()).putInt(0).putLong(200);
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(b.array(), 0, b.position());
    b.putInt((int) crc.getValue()).putLong(SnapshotFormat.END_MAGIC);
    java.nio.file.Files.write(
        split.resolve(SnapshotFormat.fileName(0)),
        java.util.Arrays.copyOf(b.array(), b.position()));
    List<String> answers = new ArrayList<>();
    for (int round = 0; round < 2; round++) {
      List<String> got = new ArrayList<>();
      try (EmbeddedStore s = open(split, false)) {
        Collection c = s.collection("news");
        got.add("live " + c.stats().documents());
        for (String t : texts) {
          got.add(answer(c.check(c.analyzer().analyze(t))));
        }
        if (round == 0) {
          s.checkpoint();
        }
      }
      if (round == 0) {
        answers = got;
        assertThat(got.get(0)).isEqualTo("live 200");
        for (int i = 0; i < texts.size(); i++) {
          // Each text finds its own document, verified against the sketch that was inline.
          assertThat(got.get(i + 1)).contains("d" + i + "@0/1000");
        }
        assertListedSketchesOnly(split);
      } else {
        assertThat(got).isEqualTo(answers);
      }
    }
  }
}
