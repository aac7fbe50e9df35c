// SPDX-License-Identifier: Apache-2.0
package org.neardup.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

class IdfTableTest {
  private static IdfTable read(String text) throws IOException {
    return IdfTable.read(new BufferedReader(new StringReader(text)), "test");
  }

  @Test
  void idf_knownAndUnknownWords_tableValueOrMedian() throws IOException {
    IdfTable t = read("# comment\n的 0.5\n计算机 9.0\nＡＢＣ 3.0\nzebra 12\n\n");
    assertThat(t.size()).isEqualTo(4);
    assertThat(t.idf(TermHasher.hash("计算机"))).isEqualTo(9.0f);
    // Words are normalised like text: full-width upper case is found as half-width lower case.
    assertThat(t.idf(TermHasher.hash("abc"))).isEqualTo(3.0f);
    // Median of {0.5, 3, 9, 12} by jieba's rule: sorted[size / 2] = 9.
    assertThat(t.defaultIdf()).isEqualTo(9.0f);
    assertThat(t.idf(TermHasher.hash("unknown"))).isEqualTo(9.0f);
    assertThat(t.id()).startsWith("test/sha1:");
  }

  @Test
  void read_malformedLine_namesTheLine() {
    assertThatThrownBy(() -> read("a 1\nbroken\n"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("line 2");
    assertThatThrownBy(() -> read("a x\n"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("not a number");
    assertThatThrownBy(() -> read("a -1\n"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining(">= 0");
    assertThatThrownBy(() -> read("# nothing\n"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("no entries");
  }

  @Test
  void read_differentContent_differentId() throws IOException {
    assertThat(read("a 1\n").id()).isNotEqualTo(read("a 2\n").id());
  }

  @Test
  void builder_manyEntries_allFound() {
    IdfTable.Builder b = new IdfTable.Builder();
    for (int i = 0; i < 100_000; i++) {
      b.put(i * 0x9E3779B97F4A7C15L, i % 17);
    }
    IdfTable t = b.build("many");
    for (int i = 0; i < 100_000; i++) {
      assertThat(t.idf(i * 0x9E3779B97F4A7C15L)).isEqualTo(i % 17);
    }
  }
}
