// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A background compaction writes its snapshot at a bounded rate ({@link
 * EmbeddedStore.Builder#snapshotBytesPerSecond}); the file is the same as at full speed, and a
 * closing store makes it hurry.
 */
class PacedSnapshotTest {
  private static final int BODY = 4096;
  private static final int DOCUMENTS = 5 * 1024; // 20 MiB of bodies: a pace point every MiB

  @TempDir Path dir;

  private final byte[] body = new byte[BODY + 1];

  PacedSnapshotTest() {
    // An insert body with a 5-byte id and an analysis of 6 band keys, from offset 1.
    byte[] analysis = new byte[BODY - LogFormat.ID - 5 - 4];
    new SplittableRandom(3).nextBytes(analysis);
    analysis[8] = 1; // letters
    analysis[9] = 6; // band keys
    byte[] insert = LogFormat.insert(1, 0, 0, "id-01".getBytes(StandardCharsets.UTF_8), analysis);
    assertThat(insert).hasSize(BODY);
    System.arraycopy(insert, 0, body, 1, BODY);
  }

  /** Writes the snapshot (bodies from offset 1, so no Joined is looked for); returns its nanos. */
  private long write(long segment, long bytesPerSecond, boolean hurry) throws IOException {
    long t0 = System.nanoTime();
    try (SnapshotFormat.Writer w =
        new SnapshotFormat.Writer(dir, segment, 0, List.of(), bytesPerSecond)) {
      if (hurry) {
        w.hurry();
      }
      for (int i = 0; i < DOCUMENTS; i++) {
        w.document(body, 1, BODY);
      }
      w.commit();
    }
    return System.nanoTime() - t0;
  }

  private void assertWhole(long segment) throws IOException {
    try (SnapshotFormat.Reader r =
        new SnapshotFormat.Reader(dir.resolve(SnapshotFormat.fileName(segment)))) {
      int n = 0;
      while (r.next()) {
        assertThat(r.length()).isEqualTo(BODY);
        assertThat(Arrays.copyOf(r.body(), BODY)).isEqualTo(Arrays.copyOfRange(body, 1, BODY + 1));
        n++;
      }
      assertThat(n).isEqualTo(DOCUMENTS);
    }
  }

  @Test
  void paced_keepsToItsRate_andWritesTheSameFile() throws IOException {
    // 40 MiB/s: the pace point at 16 MiB is due 0.4 s after the start, the one at 20 MiB 0.5 s.
    long nanos = write(1, 40L << 20, false);
    assertThat(nanos).isGreaterThanOrEqualTo(400_000_000L);
    assertWhole(1);
  }

  @Test
  void hurried_doesNotSleep() throws IOException {
    // At 1 MiB/s this would take 16 s before its last pace point.
    long nanos = write(2, 1L << 20, true);
    assertThat(nanos).isLessThan(8_000_000_000L);
    assertWhole(2);
  }
}
