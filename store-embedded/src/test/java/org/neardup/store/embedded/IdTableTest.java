// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** IdTable and DocTable against a HashMap: random adds and removes, every lookup agrees. */
class IdTableTest {
  @Test
  public void randomOperations_agreeWithHashMap() {
    long seed = 12345;
    SplittableRandom r = new SplittableRandom(seed);
    DocTable docs = new DocTable(1000);
    IdTable ids = new IdTable(docs, 16); // small: forces growth
    Map<String, Integer> oracle = new HashMap<>();
    long next = 1000;
    for (int op = 0; op < 200_000; op++) {
      // Few distinct ids, so adds, removes and re-adds of the same id are frequent.
      String id = "https://example.com/" + r.nextInt(5000);
      byte[] b = id.getBytes(StandardCharsets.UTF_8);
      int h = IdTable.hash(b, 0, b.length);
      Integer want = oracle.get(id);
      int got = ids.find(b, h);
      assertThat(got).as("seed %s op %s id %s", seed, op, id).isEqualTo(want == null ? -1 : want);
      if (want == null) {
        int slot = docs.add(next++, b, 0, b.length, op, op);
        ids.put(h, slot);
        oracle.put(id, slot);
      } else if (r.nextBoolean()) {
        assertThat(ids.remove(h, want)).isTrue();
        docs.remove(want);
        oracle.remove(id);
        assertThat(docs.id(want)).isEqualTo(id); // a removed slot keeps its id
      }
      assertThat(ids.size()).isEqualTo(oracle.size());
      assertThat(docs.live()).isEqualTo(oracle.size());
    }
    for (Map.Entry<String, Integer> e : oracle.entrySet()) {
      assertThat(docs.id(e.getValue())).isEqualTo(e.getKey());
      assertThat(docs.isLive(e.getValue())).isTrue();
      assertThat(docs.expiresAt(e.getValue())).isEqualTo(docs.timestamp(e.getValue()));
    }
  }

  /** Growth from nothing across many sub-table splits (2^16 slots each), with removals. */
  @Test
  public void manyIds_growingPastSplits_agreeWithHashMap() {
    SplittableRandom r = new SplittableRandom(77);
    DocTable docs = new DocTable(0);
    IdTable ids = new IdTable(docs, 0);
    Map<String, Integer> oracle = new HashMap<>();
    long next = 0;
    for (int op = 0; op < 400_000; op++) {
      String id = "https://example.com/news/" + op + ".html";
      byte[] b = id.getBytes(StandardCharsets.UTF_8);
      int slot = docs.add(next++, b, 0, b.length, op, op);
      ids.put(IdTable.hash(b, 0, b.length), slot);
      oracle.put(id, slot);
      if (r.nextInt(4) == 0) {
        String victim = "https://example.com/news/" + r.nextInt(op + 1) + ".html";
        Integer s = oracle.remove(victim);
        if (s != null) {
          byte[] v = victim.getBytes(StandardCharsets.UTF_8);
          assertThat(ids.remove(IdTable.hash(v, 0, v.length), s)).isTrue();
          docs.remove(s);
        }
      }
    }
    assertThat(ids.size()).isEqualTo(oracle.size());
    ids.checkInvariants();
    for (int op = 0; op < 400_000; op++) {
      String id = "https://example.com/news/" + op + ".html";
      byte[] b = id.getBytes(StandardCharsets.UTF_8);
      Integer want = oracle.get(id);
      assertThat(ids.find(b, IdTable.hash(b, 0, b.length)))
          .as(id)
          .isEqualTo(want == null ? -1 : want);
    }
    ids.checkInvariants();
    // Frozen runs: 6 bytes per entry plus 256 KiB of bucket bounds per run, ~2.6 B at this size.
    assertThat((double) ids.ramBytesUsed() / ids.size()).isBetween(4.0, 12.0);
  }

  /**
   * The hash spreads ids that differ in one byte anywhere, or only in length, over 32 bits: among
   * 200,000 ids of two common shapes, almost no two share a hash, and the top and low 16 bits (the
   * band index's bucket and the rest) each take most of their values.
   */
  @Test
  public void hash_spreadsSimilarIds() {
    java.util.Set<Integer> hashes = new java.util.HashSet<>();
    java.util.Set<Integer> tops = new java.util.HashSet<>();
    java.util.Set<Integer> lows = new java.util.HashSet<>();
    int n = 0;
    for (int i = 0; i < 100_000; i++) {
      for (String id : new String[] {"https://example.com/news/" + i + ".html", "c1-" + i}) {
        byte[] b = id.getBytes(StandardCharsets.UTF_8);
        int h = IdTable.hash(b, 0, b.length);
        hashes.add(h);
        tops.add(h >>> 16);
        lows.add(h & 0xFFFF);
        n++;
      }
    }
    // 2e5 random 32-bit values: ~5 collisions expected.
    assertThat(hashes.size()).isGreaterThan(n - 50);
    // 2e5 draws of 65,536 values leave ~3,500 unseen (e^-3.05).
    assertThat(tops.size()).isGreaterThan(61_000);
    assertThat(lows.size()).isGreaterThan(61_000);
    // Every byte position and a trailing zero byte change the hash.
    byte[] base = "https://example.com/a/long/id/0123456789".getBytes(StandardCharsets.UTF_8);
    int h0 = IdTable.hash(base, 0, base.length);
    for (int at = 0; at < base.length; at++) {
      byte[] c = base.clone();
      c[at] ^= 1;
      assertThat(IdTable.hash(c, 0, c.length)).as("byte %s", at).isNotEqualTo(h0);
    }
    byte[] longer = java.util.Arrays.copyOf(base, base.length + 1);
    assertThat(IdTable.hash(longer, 0, longer.length)).isNotEqualTo(h0);
    assertThat(IdTable.hash(longer, 1, base.length)).isNotEqualTo(h0);
  }
}
