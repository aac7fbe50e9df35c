// SPDX-License-Identifier: Apache-2.0
package org.neardup.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.neardup.internal.PagedLongArray;

/**
 * Property: an index that took its runs from an image ({@link BandIndex#addImage}), renumbered past
 * skipped positions, reports for every key exactly what an index given the kept documents' keys by
 * {@link BandIndex#addAll} reports, also after removals and later adds; keys folding alike and
 * differing in the tag stay apart. A changed or missing byte is found when the image is read.
 * Seeded; a failure names the seed.
 */
class BandImageTest {
  private static final int BANDS = 6;

  /**
   * Keys of a document: drawn from a small pool (so documents share keys), some in tag families.
   */
  private static long[] keysOf(SplittableRandom r, long[] pool) {
    long[] k = new long[BANDS];
    for (int b = 0; b < BANDS; b++) {
      k[b] = r.nextInt(4) == 0 ? r.nextLong() : pool[r.nextInt(pool.length)];
    }
    return k;
  }

  private static long[] pool(SplittableRandom r, int families) {
    long[] pool = new long[families * 4];
    for (int f = 0; f < families; f++) {
      long base = r.nextLong();
      pool[f * 4] = base;
      pool[f * 4 + 1] = base ^ (1L << 63); // folds alike, another tag
      long bits = r.nextInt(1 << 7);
      pool[f * 4 + 2] = base ^ (bits << 56) ^ (bits << 25);
      pool[f * 4 + 3] = r.nextLong();
    }
    return pool;
  }

  private static byte[] write(List<long[]> docs, int perRun) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    BandImage.Writer w = new BandImage.Writer(Channels.newChannel(bytes), BANDS, perRun);
    for (int i = 0; i < docs.size(); i++) {
      if (i % 2 == 0) {
        w.add(docs.get(i));
      } else {
        ByteBuffer big = ByteBuffer.allocate(3 + 8 * BANDS); // big-endian, at an offset
        big.position(3);
        for (long k : docs.get(i)) {
          big.putLong(k);
        }
        w.add(big.array(), 3);
      }
    }
    long n = w.finish();
    assertThat(n).isEqualTo(bytes.size());
    assertThat(w.positions()).isEqualTo(docs.size());
    return bytes.toByteArray();
  }

  private static BandImage read(byte[] bytes) throws IOException {
    return BandImage.read(Channels.newChannel(new java.io.ByteArrayInputStream(bytes)), BANDS);
  }

  @Test
  void addImage_renumbered_answersAsAddAllOfTheKeptDocuments() throws IOException {
    for (int seed = 0; seed < 12; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      long[] pool = pool(r, 40);
      // Seed 0: one run past the writer's first buffer (2^16 entries), which it grows.
      int n = seed == 0 ? 12_000 : 1 + r.nextInt(3000);
      List<long[]> docs = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        docs.add(keysOf(r, pool));
      }
      int perRun = 1 + r.nextInt(seed % 3 == 0 ? n + 5 : 400);
      BandImage image = read(write(docs, perRun));
      assertThat(image.positions()).as("seed %s", seed).isEqualTo(n);
      BitSet skipped = new BitSet();
      int mode = seed % 4; // none, some, a run's worth at the start, all
      for (int i = 0; i < n; i++) {
        boolean skip =
            mode == 1 ? r.nextInt(3) == 0 : mode == 2 ? i < Math.min(n, perRun + 1) : mode == 3;
        if (skip) {
          skipped.set(i);
        }
      }
      image.renumber(skipped);
      List<long[]> kept = new ArrayList<>();
      PagedLongArray keys = new PagedLongArray();
      for (int i = 0; i < n; i++) {
        if (!skipped.get(i)) {
          kept.add(docs.get(i));
          keys.append(docs.get(i), 0, BANDS);
        }
      }
      assertThat(image.ordinals()).as("seed %s", seed).isEqualTo(kept.size());
      BandIndex imaged = new BandIndex(0, 1 << 8, 1 << 12);
      imaged.addImage(image);
      BandIndex filed = new BandIndex(0, 1 << 8, 1 << 12);
      filed.addAll(keys, 0, BANDS, 0, kept.size());
      imaged.checkInvariants();
      assertThat(imaged.size()).as("seed %s", seed).isEqualTo(filed.size());
      compare(seed, imaged, filed, pool, kept);
      // Removals and later adds behave alike on both.
      for (int step = 0; step < 300 && !kept.isEmpty(); step++) {
        if (r.nextBoolean()) {
          int o = r.nextInt(kept.size());
          assertThat(imaged.remove(kept.get(o), o)).isEqualTo(filed.remove(kept.get(o), o));
        } else {
          long[] k = keysOf(r, pool);
          imaged.add(k, kept.size());
          filed.add(k, kept.size());
          kept.add(k);
        }
      }
      imaged.checkInvariants();
      compare(seed, imaged, filed, pool, kept);
    }
  }

  private static void compare(
      int seed, BandIndex imaged, BandIndex filed, long[] pool, List<long[]> kept) {
    List<Long> queries = new ArrayList<>();
    for (long k : pool) {
      queries.add(k);
    }
    for (long[] d : kept) {
      queries.add(d[0]);
      queries.add(d[BANDS - 1]);
    }
    for (long q : queries) {
      List<Integer> a = new ArrayList<>();
      List<Integer> b = new ArrayList<>();
      imaged.forEach(q, a::add);
      filed.forEach(q, b::add);
      a.sort(null);
      b.sort(null);
      assertThat(a).as("seed %s, key %s", seed, Long.toHexString(q)).isEqualTo(b);
    }
  }

  @Test
  void read_anyChangedOrMissingByte_fails() throws IOException {
    SplittableRandom r = new SplittableRandom(4);
    long[] pool = pool(r, 10);
    List<long[]> docs = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      docs.add(keysOf(r, pool));
    }
    byte[] good = write(docs, 70);
    assertThat(read(good).positions()).isEqualTo(200);
    for (int i = 0; i < 200; i++) {
      byte[] bad = good.clone();
      int at = i < 20 ? i : i < 40 ? good.length - 1 - (i - 20) : r.nextInt(good.length);
      bad[at] ^= (byte) (1 + r.nextInt(255));
      assertThatThrownBy(() -> read(bad)).as("byte %s", at).isInstanceOf(IOException.class);
    }
    for (int cut : new int[] {0, 5, 16, good.length / 3, good.length - 4, good.length - 1}) {
      byte[] torn = java.util.Arrays.copyOf(good, cut);
      assertThatThrownBy(() -> read(torn)).as("cut at %s", cut).isInstanceOf(IOException.class);
    }
    assertThatThrownBy(
            () ->
                BandImage.read(
                    Channels.newChannel(new java.io.ByteArrayInputStream(good)), BANDS + 1))
        .isInstanceOf(IOException.class);
  }

  @Test
  void addImage_intoAnIndexHoldingEntries_isRefused() throws IOException {
    SplittableRandom r = new SplittableRandom(2);
    List<long[]> docs = List.of(keysOf(r, pool(r, 2)));
    BandIndex index = new BandIndex(0);
    index.add(new long[] {1, 2, 3}, 0);
    BandImage image = read(write(docs, 1));
    assertThatThrownBy(() -> index.addImage(image)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> BandIndex.of32BitKeys(0).addImage(read(write(docs, 1))))
        .isInstanceOf(IllegalStateException.class);
  }
}
