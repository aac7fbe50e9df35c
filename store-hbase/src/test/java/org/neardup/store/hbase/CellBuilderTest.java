// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.SplittableRandom;
import org.apache.hadoop.hbase.ArrayBackedTag;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.Tag;
import org.apache.hadoop.hbase.TagType;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/**
 * The cells {@link CellBuilder} writes byte by byte are exactly those of HBase's own {@link
 * KeyValue} constructor (with a TTL tag, or none), over seeded random rows, qualifiers and values.
 */
class CellBuilderTest {
  private static final byte[] FAMILY = Bytes.toBytes("f");

  private static KeyValue expected(byte[] row, byte[] q, long ts, byte[] value, long ttlMs) {
    if (ttlMs == CellBuilder.NO_TTL) {
      return new KeyValue(row, FAMILY, q, ts, KeyValue.Type.Put, value);
    }
    List<Tag> tags = List.of(new ArrayBackedTag(TagType.TTL_TAG_TYPE, Bytes.toBytes(ttlMs)));
    return new KeyValue(row, FAMILY, q, ts, KeyValue.Type.Put, value, tags);
  }

  private static byte[] bytes(SplittableRandom r, int max) {
    byte[] b = new byte[r.nextInt(max + 1)];
    r.nextBytes(b);
    return b;
  }

  /** The cell's bytes, after HBase's own parse of them (which throws on a malformed cell). */
  private static byte[] copy(KeyValue kv) {
    new KeyValue(kv.getBuffer(), kv.getOffset(), kv.getLength());
    return java.util.Arrays.copyOfRange(
        kv.getBuffer(), kv.getOffset(), kv.getOffset() + kv.getLength());
  }

  @Test
  void cells_randomRowsQualifiersValues_equalHBaseKeyValues() {
    long seed = 20261125L;
    SplittableRandom r = new SplittableRandom(seed);
    for (int i = 0; i < 2_000; i++) {
      long ts = r.nextLong(1L << 50);
      CellBuilder b = new CellBuilder(FAMILY, ts);
      long a = r.nextLong();
      int u = r.nextInt();
      byte[] tail = bytes(r, 40);
      b.row().putHigh(a, 1 + r.nextInt(8)).put((byte) r.nextInt()).putInt(u).put(tail).putLong(a);
      byte[] row = java.util.Arrays.copyOf(b.row, b.rowLength);
      long ttl = r.nextBoolean() ? CellBuilder.NO_TTL : r.nextLong(1L << 40);
      long n = r.nextLong();
      byte[] q = bytes(r, 10);
      byte[] v = bytes(r, 60);
      String at = "seed " + seed + ", case " + i;
      assertThat(copy(b.longQualifier(n, ttl)))
          .as(at)
          .isEqualTo(copy(expected(row, Bytes.toBytes(n), ts, new byte[0], ttl)));
      assertThat(copy(b.longValue(q, n, ttl)))
          .as(at)
          .isEqualTo(copy(expected(row, q, ts, Bytes.toBytes(n), ttl)));
      assertThat(copy(b.bytesValue(q, v, ttl)))
          .as(at)
          .isEqualTo(copy(expected(row, q, ts, v, ttl)));
    }
  }

  /**
   * One builder reuses its ring of cells: every cell equals HBase's own, whatever the sizes the
   * slot held before, and is still intact when RING - 1 more cells have been built (HFile.Writer
   * holds on to a few of the last cells it was given).
   */
  @Test
  void ring_reusedCellsOfAnySize_intactForRingMinusOneLaterCells() {
    long seed = 19L;
    SplittableRandom r = new SplittableRandom(seed);
    long ts = 1_764_000_000_000L;
    CellBuilder b = new CellBuilder(FAMILY, ts);
    java.util.ArrayDeque<KeyValue> cells = new java.util.ArrayDeque<>();
    java.util.ArrayDeque<byte[]> copies = new java.util.ArrayDeque<>();
    for (int i = 0; i < 3 * CellBuilder.RING; i++) {
      // Sizes from the smallest cell to well above the slots' first arrays (96 bytes).
      byte[] tail = bytes(r, r.nextInt(8) == 0 ? 200 : 8);
      b.row().putInt(i).put(tail);
      byte[] row = java.util.Arrays.copyOf(b.row, b.rowLength);
      long ttl = r.nextBoolean() ? CellBuilder.NO_TTL : r.nextLong(1L << 40);
      byte[] v = bytes(r, r.nextInt(8) == 0 ? 300 : 4);
      KeyValue kv = b.bytesValue(new byte[] {'q'}, v, ttl);
      byte[] copy = copy(kv);
      assertThat(copy)
          .as("seed %s, cell %s", seed, i)
          .isEqualTo(copy(expected(row, new byte[] {'q'}, ts, v, ttl)));
      cells.addLast(kv);
      copies.addLast(copy);
      if (cells.size() == CellBuilder.RING) {
        // The oldest of the last RING cells: RING - 1 have been built since.
        assertThat(copy(cells.removeFirst()))
            .as("seed %s, cell %s", seed, i - CellBuilder.RING + 1)
            .isEqualTo(copies.removeFirst());
      }
    }
  }

  @Test
  void put_rowTooLong_refusedWithItsLength() {
    CellBuilder b = new CellBuilder(FAMILY, 1);
    assertThatThrownBy(() -> b.row().putInt(1).put(new byte[Short.MAX_VALUE]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at most 32767 bytes, got 32771");
  }
}
