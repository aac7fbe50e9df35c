// SPDX-License-Identifier: Apache-2.0
package org.neardup.fingerprint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.neardup.text.StopWords;
import org.neardup.text.TextBuffer;

/**
 * Fingerprints without a segmenter (every Han character a word), so core tests need no dictionary.
 */
class FingerprinterTest {
  private final Fingerprinter fp = Fingerprinter.create(FingerprintSettings.builder().build());

  private static final String LONG =
      "Near-duplicate detection finds documents that are almost the same: reposts, light edits, "
          + "and the same page with a new view counter. Simhash turns each document into a 64-bit "
          + "fingerprint so that similar documents get fingerprints that differ in few bits.";

  @Test
  void fingerprint_hanFold_traditionalAndSimplifiedAgree_idSaysSo() {
    String simplified = "市议会周二晚间批准了新的年度预算，为公园、图书馆和两所新学校增加了拨款。";
    String traditional = "市議會週二晚間批准了新的年度預算，爲公園、圖書館和兩所新學校增加了撥款。";
    Fingerprinter keep =
        Fingerprinter.create(
            FingerprintSettings.builder().han(FingerprintSettings.Han.KEEP).build());
    Fingerprinter fold = Fingerprinter.create(FingerprintSettings.builder().build()); // default
    assertThat(keep.fingerprint(traditional)).isNotEqualTo(keep.fingerprint(simplified));
    assertThat(fold.fingerprint(traditional)).isEqualTo(fold.fingerprint(simplified));
    TextBuffer norm = new TextBuffer();
    fold.normalize(traditional, norm);
    assertThat(fold.fingerprintNormalized(norm.array(), 0, norm.length()))
        .isEqualTo(fold.fingerprint(simplified));
    assertThat(fold.settings().id()).contains(";han=fold;");
    // Settings without folding keep the id they had before the option.
    assertThat(keep.settings().id()).doesNotContain("han");
  }

  @Test
  void defaultTopN_isTheBuildersDefault() {
    // Help texts show the constant; the settings must use the same value.
    assertThat(FingerprintSettings.builder().build().topN())
        .isEqualTo(FingerprintSettings.DEFAULT_TOP_N);
  }

  @Test
  void fingerprint_sameText_sameFingerprint() {
    assertThat(fp.fingerprint(LONG)).isEqualTo(fp.fingerprint(new StringBuilder(LONG)));
  }

  @Test
  void fingerprint_formattingChanges_doNotMatter() {
    String reformatted =
        LONG.toUpperCase(java.util.Locale.ROOT).replace(" ", "  \n").replace(",", "，");
    assertThat(fp.fingerprint(reformatted)).isEqualTo(fp.fingerprint(LONG));
  }

  @Test
  void fingerprint_smallEdit_isClose_unrelatedIsFar() {
    long a = fp.fingerprint(LONG);
    long b = fp.fingerprint(LONG.replace("light edits", "small edits"));
    long c =
        fp.fingerprint(
            "A completely different text about cooking rice, vegetables and soup for dinner tonight.");
    assertThat(Simhash.distance(a, b)).isLessThanOrEqualTo(6);
    assertThat(Simhash.distance(a, c)).isGreaterThan(12);
  }

  @Test
  void fingerprint_html_usesVisibleText() {
    String html = "<html><body><p>" + LONG + "</p><script>var tracking = 1;</script></body></html>";
    assertThat(fp.fingerprint(html)).isEqualTo(fp.fingerprint(LONG));
  }

  @Test
  void fingerprintNormalized_equalsFingerprint() {
    TextBuffer norm = new TextBuffer();
    fp.normalize(LONG, norm);
    assertThat(fp.fingerprintNormalized(norm.array(), 0, norm.length()))
        .isEqualTo(fp.fingerprint(LONG));
  }

  @Test
  void normalize_reusesThreadBuffers_eachTextAsAFreshFingerprinterNormalizesIt() {
    // normalize works in this thread's scratch buffers (no arrays per text): pages, long and short
    // texts and fingerprint calls in between must leave nothing of one text in the next.
    String[] texts = {
      "<html><body><p>Visible text of a page</p><script>var hidden = 1;</script></body></html>",
      LONG,
      "short",
      "<p>another page, shorter</p>",
      LONG + " " + LONG,
      "市議會週二晚間批准了新的年度預算",
      "x"
    };
    for (String text : texts) {
      fp.fingerprint(LONG); // fills the same scratch
      TextBuffer reused = new TextBuffer();
      reused.append('>');
      fp.normalize(text, reused);
      TextBuffer fresh = new TextBuffer();
      fresh.append('>');
      Fingerprinter.create(FingerprintSettings.builder().build()).normalize(text, fresh);
      assertThat(reused.toString()).as(text).isEqualTo(fresh.toString());
    }
  }

  @Test
  void normalizeChars_randomTextsAtOffsets_equalsNormalizeOfTheString() {
    // dedup's reader hands the text over as a range of its own char array: the same output as the
    // String path, for pages and plain texts, with each setting that changes the normalisation.
    String[] pieces = {
      "<html><body><p>",
      "</p>",
      "<script>var x = 1;</script>",
      "&amp;",
      "市議會",
      "週二",
      "ＡＢＣ",
      "Straße",
      " ",
      "\n",
      "12:30",
      "e\u0301",
      "\uD83D\uDE00",
      "\uD800",
      "<",
      "x",
      "Posted 3 days ago\n",
      "阅读 12 · 评论 3\n"
    };
    Fingerprinter[] fps = {
      fp,
      Fingerprinter.create(
          FingerprintSettings.builder()
              .html(FingerprintSettings.Html.MAIN)
              .volatileLines(FingerprintSettings.Volatile.DROP)
              .han(FingerprintSettings.Han.KEEP)
              .build()),
      Fingerprinter.create(FingerprintSettings.builder().html(FingerprintSettings.Html.RAW).build())
    };
    java.util.Random r = new java.util.Random(2026_11_26);
    for (int i = 0; i < 5_000; i++) {
      StringBuilder b = new StringBuilder();
      for (int k = r.nextInt(30); k > 0; k--) {
        b.append(pieces[r.nextInt(pieces.length)]);
      }
      String text = b.toString();
      int before = r.nextInt(4);
      char[] chars = new char[before + text.length() + r.nextInt(4)];
      java.util.Arrays.fill(chars, '<');
      text.getChars(0, text.length(), chars, before);
      for (Fingerprinter f : fps) {
        TextBuffer viaString = new TextBuffer();
        viaString.append('>');
        f.normalize(text, viaString);
        TextBuffer viaChars = new TextBuffer();
        viaChars.append('>');
        f.normalize(chars, before, before + text.length(), viaChars);
        assertThat(viaChars.toString()).as(text).isEqualTo(viaString.toString());
      }
    }
  }

  @Test
  void features_heaviestFirst_andMakeTheFingerprint() {
    Features f = fp.features("apple apple apple banana banana cherry");
    assertThat(f.words()).containsExactly("apple", "banana", "cherry");
    assertThat(f.weights()[0]).isGreaterThan(f.weights()[1]);
    assertThat(f.fingerprint()).isEqualTo(fp.fingerprint("apple apple apple banana banana cherry"));
  }

  @Test
  void features_topN_keepsOnlyHeaviest() {
    Fingerprinter top2 = Fingerprinter.create(FingerprintSettings.builder().topN(2).build());
    Features f = top2.features("a1 a1 a1 b2 b2 c3 d4 e5");
    assertThat(f.words()).containsExactly("a1", "b2");
    assertThat(f.totalFeatures()).isEqualTo(5);
  }

  @Test
  void fingerprint_stopWordsOnly_isZero() {
    assertThat(fp.fingerprint("the of and to")).isZero();
    Fingerprinter noStop =
        Fingerprinter.create(
            FingerprintSettings.builder().stopWords(StopWords.none(), "none").build());
    assertThat(noStop.fingerprint("the of and to")).isNotZero();
  }

  @Test
  void fingerprint_numbersDrop_ignoresCounters() {
    Fingerprinter drop =
        Fingerprinter.create(
            FingerprintSettings.builder().numbers(FingerprintSettings.Numbers.DROP).build());
    assertThat(drop.fingerprint(LONG + " views 1234"))
        .isEqualTo(drop.fingerprint(LONG + " views 98765"));
  }

  @Test
  void settingsId_namesEverythingThatChangesFingerprints() {
    String id = FingerprintSettings.builder().build().id();
    assertThat(id)
        .startsWith("neardup-fp/1;")
        .contains("seg=chars", "idf=none", "top=20", "min=2", "hash=xxh64-utf8");
    assertThat(FingerprintSettings.builder().topN(32).build())
        .isNotEqualTo(FingerprintSettings.builder().build());
    assertThat(FingerprintSettings.builder().build())
        .isEqualTo(FingerprintSettings.builder().build());
  }

  @Test
  void builder_badValues_rejectedWithTheRule() {
    assertThatThrownBy(() -> FingerprintSettings.builder().topN(-1))
        .hasMessageContaining("topN must be >= 0");
    assertThatThrownBy(() -> FingerprintSettings.builder().shingle(0))
        .hasMessageContaining("shingle must be in [1, 8]");
  }

  @Test
  void fingerprint_manyThreads_sameAsOneThread() throws Exception {
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      texts.add(LONG + " item " + i + " 第" + i + "号文档，内容略有不同。");
    }
    long[] expected = texts.stream().mapToLong(fp::fingerprint).toArray();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<long[]>> results = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        results.add(pool.submit(() -> texts.stream().mapToLong(fp::fingerprint).toArray()));
      }
      for (Future<long[]> r : results) {
        assertThat(r.get()).isEqualTo(expected);
      }
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void fingerprint_goldenValues_neverChange() {
    // The fingerprint is a storage format: these values are part of format version 1.
    assertThat(Simhash.toHex(fp.fingerprint(LONG))).isEqualTo(GOLDEN_LONG);
    assertThat(Simhash.toHex(fp.fingerprint("今天天气很好，我们去公园散步吧。"))).isEqualTo(GOLDEN_ZH);
  }

  static final String GOLDEN_LONG = "1c9553b85cd55096";
  static final String GOLDEN_ZH = "cb358d47ebe12f21";
}
