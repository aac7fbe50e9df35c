// SPDX-License-Identifier: Apache-2.0
package org.neardup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.neardup.fingerprint.FingerprintSettings;

/**
 * A batch large enough that {@link Restoring#restoreAll} files its band keys on a second thread
 * gives the same verdicts as the same documents restored in batches small enough to be filed on the
 * caller's thread, and as the documents checked and inserted one at a time would name.
 */
class RestoringParallelTest {
  private static final int TEMPLATES = 300;
  private static final int VARIANTS = 3_000;

  private static Deduplicator newDeduplicator() {
    // No segmenter: core's tests must not need the jieba dictionary.
    return Deduplicator.builder()
        .fingerprintSettings(FingerprintSettings.builder().build())
        .verify(true)
        .maxDistance(3)
        .maxMatches(1_000)
        .build();
  }

  /**
   * Variant k: template k % TEMPLATES's analysis with its fingerprint and band keys salted by k /
   * TEMPLATES (so 3,000 distinct key sets, ten per sketch), as Analysis.encode()'s bytes.
   */
  private static byte[] variant(byte[][] templates, int k) {
    byte[] b = templates[k % TEMPLATES].clone();
    long salt = k / TEMPLATES;
    if (salt == 0) {
      return b;
    }
    // A fingerprint far from every other variant's: the copies are found through the band keys.
    long fp = 0;
    for (int j = 0; j < 8; j++) {
      fp = fp << 8 | (b[j] & 0xFF);
    }
    fp ^= new SplittableRandom(-salt).nextLong();
    for (int j = 7; j >= 0; j--) {
      b[j] = (byte) fp;
      fp >>>= 8;
    }
    int[] pos = {8};
    varint(b, pos); // letters
    int count = (int) varint(b, pos);
    for (int i = 0; i < count; i++) {
      int at = pos[0] + i * 8;
      long key = 0;
      for (int j = 0; j < 8; j++) {
        key = key << 8 | (b[at + j] & 0xFF);
      }
      key ^= new SplittableRandom(salt * 1_000 + i).nextLong();
      for (int j = 7; j >= 0; j--) {
        b[at + j] = (byte) key;
        key >>>= 8;
      }
    }
    return b;
  }

  private static long varint(byte[] b, int[] pos) {
    long v = 0;
    for (int shift = 0; ; shift += 7) {
      byte x = b[pos[0]++];
      v |= (long) (x & 0x7F) << shift;
      if (x >= 0) {
        return v;
      }
    }
  }

  @Test
  void aParallelBatchGivesTheVerdictsOfSmallSerialBatches() {
    Deduplicator big = newDeduplicator();
    Deduplicator small = newDeduplicator();
    SplittableRandom r = new SplittableRandom(18);
    String[] texts = new String[TEMPLATES];
    byte[][] templates = new byte[TEMPLATES][];
    for (int t = 0; t < TEMPLATES; t++) {
      texts[t] = TestCorpus.text(r, 40);
      templates[t] = big.analyzer().analyze(texts[t]).encode();
    }
    byte[][] variants = new byte[VARIANTS][];
    for (int k = 0; k < VARIANTS; k++) {
      variants[k] = variant(templates, k);
    }
    int bands = Analysis.decode(templates[0], 0, templates[0].length).sketch().bandKeys().length;
    int n = (int) (Restoring.PARALLEL_AT / bands) + 20_000;
    int perSmall = (int) (Restoring.PARALLEL_AT / bands) / 8;
    RestoreBatch one = big.newRestoreBatch();
    RestoreBatch part = small.newRestoreBatch();
    long[] link = new long[1];
    for (int i = 0; i < n; i++) {
      int k = i % VARIANTS;
      byte[] b = variants[k];
      // Every copy after a variant's first joins it: the clusters take part too.
      link[0] = k;
      int links = i < VARIANTS ? 0 : 1;
      one.add(i, b, 0, b.length, link, links);
      part.add(i, b, 0, b.length, link, links);
      if (part.size() == perSmall) {
        small.restoreAll(part);
        part.clear();
      }
    }
    assertThat((long) one.size() * bands).isGreaterThanOrEqualTo(Restoring.PARALLEL_AT);
    big.restoreAll(one);
    small.restoreAll(part);
    assertThat(big.size()).isEqualTo(n);
    assertThat(small.size()).isEqualTo(n);
    for (int k = 0; k < VARIANTS; k += 7) {
      Analysis a = Analysis.decode(variants[k], 0, variants[k].length);
      Verdict got = big.check(a);
      assertThat(got).as("variant %s", k).isEqualTo(small.check(a));
      // The variant's copies are found (through its band keys and fingerprint) and verified.
      assertThat(got.isDuplicate()).isTrue();
    }
    // A template's text with a word edited finds the copies of its unsalted variant in both.
    int found = 0;
    for (int t = 0; t < TEMPLATES; t += 10) {
      Analysis a = big.analyzer().analyze(TestCorpus.edit(r, texts[t], 1));
      Verdict got = big.check(a);
      assertThat(got).isEqualTo(small.check(a));
      found += got.isDuplicate() ? 1 : 0;
    }
    assertThat(found).isGreaterThan(0);
  }
}
