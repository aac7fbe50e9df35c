// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.neardup.store.embedded.StoreTesting.doc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.store.Collection;
import org.neardup.store.CorruptStoreException;
import org.neardup.testkit.Texts;

/**
 * A crash can leave the newest log segment ending in a partial or garbled record; opening cuts it
 * at the last valid record and keeps everything before. Damage anywhere else is refused.
 */
class LogRecoveryTest {
  @TempDir Path dir;

  private final SplittableRandom random = new SplittableRandom(42);

  /** Writes n documents d0..d(n-1) and closes without a snapshot: all of it is in the log. */
  private List<String> writeLogOnly(int n) throws IOException {
    List<String> texts = new ArrayList<>();
    try (EmbeddedStore s = open(false)) {
      Collection c = s.create("news", StoreTesting.SETTINGS);
      for (int i = 0; i < n; i++) {
        String t = Texts.text(random, 20);
        texts.add(t);
        c.checkAndInsert(doc(c, "d" + i, t));
      }
    }
    assertThat(StoreTesting.files(dir, ".ndsnap")).isEmpty();
    return texts;
  }

  private EmbeddedStore open(boolean snapshotOnClose) throws IOException {
    return EmbeddedStore.builder(dir).background(false).snapshotOnClose(snapshotOnClose).open();
  }

  private static void append(Path file, byte[] bytes) throws IOException {
    Files.write(file, bytes, StandardOpenOption.APPEND);
  }

  private static void truncate(Path file, long size) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.truncate(size);
    }
  }

  private static void flip(Path file, long offset) throws IOException {
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocate(1);
      ch.read(b, offset);
      b.put(0, (byte) (b.get(0) ^ 0x40));
      ch.write(b.flip(), offset);
    }
  }

  @Test
  public void open_garbageAfterLastRecord_cutsItAndKeepsEveryRecord() throws IOException {
    writeLogOnly(50);
    Path segment = StoreTesting.onlyFile(dir, ".ndlog");
    long size = Files.size(segment);
    byte[] garbage = new byte[1000];
    random.nextBytes(garbage);
    append(segment, garbage);

    try (EmbeddedStore s = open(false)) {
      Collection c = s.collection("news");
      assertThat(c.stats().documents()).isEqualTo(50);
      for (int i = 0; i < 50; i++) {
        assertThat(c.get("d" + i)).as("d%s", i).isPresent();
      }
      assertThat(s.metrics().get("torn_bytes_cut_total")).isEqualTo(1000L);
      c.checkAndInsert(doc(c, "after", Texts.text(random, 20)));
    }
    assertThat(Files.size(segment)).isEqualTo(size);
    Path kept = StoreTesting.onlyFile(dir, ".cut-" + size);
    assertThat(Files.readAllBytes(kept)).isEqualTo(garbage);

    // The cut is final: the next open finds nothing to cut and keeps the later insert.
    try (EmbeddedStore s = open(false)) {
      assertThat(s.metrics().get("torn_bytes_cut_total")).isEqualTo(0L);
      assertThat(s.collection("news").stats().documents()).isEqualTo(51);
      assertThat(s.collection("news").get("after")).isPresent();
    }
  }

  @Test
  public void open_lastRecordCutShort_dropsOnlyThatRecord() throws IOException {
    writeLogOnly(20);
    Path segment = StoreTesting.onlyFile(dir, ".ndlog");
    truncate(segment, Files.size(segment) - 3);
    try (EmbeddedStore s = open(false)) {
      Collection c = s.collection("news");
      assertThat(c.stats().documents()).isEqualTo(19);
      assertThat(c.get("d18")).isPresent();
      assertThat(c.get("d19")).isEmpty();
    }
  }

  @Test
  public void open_lastRecordGarbled_dropsOnlyThatRecord() throws IOException {
    writeLogOnly(20);
    Path segment = StoreTesting.onlyFile(dir, ".ndlog");
    flip(segment, Files.size(segment) - 10);
    try (EmbeddedStore s = open(false)) {
      assertThat(s.collection("news").stats().documents()).isEqualTo(19);
      assertThat(s.collection("news").get("d19")).isEmpty();
    }
  }

  @Test
  public void open_zeroFilledTail_isTheEndNotATornRecord() throws IOException {
    // The log writes zeros ahead of itself, and some file systems show a crashed append as zeros
    // up to the new size: either way nothing was lost, and the zeros are cut without a warning.
    writeLogOnly(10);
    Path segment = StoreTesting.onlyFile(dir, ".ndlog");
    long size = Files.size(segment);
    append(segment, new byte[100_000]);
    try (EmbeddedStore s = open(false)) {
      assertThat(s.collection("news").stats().documents()).isEqualTo(10);
      assertThat(s.metrics().get("torn_bytes_cut_total")).isEqualTo(0L);
    }
    assertThat(Files.size(segment)).isEqualTo(size);
    assertThat(StoreTesting.files(dir, ".cut-" + size)).isEmpty();
  }

  @Test
  public void open_zerosThenBytes_isATornTail() throws IOException {
    // A crash that kept a later page of a record but not the page where it starts.
    writeLogOnly(10);
    Path segment = StoreTesting.onlyFile(dir, ".ndlog");
    long size = Files.size(segment);
    append(segment, new byte[5000]);
    append(segment, new byte[] {1, 2, 3});
    try (EmbeddedStore s = open(false)) {
      assertThat(s.collection("news").stats().documents()).isEqualTo(10);
      assertThat(s.metrics().get("torn_bytes_cut_total")).isEqualTo(5003L);
    }
    assertThat(Files.size(segment)).isEqualTo(size);
  }

  @Test
  public void liveSegment_hasZerosAhead_andACopyOfItOpensWhole(@TempDir Path copy)
      throws Exception {
    Path segment;
    try (EmbeddedStore s = open(false)) {
      Collection c = s.create("news", StoreTesting.SETTINGS);
      for (int i = 0; i < 200; i++) {
        c.checkAndInsert(doc(c, "d" + i, Texts.text(random, 20)));
      }
      segment = StoreTesting.onlyFile(dir, ".ndlog");
      // The zeros are written by a thread of their own; wait for them (bounded).
      long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
      while (Files.size(segment) < Log.PREALLOCATE && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(Files.size(segment)).isGreaterThanOrEqualTo(Log.PREALLOCATE);
      // What a kill -9 leaves: every acknowledged record, then zeros.
      Files.copy(segment, copy.resolve(segment.getFileName()));
      for (int i = 200; i < 210; i++) {
        c.checkAndInsert(doc(c, "d" + i, Texts.text(random, 20)));
      }
    }
    // Closing cuts the zeros: a closed segment ends at its last record.
    long size = Files.size(segment);
    assertThat(size).isLessThan(Log.PREALLOCATE);
    try (SegmentReader r = SegmentReader.open(segment, LogFormat.segmentOf(segment))) {
      while (r.next()) {
        // read them all
      }
      assertThat(r.problem()).isNull();
      assertThat(r.zeroTail()).isFalse();
      assertThat(r.offset()).isEqualTo(size);
    }
    try (EmbeddedStore s = EmbeddedStore.builder(copy).background(false).open()) {
      Collection c = s.collection("news");
      assertThat(c.stats().documents()).isEqualTo(200);
      assertThat(c.get("d199")).isPresent();
      assertThat(s.metrics().get("torn_bytes_cut_total")).isEqualTo(0L);
    }
  }

  @Test
  public void open_newestSegmentWithoutHeader_isDropped() throws IOException {
    writeLogOnly(10);
    Path first = StoreTesting.onlyFile(dir, ".ndlog");
    long n = LogFormat.segmentOf(first);
    Path torn = dir.resolve(LogFormat.fileName(n + 1));
    Files.write(torn, new byte[] {0x4E, 0x44, 0x55}); // crashed while writing the header
    try (EmbeddedStore s = open(false)) {
      assertThat(s.collection("news").stats().documents()).isEqualTo(10);
    }
    assertThat(torn).doesNotExist();
  }

  @Test
  public void open_damagedOlderSegment_isRefusedNamingTheFile() throws IOException {
    writeLogOnly(10);
    try (EmbeddedStore s = open(false)) {
      s.collection("news").checkAndInsert(doc(s.collection("news"), "x", Texts.text(random, 20)));
    }
    List<Path> segments = StoreTesting.files(dir, ".ndlog");
    assertThat(segments).hasSize(2);
    Path older = segments.get(0);
    flip(older, Files.size(older) / 2);
    assertThatThrownBy(this::openAndClose)
        .isInstanceOf(CorruptStoreException.class)
        .hasMessageContaining(older.getFileName().toString())
        .hasMessageContaining("only the newest segment");
  }

  @Test
  public void open_missingSegment_isRefused() throws IOException {
    writeLogOnly(5);
    for (int i = 0; i < 2; i++) {
      try (EmbeddedStore s = open(false)) {
        s.collection("news")
            .checkAndInsert(doc(s.collection("news"), "x" + i, Texts.text(random, 20)));
      }
    }
    List<Path> segments = StoreTesting.files(dir, ".ndlog");
    Files.delete(segments.get(1));
    assertThatThrownBy(this::openAndClose)
        .isInstanceOf(CorruptStoreException.class)
        .hasMessageContaining("is missing");
  }

  @Test
  public void open_badSegmentHeader_isRefused() throws IOException {
    writeLogOnly(5);
    try (EmbeddedStore s = open(false)) {
      // a second segment, so the first is not the newest
    }
    Path first = StoreTesting.files(dir, ".ndlog").get(0);
    flip(first, 2);
    assertThatThrownBy(this::openAndClose)
        .isInstanceOf(CorruptStoreException.class)
        .hasMessageContaining("not a neardup log segment");
  }

  @Test
  public void open_directoryInUse_isRefused() throws IOException {
    try (EmbeddedStore s = open(false)) {
      assertThatThrownBy(this::openAndClose)
          .isInstanceOf(IOException.class)
          .hasMessageContaining("in use");
    }
  }

  private void openAndClose() throws IOException {
    open(false).close();
  }
}
