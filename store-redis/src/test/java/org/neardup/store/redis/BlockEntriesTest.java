// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.neardup.decide.CandidateKeys;

class BlockEntriesTest {
  /**
   * Two fingerprints under one block key differ only outside the block, so the popcount of their
   * rests' XOR is their distance, and that of the rest keys an entry keeps is at most the distance:
   * the node drops candidates farther than k without their records and never a nearer one.
   */
  @Test
  void rest_sameBlockKey_xorPopcountIsTheDistance() {
    SplittableRandom r = new SplittableRandom(7);
    for (int k : new int[] {0, 1, 3, 4, 6, 10, 63}) {
      CandidateKeys keys = new CandidateKeys(k);
      BlockEntries e = new BlockEntries(keys);
      assertThat(e.restBytes).as("k=%s", k).isLessThanOrEqualTo(BlockEntries.MAX_REST_BYTES);
      for (int i = 0; i < 2_000; i++) {
        long a = r.nextLong();
        long b = a ^ r.nextLong() & r.nextLong() & r.nextLong();
        for (int t = 0; t < keys.blockCount(); t++) {
          if (keys.blockKey(t, a) == keys.blockKey(t, b)) {
            assertThat(Long.bitCount(e.rest(t, a) ^ e.rest(t, b)))
                .as("k=%s t=%s a=%x b=%x", k, t, a, b)
                .isEqualTo(Long.bitCount(a ^ b));
          }
          assertThat(Long.bitCount(e.restKey(t, a) ^ e.restKey(t, b)))
              .as("k=%s t=%s a=%x b=%x", k, t, a, b)
              .isLessThanOrEqualTo(Long.bitCount(a ^ b));
          byte[] entry = new byte[e.width];
          e.putEntry(t, 12345, a, entry, 0);
          assertThat(e.rest(entry, 0)).isEqualTo(e.restKey(t, a));
          assertThat(BlockEntries.ordinal(entry, 0)).isEqualTo(12345);
        }
      }
    }
  }

  /**
   * With keys of fewer bits than a block (a collection's block-key-bits), near-duplicates still
   * share a key (they share a whole block, so its top bits too), and the rest keys still bound the
   * distance from below, so the node's filter drops no candidate within k.
   */
  @Test
  void keys_fewerBits_nearDuplicatesShareAKeyAndRestBoundsTheDistance() {
    SplittableRandom r = new SplittableRandom(11);
    for (int bits : new int[] {8, 11, 14, 16}) {
      for (int k : new int[] {0, 3, 6}) {
        CandidateKeys keys = new CandidateKeys(k);
        BlockEntries e = new BlockEntries(keys, bits);
        assertThat(e.width).isEqualTo(9);
        for (int i = 0; i < 2_000; i++) {
          long a = r.nextLong();
          long b = a;
          for (int flips = r.nextInt(k + 1); flips > 0; flips--) {
            b ^= 1L << r.nextInt(64);
          }
          boolean shared = false;
          for (int t = 0; t < e.count(); t++) {
            assertThat(e.key(t, a) >>> 16).isEqualTo(t);
            assertThat(e.key(t, a) & 0xffff).isLessThan(1 << bits);
            if (e.key(t, a) == e.key(t, b)) {
              shared = true;
              assertThat(Long.bitCount(e.restKey(t, a) ^ e.restKey(t, b)))
                  .as("bits=%s k=%s t=%s a=%x b=%x", bits, k, t, a, b)
                  .isLessThanOrEqualTo(Long.bitCount(a ^ b));
            }
          }
          assertThat(shared).as("bits=%s k=%s a=%x b=%x", bits, k, a, b).isTrue();
        }
      }
    }
  }

  @Test
  void keys_allBits_areTheCandidateKeys() {
    SplittableRandom r = new SplittableRandom(5);
    CandidateKeys keys = new CandidateKeys(3);
    BlockEntries e = new BlockEntries(keys);
    for (int i = 0; i < 1_000; i++) {
      long f = r.nextLong();
      assertThat(e.keys(f)).containsExactly(keys.blockKeys(f));
    }
  }

  @Test
  void width_k3_isNineBytes() {
    // 5-byte ordinal + the low 32 of the 48 bits outside a 16-bit block (memory, issue 15).
    assertThat(new BlockEntries(new CandidateKeys(3)).width).isEqualTo(9);
  }

  @Test
  void ordinal_readsFiveBytesBigEndian() {
    byte[] entry = {0x01, 0x02, 0x03, 0x04, 0x05, 0, 0, 0, 0};
    assertThat(BlockEntries.ordinal(entry, 0)).isEqualTo(0x0102030405L);
  }
}
