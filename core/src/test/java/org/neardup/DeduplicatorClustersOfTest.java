// SPDX-License-Identifier: Apache-2.0
package org.neardup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.neardup.fingerprint.FingerprintSettings;

/**
 * {@link Deduplicator#clustersOf} answers exactly what {@link Deduplicator#clusterOf} answers one
 * docId at a time, whatever the order it is asked in: it guesses that docIds come in ordinal order
 * and must never trust a wrong guess.
 */
class DeduplicatorClustersOfTest {
  private static final int CHUNK = 256;

  private static Deduplicator newDeduplicator() {
    return Deduplicator.builder()
        .fingerprintSettings(FingerprintSettings.builder().build())
        .verify(false)
        .maxDistance(3)
        .build();
  }

  /** A fingerprint 0 to 3 bits from one of the earlier ones (a cluster), or a new random one. */
  private static long fingerprint(SplittableRandom r, List<Long> earlier) {
    if (earlier.isEmpty() || r.nextInt(3) == 0) {
      return r.nextLong();
    }
    long fp = earlier.get(r.nextInt(earlier.size()));
    for (int b = r.nextInt(4); b > 0; b--) {
      fp ^= 1L << r.nextInt(64);
    }
    return fp;
  }

  private static void assertAgrees(Deduplicator d, long[] asked, String order) {
    long[] expected = new long[asked.length];
    for (int i = 0; i < asked.length; i++) {
      expected[i] = d.clusterOf(asked[i]);
    }
    long[] got = new long[asked.length];
    long[] in = new long[CHUNK];
    long[] out = new long[CHUNK];
    for (int from = 0; from < asked.length; from += CHUNK) {
      int n = Math.min(CHUNK, asked.length - from);
      System.arraycopy(asked, from, in, 0, n);
      Arrays.fill(out, Long.MIN_VALUE);
      d.clustersOf(in, n, out);
      System.arraycopy(out, 0, got, from, n);
      assertThat(out[n - 1]).as("every answer written").isNotEqualTo(Long.MIN_VALUE);
    }
    for (int i = 0; i < asked.length; i++) {
      assertThat(got[i])
          .as("%s: docId %s (position %s)", order, asked[i], i)
          .isEqualTo(expected[i]);
    }
  }

  @Test
  void clustersOf_inOrderShuffledAndWithGaps_equalsClusterOfOneByOne() {
    for (long seed = 1; seed <= 6; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      Deduplicator d = newDeduplicator();
      List<Long> fps = new ArrayList<>();
      List<Long> stored = new ArrayList<>(); // in insertion (ordinal) order
      long docId = 1000;
      int clustered = 0;
      for (int i = 0; i < 5000; i++) {
        docId += 1 + r.nextInt(3); // docIds with gaps, increasing
        long fp = fingerprint(r, fps);
        fps.add(fp);
        clustered += d.checkAndInsert(docId, Analysis.ofFingerprint(fp, 1)).isDuplicate() ? 1 : 0;
        stored.add(docId);
        if (r.nextInt(8) == 0) { // remove an earlier one, sometimes a representative
          long victim = stored.get(r.nextInt(stored.size()));
          d.remove(victim);
          if (r.nextBoolean()) { // and store that docId again: its old ordinal stays removed
            fps.add(fp);
            d.checkAndInsert(victim, Analysis.ofFingerprint(fingerprint(r, fps), 1));
            stored.add(victim);
          }
        }
      }
      assertThat(clustered).as("seed %s makes clusters", seed).isGreaterThan(1000);
      List<Long> asked = new ArrayList<>(stored);
      for (int i = 0; i < 300; i++) { // never stored, and between stored ones
        asked.add(r.nextInt(asked.size() + 1), docId + 1 + r.nextInt(1000));
      }
      long[] inOrder = stored.stream().mapToLong(Long::longValue).toArray();
      long[] withStrangers = asked.stream().mapToLong(Long::longValue).toArray();
      long[] shuffled = inOrder.clone();
      for (int i = shuffled.length - 1; i > 0; i--) {
        int j = r.nextInt(i + 1);
        long t = shuffled[i];
        shuffled[i] = shuffled[j];
        shuffled[j] = t;
      }
      long[] reversed = new long[inOrder.length];
      for (int i = 0; i < inOrder.length; i++) {
        reversed[i] = inOrder[inOrder.length - 1 - i];
      }
      assertAgrees(d, inOrder, "in order, seed " + seed);
      assertAgrees(d, withStrangers, "with unknown docIds, seed " + seed);
      assertAgrees(d, shuffled, "shuffled, seed " + seed);
      assertAgrees(d, reversed, "reversed, seed " + seed);
      d.compact(); // renumbers the live ordinals
      assertAgrees(d, inOrder, "in order after compact, seed " + seed);
      assertAgrees(d, withStrangers, "with unknown docIds after compact, seed " + seed);
    }
  }
}
