// SPDX-License-Identifier: Apache-2.0
package org.neardup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.neardup.fingerprint.FingerprintSettings;

/**
 * Restores with the index deferred ({@link Deduplicator#deferIndexing}, as a store's open does)
 * give the deduplicator that the same restores and removes give indexed batch by batch: the same
 * verdicts for every stored text and edited copies of them, before and after further inserts.
 */
class DeferredIndexingTest {
  private static Deduplicator newDeduplicator(boolean verify) {
    // No segmenter: core's tests must not need the jieba dictionary.
    return Deduplicator.builder()
        .fingerprintSettings(FingerprintSettings.builder().build())
        .verify(verify)
        .maxDistance(3)
        .build();
  }

  // Seeded cases (core has no property-test engine): the seed picks the texts, the number and
  // sizes of the batches, the links and the removes, and whether sketches are verified.
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
  void deferredRestores_giveTheVerdictsOfIndexedOnes(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    boolean verify = r.nextBoolean();
    int batches = 1 + r.nextInt(6);
    List<String> texts = TestCorpus.corpus(seed, 40, 4, 30);
    Deduplicator plain = newDeduplicator(verify);
    Deduplicator deferred = newDeduplicator(verify);
    deferred.deferIndexing();
    Analysis[] analyses = new Analysis[texts.size()];
    for (int i = 0; i < analyses.length; i++) {
      analyses[i] = plain.analyzer().analyze(texts.get(i));
    }
    int n = analyses.length;
    int from = 0;
    for (int b = 0; b < batches && from < n; b++) {
      int to = b == batches - 1 ? n : Math.min(n, from + 1 + r.nextInt(n / batches * 2));
      long[] ids = new long[to - from];
      Analysis[] part = new Analysis[to - from];
      long[][] joined = new long[to - from][];
      for (int i = from; i < to; i++) {
        ids[i - from] = i;
        part[i - from] = analyses[i];
        // Link some documents to an earlier one: the clusters take part too.
        joined[i - from] = i > 0 && r.nextInt(3) == 0 ? new long[] {r.nextInt(i)} : new long[0];
      }
      plain.restoreAll(ids, part, joined);
      deferred.restoreAll(ids, part, joined);
      // Removes between batches, as a log replay's expiries and deletes come.
      for (int k = r.nextInt(4); k > 0 && to > 0; k--) {
        long victim = r.nextInt(to);
        assertThat(deferred.remove(victim)).isEqualTo(plain.remove(victim));
      }
      from = to;
    }
    assertThatThrownBy(() -> deferred.check(analyses[0]))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("indexDeferred()");
    deferred.indexDeferred();
    deferred.indexDeferred(); // a second call does nothing
    assertThat(deferred.size()).isEqualTo(plain.size());
    for (int i = 0; i < n; i++) {
      assertThat(deferred.check(analyses[i]))
          .as("seed %s, text %s", seed, i)
          .isEqualTo(plain.check(analyses[i]));
      Analysis edited = plain.analyzer().analyze(TestCorpus.edit(r, texts.get(i), 1));
      assertThat(deferred.check(edited))
          .as("seed %s, edit of %s", seed, i)
          .isEqualTo(plain.check(edited));
    }
    // Inserts after the open see the restored documents alike.
    for (int i = 0; i < 20; i++) {
      Analysis a =
          plain.analyzer().analyze(TestCorpus.edit(r, texts.get(r.nextInt(n)), r.nextInt(3)));
      assertThat(deferred.checkAndInsert(n + i, a))
          .as("seed %s, insert %s", seed, i)
          .isEqualTo(plain.checkAndInsert(n + i, a));
    }
  }

  @Test
  void whileDeferring_checksInsertsAndCompactionsAreRefused_removesAreNot() {
    Deduplicator d = newDeduplicator(false);
    Analysis a = d.analyzer().analyze("a river and a mountain near the city council");
    d.deferIndexing();
    d.restoreAll(new long[] {1, 2}, new Analysis[] {a, a}, new long[][] {{}, {1}});
    assertThatThrownBy(() -> d.checkAndInsert(3, a)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> d.probe(a)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> d.restore(3, a, new long[0]))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(d::compact).isInstanceOf(IllegalStateException.class);
    assertThat(d.remove(1)).isTrue();
    assertThat(d.contains(2)).isTrue();
    d.indexDeferred();
    Verdict v = d.check(a);
    assertThat(v.isDuplicate()).isTrue();
    assertThat(v.matches()).hasSize(1);
    assertThat(v.matches().get(0).docId()).isEqualTo(2);
  }
}
