// SPDX-License-Identifier: Apache-2.0
package org.neardup.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.text.Normalizer;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TextNormalizerTest {

  /** The definition: NFKC of the whole text, then lower case per code point. */
  private static String reference(String s) {
    StringBuilder clean = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        clean.append(c).append(s.charAt(++i));
      } else {
        clean.append(Character.isSurrogate(c) ? '\uFFFD' : c);
      }
    }
    String n = Normalizer.normalize(clean, Normalizer.Form.NFKC);
    StringBuilder out = new StringBuilder();
    n.codePoints().map(Character::toLowerCase).forEach(out::appendCodePoint);
    return out.toString();
  }

  /**
   * The table built from one normalisation of all chars (with separators) is the table of one
   * normalisation per char, for every char: the separator trick changes nothing.
   */
  @Test
  void buildFold_everyChar_sameAsOneCharAtATime() {
    char[] fold = new char[65536];
    TextNormalizer.buildFold(fold);
    int safe = 0;
    for (int c = 0; c < 65536; c++) {
      assertThat((int) fold[c])
          .as("U+%04X", c)
          .isEqualTo((int) TextNormalizer.computeFold((char) c));
      safe += fold[c] != '\uFFFF' ? 1 : 0;
    }
    assertThat(safe).as("chars with a one-char fold").isGreaterThan(40_000);
  }

  /**
   * Every char alone, and each beside a char of another block, normalised through the table that
   * fills itself block by block: each block is met first by some char of it, and then read.
   */
  @Test
  void normalize_everyCharAloneAndInPairs_sameAsReference() {
    for (int c = 1; c < 65536; c++) {
      String one = String.valueOf((char) c);
      assertThat(TextNormalizer.normalize(one)).as("U+%04X", c).isEqualTo(reference(one));
      String pair = "\u4E2D" + (char) c + (char) (65535 - c) + "a";
      assertThat(TextNormalizer.normalize(pair))
          .as("U+%04X in a text", c)
          .isEqualTo(reference(pair));
    }
  }

  @Test
  void buildSafeSupplementary_planesOneAndTwo_sameAsOneCodePointAtATime() {
    java.util.BitSet batch = TextNormalizer.buildSafeSupplementary();
    assertThat(batch).isEqualTo(TextNormalizer.buildSafeSupplementaryOneByOne());
    assertThat(batch.cardinality()).as("safe supplementary code points").isGreaterThan(50_000);
  }

  @Test
  void normalize_fullWidthAndCase_foldsToHalfWidthLowerCase() {
    assertThat(TextNormalizer.normalize("ＡＢＣ１２３，Hello　World！")).isEqualTo("abc123,hello world!");
  }

  @Test
  void normalize_chinese_isUnchanged() {
    assertThat(TextNormalizer.normalize("今天天气很好")).isEqualTo("今天天气很好");
  }

  @Test
  void normalize_combiningMark_composesLikeNfkc() {
    assertThat(TextNormalizer.normalize("Cafe\u0301")).isEqualTo("café");
  }

  @Test
  void normalize_loneSurrogate_becomesReplacementCharacter() {
    assertThat(TextNormalizer.normalize("a\uDC00b")).isEqualTo("a\uFFFDb");
  }

  @Test
  void normalize_randomBmpText_agreesWithJavaNormalizer() {
    // Random text drawn from ranges that exercise the fast table and the slow path alike.
    SplittableRandom random = new SplittableRandom(7);
    int[][] ranges = {
      {0x20, 0x7E},
      {0xA0, 0x24F},
      {0x300, 0x36F},
      {0x3000, 0x30FF},
      {0x4E00, 0x9FFF},
      {0xAC00, 0xD7A3},
      {0x1100, 0x11FF},
      {0xF900, 0xFAFF},
      {0xFF00, 0xFFEF},
      {0x2150, 0x24FF}
    };
    for (int round = 0; round < 3000; round++) {
      StringBuilder b = new StringBuilder();
      int len = random.nextInt(12);
      for (int i = 0; i < len; i++) {
        int[] r = ranges[random.nextInt(ranges.length)];
        b.append((char) (r[0] + random.nextInt(r[1] - r[0] + 1)));
      }
      String s = b.toString();
      assertThat(TextNormalizer.normalize(s))
          .as("input %s", s.codePoints().mapToObj(Integer::toHexString).toList())
          .isEqualTo(reference(s));
    }
  }

  @Test
  void normalize_supplementaryCharacters_agreeWithJavaNormalizer() {
    for (String s :
        new String[] {
          "\uD840\uDC00\uD840\uDC01", "\uD835\uDC00bc", "x\uD83D\uDE00y", "\uD801\uDC00"
        }) {
      assertThat(TextNormalizer.normalize(s)).isEqualTo(reference(s));
    }
  }

  @Test
  void normalize_appends_toExistingBuffer() {
    TextBuffer out = new TextBuffer();
    out.append('>');
    TextNormalizer.normalize("ÀB", 0, 2, out);
    assertThat(out.toString()).isEqualTo(">àb");
  }

  /**
   * The one pass with the fold is the normaliser's pass and then the fold's, from the same mark: on
   * random texts of chars that fold (BMP, and supplementary ones that fold to BMP or to another
   * pair), upper case, full-width forms, lone and paired surrogates, and chars that send a text to
   * the slow path (a combining mark, a Hangul jamo, a char NFKC expands).
   */
  @Test
  void normalizeFolded_randomTexts_equalsNormalizeThenFold() throws java.io.IOException {
    java.util.List<Integer> folding = new java.util.ArrayList<>();
    try (java.io.BufferedReader r =
        new java.io.BufferedReader(
            new java.io.InputStreamReader(
                HanFolder.class.getResourceAsStream(HanFolder.TABLE),
                java.nio.charset.StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        if (!line.isEmpty() && !line.startsWith("#")) {
          folding.add(line.codePointAt(0));
          folding.add(line.codePointBefore(line.length()));
        }
      }
    }
    assertThat(folding.stream().filter(cp -> cp >= 0x10000)).isNotEmpty();
    int[] plain = {
      'a', 'Q', '7', ' ', '.', '\n', '中', '文', '，', '\uFF21', '\u3000', 0x1F600, 0x20000, 'É'
    };
    int[] rare = {'\u0301', '\u1100', '\uFB01', '\uD800', '\uDC00', '\u2460'};
    SplittableRandom random = new SplittableRandom(20261126);
    for (int t = 0; t < 20_000; t++) {
      StringBuilder text = new StringBuilder();
      int length = random.nextInt(40);
      boolean slow = random.nextInt(10) == 0;
      for (int i = 0; i < length; i++) {
        int pick = random.nextInt(100);
        int cp =
            pick < 45
                ? folding.get(random.nextInt(folding.size()))
                : slow && pick < 50
                    ? rare[random.nextInt(rare.length)]
                    : plain[random.nextInt(plain.length)];
        text.appendCodePoint(cp);
      }
      char[] chars = text.toString().toCharArray();
      TextBuffer twoPasses = new TextBuffer();
      twoPasses.append('>');
      TextNormalizer.normalize(chars, 0, chars.length, twoPasses);
      HanFolder.fold(twoPasses, 1);
      TextBuffer onePass = new TextBuffer();
      onePass.append('>');
      TextNormalizer.normalizeFolded(chars, 0, chars.length, onePass);
      assertThat(onePass.toString())
          .as("seed 20261126, text %d: %s", t, text)
          .isEqualTo(twoPasses.toString());
    }
  }
}
