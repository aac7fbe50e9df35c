// SPDX-License-Identifier: Apache-2.0
package org.neardup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.neardup.fingerprint.FingerprintSettings;
import org.neardup.index.BlockScheme;
import org.neardup.index.IndexImage;

/**
 * A deduplicator whose deferred index comes from an {@link IndexImage} of a snapshot's documents
 * (as a store's open takes it) answers exactly as one that sorted its index ({@link
 * Deduplicator#indexDeferred()}): with snapshot documents left out of the restore (expired since),
 * documents restored after the snapshot's (the log), and removes among both.
 */
class DeferredIndexImageTest {
  private static Deduplicator newDeduplicator(boolean verify, BlockScheme scheme) {
    return Deduplicator.builder()
        .fingerprintSettings(FingerprintSettings.builder().build())
        .verify(verify)
        .scheme(scheme)
        .maxDistance(3)
        .build();
  }

  // Seeded cases (core has no property-test engine): the seed picks the texts, which snapshot
  // documents are left out, the log's length, the links, the removes and the scheme.
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
  void openedFromAnImage_answersAsOneThatSorted(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    boolean verify = r.nextBoolean();
    BlockScheme scheme = r.nextInt(3) == 0 ? BlockScheme.of(5, 2) : BlockScheme.DEFAULT;
    List<String> texts = TestCorpus.corpus(seed, 60, 4, 30);
    Deduplicator sorted = newDeduplicator(verify, scheme);
    Deduplicator imaged = newDeduplicator(verify, scheme);
    sorted.deferIndexing();
    imaged.deferIndexing();
    int n = texts.size();
    Analysis[] analyses = new Analysis[n];
    for (int i = 0; i < n; i++) {
      analyses[i] = sorted.analyzer().analyze(texts.get(i));
    }
    // The snapshot: the first part of the documents, its image made of all of them in order.
    int snapshot = n / 2 + r.nextInt(n / 2);
    long[] fps = new long[snapshot];
    for (int i = 0; i < snapshot; i++) {
      fps[i] = analyses[i].fingerprint();
    }
    IndexImage image = IndexImage.build(scheme, fps, snapshot);
    // The open: some snapshot documents expired (not restored), then the log's documents.
    BitSet skipped = new BitSet();
    int skipRate = r.nextInt(4); // none, a few, or many left out
    List<Long> ids = new ArrayList<>();
    List<Analysis> kept = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (i < snapshot && skipRate > 0 && r.nextInt(8) < skipRate) {
        skipped.set(i);
        continue;
      }
      ids.add((long) i);
      kept.add(analyses[i]);
    }
    int from = 0;
    while (from < ids.size()) {
      int to = Math.min(ids.size(), from + 1 + r.nextInt(40));
      long[] batchIds = new long[to - from];
      Analysis[] part = new Analysis[to - from];
      long[][] joined = new long[to - from][];
      for (int i = from; i < to; i++) {
        batchIds[i - from] = ids.get(i);
        part[i - from] = kept.get(i);
        joined[i - from] =
            i > 0 && r.nextInt(3) == 0 ? new long[] {ids.get(r.nextInt(i))} : new long[0];
      }
      sorted.restoreAll(batchIds, part, joined);
      imaged.restoreAll(batchIds, part, joined);
      for (int k = r.nextInt(3); k > 0; k--) {
        long victim = ids.get(r.nextInt(to));
        assertThat(imaged.remove(victim)).isEqualTo(sorted.remove(victim));
      }
      from = to;
    }
    image.renumber(skipped);
    assertThat(image.ordinals()).isEqualTo(snapshot - skipped.cardinality());
    assertThat(imaged.indexDeferred(image)).isTrue();
    sorted.indexDeferred();
    assertThat(imaged.size()).isEqualTo(sorted.size());
    // The index holds the live documents only: the expired are dead, the removed removed.
    assertThat(imaged.indexedEntries()).isEqualTo(sorted.indexedEntries()).isEqualTo(sorted.size());
    for (int i = 0; i < n; i++) {
      assertThat(imaged.check(analyses[i]))
          .as("seed %s, text %s", seed, i)
          .isEqualTo(sorted.check(analyses[i]));
      Analysis edited = sorted.analyzer().analyze(TestCorpus.edit(r, texts.get(i), 1));
      assertThat(imaged.check(edited))
          .as("seed %s, edit of %s", seed, i)
          .isEqualTo(sorted.check(edited));
    }
    // Removes and inserts after the open, and a compaction, see the same documents.
    for (int i = 0; i < 20; i++) {
      long victim = ids.get(r.nextInt(ids.size()));
      assertThat(imaged.remove(victim)).isEqualTo(sorted.remove(victim));
      Analysis a =
          sorted.analyzer().analyze(TestCorpus.edit(r, texts.get(r.nextInt(n)), r.nextInt(3)));
      assertThat(imaged.checkAndInsert(n + i, a))
          .as("seed %s, insert %s", seed, i)
          .isEqualTo(sorted.checkAndInsert(n + i, a));
    }
    assertThat(imaged.indexedEntries()).isEqualTo(sorted.indexedEntries());
    imaged.compact();
    sorted.compact();
    for (int i = 0; i < n; i++) {
      assertThat(imaged.check(analyses[i]))
          .as("seed %s, after compaction, text %s", seed, i)
          .isEqualTo(sorted.check(analyses[i]));
    }
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void anImageOfOtherDocuments_isRefused_andChangesNothing(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    List<String> texts = TestCorpus.corpus(seed, 30, 2, 30);
    Deduplicator d = newDeduplicator(true, BlockScheme.DEFAULT);
    d.deferIndexing();
    int n = texts.size();
    long[] ids = new long[n];
    Analysis[] analyses = new Analysis[n];
    long[] others = new long[n];
    for (int i = 0; i < n; i++) {
      ids[i] = i;
      analyses[i] = d.analyzer().analyze(texts.get(i));
      others[i] = analyses[i].fingerprint();
    }
    d.restoreAll(ids, analyses, new long[n][0]);
    // The same fingerprints in another order: not this restore's image.
    for (int i = n - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      long t = others[i];
      others[i] = others[j];
      others[j] = t;
    }
    assertThat(d.indexDeferred(IndexImage.build(BlockScheme.DEFAULT, others, n))).isFalse();
    assertThat(d.indexDeferred(IndexImage.build(BlockScheme.of(5, 2), others, n))).isFalse();
    d.indexDeferred();
    for (int i = 0; i < n; i++) {
      assertThat(d.check(analyses[i]).isDuplicate()).isTrue();
    }
  }
}
