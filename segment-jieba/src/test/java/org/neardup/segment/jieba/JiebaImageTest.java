// SPDX-License-Identifier: Apache-2.0
package org.neardup.segment.jieba;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.neardup.text.IdfTable;

/**
 * The images the build writes ({@link JiebaImage}) hold exactly what parsing the text files gives:
 * the same arrays, ids and numbers, so a segmenter or IDF table loaded either way cuts and weighs
 * every word the same (the golden tests run on the image, the default).
 */
class JiebaImageTest {
  @Test
  void segmenterImage_onClassPath_equalsTextLoad() throws IOException {
    JiebaSegmenter image = JiebaImage.readSegmenter();
    assertThat(image).as("the build writes the image into target/classes").isNotNull();
    JiebaSegmenter text = JiebaSegmenter.loadFromText();
    assertThat(image.id()).isEqualTo(text.id());
    assertThat(image.cutsMixedRuns()).isTrue();
    assertThat(Double.doubleToRawLongBits(image.logTotal()))
        .isEqualTo(Double.doubleToRawLongBits(text.logTotal()));
    assertThat(image.trie().cells()).isEqualTo(text.trie().cells());
    assertThat(image.trie().weights()).isEqualTo(text.trie().weights());
    assertThat(image.trie().nodeCount()).isEqualTo(text.trie().nodeCount());
    image.trie().checkInvariants();
    assertThat(image.hmm().start()).isEqualTo(text.hmm().start());
    assertThat(image.hmm().trans()).isEqualTo(text.hmm().trans());
    assertThat(image.hmm().emit()).isEqualTo(text.hmm().emit());
    // The root cells and the edge filter are stored as derived from the cells at build time.
    assertThat(image.trie().rootCells()).isEqualTo(text.trie().rootCells());
    assertThat(image.trie().edgeFilter()).isEqualTo(text.trie().edgeFilter());
    for (int c = 0; c < 65536; c++) {
      assertThat(image.trie().rootChild((char) c)).isEqualTo(text.trie().rootChild((char) c));
    }
  }

  @Test
  void idfImage_onClassPath_equalsTextLoad() throws IOException {
    IdfTable image = JiebaImage.readIdf();
    assertThat(image).isNotNull();
    IdfTable text = JiebaLexicon.loadIdfFromText();
    assertThat(image.id()).isEqualTo(text.id());
    assertThat(image.defaultIdf()).isEqualTo(text.defaultIdf());
    assertThat(image.entryHashes()).isEqualTo(text.entryHashes());
    assertThat(image.entryIdfs()).isEqualTo(text.entryIdfs());
    // The slots and the filter are stored as built, not hashed again at load.
    assertThat(image.slotsCopy()).isEqualTo(text.slotsCopy());
    assertThat(image.filterCopy()).isEqualTo(text.filterCopy());
    assertThat(image.maxIdf()).isEqualTo(text.maxIdf());
    for (long h : text.entryHashes()) {
      assertThat(image.idf(h)).isEqualTo(text.idf(h));
    }
  }

  @Test
  void writeThenRead_roundTrips() throws IOException {
    // The writer's output for the loaded segmenter is the image on the class path, byte for byte.
    byte[] written = JiebaImage.segmenter(JiebaSegmenter.load());
    try (var in = JiebaImage.class.getResourceAsStream(JiebaImage.SEGMENTER)) {
      assertThat(in).isNotNull();
      assertThat(in.readAllBytes()).isEqualTo(written);
    }
    byte[] idf = JiebaImage.idf(JiebaLexicon.loadIdf());
    try (var in = JiebaImage.class.getResourceAsStream(JiebaImage.IDF)) {
      assertThat(in).isNotNull();
      assertThat(in.readAllBytes()).isEqualTo(idf);
    }
  }
}
