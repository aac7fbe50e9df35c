// SPDX-License-Identifier: Apache-2.0
package org.neardup.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.neardup.internal.PagedLongArray;

/**
 * Property: an index filled by {@link BandIndex#addAll} (the open's bulk path) answers every lookup
 * and removal as one filled by {@link BandIndex#add} one key at a time, whatever the mix of bulk
 * batches, single adds and removals, and keeps its invariants. Seeded; a failure names the seed.
 */
class BandIndexBulkTest {
  private static final int PER = 3;

  @Test
  void addAll_randomMixes_answersAsOneAtATime() {
    for (int seed = 0; seed < 30; seed++) {
      runScenario(seed, 32, 512);
    }
  }

  /** The real run sizes, past one MAX_RUN, so a batch is cut into several runs. */
  @Test
  void addAll_pastOneMaxRun_answersAsOneAtATime() {
    SplittableRandom r = new SplittableRandom(7);
    BandIndex bulk = new BandIndex(0);
    BandIndex single = new BandIndex(0);
    long[] pool = pool(r, 1 << 20);
    int docs = BandIndex.MAX_RUN / PER + 50_000;
    PagedLongArray keys = new PagedLongArray();
    // A few single adds first: the table's entries must open the first bulk run.
    int ordinal = 0;
    for (; ordinal < 1000; ordinal++) {
      long[] k = keysOf(r, pool);
      bulk.add(k, ordinal);
      single.add(k, ordinal);
    }
    for (int i = 0; i < docs; i++) {
      long[] k = keysOf(r, pool);
      keys.append(k, 0, PER);
      single.add(k, ordinal + i);
    }
    bulk.addAll(keys, 0, PER, ordinal, docs);
    assertThat(bulk.toString()).contains("runs=2");
    bulk.checkInvariants();
    for (int q = 0; q < 20_000; q++) {
      long[] k = {pool[r.nextInt(pool.length)]};
      assertThat(ordinals(bulk, k)).as("key %s", k[0]).isEqualTo(ordinals(single, k));
    }
    assertThat(bulk.size()).isEqualTo(single.size());
  }

  @Test
  void addAll_ordinalNotAboveStored_isRejected() {
    BandIndex index = new BandIndex(0);
    index.add(new long[] {1, 2, 3}, 5);
    PagedLongArray keys = new PagedLongArray();
    keys.append(new long[] {4, 5, 6}, 0, 3);
    assertThatThrownBy(() -> index.addAll(keys, 0, PER, 5, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ordinals must ascend");
    assertThatThrownBy(() -> index.addAll(keys, 0, PER, 6, 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("outside the array");
    assertThat(index.size()).isEqualTo(3);
  }

  private static void runScenario(int seed, int freezeAt, int maxRun) {
    SplittableRandom r = new SplittableRandom(seed);
    BandIndex bulk = new BandIndex(0, freezeAt, maxRun);
    BandIndex single = new BandIndex(0, freezeAt, maxRun);
    // A small pool: many ordinals per key, and the same key twice in one document now and then.
    long[] pool = pool(r, 1 + r.nextInt(200));
    List<long[]> stored = new ArrayList<>(); // {ordinal, keys...}
    int next = 0;
    for (int step = 0; step < 30; step++) {
      int what = r.nextInt(4);
      if (what == 0) {
        int docs = r.nextInt(1 + r.nextInt(3) * 150);
        PagedLongArray keys = new PagedLongArray();
        int skip = r.nextInt(3); // keys that do not belong to the batch, before it
        for (int i = 0; i < skip * PER; i++) {
          keys.append(r.nextLong());
        }
        for (int i = 0; i < docs; i++) {
          long[] k = keysOf(r, pool);
          keys.append(k, 0, PER);
          single.add(k, next + i);
          stored.add(withOrdinal(next + i, k));
        }
        bulk.addAll(keys, (long) skip * PER, PER, next, docs);
        next += docs;
      } else if (what == 1) {
        for (int i = r.nextInt(40); i > 0; i--) {
          long[] k = keysOf(r, pool);
          single.add(k, next);
          bulk.add(k, next);
          stored.add(withOrdinal(next, k));
          next++;
        }
      } else if (what == 3) {
        // One 32-bit key per ordinal, ordinals with gaps: the id table's bulk path.
        int count = r.nextInt(1 + r.nextInt(3) * 300);
        PagedLongArray packed = new PagedLongArray();
        int skip = r.nextInt(3);
        for (int i = 0; i < skip; i++) {
          packed.append(r.nextLong());
        }
        for (int i = 0; i < count; i++) {
          next += 1 + (r.nextInt(4) == 0 ? r.nextInt(5) : 0);
          long key = pool[r.nextInt(pool.length)];
          packed.append(key << 32 | next);
          single.add(key, next);
          stored.add(new long[] {next, key});
        }
        bulk.addAllPacked(packed, skip, count);
        next++;
      } else {
        for (int i = r.nextInt(1 + Math.min(30, stored.size() / 3)); i > 0; i--) {
          long[] e = stored.remove(r.nextInt(stored.size()));
          long[] k = java.util.Arrays.copyOfRange(e, 1, e.length);
          assertThat(bulk.remove(k, (int) e[0])).as("seed %s", seed).isEqualTo(k.length);
          assertThat(single.remove(k, (int) e[0])).as("seed %s", seed).isEqualTo(k.length);
        }
      }
      bulk.checkInvariants();
      single.checkInvariants();
      assertThat(bulk.size()).as("seed %s", seed).isEqualTo(single.size());
      for (long key : pool) {
        long[] k = {key};
        assertThat(ordinals(bulk, k))
            .as("seed %s, key %s", seed, key)
            .isEqualTo(ordinals(single, k));
      }
    }
  }

  /** Keys of 32 bits, so the packed path (32-bit keys) can take them too. */
  private static long[] pool(SplittableRandom r, int n) {
    long[] pool = new long[n];
    for (int i = 0; i < n; i++) {
      pool[i] = r.nextInt() & 0xFFFFFFFFL;
    }
    return pool;
  }

  private static long[] keysOf(SplittableRandom r, long[] pool) {
    long[] k = new long[PER];
    for (int b = 0; b < PER; b++) {
      k[b] = pool[r.nextInt(pool.length)];
    }
    return k;
  }

  private static long[] withOrdinal(int ordinal, long[] keys) {
    long[] e = new long[keys.length + 1];
    e[0] = ordinal;
    System.arraycopy(keys, 0, e, 1, keys.length);
    return e;
  }

  /** Every ordinal forEach reports for the keys, sorted (the two indexes may order them apart). */
  private static List<Integer> ordinals(BandIndex index, long[] keys) {
    List<Integer> got = new ArrayList<>();
    index.forEach(keys, got::add);
    got.sort(null);
    return got;
  }
}
