// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.store.Collection;
import org.neardup.store.Document;
import org.neardup.store.Outcome;
import org.neardup.store.StoredDocument;
import org.neardup.testkit.Texts;

/**
 * {@code BulkLoad expand}: the source's documents as they were, then copies with ids, DocIds,
 * fingerprints and band keys of their own, which neither match their originals nor disturb the
 * originals' answers.
 */
class BulkLoadTest {
  @TempDir Path source;
  @TempDir Path work;

  /**
   * Fills the source with {@code n} texts, every {@code editEvery}-th an edit of the one before,
   * and adds each text's answer after them all to {@code before}; returns the texts.
   */
  private List<String> fillSource(long seed, int n, int editEvery, List<Outcome> before)
      throws IOException {
    SplittableRandom r = new SplittableRandom(seed);
    List<String> texts = new ArrayList<>();
    try (EmbeddedStore s = EmbeddedStore.builder(source).background(false).open()) {
      Collection c = s.create("news", StoreTesting.SETTINGS);
      for (int i = 0; i < n; i++) {
        String text =
            i > 0 && i % editEvery == 0
                ? Texts.edit(r, texts.get(i - 1))
                : Texts.text(r, 20 + i % 30);
        texts.add(text);
        c.checkAndInsert(new Document("d" + i, c.analyzer().analyze(text)));
      }
      for (String t : texts) {
        before.add(c.check(c.analyzer().analyze(t)));
      }
    }
    return texts;
  }

  @Test
  public void expand_keepsTheSourceAndAddsDistinctCopies() throws IOException {
    List<Outcome> before = new ArrayList<>();
    List<String> texts = fillSource(42, 150, 4, before);
    Path dir = work.resolve("big");
    BulkLoad.expand(source, dir, 400, 7);
    assertThat(StoreTesting.files(dir, ".ndsketch")).hasSize(1);
    try (EmbeddedStore s = EmbeddedStore.builder(dir).background(false).open()) {
      Collection c = s.collection("news");
      assertThat(c.stats().documents()).isEqualTo(400);
      StoredDocument original = c.get("d5").orElseThrow();
      StoredDocument copy = c.get("c1-d5").orElseThrow();
      assertThat(c.get("c2-d99")).isPresent();
      assertThat(c.get("c2-d100")).isEmpty(); // 150 + 150 + 100 = 400
      assertThat(copy.cluster()).isEqualTo("c1-d5");
      assertThat(copy.fingerprint()).isNotEqualTo(original.fingerprint());
      for (int i = 0; i < texts.size(); i++) {
        // The originals answer as before the expansion: no copy is a candidate of theirs.
        assertThat(c.check(c.analyzer().analyze(texts.get(i))))
            .as("text %s", i)
            .isEqualTo(before.get(i));
      }
    }
    assertThatThrownBy(() -> BulkLoad.expand(source, dir, 10, 7))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("not empty");
  }

  @Test
  public void expand_writesTheIndexImageTheOpenTakes() throws IOException {
    List<Outcome> before = new ArrayList<>();
    List<String> texts = fillSource(43, 120, 3, before);
    Path withImage = work.resolve("image");
    Path sorted = work.resolve("sorted");
    BulkLoad.expand(source, withImage, 500, 9, 1);
    BulkLoad.expand(source, sorted, 500, 9, 501); // the same documents, no image
    assertThat(StoreTesting.files(withImage, ".ndindex")).hasSize(1);
    assertThat(StoreTesting.files(sorted, ".ndindex")).isEmpty();
    assertThat(StoreTesting.files(withImage, ".ndbands")).hasSize(1); // the band index's too
    assertThat(StoreTesting.files(sorted, ".ndbands")).isEmpty();
    for (Path dir : List.of(withImage, sorted)) {
      try (EmbeddedStore s = EmbeddedStore.builder(dir).background(false).open()) {
        assertThat(s.metrics().get("open_index_images").intValue())
            .isEqualTo(dir == withImage ? 1 : 0);
        assertThat(s.metrics().get("open_band_images").intValue())
            .isEqualTo(dir == withImage ? 1 : 0);
        Collection c = s.collection("news");
        assertThat(c.stats().documents()).isEqualTo(500);
        for (int i = 0; i < texts.size(); i++) {
          assertThat(c.check(c.analyzer().analyze(texts.get(i))))
              .as("%s, text %s", dir.getFileName(), i)
              .isEqualTo(before.get(i));
        }
        assertThat(c.get("c3-d7")).isPresent();
      }
    }
  }
}
