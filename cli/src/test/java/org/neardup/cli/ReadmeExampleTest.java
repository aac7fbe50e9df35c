// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.neardup.Deduplicator;
import org.neardup.Match;
import org.neardup.Verdict;

/** The Java example in README.md, line for line: if this changes, the README must too. */
class ReadmeExampleTest {
  @Test
  void readmeJavaExample_printsWhatTheReadmeSays() {
    Deduplicator dedup =
        Deduplicator.builder() // jieba, k = 3, Jaccard >= 0.8
            .build();

    String news =
        "市议会周二晚间批准了新的年度预算，为公园、图书馆和两所新学校增加了拨款。" + "此前议员们就税收和公共交通问题进行了长时间的辩论。市长表示，该计划将在春季进行审查。";
    Verdict v = dedup.checkAndInsert(1L, news);
    assertThat(v.isNew()).isTrue();
    Verdict w = dedup.checkAndInsert(2L, news.replace("周二", "周三"));
    assertThat(w.isDuplicate()).isTrue();
    assertThat(w.cluster()).isEqualTo(1L);
    assertThat(w.matches()).hasSize(1);
    Match m = w.matches().get(0);
    assertThat(m.docId()).isEqualTo(1L);
    // Seven bits apart, beyond k = 3: the MinHash bands found it, verification confirmed it.
    assertThat(m.distance()).isEqualTo(7);
    assertThat(m.similarity()).isCloseTo(0.863, org.assertj.core.data.Offset.offset(0.0005));
    assertThat(dedup.check(news).cluster()).isEqualTo(1L);
  }
}
