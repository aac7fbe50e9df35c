// SPDX-License-Identifier: Apache-2.0
package org.neardup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.neardup.cluster.Clusters;
import org.neardup.fingerprint.FingerprintSettings;
import org.neardup.verify.ShingleSketch;

class DeduplicatorTest {
  private static Deduplicator.Builder builder() {
    // No segmenter: core's tests must not need the jieba dictionary.
    return Deduplicator.builder().fingerprintSettings(FingerprintSettings.builder().build());
  }

  private static final String NEWS =
      "The city council approved the new budget on Tuesday evening, adding money for parks, "
          + "libraries and two new schools, after a long debate about taxes and public transport. "
          + "The mayor said the plan would be reviewed in the spring, when the first results of the "
          + "new bus lines are known, and thanked the residents who came to the three public hearings "
          + "held in the old town hall during the summer months of this year.";

  @Test
  void checkAndInsert_firstCopy_isNew_secondIsDuplicate() {
    Deduplicator d = builder().build();
    Verdict first = d.checkAndInsert(1, NEWS);
    assertThat(first.isNew()).isTrue();
    assertThat(first.joined()).isEmpty();
    assertThat(first.cluster()).isEqualTo(1);
    assertThat(first.matches()).isEmpty();
    Verdict second = d.checkAndInsert(2, NEWS.replace("Tuesday", "Wednesday"));
    assertThat(second.isDuplicate()).isTrue();
    assertThat(second.cluster()).isEqualTo(1);
    assertThat(second.joined()).containsExactly(1L);
    assertThat(second.matches())
        .singleElement()
        .satisfies(
            m -> {
              assertThat(m.docId()).isEqualTo(1);
              assertThat(m.similarity()).isGreaterThanOrEqualTo(0.8).isLessThan(1.0);
            });
    assertThat(d.size()).isEqualTo(2);
  }

  @Test
  void checkAndInsert_exactDuplicate_isDuplicateWithSimilarityOne() {
    Deduplicator d = builder().build();
    d.checkAndInsert(10, NEWS);
    Verdict v = d.checkAndInsert(11, NEWS);
    assertThat(v.isDuplicate()).isTrue();
    assertThat(v.matches().get(0).distance()).isZero();
    assertThat(v.matches().get(0).similarity()).isEqualTo(1.0);
  }

  @Test
  void checkAndInsert_unrelated_isNew() {
    Deduplicator d = builder().build();
    d.checkAndInsert(1, NEWS);
    assertThat(
            d.checkAndInsert(
                    2,
                    "Completely different: a recipe for tomato soup with basil, garlic and olive oil.")
                .isNew())
        .isTrue();
  }

  @Test
  void clusters_transitive_representedByEarliest() {
    Deduplicator d = builder().threshold(0.7).build();
    String a = NEWS;
    // a~b and b~c at threshold 0.7, but a and c further apart.
    String b = a.replace("Tuesday evening", "Monday night").replace("old town hall", "new library");
    String c =
        b.replace("two new schools", "three new hospitals")
            .replace("summer months", "winter weeks");
    d.checkAndInsert(100, a);
    d.checkAndInsert(200, c);
    assertThat(d.clusterOf(200)).isEqualTo(200); // c alone: too far from a
    Verdict vb = d.checkAndInsert(300, b);
    assertThat(vb.cluster()).isEqualTo(100);
    assertThat(d.clusterOf(200)).isEqualTo(100);
  }

  @Test
  void check_storesNothing() {
    Deduplicator d = builder().build();
    d.checkAndInsert(1, NEWS);
    Verdict v = d.check(NEWS);
    assertThat(v.isDuplicate()).isTrue();
    assertThat(v.cluster()).isEqualTo(1);
    assertThat(d.size()).isEqualTo(1);
    assertThat(d.check("nothing like it at all, just a few words about ships").cluster())
        .isEqualTo(-1);
  }

  @Test
  void remove_stopsMatching() {
    Deduplicator d = builder().build();
    d.checkAndInsert(1, NEWS);
    assertThat(d.remove(1)).isTrue();
    assertThat(d.remove(1)).isFalse();
    assertThat(d.contains(1)).isFalse();
    assertThat(d.checkAndInsert(2, NEWS).isNew()).isTrue();
  }

  @Test
  void badInput_rejected_andNothingStored() {
    Deduplicator d = builder().build();
    assertThatThrownBy(() -> d.checkAndInsert(1, "   "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no letters or digits");
    assertThatThrownBy(() -> d.checkAndInsert(1, "!!! ... ???"))
        .hasMessageContaining("no letters or digits");
    assertThat(d.size()).isZero();
    d.checkAndInsert(1, NEWS);
    assertThatThrownBy(() -> d.checkAndInsert(1, "another text entirely"))
        .hasMessageContaining("docId 1 is already stored");
    assertThat(d.size()).isEqualTo(1);
    assertThatThrownBy(() -> builder().maxDistance(65))
        .hasMessageContaining("maxDistance must be in [0, 64]");
    assertThatThrownBy(() -> builder().threshold(0))
        .hasMessageContaining("threshold must be in (0, 1]");
  }

  @Test
  void restore_rebuildsSameState() {
    Deduplicator original = builder().build();
    Deduplicator restored = builder().build();
    List<String> texts = TestCorpus.corpus(5, 30, 3, 40);
    for (int i = 0; i < texts.size(); i++) {
      Analysis a = original.analyzer().analyze(texts.get(i));
      Verdict v = original.checkAndInsert(i, a);
      long[] links = v.joined().stream().mapToLong(Long::longValue).toArray();
      restored.restore(i, Analysis.decode(a.encode(), 0, a.encode().length), links);
    }
    for (int i = 0; i < texts.size(); i++) {
      assertThat(restored.clusterOf(i)).isEqualTo(original.clusterOf(i));
    }
    String probe = TestCorpus.edit(new SplittableRandom(1), texts.get(3), 1);
    assertThat(restored.check(probe)).isEqualTo(original.check(probe));
  }

  @Test
  void analysis_encodeDecode_roundTrips() {
    Analysis a = builder().analyzer().analyze(NEWS);
    byte[] e = a.encode();
    Analysis b = Analysis.decode(e, 0, e.length);
    assertThat(b.fingerprint()).isEqualTo(a.fingerprint());
    assertThat(b.letters()).isEqualTo(a.letters());
    assertThat(b.sketch().bandKeys()).isEqualTo(a.sketch().bandKeys());
    assertThat(b.sketch().shingles()).isEqualTo(a.sketch().shingles());
    assertThatThrownBy(() -> Analysis.decode(e, 0, 5)).hasMessageContaining("corrupt analysis");
  }

  /** Exactly one survivor: of copies inserted at once from many threads, exactly one is new. */
  @Test
  void checkAndInsert_concurrentCopies_exactlyOneNewPerGroup() throws Exception {
    Deduplicator d = builder().build();
    int groups = 300;
    int copies = 8;
    SplittableRandom r = new SplittableRandom(77);
    List<long[]> work = new ArrayList<>();
    List<String> bases = new ArrayList<>();
    for (int g = 0; g < groups; g++) {
      bases.add(TestCorpus.text(r, 40));
      for (int c = 0; c < copies; c++) {
        work.add(new long[] {g, c});
      }
    }
    Collections.shuffle(work, new java.util.Random(5));
    AtomicInteger next = new AtomicInteger();
    AtomicInteger[] newPerGroup = new AtomicInteger[groups];
    for (int g = 0; g < groups; g++) {
      newPerGroup[g] = new AtomicInteger();
    }
    ExecutorService pool = Executors.newFixedThreadPool(16);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> fs = new ArrayList<>();
    for (int t = 0; t < 16; t++) {
      fs.add(
          pool.submit(
              () -> {
                start.await();
                for (int i; (i = next.getAndIncrement()) < work.size(); ) {
                  long[] w = work.get(i);
                  String text =
                      w[1] % 2 == 0
                          ? bases.get((int) w[0])
                          : bases.get((int) w[0]).replace(" ", "  ");
                  if (d.checkAndInsert(w[0] * copies + w[1], text).isNew()) {
                    newPerGroup[(int) w[0]].incrementAndGet();
                  }
                }
                return null;
              }));
    }
    start.countDown();
    for (Future<?> f : fs) {
      f.get();
    }
    pool.shutdown();
    for (int g = 0; g < groups; g++) {
      assertThat(newPerGroup[g].get()).as("group %s", g).isEqualTo(1);
    }
  }

  /**
   * Without verification, matches are exactly the stored fingerprints within k: brute force agrees.
   */
  @Test
  void fingerprintOnly_matchesAreExactlyThoseWithinK() {
    Deduplicator d = builder().verify(false).maxDistance(5).build();
    List<String> texts = TestCorpus.corpus(9, 40, 3, 30);
    List<Long> fps = new ArrayList<>();
    for (int i = 0; i < texts.size(); i++) {
      Verdict v = d.checkAndInsert(i, texts.get(i));
      Set<Long> expected = new HashSet<>();
      for (int j = 0; j < i; j++) {
        if (Long.bitCount(fps.get(j) ^ v.fingerprint()) <= 5) {
          expected.add((long) j);
        }
      }
      Set<Long> got = new HashSet<>();
      v.matches().forEach(m -> got.add(m.docId()));
      assertThat(got).isEqualTo(expected);
      fps.add(v.fingerprint());
    }
  }

  /** The batch path gives the same pairs and clusters as inserting one by one. */
  @Test
  void corpusDedup_sameAnswerAsSequentialCheckAndInsert() {
    List<String> texts = TestCorpus.corpus(21, 60, 4, 25);
    Deduplicator d = builder().maxMatches(1000).build();
    Set<Long> sequentialPairs = new HashSet<>();
    Map<Integer, Long> sequentialCluster = new HashMap<>();
    Analysis[] analyses = new Analysis[texts.size()];
    for (int i = 0; i < texts.size(); i++) {
      analyses[i] = d.analyzer().analyze(texts.get(i));
      for (Match m : d.checkAndInsert(i, analyses[i]).matches()) {
        sequentialPairs.add(m.docId() << 32 | i);
      }
    }
    for (int i = 0; i < texts.size(); i++) {
      sequentialCluster.put(i, d.clusterOf(i));
    }
    int n = texts.size();
    int bands = analyses[0].sketch().bandKeys().length;
    long[] fps = new long[n];
    long[] keys = new long[n * bands];
    for (int i = 0; i < n; i++) {
      fps[i] = analyses[i].fingerprint();
      System.arraycopy(analyses[i].sketch().bandKeys(), 0, keys, i * bands, bands);
    }
    Set<Long> batchPairs = Collections.synchronizedSet(new HashSet<>());
    PairList list = new PairList();
    CorpusDedup.findPairs(
        fps,
        n,
        keys,
        bands,
        o -> analyses[o].sketch().shingles(),
        3,
        0.8,
        new BitSet(),
        2,
        (i, j, dist, sim) -> {
          assertThat(batchPairs.add((long) i << 32 | j)).as("pair reported twice").isTrue();
          assertThat(sim)
              .isEqualTo(
                  ShingleSketch.jaccard(
                      analyses[i].sketch().shingles(), analyses[j].sketch().shingles()));
          list.accept(i, j, dist, sim);
        });
    assertThat(batchPairs).isEqualTo(sequentialPairs);
    Clusters c = list.clusters(n);
    for (int i = 0; i < n; i++) {
      assertThat((long) c.find(i)).isEqualTo(sequentialCluster.get(i));
    }
  }

  /**
   * A crowd: every fingerprint equal, so every pair is a fingerprint candidate (as texts from one
   * template or an unknown vocabulary make). The pairs are still exactly those a brute-force
   * comparison of every pair's similarity finds.
   */
  @Test
  void corpusDedup_crowdedFingerprints_sameAsBruteForce() {
    List<String> texts = TestCorpus.corpus(22, 150, 3, 30);
    Deduplicator d = builder().build();
    int n = texts.size();
    Analysis[] analyses = new Analysis[n];
    for (int i = 0; i < n; i++) {
      analyses[i] = d.analyzer().analyze(texts.get(i));
    }
    int bands = analyses[0].sketch().bandKeys().length;
    long[] keys = new long[n * bands];
    for (int i = 0; i < n; i++) {
      System.arraycopy(analyses[i].sketch().bandKeys(), 0, keys, i * bands, bands);
    }
    Set<Long> expected = new HashSet<>();
    for (int i = 0; i < n; i++) {
      for (int j = i + 1; j < n; j++) {
        double s =
            ShingleSketch.jaccard(analyses[i].sketch().shingles(), analyses[j].sketch().shingles());
        if (s >= 0.8) {
          expected.add((long) i << 32 | j);
        }
      }
    }
    assertThat(expected).hasSizeGreaterThan(n / 2);
    Set<Long> got = Collections.synchronizedSet(new HashSet<>());
    CorpusDedup.findPairs(
        new long[n],
        n,
        keys,
        bands,
        o -> analyses[o].sketch().shingles(),
        3,
        0.8,
        null,
        2,
        (i, j, dist, sim) -> got.add((long) i << 32 | j));
    assertThat(got).isEqualTo(expected);
  }

  @Test
  void fingerprintOf_storedAndMissing_returnsStoredOrThrows() {
    Deduplicator d = builder().build();
    Verdict v = d.checkAndInsert(42, "the quick brown fox jumps over the lazy dog again and again");
    assertThat(d.fingerprintOf(42)).isEqualTo(v.fingerprint());
    assertThatThrownBy(() -> d.fingerprintOf(43))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("docId 43 is not stored");
    d.remove(42);
    assertThatThrownBy(() -> d.fingerprintOf(42)).isInstanceOf(IllegalArgumentException.class);
  }
}
