// SPDX-License-Identifier: Apache-2.0
package org.neardup.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link FileArray} reads back what was appended, at every index, with windows small enough that
 * the arrays span dozens of maps and bulk reads start just before a window's end.
 */
class FileArrayTest {
  @TempDir Path tmp;

  @Test
  void getLong_manyWindows_everyValueBack() throws IOException {
    for (long seed = 1; seed <= 5; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      int n = 1 + r.nextInt(20_000);
      long[] want = new long[n];
      try (FileArray a = new FileArray(tmp.resolve("longs" + seed), 12 + r.nextInt(4))) {
        for (int i = 0; i < n; i++) {
          want[i] = r.nextLong();
          a.appendLong(want[i]);
        }
        a.finish();
        assertThat(a.bytes()).isEqualTo(8L * n);
        for (int i = 0; i < n; i++) {
          assertThat(a.getLong(i)).as("seed %s, index %s", seed, i).isEqualTo(want[i]);
        }
      }
      assertThat(tmp.resolve("longs" + seed)).doesNotExist();
    }
  }

  /**
   * Records of 17 ints (as CorpusDedup keeps heads) straddle window ends: the overlap serves them.
   */
  @Test
  void getInts_recordsAcrossWindowEnds_sameAsAppended() throws IOException {
    for (long seed = 1; seed <= 5; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      int n = 1 + r.nextInt(50_000);
      int[] want = new int[n];
      try (FileArray a = new FileArray(tmp.resolve("ints" + seed), 12)) {
        int at = 0;
        while (at < n) {
          int len = Math.min(n - at, 1 + r.nextInt(40));
          for (int k = 0; k < len; k++) {
            want[at + k] = r.nextInt();
          }
          if (r.nextBoolean()) {
            a.appendInts(want, at, len);
          } else {
            for (int k = 0; k < len; k++) {
              a.appendInt(want[at + k]);
            }
          }
          at += len;
        }
        a.finish();
        int[] got = new int[FileArray.OVERLAP / 4 + 2];
        for (int t = 0; t < 5_000; t++) {
          // Half the reads start within a record of a 4 KiB window's end.
          int from =
              r.nextBoolean()
                  ? r.nextInt(n)
                  : Math.max(
                      0, Math.min(n - 1, (1 + r.nextInt(n / 1024 + 1)) * 1024 - r.nextInt(17)));
          int len = Math.min(n - from, r.nextInt(FileArray.OVERLAP / 4 + 1));
          Arrays.fill(got, -7);
          a.getInts(from, got, 1, len);
          assertThat(Arrays.copyOfRange(got, 1, 1 + len))
              .as("seed %s, [%s, +%s)", seed, from, len)
              .isEqualTo(Arrays.copyOfRange(want, from, from + len));
          assertThat(got[0]).isEqualTo(-7);
          assertThat(a.getInt(from)).isEqualTo(want[from]);
        }
      }
    }
  }

  /**
   * An array finished without a map is read back in order by cursors, across their 1 MiB buffer's
   * refills, whether units are read one by one, in runs or skipped; two cursors read independently.
   */
  @Test
  void cursor_unmapped_readsBackInOrderWithSkips() throws IOException {
    for (long seed = 1; seed <= 3; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      int n = 300_000 + r.nextInt(300_000); // 1.2-2.4 MB: two or three buffer fills
      int[] want = new int[n];
      try (FileArray a = new FileArray(tmp.resolve("cursor" + seed))) {
        for (int i = 0; i < n; i++) {
          want[i] = r.nextInt();
          a.appendInt(want[i]);
        }
        a.finish(false);
        FileArray.Cursor whole = a.cursor();
        FileArray.Cursor c = a.cursor();
        int[] run = new int[40];
        int at = 0;
        while (at < n) {
          int len = Math.min(n - at, 1 + r.nextInt(run.length));
          switch (r.nextInt(4)) {
            case 0 -> {
              c.nextInts(run, 0, len);
              assertThat(Arrays.copyOf(run, len))
                  .as("seed %s at %s", seed, at)
                  .isEqualTo(Arrays.copyOfRange(want, at, at + len));
            }
            case 1 -> {
              len = Math.min(n - at, r.nextInt(400_000));
              c.skip(len);
            }
            case 2 -> {
              len = Math.min(n - at, 2);
              if (len == 2) {
                long v = c.nextLong();
                int lo =
                    java.nio.ByteOrder.nativeOrder() == java.nio.ByteOrder.LITTLE_ENDIAN ? 0 : 1;
                assertThat((int) v).isEqualTo(want[at + lo]);
                assertThat((int) (v >>> 32)).isEqualTo(want[at + 1 - lo]);
              } else {
                c.skip(len);
              }
            }
            default -> {
              len = 1;
              assertThat(c.nextInt()).as("seed %s at %s", seed, at).isEqualTo(want[at]);
            }
          }
          at += len;
        }
        for (int i = 0; i < n; i++) {
          assertThat(whole.nextInt()).isEqualTo(want[i]);
        }
        assertThatThrownBy(whole::nextInt).isInstanceOf(java.io.EOFException.class);
      }
    }
  }

  @Test
  void finish_emptyAndMisuse_clearErrors() throws IOException {
    try (FileArray a = new FileArray(tmp.resolve("empty"))) {
      a.finish();
      assertThat(a.bytes()).isZero();
      assertThatThrownBy(() -> a.appendInt(1))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("after finish");
      assertThatThrownBy(a::finish).isInstanceOf(IllegalStateException.class);
    }
    try (FileArray a = new FileArray(tmp.resolve("open"))) {
      assertThatThrownBy(a::cursor)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("before finish");
    }
    Files.writeString(tmp.resolve("taken"), "x");
    assertThatThrownBy(() -> new FileArray(tmp.resolve("taken")))
        .isInstanceOf(java.nio.file.FileAlreadyExistsException.class);
    assertThatThrownBy(() -> new FileArray(tmp.resolve("w"), 31))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("windowBits");
  }
}
