// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpillFileTest {
  @TempDir Path tmp;

  /**
   * The unmapped readers (in order, and by ordinal with positional reads) give the same bytes as
   * the mapped one, across the 1 MiB buffer's edges: empty records, records larger than the buffer,
   * and ordinals skipped over. So does a file mapped within a bound, whose offsets are read into
   * the heap, by ordinal and through a {@link SpillFile.Reader}.
   */
  @Test
  void sequential_skipsAndRecordsLargerThanItsBuffer_matchMappedReads() throws Exception {
    for (long seed = 1; seed <= 4; seed++) {
      SplittableRandom random = new SplittableRandom(seed);
      List<byte[]> written = new ArrayList<>();
      try (SpillFile mapped = new SpillFile(tmp.resolve("m" + seed));
          SpillFile plain = new SpillFile(tmp.resolve("p" + seed), 0);
          SpillFile bounded = new SpillFile(tmp.resolve("b" + seed), 1L << 40)) {
        for (int i = 0; i < 3_000; i++) {
          int kind = random.nextInt(100);
          int len =
              kind < 10 ? 0 : kind < 12 ? random.nextInt(1 << 20, 3 << 20) : random.nextInt(2_000);
          byte[] b = new byte[len];
          random.nextBytes(b);
          written.add(b);
          mapped.append(b, 0, len);
          plain.append(b, 0, len);
          bounded.append(b, 0, len);
        }
        for (SpillFile f : List.of(mapped, plain, bounded)) {
          f.appendEmpty(); // a last empty record starts at the end of the map
        }
        written.add(new byte[0]);
        mapped.finish();
        plain.finish();
        bounded.finish();
        for (SpillFile f : List.of(mapped, plain, bounded)) {
          SpillFile.Reader hints = f.reader();
          for (int o = 0; o < written.size(); o++) {
            hints.prefetch(o); // a hint: reads nothing it can fail on, changes nothing read after
          }
          // A group's hints at once, in a group's order (not the file's), every record and a range.
          int[] group = random.ints(written.size(), 0, written.size()).toArray();
          hints.prefetch(group, 0, group.length);
          hints.prefetch(group, group.length / 3, group.length / 2);
        }
        SpillFile.Reader reader = bounded.reader();
        SpillFile.Sequential in = plain.sequential();
        for (int o = 0; o < written.size(); o++) {
          if (random.nextInt(5) == 0) {
            continue; // skipped: the reader must land on the next one asked for
          }
          byte[] expected = written.get(o);
          assertThat(in.read(o)).as("seed %s, ordinal %s", seed, o).isEqualTo(expected);
          assertThat(mapped.read(o)).as("seed %s, ordinal %s", seed, o).isEqualTo(expected);
          assertThat(bounded.read(o)).as("heap offsets, ordinal %s", o).isEqualTo(expected);
          int len = reader.read(o);
          assertThat(java.util.Arrays.copyOf(reader.bytes(), len))
              .as("heap offsets' reader, ordinal %s", o)
              .isEqualTo(expected);
          if (o % 7 == 0) {
            assertThat(plain.read(o)).as("positional, ordinal %s", o).isEqualTo(expected);
          }
        }
      }
    }
  }

  @Test
  void sequential_backwards_isRefused() throws Exception {
    try (SpillFile f = new SpillFile(tmp.resolve("f"), 0)) {
      f.append(new byte[] {1, 2}, 0, 2);
      f.append(new byte[] {3}, 0, 1);
      f.finish();
      SpillFile.Sequential in = f.sequential();
      assertThat(in.read(1)).containsExactly(3);
      assertThatThrownBy(() -> in.read(0))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("[2, 2)");
      assertThat(f.read(0)).containsExactly(1, 2); // by ordinal: a positional read
    }
  }
}
