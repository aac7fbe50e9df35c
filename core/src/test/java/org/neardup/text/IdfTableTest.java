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
  void maxIdf_everyFormOfTheTable_boundsEveryValue() throws IOException {
    IdfTable t = read("的 0.5\n计算机 9.0\nzebra 12\n");
    assertThat(t.maxIdf()).isEqualTo(12f);
    // The default (the median, 9.0) is below; a larger default given to ofEntries is the bound.
    IdfTable e = IdfTable.ofEntries(t.entryHashes(), t.entryIdfs(), 20f, "e");
    assertThat(e.maxIdf()).isEqualTo(20f);
    StopWords stops = StopWords.read(new BufferedReader(new StringReader("zebra\nthe\n")));
    IdfTable withStops = t.withStopWords(stops);
    assertThat(withStops.maxIdf()).isGreaterThanOrEqualTo(9f);
    for (long h : t.entryHashes()) {
      assertThat(withStops.idf(h)).isLessThanOrEqualTo(withStops.maxIdf());
    }
    assertThat(IdfTable.ofStopWords(stops, 1f, "none").maxIdf()).isEqualTo(1f);
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

  /**
   * A lookup answers "absent" from a bit filter of the entries' tags before it probes the slots: at
   * jieba's size (2^20 slots, 2^21 filter bits, so many tags share a bit) every entry must still be
   * found, those withStopWords appends to copied slots included, and absent hashes get the default.
   */
  @Test
  void idf_jiebaSizedTableWithAppendedStopWords_entriesFoundAbsentDefault() throws IOException {
    java.util.Random random = new java.util.Random(20261125);
    int size = 272_000;
    long[] hashes = new long[size];
    float[] idfs = new float[size];
    java.util.Set<Long> present = new java.util.HashSet<>();
    for (int i = 0; i < size; i++) {
      long h;
      do {
        h = random.nextLong();
      } while (!present.add(h));
      hashes[i] = h;
      idfs[i] = random.nextInt(1000) / 8f;
    }
    IdfTable t = IdfTable.ofEntries(hashes, idfs, 7.5f, "big");
    StringBuilder stops = new StringBuilder();
    for (int i = 0; i < 500; i++) {
      stops.append("stop").append(i).append('\n');
    }
    IdfTable s =
        t.withStopWords(StopWords.read(new BufferedReader(new StringReader(stops.toString()))));
    for (int i = 0; i < size; i++) {
      assertThat(t.idf(hashes[i])).isEqualTo(idfs[i]);
      assertThat(s.idf(hashes[i])).isEqualTo(idfs[i]);
    }
    for (int i = 0; i < 500; i++) {
      assertThat(s.idf(TermHasher.hash("stop" + i))).as("stop%s", i).isEqualTo(-1f);
    }
    // The same table from its arrays as an image stores them: every lookup and bound the same.
    IdfTable image =
        IdfTable.ofImage(
            t.entryHashes(),
            t.entryIdfs(),
            t.defaultIdf(),
            t.maxIdf(),
            t.id(),
            t.slotsCopy(),
            t.filterCopy());
    assertThat(image.maxIdf()).isEqualTo(t.maxIdf());
    assertThat(image.entryHashes()).isEqualTo(hashes);
    IdfTable imageStops =
        image.withStopWords(StopWords.read(new BufferedReader(new StringReader(stops.toString()))));
    for (int i = 0; i < size; i++) {
      assertThat(image.idf(hashes[i])).isEqualTo(idfs[i]);
      assertThat(imageStops.idf(hashes[i])).isEqualTo(idfs[i]);
    }
    for (int i = 0; i < 200_000; i++) {
      long h = random.nextLong();
      if (!present.contains(h)) {
        assertThat(t.idf(h)).isEqualTo(7.5f);
        assertThat(image.idf(h)).isEqualTo(7.5f);
      }
    }
  }

  /**
   * withStopWords copies the slots when the capacity stays, and rebuilds when the stop words push
   * it over: both must answer every lookup as the definition says (stop word -1, else the table's
   * value, else the default), for table sizes on both sides of a capacity boundary.
   */
  @Test
  void withStopWords_bothPaths_stopWordsNegativeOthersUnchanged() throws IOException {
    java.util.Random random = new java.util.Random(20261124);
    for (int size : new int[] {1, 7, 8, 9, 500, 510, 511, 512, 513, 3000}) {
      IdfTable.Builder b = new IdfTable.Builder();
      java.util.Map<Long, Float> expected = new java.util.HashMap<>();
      for (int i = 0; i < size; i++) {
        long h = TermHasher.hash("w" + i);
        float idf = random.nextInt(100) / 4f;
        b.put(h, idf);
        expected.put(h, idf);
      }
      IdfTable t = b.build("t" + size);
      StringBuilder stops = new StringBuilder();
      java.util.Set<Long> stopHashes = new java.util.HashSet<>();
      for (int i = 0; i < 40; i++) {
        // Half of them in the table, half not.
        String w = random.nextBoolean() ? "w" + random.nextInt(size) : "stop" + i;
        stops.append(w).append('\n');
        stopHashes.add(TermHasher.hash(w));
      }
      IdfTable s =
          t.withStopWords(StopWords.read(new BufferedReader(new StringReader(stops.toString()))));
      assertThat(s.id()).isEqualTo(t.id());
      assertThat(s.defaultIdf()).isEqualTo(t.defaultIdf());
      java.util.Set<Long> all = new java.util.HashSet<>(expected.keySet());
      all.addAll(stopHashes);
      assertThat(s.size()).as("size %s", size).isEqualTo(all.size());
      for (long h : all) {
        float want = stopHashes.contains(h) ? -1f : expected.get(h);
        assertThat(s.idf(h)).as("size %s, hash %s", size, h).isEqualTo(want);
      }
      for (int i = 0; i < 1000; i++) {
        long h = random.nextLong();
        if (!all.contains(h)) {
          assertThat(s.idf(h)).isEqualTo(t.defaultIdf());
        }
      }
      // Stop words first (IDF 0), then the table's other entries in their order.
      long[] hashes = s.entryHashes();
      assertThat(hashes).hasSize(all.size());
      assertThat(java.util.Arrays.stream(hashes, 0, stopHashes.size()).boxed())
          .containsExactlyInAnyOrderElementsOf(stopHashes);
      IdfTable again = IdfTable.ofEntries(hashes, s.entryIdfs(), s.defaultIdf(), s.id());
      for (long h : all) {
        assertThat(again.idf(h)).isEqualTo(stopHashes.contains(h) ? 0f : expected.get(h));
      }
    }
  }

  @Test
  void ofImage_arraysOfAnotherShape_rejected() {
    IdfTable t = IdfTable.ofEntries(new long[] {1, 2, 3}, new float[] {1f, 2f, 3f}, 1f, "x");
    long[] h = t.entryHashes();
    float[] f = t.entryIdfs();
    assertThatThrownBy(() -> IdfTable.ofImage(h, f, 1f, 3f, "x", new long[8], t.filterCopy()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("slots");
    assertThatThrownBy(() -> IdfTable.ofImage(h, f, 1f, 3f, "x", t.slotsCopy(), new long[3]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("filter");
    assertThatThrownBy(() -> IdfTable.ofImage(h, f, 4f, 3f, "x", t.slotsCopy(), t.filterCopy()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("in order");
    assertThat(IdfTable.ofImage(h, f, 1f, 3f, "x", t.slotsCopy(), t.filterCopy()).idf(2))
        .isEqualTo(2f);
  }

  @Test
  void ofEntries_badArrays_rejected() {
    assertThatThrownBy(() -> IdfTable.ofEntries(new long[2], new float[1], 1f, "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("as many");
    assertThatThrownBy(() -> IdfTable.ofEntries(new long[] {1}, new float[] {-1f}, 1f, "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(">= 0");
  }
}
