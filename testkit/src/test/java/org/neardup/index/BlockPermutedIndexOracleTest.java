// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.neardup.testkit.BruteForce.Match;
import org.neardup.testkit.Fingerprints;

/**
 * Every scheme of {@link BlockPermutedIndex} returns exactly what {@link LinearScanIndex} returns,
 * through bulk loads, adds, removes, buffer freezes and segment merges. Lives in testkit, in the
 * index's package, because its generators are testkit's and core cannot depend on testkit.
 */
class BlockPermutedIndexOracleTest {
  static final int[] DISTANCES = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15, 16, 17, 32, 64};

  enum Shape {
    UNIFORM,
    CLUSTERED,
    DUPLICATES,
    SKEWED
  }

  static Stream<Arguments> scenarios() {
    List<Arguments> out = new ArrayList<>();
    // 4:1 and 8:2 keep tags (RecordLayout's prefix layout), the others whole records
    String[] schemes = {"4:1", "5:2", "6:3", "3:1", "7:2", "1:1", "8:1", "2:2", "8:2"};
    long seed = 20240601;
    for (String s : schemes) {
      for (Shape shape : Shape.values()) {
        int buffer = shape.ordinal() % 2 == 0 ? 32 : 256;
        out.add(Arguments.of(s, shape, buffer, seed++));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} {1} buffer={2} seed={3}")
  @MethodSource("scenarios")
  void search_anyScheme_matchesLinearScan(String schemeText, Shape shape, int buffer, long seed) {
    BlockScheme scheme = BlockScheme.parse(schemeText);
    SplittableRandom random = new SplittableRandom(seed);
    long[] fps = generate(random, shape, 3000);
    long[] ids = new long[fps.length];
    for (int i = 0; i < ids.length; i++) {
      // Some docIds repeat, and some entries are exact (fp, docId) duplicates.
      ids[i] = random.nextInt(4) == 0 ? random.nextInt(50) : i;
      if (seed % 2 == 1) { // docIds spread over more than 2^32: segments keep them in 8 bytes
        ids[i] = ids[i] * 0x1_0000_0001L - (1L << 40);
      }
      if (i > 0 && random.nextInt(20) == 0) {
        fps[i] = fps[i - 1];
        ids[i] = ids[i - 1];
      }
    }
    BlockPermutedIndex index = BlockPermutedIndex.create(scheme, buffer);
    LinearScanIndex oracle = new LinearScanIndex();
    List<String> log = new ArrayList<>();
    try {
      // Bulk load a third, then add the rest one by one with removes interleaved.
      int bulk = fps.length / 3;
      index.addAll(fps, ids, 0, bulk);
      oracle.addAll(fps, ids, 0, bulk);
      log.add("addAll [0, " + bulk + ")");
      compare(index, oracle, random, fps, 40);
      List<Integer> present = new ArrayList<>();
      for (int i = 0; i < bulk; i++) {
        present.add(i);
      }
      for (int i = bulk; i < fps.length; i++) {
        index.add(fps[i], ids[i]);
        oracle.add(fps[i], ids[i]);
        log.add("add " + i);
        present.add(i);
        if (random.nextInt(4) == 0) {
          int at = present.get(random.nextInt(present.size()));
          boolean expected = oracle.remove(fps[at], ids[at]);
          assertThat(index.remove(fps[at], ids[at])).as("remove %s", at).isEqualTo(expected);
          log.add("remove " + at + " -> " + expected);
        }
        if (random.nextInt(50) == 0) {
          long fp = random.nextLong();
          assertThat(index.remove(fp, 7)).isEqualTo(oracle.remove(fp, 7));
        }
        if (i % 500 == 0) {
          compare(index, oracle, random, fps, 10);
        }
      }
      index.checkInvariants();
      compare(index, oracle, random, fps, 40);
      // Remove most of it, so segments compact, then merge everything.
      for (int i = 0; i < fps.length; i++) {
        if (random.nextInt(3) > 0) {
          assertThat(index.remove(fps[i], ids[i])).isEqualTo(oracle.remove(fps[i], ids[i]));
        }
      }
      log.add("removed two thirds");
      index.checkInvariants();
      compare(index, oracle, random, fps, 20);
      index.forceMerge();
      log.add("forceMerge");
      index.checkInvariants();
      assertThat(index.segmentCount()).isLessThanOrEqualTo(1);
      compare(index, oracle, random, fps, 20);
    } catch (AssertionError | RuntimeException e) {
      Path dump = dump(schemeText, shape, buffer, seed, fps, ids, log);
      throw new AssertionError(
          String.format(
              Locale.ROOT,
              "scheme %s shape %s buffer %d seed %d failed; input dumped to %s",
              schemeText,
              shape,
              buffer,
              seed,
              dump),
          e);
    }
  }

  /**
   * 1% of 200k entries share one block value (as short texts do): adds, freezes, merges and
   * searches stay fast and agree with the oracle, for the default scheme and for 5:2.
   */
  @org.junit.jupiter.api.Test
  void search_onePercentShareABlock_agreesAndStaysFast() {
    for (String text : new String[] {"4:1", "5:2"}) {
      BlockScheme scheme = BlockScheme.parse(text);
      SplittableRandom random = new SplittableRandom(17);
      int n = 200_000;
      long[] fps = Fingerprints.skewed(random, n, 0.01, scheme.keyMask(0));
      // A 2^16 buffer hashes on 16 bits, so freezes take the chain-walking path.
      BlockPermutedIndex index = BlockPermutedIndex.create(scheme, 1 << 16);
      LinearScanIndex oracle = new LinearScanIndex();
      long t0 = System.nanoTime();
      for (int i = 0; i < n; i++) {
        index.add(fps[i], i);
        oracle.add(fps[i], i);
        if (i % 50 == 7) {
          int at = random.nextInt(i + 1);
          assertThat(index.remove(fps[at], at)).isEqualTo(oracle.remove(fps[at], at));
        }
      }
      assertThat((System.nanoTime() - t0) / 1e9).as("seconds to add").isLessThan(10);
      index.checkInvariants();
      // queries in the crowded block and elsewhere
      for (int qi = 0; qi < 300; qi++) {
        long q = Fingerprints.flip(random, fps[random.nextInt(n)], random.nextInt(5));
        for (int k : new int[] {2, 3, 4}) {
          assertThat(collect(index, q, k))
              .as("%s query %016x k %d", text, q, k)
              .isEqualTo(collect(oracle, q, k));
        }
      }
    }
  }

  /**
   * Segments of 2^21 entries and more get fine directories for keys wider than 16 bits: search one,
   * after a bulk load and after merging with a second segment carrying tombstones.
   */
  @org.junit.jupiter.api.Test
  void search_largeSegmentWithFineDirectories_matchesLinearScan() {
    BlockScheme scheme = BlockScheme.of(5, 2);
    SplittableRandom random = new SplittableRandom(23);
    int n = (1 << 21) + (1 << 16);
    long[] fps = Fingerprints.clustered(random, n, 200_000, 4);
    long[] ids = new long[n];
    for (int i = 0; i < n; i++) {
      ids[i] = i;
    }
    BlockPermutedIndex index = BlockPermutedIndex.create(scheme, 1 << 16);
    LinearScanIndex oracle = new LinearScanIndex();
    int half = 1 << 21; // the smallest segment with a 17-bit fine directory
    index.addAll(fps, ids, 0, half);
    oracle.addAll(fps, ids, 0, half);
    assertThat(index.segmentCount()).isEqualTo(1);
    compareLarge(index, oracle, random, fps);
    for (int i = half; i < n; i++) {
      index.add(fps[i], ids[i]);
      oracle.add(fps[i], ids[i]);
    }
    for (int i = 0; i < 2000; i++) {
      int at = random.nextInt(n);
      assertThat(index.remove(fps[at], at)).isEqualTo(oracle.remove(fps[at], at));
    }
    index.forceMerge();
    index.checkInvariants();
    compareLarge(index, oracle, random, fps);
  }

  private static void compareLarge(
      BlockPermutedIndex index, LinearScanIndex oracle, SplittableRandom random, long[] fps) {
    for (int qi = 0; qi < 60; qi++) {
      long q = Fingerprints.flip(random, fps[random.nextInt(fps.length)], random.nextInt(6));
      for (int k : new int[] {2, 3, 4}) {
        assertThat(collect(index, q, k))
            .as("query %016x k %d", q, k)
            .isEqualTo(collect(oracle, q, k));
      }
    }
  }

  static long[] generate(SplittableRandom random, Shape shape, int n) {
    switch (shape) {
      case UNIFORM:
        return Fingerprints.uniform(random, n);
      case CLUSTERED:
        return Fingerprints.clustered(random, n, 12, 10);
      case DUPLICATES:
        return Fingerprints.clustered(random, n, 40, 1);
      case SKEWED:
        return Fingerprints.skewed(random, n, 0.3, 0xFFFF_0000_0000_0000L);
      default:
        throw new AssertionError(shape);
    }
  }

  /** Queries near stored fingerprints and at random, at every distance of interest. */
  static void compare(
      BlockPermutedIndex index,
      LinearScanIndex oracle,
      SplittableRandom random,
      long[] fps,
      int n) {
    assertThat(index.size()).isEqualTo(oracle.size());
    for (int qi = 0; qi < n; qi++) {
      long base = fps[random.nextInt(fps.length)];
      long q =
          qi % 4 == 3 ? random.nextLong() : Fingerprints.flip(random, base, random.nextInt(12));
      for (int k : DISTANCES) {
        List<Match> expected = collect(oracle, q, k);
        List<Match> actual = collect(index, q, k);
        assertThat(actual).as("query %016x k %d", q, k).isEqualTo(expected);
        assertThat(index.any(q, k)).as("any %016x k %d", q, k).isEqualTo(!expected.isEmpty());
        Match[] nearestExpected = new Match[1];
        Match[] nearestActual = new Match[1];
        int de = oracle.nearest(q, k, (id, fp, d) -> nearestExpected[0] = new Match(id, fp, d));
        int da = index.nearest(q, k, (id, fp, d) -> nearestActual[0] = new Match(id, fp, d));
        assertThat(da).as("nearest distance %016x k %d", q, k).isEqualTo(de);
        assertThat(nearestActual[0]).as("nearest %016x k %d", q, k).isEqualTo(nearestExpected[0]);
      }
    }
  }

  static List<Match> collect(HammingIndex index, long q, int k) {
    List<Match> out = new ArrayList<>();
    int count = index.search(q, k, (id, fp, d) -> out.add(new Match(id, fp, d)));
    assertThat(count).isEqualTo(out.size());
    Collections.sort(out);
    return out;
  }

  static Path dump(
      String scheme, Shape shape, int buffer, long seed, long[] fps, long[] ids, List<String> log) {
    try {
      Path dir = Path.of("target", "oracle-failures");
      Files.createDirectories(dir);
      Path file = dir.resolve(scheme.replace(':', '_') + "-" + shape + "-" + seed + ".txt");
      StringBuilder sb = new StringBuilder();
      sb.append(
          String.format(
              Locale.ROOT, "scheme=%s shape=%s buffer=%d seed=%d%n", scheme, shape, buffer, seed));
      for (int i = 0; i < fps.length; i++) {
        sb.append(String.format(Locale.ROOT, "%d %016x %d%n", i, fps[i], ids[i]));
      }
      for (String line : log) {
        sb.append(line).append('\n');
      }
      Files.writeString(file, sb, StandardCharsets.UTF_8);
      return file.toAbsolutePath();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
