// SPDX-License-Identifier: Apache-2.0
package org.neardup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link CorpusDedup.BandKeys#share} answers from one word of signatures where it can: it must
 * answer exactly as a comparison of every key does, also when two different keys fold to the same
 * signature byte.
 */
class BandKeysTest {
  @Test
  void share_signedOrOneByOne_sameAsComparingEveryKey() {
    SplittableRandom r = new SplittableRandom(20261125);
    for (int bands = 1; bands <= 10; bands++) { // past 8 there are no signatures
      int docs = 300;
      long[] keys = new long[docs * bands];
      // Keys from a small universe, so that pairs share keys in some bands and not in others, and
      // from a set whose folds collide (keys whose byte is equal but which differ).
      long[] universe = new long[40];
      for (int u = 0; u < universe.length; u++) {
        universe[u] = r.nextLong();
      }
      for (int k = 0; k < keys.length; k++) {
        keys[k] = universe[r.nextInt(universe.length)];
      }
      CorpusDedup.BandKeys signed = new CorpusDedup.BandKeys(keys, bands, true);
      CorpusDedup.BandKeys bySlot = new CorpusDedup.BandKeys(keys, bands, false);
      for (int i = 0; i < docs; i++) {
        bySlot.sign(i);
      }
      int shared = 0;
      int notShared = 0;
      for (int i = 0; i < docs; i++) {
        for (int j = 0; j < docs; j++) {
          for (int limit = 0; limit <= bands; limit++) {
            boolean expected = false;
            for (int b = 0; b < limit; b++) {
              expected |= keys[i * bands + b] == keys[j * bands + b];
            }
            assertThat(signed.share(i, j, limit))
                .as("bands %s, %s vs %s, limit %s", bands, i, j, limit)
                .isEqualTo(expected);
            assertThat(bySlot.share(i, j, limit)).isEqualTo(expected);
            if (expected) {
              shared++;
            } else {
              notShared++;
            }
          }
        }
      }
      assertThat(shared).isGreaterThan(1000);
      assertThat(notShared).isGreaterThan(1000);
    }
  }

  @Test
  void share_foldCollision_comparesTheKeys() {
    // Search for two different keys whose signature bytes agree: share must still say no.
    SplittableRandom r = new SplittableRandom(5);
    long a = r.nextLong();
    long b;
    do {
      b = r.nextLong();
    } while (((a * 0x9E3779B97F4A7C15L) >>> 56) != ((b * 0x9E3779B97F4A7C15L) >>> 56) || a == b);
    CorpusDedup.BandKeys k = new CorpusDedup.BandKeys(new long[] {a, 1, b, 2}, 2, true);
    assertThat(k.share(0, 1, 2)).isFalse();
    assertThat(k.share(0, 0, 1)).isTrue();
  }
}
