// SPDX-License-Identifier: Apache-2.0
package org.neardup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.neardup.fingerprint.FingerprintSettings;

/** Growth, {@link Deduplicator#compact()} and {@link Deduplicator#restoreAll}: same answers. */
class DeduplicatorCompactTest {
  private static Deduplicator.Builder builder() {
    return Deduplicator.builder().fingerprintSettings(FingerprintSettings.builder().build());
  }

  private static long[] links(Verdict v) {
    return v.joined().stream().mapToLong(Long::longValue).toArray();
  }

  /**
   * 90,000 documents cross page boundaries (2^16 ordinals) and many sub-table splits of the id map
   * and the band index; a deduplicator that grew from nothing answers exactly as one pre-sized.
   */
  @Test
  void checkAndInsert_growingFromNothing_sameVerdictsAsPresized() {
    List<String> texts = TestCorpus.corpus(3, 30_000, 2, 10);
    Deduplicator grown = builder().expectedSize(0).build();
    Deduplicator presized = builder().expectedSize(texts.size()).build();
    int duplicates = 0;
    for (int i = 0; i < texts.size(); i++) {
      Analysis a = grown.analyzer().analyze(texts.get(i));
      Verdict v = grown.checkAndInsert(i, a);
      assertThat(v).as("document %s", i).isEqualTo(presized.checkAndInsert(i, a));
      duplicates += v.isDuplicate() ? 1 : 0;
    }
    assertThat(duplicates).isGreaterThan(10_000);
    SplittableRandom r = new SplittableRandom(4);
    for (int i = 0; i < 2000; i++) {
      String probe = TestCorpus.edit(r, texts.get(r.nextInt(texts.size())), 1);
      assertThat(grown.check(probe)).isEqualTo(presized.check(probe));
    }
  }

  @Test
  void compact_afterRemovals_keepsAnswersWithEarliestSurvivorAsRepresentative() {
    List<String> texts = TestCorpus.corpus(8, 400, 4, 30);
    Deduplicator d = builder().maxMatches(1000).build();
    Analysis[] analyses = new Analysis[texts.size()];
    for (int i = 0; i < texts.size(); i++) {
      analyses[i] = d.analyzer().analyze(texts.get(i));
      d.checkAndInsert(i, analyses[i]);
    }
    SplittableRandom r = new SplittableRandom(12);
    for (int i = 0; i < texts.size(); i++) {
      if (r.nextInt(10) < 6) {
        assertThat(d.remove(i)).isTrue();
      }
    }
    // Before: each live document's cluster; the earliest survivor of each.
    Map<Long, Long> earliestSurvivor = new HashMap<>();
    Map<Long, Long> clusterBefore = new HashMap<>();
    for (long i = 0; i < texts.size(); i++) {
      if (d.contains(i)) {
        long c = d.clusterOf(i);
        clusterBefore.put(i, c);
        earliestSurvivor.merge(c, i, Math::min);
      }
    }
    assertThat(clusterBefore.entrySet())
        .as("some representative was removed, so the rule matters")
        .anyMatch(e -> !d.contains(e.getValue()));
    List<String> probes = new ArrayList<>();
    List<Verdict> before = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      String probe = TestCorpus.edit(r, texts.get(r.nextInt(texts.size())), r.nextInt(3));
      probes.add(probe);
      before.add(d.check(probe));
    }
    int size = d.size();
    long ram = d.ramBytesUsed();

    assertThat(d.compact()).isEqualTo(texts.size() - size);

    assertThat(d.size()).isEqualTo(size);
    assertThat(d.ramBytesUsed()).isLessThan(ram);
    for (long i = 0; i < texts.size(); i++) {
      assertThat(d.contains(i)).isEqualTo(clusterBefore.containsKey(i));
      if (d.contains(i)) {
        assertThat(d.clusterOf(i))
            .as("docId %s", i)
            .isEqualTo(earliestSurvivor.get(clusterBefore.get(i)));
      }
    }
    for (int i = 0; i < probes.size(); i++) {
      Verdict a = before.get(i);
      Verdict b = d.check(probes.get(i));
      assertThat(b.isNew()).isEqualTo(a.isNew());
      assertThat(b.matches()).isEqualTo(a.matches());
      assertThat(b.cluster()).isEqualTo(a.isNew() ? -1 : earliestSurvivor.get(a.cluster()));
      assertThat(b.joined())
          .containsExactlyInAnyOrderElementsOf(
              a.joined().stream().map(earliestSurvivor::get).distinct().toList());
    }
    // Inserts after compaction: as many again, all answers still consistent.
    for (int i = 0; i < probes.size(); i++) {
      Verdict v = d.checkAndInsert(100_000 + i, probes.get(i));
      assertThat(v.isNew()).isEqualTo(before.get(i).isNew() && !hasEarlierCopy(probes, i, d));
    }
    assertThat(d.compact()).isZero();
  }

  /** Whether an earlier probe of the same run is a near-duplicate of probe i. */
  private static boolean hasEarlierCopy(List<String> probes, int i, Deduplicator d) {
    Verdict v = d.check(probes.get(i));
    return v.matches().stream().anyMatch(m -> m.docId() >= 100_000 && m.docId() < 100_000 + i);
  }

  @Test
  void compact_removedRepresentative_nextSurvivorRepresents() {
    Deduplicator d = builder().build();
    String a = TestCorpus.text(new SplittableRandom(1), 40);
    d.checkAndInsert(10, a);
    d.checkAndInsert(20, a + " one");
    d.checkAndInsert(30, a + " two");
    d.remove(10);
    assertThat(d.clusterOf(30)).isEqualTo(10); // a removed representative keeps representing
    d.compact();
    assertThat(d.clusterOf(20)).isEqualTo(20);
    assertThat(d.clusterOf(30)).isEqualTo(20);
    assertThat(d.checkAndInsert(40, a).cluster()).isEqualTo(20);
  }

  @Test
  void compact_fingerprintOnly_reclaimsMostMemory() {
    Deduplicator d = builder().verify(false).expectedSize(0).build();
    SplittableRandom r = new SplittableRandom(2);
    int n = 200_000;
    for (int i = 0; i < n; i++) {
      d.checkAndInsert(i, Analysis.ofFingerprint(r.nextLong(), 1));
    }
    long full = d.ramBytesUsed();
    for (int i = 0; i < n; i++) {
      if (i % 10 != 0) {
        d.remove(i);
      }
    }
    assertThat(d.ramBytesUsed()).isGreaterThan(full / 2); // removal alone frees little
    d.compact();
    assertThat(d.ramBytesUsed()).isLessThan(full / 4);
    assertThat(d.size()).isEqualTo(n / 10);
  }

  @Test
  void restoreAll_sameStateAsOneByOneRestore() {
    List<String> texts = TestCorpus.corpus(5, 200, 3, 30);
    Deduplicator original = builder().build();
    Deduplicator oneByOne = builder().build();
    Deduplicator bulk = builder().build();
    Deduplicator encoded = builder().build();
    Deduplicator checksummed = builder().build();
    int n = texts.size();
    long[] docIds = new long[n];
    Analysis[] analyses = new Analysis[n];
    long[][] joined = new long[n][];
    for (int i = 0; i < n; i++) {
      docIds[i] = 1000 + i * 7L;
      analyses[i] = original.analyzer().analyze(texts.get(i));
      joined[i] = links(original.checkAndInsert(docIds[i], analyses[i]));
      oneByOne.restore(docIds[i], analyses[i], joined[i]);
    }
    assertThat(java.util.Arrays.stream(joined).filter(j -> j.length > 1).count())
        .as("some document joined two clusters")
        .isPositive();
    bulk.restoreAll(docIds, analyses, joined);
    // In three batches, from encoded analyses.
    RestoreBatch batch = encoded.newRestoreBatch();
    RestoreBatch trusted = checksummed.newRestoreBatch();
    for (int i = 0; i < n; i++) {
      byte[] e = analyses[i].encode();
      batch.add(docIds[i], e, 0, e.length, joined[i], joined[i].length);
      trusted.addChecksummed(docIds[i], e, 0, e.length, joined[i], joined[i].length);
      if (i == n / 3 || i == n / 2 || i == n - 1) {
        encoded.restoreAll(batch);
        batch.clear();
        checksummed.restoreAll(trusted);
        trusted.clear();
      }
    }
    for (Deduplicator d : List.of(oneByOne, bulk, encoded, checksummed)) {
      assertThat(d.size()).isEqualTo(n);
      for (long id : docIds) {
        assertThat(d.clusterOf(id)).as("docId %s", id).isEqualTo(original.clusterOf(id));
      }
      SplittableRandom r = new SplittableRandom(6);
      for (int i = 0; i < 200; i++) {
        Analysis probe =
            original.analyzer().analyze(TestCorpus.edit(r, texts.get(r.nextInt(n)), 2));
        assertThat(d.check(probe)).isEqualTo(original.check(probe));
      }
    }
  }

  /**
   * addChecksummed skips only the sketch's decoding (what the store's CRC32C already guards); the
   * plain add still refuses a sketch that does not decode, and both refuse a foreign band count.
   */
  @Test
  void addChecksummed_corruptSketch_keptUnchecked_plainAddRefuses() {
    Deduplicator d = builder().build();
    byte[] e = d.analyzer().analyze(TestCorpus.corpus(2, 1, 0, 40).get(0)).encode();
    byte[] bad = java.util.Arrays.copyOf(e, e.length + 1); // one trailing byte after the sketch
    RestoreBatch batch = d.newRestoreBatch();
    assertThatThrownBy(() -> batch.add(1, bad, 0, bad.length, new long[0], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("corrupt sketch");
    assertThat(batch.size()).isZero();
    batch.addChecksummed(1, bad, 0, bad.length, new long[0], 0);
    assertThat(batch.size()).isEqualTo(1);
    RestoreBatch other =
        builder().bands(org.neardup.verify.BandScheme.of(4, 2)).build().newRestoreBatch();
    assertThatThrownBy(() -> other.addChecksummed(2, e, 0, e.length, new long[0], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("band keys");
  }

  @Test
  void restoreAll_fingerprintsInBulk_answersAsOneByOne() {
    // Past the index's add buffer (2^15), so the bulk path builds a segment directly.
    int n = 300_000;
    Deduplicator oneByOne = builder().verify(false).build();
    Deduplicator bulk = builder().verify(false).build();
    SplittableRandom r = new SplittableRandom(8);
    RestoreBatch batch = bulk.newRestoreBatch();
    long[] fps = new long[n];
    for (int i = 0; i < n; i++) {
      fps[i] = i % 5 == 4 ? fps[i - 1] ^ 1 : r.nextLong();
      Analysis a = Analysis.ofFingerprint(fps[i], 1);
      long[] link = i % 5 == 4 ? new long[] {i - 1} : new long[0];
      oneByOne.restore(i, a, link);
      batch.add(i, a, link);
    }
    bulk.restoreAll(batch);
    for (int i = 0; i < n; i += 97) {
      assertThat(bulk.clusterOf(i)).isEqualTo(oneByOne.clusterOf(i));
      Analysis probe = Analysis.ofFingerprint(fps[i] ^ 6, 1);
      assertThat(bulk.check(probe)).isEqualTo(oneByOne.check(probe));
    }
  }

  @Test
  void restoreAll_duplicateDocId_throwsAndStoresNothing() {
    Deduplicator d = builder().verify(false).build();
    d.checkAndInsert(1, Analysis.ofFingerprint(1, 1));
    Analysis a = Analysis.ofFingerprint(99, 1);
    assertThatThrownBy(
            () -> d.restoreAll(new long[] {5, 6, 5}, new Analysis[] {a, a, a}, new long[3][0]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("docId 5 appears twice in the batch");
    assertThatThrownBy(() -> d.restoreAll(new long[] {7, 1}, new Analysis[] {a, a}, new long[2][0]))
        .hasMessage("docId 1 is already stored");
    assertThat(d.size()).isEqualTo(1);
    assertThat(d.contains(5)).isFalse();
    assertThat(d.contains(7)).isFalse();
    assertThat(d.clusterOf(1)).isEqualTo(1);
    d.restoreAll(new long[] {5, 6}, new Analysis[] {a, a}, new long[][] {{}, {5}});
    assertThat(d.clusterOf(6)).isEqualTo(5);
  }

  @Test
  void restoreAll_batchOfOtherSettings_throws() {
    Deduplicator verifying = builder().build();
    Deduplicator plain = builder().verify(false).build();
    assertThatThrownBy(() -> plain.restoreAll(verifying.newRestoreBatch()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("the batch was made for");
  }
}
