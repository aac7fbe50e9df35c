// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;

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
import org.neardup.store.Outcome;
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

  /** Every answer of a step, in order, as text: what both stores must give alike. */
  private static String answer(Outcome o) {
    List<String> m = new ArrayList<>();
    for (Outcome.Match x : o.matches()) {
      m.add(x.id() + "@" + x.distance() + "/" + Math.round(x.similarity() * 1000));
    }
    return o.status() + " " + o.id() + " " + o.cluster() + " " + m;
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
    assertThat(StoreTesting.files(split, ".ndsketch")).hasSize(1);
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
}
