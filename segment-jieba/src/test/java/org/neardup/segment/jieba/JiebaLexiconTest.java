// SPDX-License-Identifier: Apache-2.0
package org.neardup.segment.jieba;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.neardup.text.IdfTable;
import org.neardup.text.Lexicon;
import org.neardup.text.TermHasher;

class JiebaLexiconTest {

  @Test
  void load_byName_findsJiebaThroughServiceLoader() {
    Lexicon lexicon = Lexicon.load("jieba");
    assertThat(lexicon).isInstanceOf(JiebaLexicon.class);
    assertThat(lexicon.name()).isEqualTo(JiebaLexicon.NAME);
  }

  @Test
  void segmenterAndIdf_anyInstance_loadedOnceAndShared() {
    Lexicon a = Lexicon.load("jieba");
    Lexicon b = new JiebaLexicon();
    assertThat(a.segmenter()).isSameAs(b.segmenter()).isSameAs(JiebaLexicon.instance().segmenter());
    assertThat(a.idf()).isSameAs(b.idf());
  }

  @Test
  void idf_jiebaTable_sizeMedianAndId() {
    IdfTable idf = JiebaLexicon.instance().idf();
    // idf.txt has 270,132 lines, all distinct after NFKC and lower-casing.
    assertThat(idf.size()).isEqualTo(270_132);
    // jieba.analyse.default_tfidf.median_idf is 11.9547675029.
    assertThat((double) idf.defaultIdf()).isCloseTo(11.9547675029, within(1e-5));
    assertThat(idf.id()).matches("jieba-0\\.42\\.1/sha1:[0-9a-f]{16}");
    // First line of idf.txt: 劳动防护 13.900677652
    assertThat((double) idf.idf(TermHasher.hash("劳动防护"))).isCloseTo(13.900677652, within(1e-5));
    assertThat(idf.idf(TermHasher.hash("不在表里的词"))).isEqualTo(idf.defaultIdf());
  }
}
