// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.neardup.internal.PagedIntArray;
import org.neardup.internal.PagedLongArray;
import org.neardup.verify.SketchStore;

/**
 * SketchFile against the heap store: the same bytes back for every entry, whatever the sizes; with
 * positioned reads only (window bits 0), with windows of 4 KiB and 64 KiB (so that entries straddle
 * windows, small windows give way to large ones, and entries larger than a window go by), and with
 * the defaults.
 */
class SketchFileTest {
  @TempDir Path dir;

  @ParameterizedTest
  @CsvSource({"0, 0", "12, 16", "14, 14", "20, 26"})
  public void randomEntries_readBackAsTheHeapStoreDoes(int smallBits, int largeBits)
      throws Exception {
    long seed = 20261124;
    SplittableRandom r = new SplittableRandom(seed);
    int bands = 6;
    SketchStore heap = SketchStore.onHeap().create(bands, 0);
    Path file = dir.resolve("s.tmp");
    try (SketchFile f = new SketchFile(file, bands, 0, List.of(), smallBits, largeBits)) {
      long[] keys = new long[bands];
      for (int i = 0; i < 3000; i++) {
        // Mostly sketch-sized entries, some empty, some (with their keys) larger than the write
        // buffer, up to the heap store's limit of 1 MiB.
        int len =
            i % 500 == 7
                ? SketchFile.TAIL - 8 * bands + 1 + r.nextInt(8 * bands)
                : i % 97 == 0 ? 0 : r.nextInt(4000);
        byte[] sketch = new byte[len + 3];
        r.nextBytes(sketch);
        for (int k = 0; k < bands; k++) {
          keys[k] = r.nextLong();
        }
        assertThat(f.add(keys, bands, sketch, 3, len)).isEqualTo(i);
        assertThat(heap.add(keys, bands, sketch, 3, len)).isEqualTo(i);
        // Read some earlier entry back now: from the buffer or from the file.
        int j = r.nextInt(i + 1);
        assertSame(heap, f, j, bands, "seed " + seed + " after add " + i);
      }
      for (int i = 0; i < 3000; i++) {
        assertSame(heap, f, i, bands, "seed " + seed);
      }
      assertThat(f.size()).isEqualTo(3000);
      assertThat(Files.size(file)).isLessThanOrEqualTo(f.diskBytes());
      // The write buffer, the offsets and the maps' objects (a few per window: many at 16 KiB).
      long windows =
          smallBits == 0 ? 0 : 2 + (f.diskBytes() >>> largeBits) + (1L << (largeBits - smallBits));
      assertThat(f.ramBytesUsed()).isLessThan(SketchFile.TAIL + 64 * 1024 + 88 * windows);
    }
    assertThat(file).doesNotExist();
  }

  /**
   * Entries taken from a base file in place (some of the base's skipped, as documents that expired
   * before an open), then entries of its own: every one reads back as the heap store's, and the
   * base is read, never changed or deleted.
   */
  @ParameterizedTest
  @CsvSource({"0, 0", "12, 16", "20, 26"})
  public void entriesFromBaseWithGaps_thenOwn_readBackAsTheHeapStoreDoes(
      int smallBits, int largeBits) throws Exception {
    long seed = 20261125;
    SplittableRandom r = new SplittableRandom(seed);
    int bands = 6;
    SketchStore heap = SketchStore.onHeap().create(bands, 0);
    // The base: a 20-byte header, entries (keys little-endian, then the sketch), a footer.
    java.io.ByteArrayOutputStream base = new java.io.ByteArrayOutputStream();
    base.write(new byte[SnapshotFormat.SKETCH_HEADER]);
    List<long[]> keysOf = new ArrayList<>();
    List<byte[]> sketchOf = new ArrayList<>();
    PagedLongArray at = new PagedLongArray();
    PagedIntArray length = new PagedIntArray();
    for (int i = 0; i < 2000; i++) {
      long[] keys = new long[bands];
      java.nio.ByteBuffer e =
          java.nio.ByteBuffer.allocate(bands * 8).order(java.nio.ByteOrder.LITTLE_ENDIAN);
      for (int k = 0; k < bands; k++) {
        keys[k] = r.nextLong();
        e.putLong(keys[k]);
      }
      byte[] sketch = new byte[i % 101 == 0 ? 0 : r.nextInt(3000)];
      r.nextBytes(sketch);
      boolean skipped = r.nextInt(5) == 0 || i < 30; // a run at the head, then here and there
      if (!skipped) {
        keysOf.add(keys);
        sketchOf.add(sketch);
        at.append(base.size());
        length.append(bands * 8 + sketch.length);
      }
      base.write(e.array());
      base.write(sketch);
    }
    base.write(new byte[SnapshotFormat.SKETCH_FOOTER]);
    Path baseFile = dir.resolve("snapshot.ndsketch");
    Files.write(baseFile, base.toByteArray());
    Path file = dir.resolve("s.tmp");
    try (SketchFile f =
        new SketchFile(file, bands, 0, java.util.List.of(baseFile), smallBits, largeBits)) {
      f.takeFromBase(at, length);
      for (int i = 0; i < keysOf.size(); i++) {
        // The bytes given are ignored: the entry is the base's.
        assertThat(f.add(new long[bands], bands, new byte[0], 0, 0)).isEqualTo(i);
        assertThat(heap.add(keysOf.get(i), bands, sketchOf.get(i), 0, sketchOf.get(i).length))
            .isEqualTo(i);
      }
      f.takeFromBase(null, null);
      int taken = keysOf.size();
      long[] keys = new long[bands];
      long own = 0;
      for (int i = taken; i < taken + 1500; i++) {
        int len = i % 400 == 9 ? SketchFile.TAIL - 8 * bands + 1 : r.nextInt(3000);
        byte[] sketch = new byte[len];
        r.nextBytes(sketch);
        for (int k = 0; k < bands; k++) {
          keys[k] = r.nextLong();
        }
        assertThat(f.add(keys, bands, sketch, 0, len)).isEqualTo(i);
        assertThat(heap.add(keys, bands, sketch, 0, len)).isEqualTo(i);
        own += bands * 8 + len;
        assertSame(heap, f, r.nextInt(i + 1), bands, "seed " + seed + " after add " + i);
      }
      for (int i = 0; i < f.size(); i++) {
        assertSame(heap, f, i, bands, "seed " + seed);
      }
      // Only its own entries count as its disk bytes: the base is the snapshot's.
      assertThat(f.diskBytes()).isEqualTo(own);
    }
    assertThat(file).doesNotExist();
    assertThat(Files.readAllBytes(baseFile)).isEqualTo(base.toByteArray());
  }

  private static void assertSame(SketchStore want, SketchStore got, int i, int bands, String as) {
    SketchStore.Slice a = new SketchStore.Slice();
    SketchStore.Slice b = new SketchStore.Slice();
    want.sketch(i, a);
    got.sketch(i, b);
    assertThat(Arrays.copyOfRange(b.array, b.offset, b.offset + b.length))
        .as("%s: sketch %s", as, i)
        .isEqualTo(Arrays.copyOfRange(a.array, a.offset, a.offset + a.length));
    long[] ka = new long[bands];
    long[] kb = new long[bands];
    want.bandKeys(i, ka);
    got.bandKeys(i, kb);
    assertThat(kb).as("%s: band keys %s", as, i).isEqualTo(ka);
  }

  /**
   * One slice per thread is reused for every candidate: a read from the file after a view of the
   * write buffer must not copy into the buffer it viewed. (It did: "corrupt sketch: 1619 trailing
   * bytes" after 155,000 news articles in benchmarks/service-news.sh.)
   */
  @Test
  public void reusedSlice_viewOfBufferThenReadFromFile_leavesTheBufferIntact() throws Exception {
    SplittableRandom r = new SplittableRandom(155_001);
    SketchStore heap = SketchStore.onHeap().create(1, 0);
    try (SketchFile f = new SketchFile(dir.resolve("v.tmp"), 1, 0)) {
      SketchStore.Slice reused = new SketchStore.Slice();
      for (int i = 0; i < 2000; i++) {
        byte[] sketch = new byte[1500 + r.nextInt(1500)];
        r.nextBytes(sketch);
        f.add(new long[] {i}, 1, sketch, 0, sketch.length);
        heap.add(new long[] {i}, 1, sketch, 0, sketch.length);
        f.sketch(i, reused); // the newest: a view of the write buffer
        f.sketch(r.nextInt(i + 1), reused); // maybe flushed: a copy into the slice's own buffer
        for (int j = Math.max(0, i - 3); j <= i; j++) {
          SketchStore.Slice want = new SketchStore.Slice();
          heap.sketch(j, want);
          f.sketch(j, reused);
          assertThat(Arrays.copyOfRange(reused.array, reused.offset, reused.offset + reused.length))
              .as("entry %s after add %s", j, i)
              .isEqualTo(Arrays.copyOfRange(want.array, want.offset, want.offset + want.length));
        }
      }
    }
  }

  /** A closed file (its generation replaced) reads as empty sketches, for stale probes. */
  @Test
  public void closed_readsEmptySketches() {
    SketchFile f = new SketchFile(dir.resolve("c.tmp"), 1, 0);
    byte[] big = new byte[SketchFile.TAIL];
    Arrays.fill(big, (byte) 7);
    f.add(new long[] {1}, 1, big, 0, 100);
    f.add(new long[] {2}, 1, big, 0, SketchFile.TAIL); // flushes the first
    f.close();
    SketchStore.Slice s = new SketchStore.Slice();
    f.sketch(0, s);
    assertThat(s.length).isZero();
  }

  /**
   * FileChannel closes itself under every thread when a thread reading it is interrupted; the
   * interrupted thread's read fails, and the others still read the right bytes.
   */
  @Test
  public void interruptedReader_othersStillRead() throws Exception {
    // Positioned reads only: a map would serve the interrupted reader (below).
    SketchFile f = new SketchFile(dir.resolve("i.tmp"), 1, 0, List.of(), 0, 0);
    byte[] data = new byte[SketchFile.TAIL];
    new SplittableRandom(3).nextBytes(data);
    f.add(new long[] {42}, 1, data, 0, 1000);
    f.add(new long[] {43}, 1, data, 0, SketchFile.TAIL); // both now in the file
    AtomicReference<Throwable> failure = new AtomicReference<>();
    CountDownLatch done = new CountDownLatch(1);
    Thread t =
        new Thread(
            () -> {
              Thread.currentThread().interrupt();
              try {
                f.sketch(0, new SketchStore.Slice());
              } catch (Throwable e) {
                failure.set(e);
              } finally {
                done.countDown();
              }
            });
    t.start();
    done.await();
    t.join();
    assertThat(failure.get()).isNotNull();
    SketchStore.Slice s = new SketchStore.Slice();
    f.sketch(0, s);
    assertThat(Arrays.copyOfRange(s.array, s.offset, s.offset + s.length))
        .isEqualTo(Arrays.copyOf(data, 1000));
    long[] keys = new long[1];
    f.bandKeys(1, keys);
    assertThat(keys[0]).isEqualTo(43);
    f.close();
  }

  /**
   * With maps, an interrupted reader reads a mapped entry like any other (no channel operation to
   * interrupt), and the entries not yet mapped (the last window's, written but not whole) are read
   * with positioned reads by the others.
   */
  @Test
  public void interruptedReader_mappedEntryRead_unmappedByOthers() throws Exception {
    SketchFile f = new SketchFile(dir.resolve("m.tmp"), 1, 0, List.of(), 12, 16);
    byte[] data = new byte[SketchFile.TAIL];
    new SplittableRandom(4).nextBytes(data);
    f.add(new long[] {42}, 1, data, 0, 1000);
    f.add(new long[] {43}, 1, data, 7, 5000); // with the first, 6,016 bytes: one 4 KiB window
    f.add(new long[] {44}, 1, data, 0, SketchFile.TAIL); // flushes both, then goes to the file
    AtomicReference<byte[]> read = new AtomicReference<>();
    Thread t =
        new Thread(
            () -> {
              Thread.currentThread().interrupt();
              SketchStore.Slice s = new SketchStore.Slice();
              f.sketch(0, s);
              read.set(Arrays.copyOfRange(s.array, s.offset, s.offset + s.length));
            });
    t.start();
    t.join();
    assertThat(read.get()).isEqualTo(Arrays.copyOf(data, 1000));
    SketchStore.Slice s = new SketchStore.Slice();
    f.sketch(1, s); // straddles the first window's end: a positioned read
    assertThat(Arrays.copyOfRange(s.array, s.offset, s.offset + s.length))
        .isEqualTo(Arrays.copyOfRange(data, 7, 5007));
    f.sketch(2, s);
    assertThat(Arrays.copyOfRange(s.array, s.offset, s.offset + s.length)).isEqualTo(data);
    f.close();
    f.sketch(0, s);
    assertThat(s.length).isZero();
  }
}
