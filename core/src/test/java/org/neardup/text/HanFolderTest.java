// SPDX-License-Identifier: Apache-2.0
package org.neardup.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class HanFolderTest {
  /** One line of han-pairs.jsonl: a text and its conversion by the opencc command. */
  record Pair(String config, String original, String converted) {}

  /**
   * han-pairs.jsonl, written by core/data/make_han_pairs.py with Debian's opencc 1.1.6: texts of
   * examples/sample.jsonl and a few written for the test, converted by opencc's s2t, s2tw, s2hk,
   * s2twp and t2s.
   */
  static List<Pair> pairs() throws IOException {
    Pattern field = Pattern.compile("\"(config|original|converted)\": \"((?:[^\"\\\\]|\\\\.)*)\"");
    List<Pair> out = new ArrayList<>();
    try (BufferedReader r =
        new BufferedReader(
            new InputStreamReader(
                HanFolderTest.class.getResourceAsStream("han-pairs.jsonl"),
                StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        Matcher m = field.matcher(line);
        String[] v = new String[3];
        while (m.find()) {
          int i = m.group(1).equals("config") ? 0 : m.group(1).equals("original") ? 1 : 2;
          v[i] = unescape(m.group(2));
        }
        out.add(new Pair(v[0], v[1], v[2]));
      }
    }
    return out;
  }

  private static String unescape(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != '\\') {
        b.append(c);
        continue;
      }
      char e = s.charAt(++i);
      switch (e) {
        case 'n' -> b.append('\n');
        case 't' -> b.append('\t');
        case 'r' -> b.append('\r');
        case 'u' -> {
          b.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
          i += 4;
        }
        default -> b.append(e);
      }
    }
    return b.toString();
  }

  private static String folded(String text) {
    return HanFolder.fold(TextNormalizer.normalize(text));
  }

  @Test
  void fold_openccCharacterConversions_foldToTheSameText() throws IOException {
    int pairs = 0;
    int same = 0;
    List<String> differ = new ArrayList<>();
    for (Pair p : pairs()) {
      if (p.config().equals("s2twp.json")) {
        continue; // changes words (软件 -> 軟體), not characters: see the next test
      }
      pairs++;
      String a = folded(p.original());
      String b = folded(p.converted());
      // One ambiguity no character table resolves: s2tw writes 幺 as 么, which in simplified text
      // is 麼 (什么); 么 must stay 么, so that Taiwan form of 幺 does not fold back.
      if (a.equals(b) || a.replace('幺', '么').equals(b)) {
        same++;
      } else if (differ.size() < 10) {
        differ.add(p.config() + ": " + folded(p.original()) + " | " + folded(p.converted()));
      }
    }
    System.out.println("HanFolder: " + same + " of " + pairs + " opencc conversions fold back");
    differ.forEach(System.out::println);
    assertThat(pairs).isGreaterThan(300);
    assertThat(same).isEqualTo(pairs);
  }

  @Test
  void fold_taiwanPhraseConversions_foldMostCharacters() throws IOException {
    // s2twp also swaps vocabulary, which no character table undoes; most characters still agree.
    long chars = 0;
    long same = 0;
    for (Pair p : pairs()) {
      if (!p.config().equals("s2twp.json")) {
        continue;
      }
      String a = folded(p.original());
      String b = folded(p.converted());
      if (a.length() == b.length()) {
        for (int i = 0; i < a.length(); i++) {
          same += a.charAt(i) == b.charAt(i) ? 1 : 0;
        }
        chars += a.length();
      }
    }
    assertThat(chars).isGreaterThan(1000);
    assertThat(same / (double) chars).isGreaterThan(0.99);
  }

  @Test
  void fold_commonCharacters() {
    assertThat(HanFolder.fold("什麼時候開會？後來們說裡面")).isEqualTo("什么时候开会？后来们说里面");
    assertThat(HanFolder.fold("什么")).isEqualTo("什么"); // 么 is a TW variant of 幺 but simplified
    assertThat(HanFolder.fold("爲為为")).isEqualTo("为为为");
    assertThat(HanFolder.fold("abc, 123")).isEqualTo("abc, 123");
    assertThat(HanFolder.size()).isGreaterThan(4000);
  }

  /** Property: folding is idempotent, never lengthens, and leaves non-Han text alone. */
  @Test
  void fold_randomText_idempotentAndNeverLonger() {
    Random rnd = new Random(14);
    for (int round = 0; round < 2000; round++) {
      StringBuilder b = new StringBuilder();
      int n = rnd.nextInt(40);
      for (int i = 0; i < n; i++) {
        int kind = rnd.nextInt(4);
        int cp =
            kind == 0
                ? 0x4E00 + rnd.nextInt(0x9FFF - 0x4E00)
                : kind == 1
                    ? 0x20000 + rnd.nextInt(0x2A6DF - 0x20000)
                    : kind == 2 ? 0x3400 + rnd.nextInt(0x4DBF - 0x3400) : rnd.nextInt(0x3000);
        if (Character.isSurrogate((char) cp) && cp < 0x10000) {
          continue;
        }
        b.appendCodePoint(cp);
      }
      String s = b.toString();
      String f = HanFolder.fold(s);
      assertThat(f.length()).as("seed 14 round %s: %s", round, s).isLessThanOrEqualTo(s.length());
      assertThat(HanFolder.fold(f)).as("seed 14 round %s: %s", round, s).isEqualTo(f);
      assertThat(f.codePoints().filter(c -> c < 0x2E80).toArray())
          .isEqualTo(s.codePoints().filter(c -> c < 0x2E80).toArray());
    }
  }

  @Test
  void fold_buffer_foldsFromTheMarkOnly() {
    TextBuffer b = new TextBuffer();
    b.append("說說", 0, 2);
    HanFolder.fold(b, 1);
    assertThat(b.toString()).isEqualTo("說说");
  }
}
