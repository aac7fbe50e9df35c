// SPDX-License-Identifier: Apache-2.0
package org.neardup.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.neardup.text.TextNormalizer;

class ShinglerTest {
  private final Shingler keep = new Shingler(256, BandScheme.of(6, 2), false);
  private final Shingler fold = new Shingler(256, BandScheme.of(6, 2), true);

  private static Sketch sketch(Shingler s, String text) {
    char[] c = TextNormalizer.normalize(text).toCharArray();
    return s.sketch(c, 0, c.length);
  }

  private static double j(Shingler s, String a, String b) {
    return ShingleSketch.jaccard(sketch(s, a).shingles(), sketch(s, b).shingles());
  }

  @Test
  void sketch_chinese_usesFiveCharacterShinglesOfLettersAndDigits() {
    Sketch s = sketch(keep, "今天天气很好，我们去公园。");
    assertThat(s.shingles().mode()).isEqualTo(ShingleSketch.Mode.CHARS);
    // 11 letters, punctuation dropped: 11 - 5 + 1 = 7 shingles.
    assertThat(s.shingles().size()).isEqualTo(7);
    assertThat(s.shingles().complete()).isTrue();
    assertThat(s.bandKeys()).hasSize(6);
  }

  @Test
  void sketch_english_usesThreeWordShingles() {
    Sketch s = sketch(keep, "The quick brown fox jumps over the lazy dog");
    assertThat(s.shingles().mode()).isEqualTo(ShingleSketch.Mode.WORDS);
    assertThat(s.shingles().size()).isEqualTo(7);
  }

  @Test
  void sketch_shortText_isOneShingle_emptyTextHasNone() {
    assertThat(sketch(keep, "hello world").shingles().size()).isEqualTo(1);
    assertThat(sketch(keep, "你好").shingles().size()).isEqualTo(1);
    Sketch none = sketch(keep, " ,.!? ");
    assertThat(none.shingles().mode()).isEqualTo(ShingleSketch.Mode.NONE);
    assertThat(none.bandKeys()).isEmpty();
  }

  @Test
  void sketch_formatting_doesNotMatter() {
    assertThat(j(keep, "Hello, World! This is a test.", "hello world this   is a TEST"))
        .isEqualTo(1.0);
    assertThat(j(keep, "今天天气很好，我们去公园。", "今天 天气 很好 我们 去 公园")).isEqualTo(1.0);
  }

  @Test
  void sketch_fold_makesCountersAndDatesEqual_keepDoesNot() {
    String a =
        "Breaking: the council approved the new budget for parks and schools. Views: 1234. Updated 2024-05-01 10:22";
    String b =
        "Breaking: the council approved the new budget for parks and schools. Views: 9876. Updated 2024-06-13 18:05";
    assertThat(j(fold, a, b)).isEqualTo(1.0);
    assertThat(j(keep, a, b)).isLessThan(1.0);
    // Real content still differs with folding on.
    assertThat(
            j(
                fold,
                a,
                "Breaking: the mayor resigned after the vote on the stadium. Views: 1234. Updated 2024-05-01 10:22"))
        .isLessThan(0.5);
    String c1 = "阅读 1234 次。市议会今天通过了公园和学校的新预算方案，明年开始实施。";
    String c2 = "阅读 5678 次。市议会今天通过了公园和学校的新预算方案，明年开始实施。";
    assertThat(j(fold, c1, c2)).isEqualTo(1.0);
  }

  @Test
  void sketch_longText_keepsBottomCapacity() {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < 2000; i++) {
      b.append("word").append(i).append(' ');
    }
    Sketch s = sketch(keep, b.toString());
    assertThat(s.shingles().size()).isEqualTo(256);
    assertThat(s.shingles().complete()).isFalse();
  }

  @Test
  void sketch_nearDuplicates_shareBandKeys_unrelatedDoNot() {
    String a =
        "The committee met on Tuesday to discuss the annual report, the budget and the hiring plan for next year.";
    String b = a.replace("Tuesday", "Wednesday");
    long[] ka = sketch(keep, a).bandKeys();
    long[] kb = sketch(keep, b).bandKeys();
    long[] kc =
        sketch(
                keep,
                "Completely unrelated words about gardening, tomatoes and the weather in spring.")
            .bandKeys();
    int shared = 0;
    int sharedUnrelated = 0;
    for (int i = 0; i < ka.length; i++) {
      shared += ka[i] == kb[i] ? 1 : 0;
      sharedUnrelated += ka[i] == kc[i] ? 1 : 0;
    }
    assertThat(shared).isGreaterThan(0);
    assertThat(sharedUnrelated).isZero();
  }

  @Test
  void bandScheme_forThreshold_reachesRecallAtThreshold() {
    BandScheme b = BandScheme.forThreshold(0.8, 0.997);
    assertThat(b.toString()).isEqualTo("6x2");
    assertThat(b.candidateProbability(0.8)).isGreaterThanOrEqualTo(0.997);
    assertThat(BandScheme.forThreshold(0.5, 0.997).candidateProbability(0.5))
        .isGreaterThanOrEqualTo(0.997);
    assertThatThrownBy(() -> BandScheme.forThreshold(1.5, 0.9))
        .hasMessageContaining("threshold must be in (0, 1]");
  }

  @Test
  void constructor_badCapacity_rejected() {
    assertThatThrownBy(() -> new Shingler(1, BandScheme.of(6, 2), false))
        .hasMessageContaining("capacity must be in");
  }

  private static Sketch words(Shingler s, String... words) {
    Shingler.WordSession w = s.words();
    for (String word : words) {
      char[] c = word.toCharArray();
      w.word(c, 0, c.length, org.neardup.text.TermHasher.hash(word));
    }
    return w.finish();
  }

  @Test
  void words_foldNumbers_decimalsAndPercentagesAreNumbers() {
    // jieba keeps 3.5 and 50% whole; with folding they are numbers like 35 and 50.
    assertThat(words(fold, "rate", "3.5%", "up").shingles())
        .isEqualTo(words(fold, "rate", "4.2%", "up").shingles());
    assertThat(words(keep, "rate", "3.5%", "up").shingles())
        .isNotEqualTo(words(keep, "rate", "4.2%", "up").shingles());
    assertThat(words(fold, "rate", "v3.5", "up").shingles())
        .isNotEqualTo(words(fold, "rate", "v4.2", "up").shingles());
  }

  @Test
  void letters_randomText_sameAsCountingCodePointByCodePoint() {
    // letters() counts char by char, with surrogate pairs as one code point; the reference walks
    // code points as the loop before it did.
    forRandomRanges(
        7,
        (t, start, end) -> {
          long han = 0;
          long other = 0;
          for (int i = start; i < end; ) {
            byte c = org.neardup.text.CharClass.at(t, i, end);
            han += c == org.neardup.text.CharClass.HAN ? 1 : 0;
            other += c == org.neardup.text.CharClass.WORD ? 1 : 0;
            i += org.neardup.text.CharClass.width(t, i, end);
          }
          assertThat(Shingler.letters(t, start, end))
              .as("%s [%s, %s)", new String(t), start, end)
              .isEqualTo(han << 32 | other);
        });
  }

  /** A check of text {@code t[start, end)}. */
  private interface RangeCheck {
    void check(char[] t, int start, int end);
  }

  /**
   * Calls {@code check} on 5,000 seeded random ranges of random texts of up to 60 chars drawn from
   * Han, Latin, digits, punctuation, supplementary Han (a pair) and lone surrogates.
   */
  private static void forRandomRanges(long seed, RangeCheck check) {
    char[] alphabet = "中文字a Z09,。!\u3000\uD840\uDC00\uD800\uDFFF".toCharArray();
    java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
    for (int round = 0; round < 5_000; round++) {
      char[] t = new char[r.nextInt(60)];
      for (int i = 0; i < t.length; i++) {
        t[i] = alphabet[r.nextInt(alphabet.length)];
      }
      int start = t.length == 0 ? 0 : r.nextInt(t.length);
      int end = start + r.nextInt(t.length - start + 1);
      check.check(t, start, end);
    }
  }

  @Test
  void sketch_chars_lonesAndCutPairs_sameAsTheLettersAlone() {
    // Character shingles depend only on the sequence of letters and digits: lone surrogates and a
    // pair cut by the end of the range separate, as punctuation does. The reference keeps the
    // letters of a code-point walk (CharClass.at and width, as the loop did before its fast path
    // for chars that are no surrogate) and sketches them with nothing between.
    forRandomRanges(
        11,
        (t, start, end) -> {
          StringBuilder letters = new StringBuilder();
          for (int i = start; i < end; ) {
            int w = org.neardup.text.CharClass.width(t, i, end);
            if (org.neardup.text.CharClass.at(t, i, end) != org.neardup.text.CharClass.SEPARATOR) {
              letters.append(t, i, w);
            }
            i += w;
          }
          char[] clean = letters.toString().toCharArray();
          for (Shingler s : new Shingler[] {keep, fold}) {
            Sketch got = s.sketch(t, start, end, ShingleSketch.Mode.CHARS);
            Sketch want = s.sketch(clean, 0, clean.length, ShingleSketch.Mode.CHARS);
            assertThat(got.shingles())
                .as("%s [%s, %s)", new String(t), start, end)
                .isEqualTo(want.shingles());
            assertThat(got.bandKeys()).isEqualTo(want.bandKeys());
          }
        });
  }
}
