// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An {@link IndexImage} written and read back is the segment a sort would build: the same
 * invariants and the same answers; a torn or corrupt file is refused with an IOException.
 */
class IndexImageTest {
  private static long[] fingerprints(SplittableRandom r, int n) {
    long[] fps = new long[n];
    for (int i = 0; i < n; i++) {
      // Near copies and exact repeats, so that runs of equal fingerprints sort by id.
      fps[i] =
          i > 0 && r.nextInt(4) == 0
              ? fps[r.nextInt(i)] ^ (r.nextInt(3) == 0 ? 0 : 1L << r.nextInt(64))
              : r.nextLong();
    }
    return fps;
  }

  private static byte[] bytes(IndexImage image) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    long written = image.write(Channels.newChannel(out));
    assertThat(written).isEqualTo(out.size());
    return out.toByteArray();
  }

  private static IndexImage read(byte[] b) throws IOException {
    return IndexImage.read(Channels.newChannel(new ByteArrayInputStream(b)));
  }

  private static List<long[]> matches(HammingIndex index, long q, int k) {
    List<long[]> out = new ArrayList<>();
    index.search(q, k, (id, fp, d) -> out.add(new long[] {id, fp, d}));
    out.sort((a, b) -> Long.compare(a[0], b[0]));
    return out;
  }

  private static byte[] streamed(BlockScheme scheme, long[] fps, int n, int chunk)
      throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    long written = IndexImage.write(scheme, fps, n, Channels.newChannel(out), chunk);
    assertThat(written).isEqualTo(out.size());
    return out.toByteArray();
  }

  @ParameterizedTest
  @ValueSource(strings = {"4:1", "5:2", "6:3"})
  void write_tableByTable_isTheBuiltImageByteForByte(String schemeText) throws IOException {
    BlockScheme scheme = BlockScheme.parse(schemeText);
    SplittableRandom r = new SplittableRandom(31L * schemeText.hashCode());
    // Empty, one entry, below, at and above a chunk's length and a few chunks with a short last
    // one; a prefix of a longer array (copied) and a whole one (sorted in place).
    int[][] cases = {
      {0, 7}, {1, 7}, {6, 7}, {7, 7}, {8, 7}, {1000, 64}, {5000, 333}, {3000, 1 << 16}
    };
    for (int[] c : cases) {
      int n = c[0];
      long[] fps = fingerprints(r, n + (n % 2));
      byte[] expected = bytes(IndexImage.build(scheme, fps.clone(), n));
      assertThat(streamed(scheme, fps.clone(), n, c[1])).as("n = %s", n).isEqualTo(expected);
      if (n == fps.length) {
        assertThat(streamed(scheme, fps, n, c[1])).as("n = %s in place", n).isEqualTo(expected);
      }
    }
  }

  @Test
  void write_tableByTable_readsBackAsTheSortedIndex() throws IOException {
    SplittableRandom r = new SplittableRandom(18);
    int n = 4000;
    long[] fps = fingerprints(r, n);
    IndexImage read = read(streamed(BlockScheme.DEFAULT, fps.clone(), n, 100));
    read.checkInvariants();
    assertThat(read.agrees(o -> fps[(int) o], n)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"4:1", "5:2", "6:3"})
  void writtenAndRead_answersAsASortedIndex(String schemeText) throws IOException {
    BlockScheme scheme = BlockScheme.parse(schemeText);
    SplittableRandom r = new SplittableRandom(schemeText.hashCode());
    int n = 5000;
    long[] fps = fingerprints(r, n);
    IndexImage read = read(bytes(IndexImage.build(scheme, fps.clone(), n)));
    read.checkInvariants();
    assertThat(read.size()).isEqualTo(n);
    BlockPermutedIndex fromImage = BlockPermutedIndex.create(scheme);
    fromImage.addImage(read);
    BlockPermutedIndex sorted = BlockPermutedIndex.create(scheme);
    long[] ids = new long[n];
    for (int i = 0; i < n; i++) {
      ids[i] = i;
    }
    sorted.addAllOwned(fps.clone(), ids);
    assertThat(fromImage.size()).isEqualTo(sorted.size());
    int k = Math.min(3, scheme.exactUpTo());
    for (int i = 0; i < 300; i++) {
      long q = fps[r.nextInt(n)] ^ (1L << r.nextInt(64));
      assertThat(matches(fromImage, q, k))
          .usingRecursiveComparison()
          .isEqualTo(matches(sorted, q, k));
    }
    // Removes find their entries in the image's segment.
    for (int i = 0; i < 100; i++) {
      int victim = r.nextInt(n);
      assertThat(fromImage.remove(fps[victim], victim))
          .isEqualTo(sorted.remove(fps[victim], victim));
    }
    assertThat(fromImage.size()).isEqualTo(sorted.size());
  }

  @Test
  void renumbered_answersAsAnIndexOfTheKeptPositions() throws IOException {
    SplittableRandom r = new SplittableRandom(7);
    int n = 3000;
    long[] fps = fingerprints(r, n);
    BitSet skipped = new BitSet();
    List<Long> keptFps = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (r.nextInt(5) == 0 || i == n - 1) {
        skipped.set(i);
      } else {
        keptFps.add(fps[i]);
      }
    }
    IndexImage image = read(bytes(IndexImage.build(BlockScheme.DEFAULT, fps.clone(), n)));
    image.renumber(skipped);
    image.checkInvariants();
    assertThat(image.ordinals()).isEqualTo(keptFps.size());
    assertThat(image.agrees(o -> keptFps.get((int) o), 10_000)).isTrue();
    BlockPermutedIndex fromImage = BlockPermutedIndex.create(BlockScheme.DEFAULT);
    fromImage.addImage(image);
    BlockPermutedIndex sorted = BlockPermutedIndex.create(BlockScheme.DEFAULT);
    long[] kf = new long[keptFps.size()];
    long[] ids = new long[kf.length];
    for (int i = 0; i < kf.length; i++) {
      kf[i] = keptFps.get(i);
      ids[i] = i;
    }
    sorted.addAllOwned(kf.clone(), ids);
    assertThat(fromImage.size()).isEqualTo(kf.length);
    for (int i = 0; i < 300; i++) {
      long q = fps[r.nextInt(n)] ^ (1L << r.nextInt(64));
      assertThat(matches(fromImage, q, 3))
          .usingRecursiveComparison()
          .isEqualTo(matches(sorted, q, 3));
    }
    assertThatThrownBy(() -> fromImage.addImage(image)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void everyCorruptedOrTornFile_isRefused() throws IOException {
    SplittableRandom r = new SplittableRandom(11);
    int n = 2000;
    byte[] good = bytes(IndexImage.build(BlockScheme.DEFAULT, fingerprints(r, n), n));
    read(good).checkInvariants();
    for (int i = 0; i < 200; i++) {
      byte[] bad = good.clone();
      int at = i < 40 ? i : r.nextInt(bad.length); // the header's bytes, then anywhere
      bad[at] ^= (byte) (1 + r.nextInt(255));
      assertThatThrownBy(() -> read(bad)).as("byte %s changed", at).isInstanceOf(IOException.class);
    }
    for (int cut : new int[] {0, 3, 40, good.length / 2, good.length - 4, good.length - 1}) {
      byte[] torn = Arrays.copyOf(good, cut);
      assertThatThrownBy(() -> read(torn)).as("cut at %s", cut).isInstanceOf(IOException.class);
    }
    byte[] longer = Arrays.copyOf(good, good.length + 1);
    assertThatThrownBy(() -> read(longer)).isInstanceOf(IOException.class);
  }

  @Test
  void anEmptyImage_readsBack() throws IOException {
    IndexImage image = read(bytes(IndexImage.build(BlockScheme.DEFAULT, new long[0], 0)));
    assertThat(image.size()).isZero();
    BlockPermutedIndex index = BlockPermutedIndex.create(BlockScheme.DEFAULT);
    index.addImage(image);
    assertThat(index.size()).isZero();
  }
}
