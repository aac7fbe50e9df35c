// SPDX-License-Identifier: Apache-2.0
package org.neardup.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.neardup.verify.ShingleSketch;

class CollectionDumpTest {
  private static final CollectionDump.Header HEADER =
      new CollectionDump.Header("embedded", "news", "k=3;verify=true", "analyzer-1", 123L, 10);

  /** Records with gaps between ordinals, clusters, sketches, ids in several scripts. */
  static List<StoredRecord> records(long seed, int n) {
    SplittableRandom r = new SplittableRandom(seed);
    List<StoredRecord> out = new ArrayList<>();
    long ordinal = r.nextInt(3);
    for (int i = 0; i < n; i++) {
      String id = (r.nextBoolean() ? "https://example.com/" : "新闻/") + i;
      long root = i > 0 && r.nextInt(3) == 0 ? out.get(r.nextInt(i)).root() : ordinal;
      String cluster = root == ordinal ? id : "rep-" + root;
      long[] keys = new long[r.nextBoolean() ? 0 : 9];
      for (int k = 0; k < keys.length; k++) {
        keys[k] = r.nextLong();
      }
      int[] shingles =
          r.ints(keys.length == 0 ? 0 : 1 + r.nextInt(40), 0, Integer.MAX_VALUE)
              .distinct()
              .toArray();
      java.util.Arrays.sort(shingles); // distinct and non-negative: sorted unsigned too
      byte[] sketch =
          keys.length == 0
              ? new byte[0]
              : ShingleSketch.of(ShingleSketch.Mode.WORDS, shingles, true).encode();
      out.add(
          new StoredRecord(
              ordinal,
              id,
              r.nextLong(),
              r.nextLong(),
              r.nextBoolean() ? Long.MAX_VALUE : r.nextLong(),
              root,
              cluster,
              keys,
              sketch));
      ordinal += 1 + (r.nextInt(4) == 0 ? r.nextInt(1000) : 0);
    }
    return out;
  }

  static byte[] write(List<StoredRecord> records, boolean gzip) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (CollectionDump.Writer w = new CollectionDump.Writer(bytes, HEADER, gzip)) {
      for (StoredRecord r : records) {
        w.write(r);
      }
      w.finish();
    }
    return bytes.toByteArray();
  }

  static List<StoredRecord> read(byte[] dump) throws IOException {
    List<StoredRecord> out = new ArrayList<>();
    try (CollectionDump.Reader r =
        new CollectionDump.Reader(new ByteArrayInputStream(dump), "test.dump")) {
      for (StoredRecord s = r.next(); s != null; s = r.next()) {
        out.add(s);
      }
      assertThat(r.next()).isNull();
      assertThat(r.header()).isEqualTo(HEADER);
    }
    return out;
  }

  // Seeded loops rather than a property library (core's tests have none): a failure prints its
  // seed.

  @Test
  void roundTrip_anyRecords_readsBackEqual() throws IOException {
    for (long seed = 0; seed < 50; seed++) {
      List<StoredRecord> records = records(seed, (int) (seed * 7 % 300));
      boolean gzip = seed % 2 == 0;
      assertThat(read(write(records, gzip))).as("seed %s", seed).isEqualTo(records);
    }
  }

  /** A stream that hands out 1 to 13 bytes per read, as a pipe or a gzip stream may. */
  private static final class Trickle extends java.io.FilterInputStream {
    private final SplittableRandom r;

    Trickle(byte[] bytes, long seed) {
      super(new ByteArrayInputStream(bytes));
      r = new SplittableRandom(seed);
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return super.read(b, off, Math.min(len, 1 + r.nextInt(13)));
    }
  }

  @Test
  void roundTrip_fieldsAcrossAndBeyondTheBuffer_readsBackEqual() throws IOException {
    // Thousands of records, so that fields straddle the reader's 64 KiB buffer at every offset,
    // read in short pieces; and a cluster name and a sketch larger than the buffer.
    for (long seed = 0; seed < 6; seed++) {
      List<StoredRecord> records = records(seed, 4000);
      SplittableRandom r = new SplittableRandom(seed);
      for (int k = 0; k < 3; k++) {
        int i = 1 + r.nextInt(records.size() - 1);
        StoredRecord o = records.get(i);
        int[] hashes = r.ints(40_000, 0, Integer.MAX_VALUE).distinct().sorted().toArray();
        byte[] sketch = ShingleSketch.of(ShingleSketch.Mode.WORDS, hashes, true).encode();
        assertThat(sketch.length).isGreaterThan(1 << 16);
        long[] keys = new long[9];
        records.set(
            i,
            new StoredRecord(
                o.ordinal(),
                o.id(),
                o.fingerprint(),
                o.timestamp(),
                o.expiresAt(),
                records.get(0).ordinal(),
                "集群-".repeat(30_000) + i,
                keys,
                sketch));
      }
      byte[] dump = write(records, seed % 2 == 0);
      List<StoredRecord> out = new ArrayList<>();
      try (CollectionDump.Reader reader =
          new CollectionDump.Reader(new Trickle(dump, seed), "test.dump")) {
        for (StoredRecord s = reader.next(); s != null; s = reader.next()) {
          out.add(s);
        }
      }
      assertThat(out).as("seed %s", seed).isEqualTo(records);
    }
  }

  @Test
  void anyFlippedByte_inALongDump_isRefused() throws IOException {
    byte[] clean = write(records(7, 3000), false);
    for (long seed = 0; seed < 40; seed++) {
      byte[] dump = clean.clone();
      SplittableRandom r = new SplittableRandom(seed);
      dump[r.nextInt(dump.length)] ^= (byte) (1 << r.nextInt(8));
      assertThatThrownBy(() -> read(dump))
          .as("seed %s", seed)
          .isInstanceOf(CollectionDump.CorruptDumpException.class);
    }
  }

  @Test
  void anyFlippedByte_isRefused() throws IOException {
    // Every byte is covered: the header and documents by the checksum, the footer by its own
    // checks. A flip must never read back as other records without an error.
    for (long seed = 0; seed < 300; seed++) {
      byte[] dump = write(records(seed / 8, 20), false);
      SplittableRandom r = new SplittableRandom(seed);
      dump[r.nextInt(dump.length)] ^= (byte) (1 << r.nextInt(8));
      assertThatThrownBy(() -> read(dump))
          .as("seed %s", seed)
          .isInstanceOf(CollectionDump.CorruptDumpException.class);
    }
  }

  @Test
  void anyTruncation_isRefused() throws IOException {
    for (long seed = 0; seed < 200; seed++) {
      byte[] dump = write(records(seed / 8, 20), seed % 2 == 0);
      byte[] cut = java.util.Arrays.copyOf(dump, new SplittableRandom(seed).nextInt(dump.length));
      assertThatThrownBy(() -> read(cut)).as("seed %s", seed).isInstanceOf(IOException.class);
    }
  }

  @Test
  void read_notADump_namesSourceAndProblem() {
    byte[] text = "{\"id\": 1}\n".repeat(10).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertThatThrownBy(() -> read(text))
        .isInstanceOf(CollectionDump.CorruptDumpException.class)
        .hasMessageContaining("test.dump")
        .hasMessageContaining("NDUPDUMP");
  }

  @Test
  void read_unfinishedDump_saysCutShort() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CollectionDump.Writer w = new CollectionDump.Writer(bytes, HEADER, false);
    for (StoredRecord r : records(1, 5)) {
      w.write(r);
    }
    w.close(); // never finished: as when an export is killed
    assertThatThrownBy(() -> read(bytes.toByteArray()))
        .isInstanceOf(CollectionDump.CorruptDumpException.class)
        .hasMessageContaining("cut short");
  }

  @Test
  void write_ordinalsNotIncreasing_throws() throws IOException {
    List<StoredRecord> records = records(2, 2);
    try (CollectionDump.Writer w =
        new CollectionDump.Writer(new ByteArrayOutputStream(), HEADER, false)) {
      w.write(records.get(1));
      assertThatThrownBy(() -> w.write(records.get(0)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("increase");
    }
  }
}
