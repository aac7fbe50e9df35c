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
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.store.Collection;
import org.neardup.store.CorruptStoreException;
import org.neardup.testkit.Texts;

/** Snapshots are checked whole: any damage is refused with the file's name, never half-loaded. */
class SnapshotTest {
  @TempDir Path dir;

  private final SplittableRandom random = new SplittableRandom(7);

  private Path writeSnapshot() throws IOException {
    try (EmbeddedStore s = EmbeddedStore.builder(dir).background(false).open()) {
      Collection c = s.create("news", StoreTesting.SETTINGS);
      for (int i = 0; i < 100; i++) {
        c.checkAndInsert(doc(c, "d" + i, Texts.text(random, 20)));
      }
    } // close writes the snapshot
    assertThat(StoreTesting.files(dir, ".ndlog")).hasSize(1); // the empty segment after the cut
    return StoreTesting.onlyFile(dir, ".ndsnap");
  }

  private EmbeddedStore open() throws IOException {
    return EmbeddedStore.builder(dir).background(false).open();
  }

  private static void write(Path file, long offset, byte[] bytes) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(bytes), offset);
    }
  }

  @Test
  public void open_afterClose_loadsTheSnapshot() throws IOException {
    writeSnapshot();
    try (EmbeddedStore s = open()) {
      assertThat(s.collection("news").stats().documents()).isEqualTo(100);
    }
  }

  @Test
  public void open_flippedByte_isRefusedWithChecksumMismatch() throws IOException {
    Path snap = writeSnapshot();
    long at = Files.size(snap) / 2;
    byte[] one = new byte[1];
    try (FileChannel ch = FileChannel.open(snap, StandardOpenOption.READ)) {
      ch.read(ByteBuffer.wrap(one), at);
    }
    one[0] ^= 1;
    write(snap, at, one);
    assertThatThrownBy(this::open)
        .isInstanceOf(CorruptStoreException.class)
        .hasMessageContaining(snap.getFileName().toString())
        .hasMessageContaining("checksum mismatch");
    assertThat(snap).exists(); // refused, not deleted
  }

  @Test
  public void open_truncated_isRefused() throws IOException {
    Path snap = writeSnapshot();
    try (FileChannel ch = FileChannel.open(snap, StandardOpenOption.WRITE)) {
      ch.truncate(ch.size() - 20);
    }
    assertThatThrownBy(this::open)
        .isInstanceOf(CorruptStoreException.class)
        .hasMessageContaining(snap.getFileName().toString());
  }

  @Test
  public void open_wrongMagic_isRefused() throws IOException {
    Path snap = writeSnapshot();
    write(snap, 0, "GARBAGE!".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    assertThatThrownBy(this::open)
        .isInstanceOf(CorruptStoreException.class)
        .hasMessageContaining("not a neardup snapshot");
  }

  @Test
  public void open_unknownVersion_isRefusedNamingIt() throws IOException {
    Path snap = writeSnapshot();
    write(snap, 8, new byte[] {0, 0, 0, 9});
    assertThatThrownBy(this::open)
        .isInstanceOf(CorruptStoreException.class)
        .hasMessageContaining("version 9 is not supported");
  }

  @Test
  public void open_bytesAfterTheEnd_isRefused() throws IOException {
    Path snap = writeSnapshot();
    Files.write(snap, new byte[] {1}, StandardOpenOption.APPEND);
    assertThatThrownBy(this::open)
        .isInstanceOf(CorruptStoreException.class)
        .hasMessageContaining("after the end");
  }

  @Test
  public void open_leftoverTmp_isIgnoredAndDeleted() throws IOException {
    Path snap = writeSnapshot();
    Path tmp = dir.resolve(snap.getFileName() + ".tmp");
    Files.write(tmp, new byte[] {1, 2, 3});
    try (EmbeddedStore s = open()) {
      assertThat(s.collection("news").stats().documents()).isEqualTo(100);
    }
    assertThat(tmp).doesNotExist();
  }
}
