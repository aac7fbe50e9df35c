// SPDX-License-Identifier: Apache-2.0
package org.neardup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.neardup.fingerprint.FingerprintSettings;
import org.neardup.index.AllPairs;
import org.neardup.verify.ShingleSketch;

/**
 * {@link CorpusDedup#findPairs} on a crowd of lightly edited copies (the structure of reposts:
 * every pair shares band keys, most fail the threshold): heads handed in give the same pairs as
 * heads read from the sketches, the pairs are exactly those a comparison of every pair finds, and
 * the counts add up.
 */
class CorpusDedupStatsTest {
  @org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp;

  private static Analysis[] analyse(List<String> texts) {
    Deduplicator d =
        Deduplicator.builder().fingerprintSettings(FingerprintSettings.builder().build()).build();
    Analysis[] a = new Analysis[texts.size()];
    for (int i = 0; i < a.length; i++) {
      a[i] = d.analyzer().analyze(texts.get(i));
    }
    return a;
  }

  @Test
  void findPairs_copiesWithEdits_sameWithGivenHeadsAndCountsAddUp() throws java.io.IOException {
    // 30 texts of 120 words, 16 copies each with 1-12 words replaced: pairs from clearly above to
    // clearly below 0.8.
    SplittableRandom r = new SplittableRandom(20261125);
    List<String> texts = new java.util.ArrayList<>();
    for (int g = 0; g < 30; g++) {
      String base = TestCorpus.text(r, 120);
      texts.add(base);
      for (int c = 1; c < 16; c++) {
        texts.add(TestCorpus.edit(r, base, 1 + r.nextInt(12)));
      }
    }
    Analysis[] a = analyse(texts);
    int n = a.length;
    int bands = a[0].sketch().bandKeys().length;
    long[] fps = new long[n];
    long[] keys = new long[n * bands];
    BitSet excluded = new BitSet();
    excluded.set(n - 1); // the last one failed: never paired, never given a head
    CorpusDedup.SketchHeads heads = new CorpusDedup.SketchHeads();
    // Heads past a small limit: dropped while they come, taken from the sketches afterwards.
    CorpusDedup.SketchHeads dropped = new CorpusDedup.SketchHeads(n / 2);
    for (int i = 0; i < n; i++) {
      fps[i] = a[i].fingerprint();
      System.arraycopy(a[i].sketch().bandKeys(), 0, keys, i * bands, bands);
      if (!excluded.get(i)) {
        heads.set(i, a[i].sketch().shingles());
        dropped.set(i, a[i].sketch().shingles());
      }
    }
    assertThat(dropped.dropped).isTrue();
    assertThat(dropped.ramBytesUsed()).isZero();
    Map<Long, Double> expected = new HashMap<>();
    for (int i = 0; i < n - 1; i++) {
      for (int j = i + 1; j < n - 1; j++) {
        double s = ShingleSketch.jaccard(a[i].sketch().shingles(), a[j].sketch().shingles());
        if (s >= 0.8) {
          expected.put((long) i << 32 | j, s);
        }
      }
    }
    assertThat(expected).hasSizeGreaterThan(n);

    long[] reads = new long[3];
    int run = 0;
    for (CorpusDedup.SketchHeads given : new CorpusDedup.SketchHeads[] {null, heads, dropped}) {
      Map<Long, Double> got = Collections.synchronizedMap(new HashMap<>());
      Set<Long> twice = Collections.synchronizedSet(new HashSet<>());
      CorpusDedup.Stats stats = new CorpusDedup.Stats();
      long reported =
          CorpusDedup.findPairs(
              fps,
              n,
              keys,
              bands,
              o -> a[o].sketch().shingles(),
              3,
              0.8,
              excluded,
              2,
              given,
              stats,
              AllPairs.defaultScheme(3),
              (i, j, d, s) -> {
                if (got.put((long) i << 32 | j, s) != null) {
                  twice.add((long) i << 32 | j);
                }
              });
      assertThat(twice).as("pairs reported twice").isEmpty();
      assertThat(got).isEqualTo(expected);
      assertThat(reported).isEqualTo(expected.size()).isEqualTo(stats.reported());
      // Every candidate is turned away by one filter or verified, and every reported pair was
      // verified; the bucket bound did most of the turning away here.
      assertThat(stats.headRejected() + stats.bucketRejected() + stats.verified())
          .isEqualTo(stats.candidates());
      assertThat(stats.verified()).isGreaterThanOrEqualTo(reported);
      assertThat(stats.bucketRejected()).isGreaterThan(stats.verified() - reported);
      assertThat(stats.bandPairs())
          .isGreaterThanOrEqualTo(stats.candidates() - stats.fingerprintPairs());
      reads[run++] = stats.sketchReads();
    }
    // With the heads given, no sketch is read for its head (n - 1 documents are not excluded);
    // dropped heads are read again, as when none are given.
    assertThat(reads[1]).isEqualTo(reads[0] - (n - 1));
    assertThat(reads[2]).isEqualTo(reads[0]);

    // Band keys and heads as Columns: in the heap, in files from the first document, and moved to
    // the files part way (with an excluded document among the moved ones): the same pairs, the
    // same counts as heads given in the heap. From the files they are read a window at a time:
    // windows of 7 documents (smaller than a group of 16 copies, which then gets one of its own;
    // fingerprint pairs checked 3 at a time) and of 100 (several groups each).
    excluded.set(n / 5);
    expected.keySet().removeIf(key -> (key >>> 32) == n / 5 || (key & 0xFFFFFFFFL) == n / 5);
    long[] first = null;
    int[][] settings = {{n + 10, 1 << 20}, {0, 1 << 20}, {n / 3, 7}, {n - 1, 100}, {0, 7}};
    for (int[] setting : settings) {
      int heapUpTo = setting[0];
      CorpusDedup.Columns probe = new CorpusDedup.Columns(bands, tmp, 0);
      long gatherBytes = (long) setting[1] * probe.recordBytes();
      probe.close();
      java.nio.file.Path dir = tmp.resolve("c" + heapUpTo + "-" + setting[1]);
      try (CorpusDedup.Columns columns =
          new CorpusDedup.Columns(bands, dir, heapUpTo, gatherBytes)) {
        java.nio.file.Files.createDirectories(dir);
        for (int i = 0; i < n; i++) {
          if (!excluded.get(i)) {
            columns.add(i, a[i].sketch().bandKeys(), a[i].sketch().shingles());
          }
        }
        columns.finish(n);
        assertThat(columns.onDisk()).isEqualTo(heapUpTo < n);
        assertThat(columns.ramBytesUsed() == 0).isEqualTo(heapUpTo < n);
        Map<Long, Double> got = Collections.synchronizedMap(new HashMap<>());
        CorpusDedup.Stats stats = new CorpusDedup.Stats();
        // Every sketch a band group reads was hinted to the source before, on the same thread.
        ThreadLocal<Set<Integer>> hinted = ThreadLocal.withInitial(HashSet::new);
        Set<Integer> unhinted = Collections.synchronizedSet(new HashSet<>());
        Set<Integer> hintedExcluded = Collections.synchronizedSet(new HashSet<>());
        long[] bandReads = new long[1];
        CorpusDedup.SketchSource source =
            new CorpusDedup.SketchSource() {
              @Override
              public ShingleSketch apply(int o) {
                if (Thread.currentThread().getName().startsWith("neardup-bands-")) {
                  synchronized (bandReads) {
                    bandReads[0]++;
                  }
                  if (!hinted.get().contains(o)) {
                    unhinted.add(o);
                  }
                }
                return a[o].sketch().shingles();
              }

              @Override
              public void prefetch(int o) {
                hinted.get().add(o);
                if (excluded.get(o)) {
                  hintedExcluded.add(o);
                }
              }
            };
        long reported =
            CorpusDedup.findPairs(
                fps,
                n,
                columns,
                source,
                3,
                0.8,
                excluded,
                2,
                stats,
                AllPairs.defaultScheme(3),
                (i, j, d, s) -> got.put((long) i << 32 | j, s));
        assertThat(got).as("heap up to %s, window %s", heapUpTo, setting[1]).isEqualTo(expected);
        assertThat(reported).isEqualTo(expected.size());
        assertThat(bandReads[0]).as("band groups' sketch reads").isPositive();
        assertThat(unhinted).as("sketches read by band groups without a hint").isEmpty();
        assertThat(hintedExcluded).as("excluded documents hinted").isEmpty();
        long[] counts = {
          stats.candidates(),
          stats.headRejected(),
          stats.bucketRejected(),
          stats.verified(),
          stats.sketchReads(),
          stats.bandPairs(),
          stats.fingerprintPairs()
        };
        if (first == null) {
          first = counts;
        }
        assertThat(counts).as("heap up to %s, window %s", heapUpTo, setting[1]).isEqualTo(first);
      }
      assertThat(dir).isEmptyDirectory();
    }
  }

  @Test
  void columns_misuse_clearErrors() throws java.io.IOException {
    try (CorpusDedup.Columns c = new CorpusDedup.Columns(2, tmp, 0)) {
      ShingleSketch s = analyse(List.of("one two three four five six"))[0].sketch().shingles();
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> c.add(0, new long[3], s))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("bandKeys must hold 2 keys, got 3");
      c.add(5, new long[2], s);
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> c.add(4, new long[2], s))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("ordinals must increase");
      c.finish(6);
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> c.add(7, new long[2], s))
          .isInstanceOf(IllegalStateException.class);
      org.assertj.core.api.Assertions.assertThatThrownBy(
              () ->
                  CorpusDedup.findPairs(
                      new long[7],
                      7,
                      c,
                      o -> s,
                      3,
                      0.8,
                      null,
                      1,
                      new CorpusDedup.Stats(),
                      AllPairs.defaultScheme(3),
                      (i, j, d, x) -> {}))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("finished at count 7, got 6");
    }
  }
}
