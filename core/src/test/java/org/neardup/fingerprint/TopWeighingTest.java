// SPDX-License-Identifier: Apache-2.0
package org.neardup.fingerprint;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.neardup.text.IdfTable;
import org.neardup.text.TermHasher;
import org.neardup.text.TextBuffer;
import org.neardup.text.TextNormalizer;

/**
 * The top N looks up only the IDFs that can still reach it (terms weighed by count, the rest
 * bounded by the table's largest IDF). Its features must be exactly those of weighing every term:
 * the same words, weights and order as sorting the full feature list (top N 0) by weight, then
 * hash, and the same fingerprint.
 */
class TopWeighingTest {
  private static final String[] VOCABULARY = vocabulary();

  private static String[] vocabulary() {
    List<String> words = new ArrayList<>();
    for (char a = 'a'; a <= 'z'; a++) {
      for (char b = 'a'; b <= 'h'; b++) {
        words.add("" + a + b + a);
      }
    }
    words.addAll(List.of("the", "and", "of")); // default stop words
    return words.toArray(new String[0]);
  }

  /** IDFs for half the vocabulary, from few distinct values so that weights tie often. */
  private static IdfTable idf(SplittableRandom r) {
    IdfTable.Builder b = new IdfTable.Builder();
    TermHasher hasher = new TermHasher();
    TextBuffer norm = new TextBuffer();
    for (String w : VOCABULARY) {
      if (r.nextBoolean()) {
        norm.clear();
        TextNormalizer.normalize(w, 0, w.length(), norm);
        b.put(hasher.hash(norm.array(), 0, norm.length()), r.nextInt(1, 9) * 0.5f);
      }
    }
    b.put(0x5EED, 1f); // never empty
    return b.build("test");
  }

  private static String text(SplittableRandom r) {
    StringBuilder s = new StringBuilder();
    int words = r.nextInt(1, 400);
    int vocabulary = r.nextInt(1, VOCABULARY.length + 1);
    for (int i = 0; i < words; i++) {
      // Skewed towards the first words, so that counts range from 1 to dozens.
      int k = (int) (vocabulary * Math.pow(r.nextDouble(), 3));
      s.append(VOCABULARY[k]).append(' ');
    }
    return s.toString();
  }

  @Test
  void features_prunedTopN_sameAsWeighingEveryTerm() {
    SplittableRandom r = new SplittableRandom(2026_11_25);
    for (int round = 0; round < 400; round++) {
      IdfTable idf = idf(r);
      FingerprintSettings.TfScaling tf =
          FingerprintSettings.TfScaling.values()[
              r.nextInt(FingerprintSettings.TfScaling.values().length)];
      int topN = new int[] {1, 2, 3, 5, 20}[r.nextInt(5)];
      Fingerprinter top =
          Fingerprinter.create(FingerprintSettings.builder().idf(idf).tf(tf).topN(topN).build());
      Fingerprinter all =
          Fingerprinter.create(FingerprintSettings.builder().idf(idf).tf(tf).topN(0).build());
      for (int t = 0; t < 5; t++) {
        String text = text(r);
        Features f = top.features(text);
        Features every = all.features(text);
        Integer[] order = new Integer[every.words().size()];
        Arrays.setAll(order, i -> i);
        Arrays.sort(
            order,
            Comparator.<Integer>comparingDouble(i -> -every.weights()[i])
                .thenComparing(
                    (a, b) -> Long.compareUnsigned(every.hashes()[a], every.hashes()[b])));
        int n = Math.min(topN, order.length);
        long[] hashes = new long[n];
        float[] weights = new float[n];
        List<String> words = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          hashes[i] = every.hashes()[order[i]];
          weights[i] = every.weights()[order[i]];
          words.add(every.words().get(order[i]));
        }
        String why = "round " + round + ", " + tf + ", top " + topN + ": " + text;
        assertThat(f.words()).as(why).isEqualTo(words);
        assertThat(f.hashes()).as(why).isEqualTo(hashes);
        assertThat(f.weights()).as(why).isEqualTo(weights);
        assertThat(f.fingerprint()).as(why).isEqualTo(top.fingerprint(text));
        assertThat(f.fingerprint())
            .as(why)
            .isEqualTo(Simhash.of(hashes, weights, n, new double[64]));
      }
    }
  }
}
