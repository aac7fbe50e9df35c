// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.store.CorruptStoreException;

/**
 * The snapshot's reader and writer move bytes through their own 1 MiB buffers: documents that
 * straddle a buffer's end, and bodies bigger than a buffer, read back exactly; a file with any byte
 * changed, cut short or lengthened is refused with a {@link CorruptStoreException}, never read as
 * something else.
 */
class SnapshotFormatTest {
  private static final long SEGMENT = 7;
  private static final List<SnapshotFormat.CollectionEntry> COLLECTIONS =
      List.of(
          new SnapshotFormat.CollectionEntry(1, 500, 400, "news", "k=3", "analyzer-a"),
          new SnapshotFormat.CollectionEntry(4, 9, 0, "频道", "", "analyzer-b"));

  @TempDir Path dir;

  private final List<byte[]> bodies = new ArrayList<>();
  private Path file;
  private byte[] bytes;
  private Path sketchFile;
  private byte[] sketchBytes;

  /** About 4.5 MiB: 3,000 small documents with two of 1.5 and 2.5 MiB among them. */
  @BeforeEach
  void writeSnapshot() throws IOException {
    SplittableRandom r = new SplittableRandom(11);
    for (int i = 0; i < 3000; i++) {
      int size = i == 700 ? 3 << 19 : i == 2100 ? 5 << 19 : 1 + r.nextInt(400);
      byte[] id = new byte[1 + r.nextInt(200)];
      r.nextBytes(id);
      byte[] analysis = analysis(r, size);
      bodies.add(LogFormat.insert(1 + r.nextInt(4), r.nextLong(), r.nextLong(), id, analysis));
    }
    try (SnapshotFormat.Writer w = new SnapshotFormat.Writer(dir, SEGMENT, 1234, COLLECTIONS)) {
      for (byte[] b : bodies) {
        w.document(b, 0, b.length);
      }
      assertThat(w.commit())
          .isEqualTo(
              Files.size(dir.resolve(SnapshotFormat.fileName(SEGMENT)))
                  + Files.size(dir.resolve(SnapshotFormat.sketchFileName(SEGMENT))));
    }
    file = dir.resolve(SnapshotFormat.fileName(SEGMENT));
    bytes = Files.readAllBytes(file);
    sketchFile = dir.resolve(SnapshotFormat.sketchFileName(SEGMENT));
    sketchBytes = Files.readAllBytes(sketchFile);
    assertThat(sketchBytes.length).isGreaterThan(4 << 20);
  }

  /**
   * Random bytes shaped as an Analysis as far as the snapshot looks (fingerprint, letters, band
   * count, band keys), then a random "sketch" of about {@code size} bytes.
   */
  static byte[] analysis(SplittableRandom r, int size) {
    int keys = r.nextInt(7);
    byte[] a = new byte[10 + keys * 8 + size];
    r.nextBytes(a);
    a[8] = (byte) (1 + r.nextInt(100));
    a[9] = (byte) keys;
    return a;
  }

  /** Reads the whole file; returns the bodies. */
  private List<byte[]> readAll(Path f) throws IOException {
    return readAll(f, false);
  }

  /** Reads the whole file (heads only when apart); returns the bodies. */
  private List<byte[]> readAll(Path f, boolean apart) throws IOException {
    List<byte[]> got = new ArrayList<>();
    try (SnapshotFormat.Reader r = new SnapshotFormat.Reader(f, apart)) {
      while (r.next()) {
        got.add(Arrays.copyOf(r.body(), r.length()));
      }
      // Checked after the footer's checksum, as a store does before it uses anything.
      assertThat(r.lastSegment()).isEqualTo(SEGMENT);
      assertThat(r.createdAt()).isEqualTo(1234);
      assertThat(r.collections()).isEqualTo(COLLECTIONS);
    }
    return got;
  }

  @Test
  void readBack_acrossBufferEnds_givesEveryDocumentExactly() throws IOException {
    List<byte[]> got = readAll(file);
    assertThat(got).hasSize(bodies.size());
    for (int i = 0; i < bodies.size(); i++) {
      assertThat(got.get(i)).as("document %s", i).isEqualTo(bodies.get(i));
    }
  }

  @Test
  void readApart_givesHeadsAndTheirEntries() throws IOException {
    List<long[]> places = new ArrayList<>();
    List<byte[]> heads = new ArrayList<>();
    try (SnapshotFormat.Reader r = new SnapshotFormat.Reader(file, true)) {
      assertThat(r.sketchFile()).isEqualTo(sketchFile);
      while (r.next()) {
        heads.add(Arrays.copyOf(r.body(), r.length()));
        places.add(new long[] {r.entryOffset(), r.entryLength()});
      }
    }
    assertThat(heads).hasSize(bodies.size());
    long at = SnapshotFormat.SKETCH_HEADER;
    for (int i = 0; i < bodies.size(); i++) {
      byte[] b = bodies.get(i);
      long split = SnapshotFormat.sketchAt(b, b.length);
      int head = (int) (split >>> 8);
      int keys = (int) (split & 0xFF);
      assertThat(heads.get(i)).as("head %s", i).isEqualTo(Arrays.copyOf(b, head));
      assertThat(places.get(i)).isEqualTo(new long[] {at, keys * 8 + b.length - head});
      // The entry: the band keys little-endian, then the sketch, as a SketchFile lays them out.
      java.nio.ByteBuffer e =
          java.nio.ByteBuffer.wrap(sketchBytes, (int) at, (int) places.get(i)[1])
              .order(java.nio.ByteOrder.LITTLE_ENDIAN);
      for (int k = 0; k < keys; k++) {
        assertThat(e.getLong()).isEqualTo(Bytes.getLong(b, head - (keys - k) * 8));
      }
      assertThat(Arrays.copyOfRange(sketchBytes, e.position(), e.position() + b.length - head))
          .isEqualTo(Arrays.copyOfRange(b, head, b.length));
      at += places.get(i)[1];
    }
    assertThat(at + SnapshotFormat.SKETCH_FOOTER).isEqualTo(sketchBytes.length);
  }

  @Test
  void sketchFileMissingOrCut_isRefusedApartAndWhole() throws IOException {
    Files.write(sketchFile, Arrays.copyOf(sketchBytes, sketchBytes.length - 1));
    assertThatThrownBy(() -> readAll(file, true)).isInstanceOf(CorruptStoreException.class);
    assertThatThrownBy(() -> readAll(file, false)).isInstanceOf(CorruptStoreException.class);
    // Cut inside the entries, the end magic copied back: only the length can tell, apart.
    byte[] cut = Arrays.copyOf(sketchBytes, sketchBytes.length - 100);
    System.arraycopy(sketchBytes, sketchBytes.length - 8, cut, cut.length - 8, 8);
    Files.write(sketchFile, cut);
    assertThatThrownBy(() -> readAll(file, true))
        .isInstanceOf(CorruptStoreException.class)
        .hasMessageMatching("(?s).*(its snapshot's entries make|not in place).*");
    Files.delete(sketchFile);
    assertThatThrownBy(() -> readAll(file, true))
        .isInstanceOf(CorruptStoreException.class)
        .hasMessageContaining("missing");
  }

  @Test
  void anySketchFileByteChanged_isRefusedWhenReadWhole() throws IOException {
    SplittableRandom r = new SplittableRandom(8);
    for (int i = 0; i < 60; i++) {
      int at =
          i < 20 ? i : i < 32 ? sketchBytes.length - 1 - (i - 20) : r.nextInt(sketchBytes.length);
      byte[] changed = sketchBytes.clone();
      changed[at] ^= (byte) (1 << r.nextInt(8));
      Files.write(sketchFile, changed);
      assertThatThrownBy(() -> readAll(file))
          .as("byte %s of %s changed", at, sketchBytes.length)
          .isInstanceOf(CorruptStoreException.class);
    }
  }

  @Test
  void anyByteChanged_isRefused() throws IOException {
    SplittableRandom r = new SplittableRandom(5);
    List<Integer> positions = new ArrayList<>();
    for (int i = 0; i < 64; i++) { // the header and the footer, byte by byte
      positions.add(i);
      positions.add(bytes.length - 1 - i);
    }
    for (int i = 0; i < 150; i++) {
      positions.add(r.nextInt(bytes.length));
    }
    Path bad = dir.resolve(SnapshotFormat.fileName(SEGMENT) + ".bad");
    for (int at : positions) {
      byte[] changed = bytes.clone();
      changed[at] ^= (byte) (1 << r.nextInt(8));
      Files.write(bad, changed);
      Path named = dir.resolve("x").resolve(SnapshotFormat.fileName(SEGMENT));
      Files.createDirectories(named.getParent());
      Files.move(bad, named, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      Files.copy(
          sketchFile,
          named.resolveSibling(sketchFile.getFileName()),
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      assertThatThrownBy(() -> readAll(named))
          .as("byte %s of %s changed", at, bytes.length)
          .isInstanceOf(CorruptStoreException.class);
    }
  }

  @Test
  void cutShortOrLengthened_isRefused() throws IOException {
    SplittableRandom r = new SplittableRandom(6);
    Path named = dir.resolve("x").resolve(SnapshotFormat.fileName(SEGMENT));
    Files.createDirectories(named.getParent());
    Files.copy(sketchFile, named.resolveSibling(sketchFile.getFileName()));
    List<Integer> lengths = new ArrayList<>(List.of(0, 1, 7, 8, 27, 28, bytes.length - 1));
    for (int i = 0; i < 40; i++) {
      lengths.add(r.nextInt(bytes.length));
    }
    for (int length : lengths) {
      Files.write(named, Arrays.copyOf(bytes, length));
      assertThatThrownBy(() -> readAll(named))
          .as("cut to %s of %s bytes", length, bytes.length)
          .isInstanceOf(CorruptStoreException.class);
    }
    Files.write(named, Arrays.copyOf(bytes, bytes.length + 1));
    assertThatThrownBy(() -> readAll(named))
        .isInstanceOf(CorruptStoreException.class)
        .hasMessageContaining("after the end");
  }
}
