// SPDX-License-Identifier: Apache-2.0
package org.neardup;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.neardup.fingerprint.FingerprintSettings;
import org.neardup.verify.Sketch;

/**
 * A document whose band keys equal a query's only in the 31 bits the band index folds them to is
 * not a candidate (its sketch is never read), while one that shares a full key is, however far its
 * fingerprint: after an insert, a batch restore and a compaction alike.
 */
class BandKeyCollisionTest {
  private static final String NEWS =
      "Heavy rain closed the coastal road north of the harbour on Monday morning, and the ferry "
          + "company moved its first two crossings to the afternoon while crews cleared mud and "
          + "fallen branches from the approach. Shops along the seafront stayed open, the school "
          + "bus took the inland route through the valley villages, and the weather service expects "
          + "the wind to drop by Wednesday, when the road should reopen in both directions.";

  private static Deduplicator newDeduplicator() {
    return Deduplicator.builder()
        .fingerprintSettings(FingerprintSettings.builder().build())
        .build();
  }

  /** The same shingles (Jaccard 1) under a fingerprint 64 bits away, with the given band keys. */
  private static Analysis twin(Analysis a, long[] keys) {
    return new Analysis(~a.fingerprint(), new Sketch(a.sketch().shingles(), keys), a.letters());
  }

  /** Keys that fold to the same 31 bits as {@code keys}: bit 63 never reaches the fold. */
  private static long[] colliding(long[] keys) {
    long[] out = keys.clone();
    for (int i = 0; i < out.length; i++) {
      out[i] ^= 1L << 63;
    }
    return out;
  }

  @Test
  void check_afterInsert_foldedCollisionIsNoCandidate_fullKeyIs() {
    Deduplicator d = newDeduplicator();
    Analysis stored = d.analyzer().analyze(NEWS);
    d.checkAndInsert(1, stored);
    long[] keys = stored.sketch().bandKeys();
    assertThat(d.check(twin(stored, colliding(keys))).isNew()).isTrue();
    assertThat(d.check(twin(stored, keys.clone())).isDuplicate()).isTrue();
  }

  @Test
  void check_afterRestoreAndCompaction_foldedCollisionIsNoCandidate_fullKeyIs() {
    Deduplicator d = newDeduplicator();
    Analysis stored = d.analyzer().analyze(NEWS);
    Analysis other = d.analyzer().analyze(NEWS.replace("rain", "snow").replace("harbour", "bay"));
    RestoreBatch batch = d.newRestoreBatch();
    batch.add(1, other, new long[0]);
    batch.add(2, stored, new long[0]);
    batch.add(
        3,
        d.analyzer().analyze("Another text entirely, about the weather in the hills."),
        new long[0]);
    d.restoreAll(batch);
    long[] keys = stored.sketch().bandKeys();
    assertThat(d.check(twin(stored, colliding(keys))).matches()).noneMatch(m -> m.docId() == 2);
    assertThat(d.check(twin(stored, keys.clone())).matches()).anyMatch(m -> m.docId() == 2);
    d.remove(1); // the compaction renumbers: document 2 moves to ordinal 0
    d.compact();
    assertThat(d.check(twin(stored, colliding(keys))).matches()).noneMatch(m -> m.docId() == 2);
    assertThat(d.check(twin(stored, keys.clone())).matches()).anyMatch(m -> m.docId() == 2);
  }
}
