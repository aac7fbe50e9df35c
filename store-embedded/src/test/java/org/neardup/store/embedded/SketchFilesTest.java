// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.neardup.store.embedded.StoreTesting.doc;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.store.Collection;
import org.neardup.store.Outcome;
import org.neardup.testkit.Texts;

/**
 * Sketches in files (the default) decide exactly as sketches on the heap, through inserts, deletes,
 * compactions that rebuild the collection and reopening; the files live only while the store is
 * open.
 */
class SketchFilesTest {
  @TempDir Path files;
  @TempDir Path heap;

  private static EmbeddedStore open(Path dir, boolean onHeap) throws IOException {
    return EmbeddedStore.builder(dir)
        .background(false)
        .minDeadForRebuild(1)
        .sketchesOnHeap(onHeap)
        .open();
  }

  @Test
  public void filesAndHeap_sameOutcomes_throughDeletesRebuildsAndReopens() throws IOException {
    long seed = 4242;
    SplittableRandom r = new SplittableRandom(seed);
    List<String> texts = new ArrayList<>();
    int round = 0;
    for (int phase = 0; phase < 3; phase++) {
      try (EmbeddedStore a = open(files, false);
          EmbeddedStore b = open(heap, true)) {
        Collection ca = phase == 0 ? a.create("news", StoreTesting.SETTINGS) : a.collection("news");
        Collection cb = phase == 0 ? b.create("news", StoreTesting.SETTINGS) : b.collection("news");
        for (int i = 0; i < 600; i++, round++) {
          String text =
              texts.isEmpty() || r.nextInt(3) == 0
                  ? Texts.text(r, 20 + r.nextInt(200))
                  : Texts.edit(r, texts.get(r.nextInt(texts.size())));
          texts.add(text);
          String id = "d" + round;
          Outcome oa = ca.checkAndInsert(doc(ca, id, text));
          Outcome ob = cb.checkAndInsert(doc(cb, id, text));
          assertThat(oa).as("seed %s phase %s doc %s", seed, phase, id).isEqualTo(ob);
          if (r.nextInt(10) == 0) {
            String gone = "d" + r.nextInt(round + 1);
            assertThat(ca.delete(gone)).isEqualTo(cb.delete(gone));
          }
          if (i == 300) {
            a.checkpoint(); // with a dead document, rebuilds the collection: a new sketch file
            b.checkpoint();
          }
        }
        assertThat(StoreTesting.files(files, ".tmp")).isNotEmpty();
        assertThat(StoreTesting.files(heap, ".tmp")).isEmpty();
      }
      assertThat(StoreTesting.files(files, ".tmp")).as("sketch files after close").isEmpty();
    }
  }

  @Test
  public void drop_deletesTheSketchFile() throws IOException {
    try (EmbeddedStore s = open(files, false)) {
      Collection c = s.create("news", StoreTesting.SETTINGS);
      c.checkAndInsert(doc(c, "a", Texts.text(new SplittableRandom(1), 30)));
      assertThat(StoreTesting.files(files, ".tmp")).hasSize(1);
      s.drop("news");
      assertThat(StoreTesting.files(files, ".tmp")).isEmpty();
    }
  }
}
