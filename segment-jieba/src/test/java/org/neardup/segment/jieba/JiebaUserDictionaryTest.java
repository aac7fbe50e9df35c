// SPDX-License-Identifier: Apache-2.0
package org.neardup.segment.jieba;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.neardup.text.Lexicon;
import org.neardup.text.Tokenizer;
import org.neardup.text.UserDictionary;

/**
 * jieba's mixed blocks and user dictionaries, word for word against Python jieba 0.42.1 on the
 * golden files {@code make_golden.py --blocks} wrote: jieba's own blocks of real text, half of them
 * mixing Han chars with ASCII ({@code win7系统}, {@code c++}), cut with jieba's dictionary alone and
 * with {@code userdict-test.txt} ({@code make_userdict.py}: 3,000 words with and without
 * frequencies, frequency 0, tags, a BOM, CRLF, '#' lines, words with spaces) loaded by {@code
 * jieba.load_userdict}.
 */
class JiebaUserDictionaryTest {
  static final String BLOCKS = "golden-blocks-jieba-0.42.1.txt.gz";
  static final String BLOCKS_USER = "golden-blocks-userdict-jieba-0.42.1.txt.gz";
  static final String USER_DICT = "userdict-test.txt";

  static UserDictionary testDictionary() throws IOException {
    try (InputStream in = JiebaUserDictionaryTest.class.getResourceAsStream(USER_DICT)) {
      assertThat(in).as(USER_DICT).isNotNull();
      return UserDictionary.of(USER_DICT, in.readAllBytes());
    }
  }

  private static UserDictionary dict(String text) {
    return UserDictionary.of("test.txt", text.getBytes(StandardCharsets.UTF_8));
  }

  private static List<String> cut(JiebaSegmenter s, String text) {
    return JiebaAgreementTest.cut(s, text);
  }

  @Test
  void segment_mixedBlocks_identicalToPythonJieba() {
    JiebaSegmenter segmenter = (JiebaSegmenter) JiebaLexicon.instance().segmenter();
    JiebaAgreementTest.Agreement a =
        JiebaAgreementTest.compare(Golden.resource(BLOCKS), run -> cut(segmenter, run));
    System.out.println("JiebaSegmenter vs Python jieba 0.42.1, " + BLOCKS + ": " + a);
    a.examples().forEach(System.out::println);
    assertThat(a.runs()).isEqualTo(13_168);
    assertThat(a.examples()).isEmpty();
  }

  @Test
  void segment_withUserDictionary_identicalToPythonJieba() throws IOException {
    JiebaSegmenter segmenter = JiebaSegmenter.load(testDictionary());
    JiebaAgreementTest.Agreement a =
        JiebaAgreementTest.compare(Golden.resource(BLOCKS_USER), run -> cut(segmenter, run));
    System.out.println("JiebaSegmenter + user dictionary vs Python jieba 0.42.1: " + a);
    a.examples().forEach(System.out::println);
    assertThat(a.runs()).isEqualTo(13_168);
    assertThat(a.examples()).isEmpty();
    // The user dictionary changes the cut of many runs; otherwise this test would prove nothing.
    JiebaAgreementTest.Agreement plain =
        JiebaAgreementTest.compare(
            Golden.resource(BLOCKS_USER),
            run -> cut((JiebaSegmenter) JiebaLexicon.instance().segmenter(), run));
    assertThat(plain.sameRuns()).isLessThan(plain.runs() - 300); // 581 runs differ
  }

  @Test
  void segment_jiebaDictionaryMixedWords_comeOutWhole() {
    JiebaSegmenter s = (JiebaSegmenter) JiebaLexicon.instance().segmenter();
    assertThat(cut(s, "江南style")).containsExactly("江南style");
    assertThat(cut(s, "4s店")).containsExactly("4s店");
    assertThat(cut(s, "c++")).containsExactly("c++");
    assertThat(cut(s, "3.5%")).containsExactly("3.5%");
    assertThat(cut(s, "我买了iphone手机")).containsExactly("我", "买", "了", "iphone", "手机");
  }

  @Test
  void withUserDictionary_userWordsAndFrequencies_cutAsJieba() {
    // Python jieba with this file: 云计算平台/上/的/大/模型; 大模型 at 5 loses to 大 + 模型,
    // 云计算平台 without a frequency gets one that keeps it whole (suggest_freq).
    Lexicon lex = JiebaLexicon.instance().withUserDictionary(dict("\uFEFF云计算平台\n大模型 5 n\n"));
    JiebaSegmenter s = (JiebaSegmenter) lex.segmenter();
    assertThat(cut(s, "云计算平台上的大模型")).containsExactly("云计算平台", "上", "的", "大", "模型");
    Lexicon more = JiebaLexicon.instance().withUserDictionary(dict("大模型 50000\n"));
    assertThat(cut((JiebaSegmenter) more.segmenter(), "上的大模型")).containsExactly("上", "的", "大模型");
    assertThat(s.id()).startsWith("jieba-0.42.1/dag+hmm+mixed/sha1:").contains("+user:");
    assertThat(s.id()).isNotEqualTo(JiebaLexicon.instance().segmenter().id());
  }

  @Test
  void withUserDictionary_frequencyZero_forcesTheWordApart() {
    // 中华人民共和国 is in jieba's dictionary; with frequency 0 it no longer is a word.
    JiebaSegmenter s = JiebaSegmenter.load(dict("中华人民共和国 0\n"));
    assertThat(cut(s, "中华人民共和国")).doesNotContain("中华人民共和国");
  }

  @Test
  void withUserDictionary_sameBytes_sameSegmenterAndId() {
    Lexicon a = JiebaLexicon.instance().withUserDictionary(dict("区块链 10\n"));
    Lexicon b = JiebaLexicon.instance().withUserDictionary(dict("区块链 10\n"));
    Lexicon c = JiebaLexicon.instance().withUserDictionary(dict("区块链 11\n"));
    assertThat(a.segmenter()).isSameAs(b.segmenter());
    assertThat(c.segmenter().id()).isNotEqualTo(a.segmenter().id());
  }

  @Test
  void withUserDictionary_notUtf8_namesTheLine() {
    byte[] bad = {'a', ' ', '1', '\n', (byte) 0xC3, (byte) 0x28, '\n'};
    assertThatThrownBy(() -> JiebaSegmenter.load(UserDictionary.of("bad.txt", bad)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bad.txt: line 2 is not UTF-8");
  }

  @Test
  void withUserDictionary_hugeFrequency_refused() {
    assertThatThrownBy(() -> JiebaSegmenter.load(dict("词 99999999999999999999\n")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("line 1: frequency 99999999999999999999 is larger than");
  }

  @Test
  void read_linesAsJiebaParsesThem() {
    JiebaUserWords w =
        JiebaUserWords.read(
            dict("\uFEFF江南 style\r\nnew york 10 ns\n\n# note\nIPhone手机 7\n零词 0\n"), "词 1\n");
    assertThat(w.words).containsExactly("江南", "new york", "#", "iphone手机", "零词");
    assertThat(w.freqs[1]).isEqualTo(10);
    assertThat(w.freqs[3]).isEqualTo(7);
    assertThat(w.forceSplit).containsExactly("零词");
  }

  @Test
  void tokenizer_withUserDictionary_mixedWordsReachTheSegmenter() {
    Lexicon lex = JiebaLexicon.instance().withUserDictionary(dict("node.js 50\n.net框架 9\n"));
    Tokenizer t = new Tokenizer(lex.segmenter());
    List<String> words = new ArrayList<>();
    char[] text = "用node.js和.net框架写c++, café".toCharArray();
    t.tokenize(text, 0, text.length, (c, s, e) -> words.add(new String(c, s, e - s)));
    assertThat(words).containsExactly("用", "node.js", "和", ".net框架", "写", "c++", "café");
  }
}
