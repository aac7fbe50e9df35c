// SPDX-License-Identifier: Apache-2.0
package org.neardup.segment.jieba;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.neardup.text.Segmenter;
import org.neardup.text.TextNormalizer;
import org.neardup.text.WordSink;

class JiebaSegmenterTest {
  private static final JiebaSegmenter SEGMENTER =
      (JiebaSegmenter) JiebaLexicon.instance().segmenter();

  private static List<String> cut(String run) {
    return JiebaAgreementTest.cut(SEGMENTER, run);
  }

  /** Collects words and checks that they tile [start, end) in order. */
  private static final class TilingSink implements WordSink {
    final List<String> words = new ArrayList<>();
    int next;

    TilingSink(int start) {
      next = start;
    }

    @Override
    public void word(char[] text, int start, int end) {
      assertThat(start).as("word starts where the previous one ended").isEqualTo(next);
      assertThat(end).as("word is not empty").isGreaterThan(start);
      assertThat(
              Character.isLowSurrogate(text[start]) && Character.isHighSurrogate(text[start - 1]))
          .as("word does not start inside a surrogate pair")
          .isFalse();
      words.add(new String(text, start, end - start));
      next = end;
    }
  }

  @Test
  void segment_examplesFromJiebaReadme_jiebaWords() {
    // Expected words from /usr/bin/python3 -c 'import jieba; print(jieba.lcut(s))', jieba 0.42.1.
    assertThat(cut("我来到北京清华大学")).containsExactly("我", "来到", "北京", "清华大学");
    assertThat(cut("他来到了网易杭研大厦")).containsExactly("他", "来到", "了", "网易", "杭研", "大厦");
    assertThat(cut("小明硕士毕业于中国科学院计算所后在日本京都大学深造"))
        .containsExactly("小明", "硕士", "毕业", "于", "中国科学院", "计算所", "后", "在", "日本京都大学", "深造");
    assertThat(cut("永和服装饰品有限公司")).containsExactly("永和", "服装", "饰品", "有限公司");
    assertThat(cut("发展中国家")).containsExactly("发展中国家");
  }

  @Test
  void segment_emptyRun_noWords() {
    assertThat(cut("")).isEmpty();
    TilingSink sink = new TilingSink(3);
    SEGMENTER.segment("中国人民".toCharArray(), 3, 3, sink);
    assertThat(sink.words).isEmpty();
  }

  @Test
  void segment_oneChar_oneWord() {
    assertThat(cut("中")).containsExactly("中");
    assertThat(cut("丄")).containsExactly("丄"); // neither in the dictionary nor in the HMM
  }

  @Test
  void segment_repeatedChar_jiebaWords() {
    assertThat(cut("的的的的的的")).containsExactly("的", "的", "的", "的", "的", "的");
  }

  @Test
  void segment_charsUnknownToDictionaryAndHmm_singleChars() {
    // All five are in [U+4E00, U+9FD5] but in neither the dictionary nor the emission table, so
    // every Viterbi score is MIN_FLOAT-dominated and the tie-breaks decide: jieba gives singles.
    assertThat(cut("丄丅丏両丣")).containsExactly("丄", "丅", "丏", "両", "丣");
    assertThat(cut("中丩丮丯丱国")).containsExactly("中", "丩", "丮", "丯", "丱", "国");
    assertThat(cut("龥龦鿐鿑鿒")).containsExactly("龥", "龦", "鿐", "鿑", "鿒");
  }

  @Test
  void segment_hanOutsideJiebaRange_eachCodePointOneWord() {
    // Extension A, extension B (a surrogate pair) and U+3007 are Han but outside jieba's re_han.
    assertThat(cut("中国㐀人民")).containsExactly("中国", "㐀", "人民");
    assertThat(cut("中国\uD840\uDC00人民")).containsExactly("中国", "\uD840\uDC00", "人民");
    assertThat(cut("我们〇〇七")).containsExactly("我们", "〇", "〇", "七");
    assertThat(cut("\uD840\uDC00\uD840\uDC01")).containsExactly("\uD840\uDC00", "\uD840\uDC01");
  }

  @Test
  void segment_anyOtherChar_oneWordEach() {
    // ASCII letters are in jieba's blocks (Python: jieba.lcut("ab中国") == ["ab", "中国"]); other
    // chars are not, and the segmenter must still tile the range.
    assertThat(cut("ab中国")).containsExactly("ab", "中国");
    assertThat(cut("é中国")).containsExactly("é", "中国");
    assertThat(cut("\uD840中")).containsExactly("\uD840", "中"); // lone high surrogate
    assertThat(cut("中\uDC00")).containsExactly("中", "\uDC00"); // lone low surrogate
    assertThat(cut("中\uD840")).containsExactly("中", "\uD840"); // pair cut by the run's end
    assertThat(cut("\u0000\uFFFF")).containsExactly("\u0000", "\uFFFF");
  }

  @Test
  void segment_subRange_wordsWithinIt() {
    char[] text = "xx我来到北京清华大学yy".toCharArray();
    TilingSink sink = new TilingSink(2);
    SEGMENTER.segment(text, 2, text.length - 2, sink);
    assertThat(sink.words).containsExactly("我", "来到", "北京", "清华大学");
    assertThat(sink.next).isEqualTo(text.length - 2);
  }

  @Test
  void segment_badRange_throws() {
    char[] text = "中国".toCharArray();
    WordSink ignore = (t, s, e) -> {};
    assertThatThrownBy(() -> SEGMENTER.segment(text, -1, 1, ignore))
        .isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> SEGMENTER.segment(text, 1, 3, ignore))
        .isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> SEGMENTER.segment(text, 2, 1, ignore))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void id_namesVersionAlgorithmAndDigest() {
    assertThat(SEGMENTER.id()).matches("jieba-0\\.42\\.1/dag\\+hmm\\+mixed/sha1:[0-9a-f]{16}");
    assertThat(SEGMENTER.id()).isEqualTo("jieba-0.42.1/dag+hmm+mixed/sha1:d33cbc21dbb9e8af");
  }

  @Test
  void trie_loadedDictionary_keepsInvariants() {
    WordTrie trie = SEGMENTER.trie();
    assertThat(trie.nodeCount()).isEqualTo(498_114); // 498,113 distinct prefixes + the root
    int longestProbe = trie.checkInvariants();
    assertThat(longestProbe).isLessThan(64);
    char[] w = "清华大学".toCharArray();
    assertThat(trie.isWord(w, 0, 4)).isTrue();
    assertThat(trie.isWord(w, 0, 3)).isFalse(); // 清华大 is only a prefix
    assertThat(trie.find(w, 0, 3)).isNotNegative();
  }

  /** A megabyte of Han text with no punctuation is one run: linear time, no deep recursion. */
  @Test
  void segment_oneMegaCharRun_linearTimeAndTiles() {
    StringBuilder sb = new StringBuilder(1 << 20);
    for (List<String> run : Golden.resource(Golden.REAL)) {
      for (String w : run) {
        sb.append(w);
      }
      if (sb.length() >= 1 << 20) {
        break;
      }
    }
    char[] text = sb.toString().toCharArray();
    long t0 = System.nanoTime();
    TilingSink sink = new TilingSink(0);
    SEGMENTER.segment(text, 0, text.length, sink);
    long ms = (System.nanoTime() - t0) / 1_000_000;
    assertThat(sink.next).isEqualTo(text.length);
    // ~0.2 s on a 2-core box; a quadratic route would take hours.
    assertThat(ms).as("ms for %s chars", text.length).isLessThan(20_000);

    // The same megabyte of chars that only the HMM knows, and of one repeated char.
    char[] unknown = new char[1 << 20];
    for (int i = 0; i < unknown.length; i++) {
      unknown[i] = "丄丅丏両丣鿐鿑鿒".charAt(i % 8);
    }
    TilingSink sink2 = new TilingSink(0);
    SEGMENTER.segment(unknown, 0, unknown.length, sink2);
    assertThat(sink2.next).isEqualTo(unknown.length);
    char[] same = new char[1 << 20];
    java.util.Arrays.fill(same, '啊');
    TilingSink sink3 = new TilingSink(0);
    SEGMENTER.segment(same, 0, same.length, sink3);
    assertThat(sink3.next).isEqualTo(same.length);
  }

  @Test
  void segment_randomChars_wordsTileTheRun() {
    java.util.SplittableRandom r = new java.util.SplittableRandom(300);
    for (int i = 0; i < 300; i++) {
      String run = mixedRun(r);
      char[] text = ("<" + run + ">").toCharArray();
      TilingSink sink = new TilingSink(1);
      SEGMENTER.segment(text, 1, text.length - 1, sink);
      assertThat(sink.next).as("run %s", run).isEqualTo(text.length - 1);
      assertThat(String.join("", sink.words)).isEqualTo(run);
    }
  }

  /**
   * Up to 60 chars: mostly common and in-range Han characters, some of extension A, lone surrogates
   * and arbitrary chars (weights 5:5:1:1:1).
   */
  private static String mixedRun(java.util.SplittableRandom r) {
    char[] common = {'的', '一', '是', '中', '国', '人', '学', '大', '华', '清', '北', '京'};
    int len = r.nextInt(61);
    StringBuilder sb = new StringBuilder(len);
    for (int i = 0; i < len; i++) {
      int pick = r.nextInt(13);
      if (pick < 5) {
        sb.append(common[r.nextInt(common.length)]);
      } else if (pick < 10) {
        sb.append((char) r.nextInt(0x4E00, 0x9FD6));
      } else if (pick == 10) {
        sb.append((char) r.nextInt(0x3400, 0x4DC0));
      } else if (pick == 11) {
        sb.append((char) r.nextInt(0xD800, 0xE000));
      } else {
        sb.append((char) r.nextInt(0x10000));
      }
    }
    return sb.toString();
  }

  /** Several threads at once get exactly what one thread gets. */
  @Test
  void segment_concurrentThreads_sameWordsAsOneThread() throws Exception {
    List<List<String>> golden = Golden.resource(Golden.REAL).subList(0, 8_000);
    List<String> runs = new ArrayList<>();
    for (List<String> g : golden) {
      runs.add(String.join("", g));
    }
    List<List<String>> expected = new ArrayList<>();
    for (String run : runs) {
      expected.add(cut(run));
    }
    int threads = 4;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<List<List<String>>>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        long seed = t;
        results.add(
            pool.submit(
                () -> {
                  // Each thread visits the runs in its own order, so the scratch sizes differ.
                  List<Integer> order = new ArrayList<>();
                  for (int i = 0; i < runs.size(); i++) {
                    order.add(i);
                  }
                  Collections.shuffle(order, new Random(seed));
                  List<List<String>> out = new ArrayList<>(Collections.nCopies(runs.size(), null));
                  for (int i : order) {
                    out.set(i, JiebaAgreementTest.cut(SEGMENTER, runs.get(i)));
                  }
                  return out;
                }));
      }
      for (Future<List<List<String>>> f : results) {
        assertThat(f.get()).isEqualTo(expected);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** Once warm, segmenting allocates nothing: words are ranges of the caller's array. */
  @Test
  @SuppressForbidden(reason = "com.sun.management.ThreadMXBean counts a thread's allocated bytes")
  void segment_warm_allocatesNothing() {
    List<List<String>> golden = Golden.resource(Golden.REAL);
    List<char[]> runs = new ArrayList<>();
    for (List<String> g : golden) {
      runs.add(String.join("", g).toCharArray());
    }
    int[] count = new int[1];
    WordSink counter = (t, s, e) -> count[0]++;
    Segmenter segmenter = SEGMENTER;
    for (int round = 0; round < 3; round++) {
      for (char[] run : runs) {
        segmenter.segment(run, 0, run.length, counter);
      }
    }
    com.sun.management.ThreadMXBean mx =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    assumeTrue(mx.isThreadAllocatedMemorySupported() && mx.isThreadAllocatedMemoryEnabled());
    long tid = Thread.currentThread().getId();
    long before = mx.getThreadAllocatedBytes(tid);
    for (char[] run : runs) {
      segmenter.segment(run, 0, run.length, counter);
    }
    long allocated = mx.getThreadAllocatedBytes(tid) - before;
    // 29,268 calls, 115,692 words: anything per call or per word would show as >= 300 KB.
    assertThat(allocated).as("bytes allocated by %s calls", runs.size()).isLessThan(4_096);
  }

  @Test
  void segment_normalisedInput_sameAsGolden() {
    // Core normalises before segmenting; NFKC maps compatibility ideographs into jieba's range.
    String text = TextNormalizer.normalize("\uF900\uF901"); // 豈 更 compatibility forms
    assertThat(text).isEqualTo("\u8C48\u66F4");
    assertThat(String.join("", cut(text))).isEqualTo(text);
  }
}
