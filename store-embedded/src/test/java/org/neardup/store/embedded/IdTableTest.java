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
}
