// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.TagType;

/**
 * Puts of one column family and timestamp, built for {@link HFileImporter} straight into a {@link
 * KeyValue}'s bytes from a row in a reused buffer and primitive qualifier and value, with an
 * optional TTL tag: one array per cell, where HBase's own constructors take a row array, a tag
 * object and a list per cell, and without {@code KeyValue(byte[], int, int)}'s parse of the bytes
 * it was given (12% of a 2M import's samples in JFR; {@code CellBuilderTest} checks that HBase's
 * parse accepts the bytes and that they equal its own constructor's). Not thread-safe (the row
 * buffer); one per writing thread.
 *
 * <p>Cells are not allocated one by one: they are taken in turn from a ring of {@link #RING} reused
 * cells, so a cell stays valid only until {@link #RING} more are built (allocating each cell's
 * array was 20% of an import's writer threads' JFR samples). An {@code HFile.Writer} holds on to
 * three cells it was given: the last, the first of the block it writes and the last of the previous
 * block, all among the cells of the last one and a half blocks; a cell takes at least {@link
 * #MIN_CELL} bytes, so a ring of more than two blocks' worth of the smallest cells outlives them.
 */
final class CellBuilder {
  /*
   * KeyValue --> KeyLength (int), ValueLength (int), Key, Value, TagsLength (short), Tags
   * Key --> RowLength (short), Row, FamilyLength (byte), Family, Qualifier, Timestamp (long),
   *         Type (byte, Put = 4)
   * Tags --> (TagLength (short, type + value), TagType (byte), TagValue)*; the TTL tag's value is
   *          its milliseconds as 8 bytes.
   * Every number is big-endian. CellBuilderTest checks the bytes against KeyValue's constructor.
   */
  private static final int TTL_TAGS = 2 + 2 + 1 + 8;

  /** The smallest cell: the two lengths, a 1-byte row, family and qualifier empty, no value. */
  static final int MIN_CELL = 8 + 2 + 1 + 1 + 8 + 1;

  /**
   * Cells in the ring: a power of two above two 64 KiB blocks (HFileSink's) of the smallest cells.
   */
  static final int RING = 8192;

  static {
    if (RING < 2 * (HFileSink.BLOCK_SIZE / MIN_CELL + 2) || Integer.bitCount(RING) != 1) {
      throw new AssertionError("RING too small for HFileSink's blocks");
    }
  }

  private final Built[] ring = new Built[RING];
  private int next;

  /** No TTL tag: the cell lives until deleted. */
  static final long NO_TTL = -1;

  private final byte[] family;
  private final long timestamp;

  /** The next cell's row: bytes [0, rowLength). */
  final byte[] row = new byte[Short.MAX_VALUE];

  int rowLength;

  CellBuilder(byte[] family, long timestamp) {
    this.family = family;
    this.timestamp = timestamp;
  }

  /** Starts a new row: clears it. */
  CellBuilder row() {
    rowLength = 0;
    return this;
  }

  CellBuilder put(byte b) {
    row[rowLength++] = b;
    return this;
  }

  CellBuilder putInt(int v) {
    putBytes(v, 4);
    return this;
  }

  CellBuilder putLong(long v) {
    putBytes(v, 8);
    return this;
  }

  /** The high {@code n} bytes of {@code v}. */
  CellBuilder putHigh(long v, int n) {
    for (int i = 0; i < n; i++) {
      row[rowLength++] = (byte) (v >>> (56 - 8 * i));
    }
    return this;
  }

  CellBuilder put(byte[] b) {
    return put(b, 0, b.length);
  }

  /** The bytes {@code b[off, off + len)}. */
  CellBuilder put(byte[] b, int off, int len) {
    if (len > row.length - rowLength) {
      throw new IllegalArgumentException(
          "a row must be at most " + row.length + " bytes, got " + (rowLength + len));
    }
    System.arraycopy(b, off, row, rowLength, len);
    rowLength += len;
    return this;
  }

  private void putBytes(long v, int n) {
    for (int i = n - 1; i >= 0; i--) {
      row[rowLength + i] = (byte) v;
      v >>>= 8;
    }
    rowLength += n;
  }

  /** A cell of the row, its qualifier the 8 bytes of {@code qualifier}, its value empty. */
  KeyValue longQualifier(long qualifier, long ttlMs) {
    Built cell = start(8, 0, ttlMs);
    byte[] b = cell.array();
    int p = writeKey(b);
    p = writeLong(b, p, qualifier);
    p = writeTail(b, p);
    writeTags(b, p, ttlMs);
    return cell;
  }

  /** A cell of the row with qualifier {@code qualifier} and the 8 bytes of {@code value}. */
  KeyValue longValue(byte[] qualifier, long value, long ttlMs) {
    Built cell = start(qualifier.length, 8, ttlMs);
    byte[] b = cell.array();
    int p = writeKey(b);
    System.arraycopy(qualifier, 0, b, p, qualifier.length);
    p = writeTail(b, p + qualifier.length);
    p = writeLong(b, p, value);
    writeTags(b, p, ttlMs);
    return cell;
  }

  /** A cell of the row with qualifier {@code qualifier} and value {@code value}. */
  KeyValue bytesValue(byte[] qualifier, byte[] value, long ttlMs) {
    return bytesValue(qualifier, value, 0, value.length, ttlMs);
  }

  /** A cell of the row with qualifier {@code qualifier} and value {@code value[off, off + len)}. */
  KeyValue bytesValue(byte[] qualifier, byte[] value, int off, int len, long ttlMs) {
    Built cell = start(qualifier.length, len, ttlMs);
    byte[] b = cell.array();
    int p = writeKey(b);
    System.arraycopy(qualifier, 0, b, p, qualifier.length);
    p = writeTail(b, p + qualifier.length);
    System.arraycopy(value, off, b, p, len);
    writeTags(b, p + len, ttlMs);
    return cell;
  }

  private int keyLength(int qualifierLength) {
    return 2 + rowLength + 1 + family.length + qualifierLength + 8 + 1;
  }

  /** The next cell of the ring, sized for this one, with its two lengths written. */
  private Built start(int qualifierLength, int valueLength, long ttlMs) {
    int key = keyLength(qualifierLength);
    int length = 8 + key + valueLength + (ttlMs == NO_TTL ? 0 : TTL_TAGS);
    Built cell = ring[next];
    if (cell == null || cell.array().length < length) {
      cell = new Built(new byte[Math.max(length, 96)]);
      ring[next] = cell;
    }
    next = (next + 1) & (RING - 1);
    cell.resize(length);
    byte[] b = cell.array();
    writeInt(b, 0, key);
    writeInt(b, 4, valueLength);
    return cell;
  }

  /** Row length, row, family length, family; returns where the qualifier goes. */
  private int writeKey(byte[] b) {
    b[8] = (byte) (rowLength >>> 8);
    b[9] = (byte) rowLength;
    System.arraycopy(row, 0, b, 10, rowLength);
    int p = 10 + rowLength;
    b[p++] = (byte) family.length;
    System.arraycopy(family, 0, b, p, family.length);
    return p + family.length;
  }

  /** Timestamp and type after the qualifier; returns where the value goes. */
  private int writeTail(byte[] b, int p) {
    p = writeLong(b, p, timestamp);
    b[p] = KeyValue.Type.Put.getCode();
    return p + 1;
  }

  private static void writeTags(byte[] b, int p, long ttlMs) {
    if (ttlMs == NO_TTL) {
      return;
    }
    b[p] = 0;
    b[p + 1] = TTL_TAGS - 2;
    b[p + 2] = 0;
    b[p + 3] = 1 + 8;
    b[p + 4] = TagType.TTL_TAG_TYPE;
    writeLong(b, p + 5, ttlMs);
  }

  private static void writeInt(byte[] b, int p, int v) {
    b[p] = (byte) (v >>> 24);
    b[p + 1] = (byte) (v >>> 16);
    b[p + 2] = (byte) (v >>> 8);
    b[p + 3] = (byte) v;
  }

  private static int writeLong(byte[] b, int p, long v) {
    for (int i = 7; i >= 0; i--) {
      b[p + i] = (byte) v;
      v >>>= 8;
    }
    return p + 8;
  }

  /** A KeyValue over bytes this class wrote, taken as they are: [0, length) of its array. */
  private static final class Built extends KeyValue {
    Built(byte[] b) {
      this.bytes = b;
      this.offset = 0;
      this.length = b.length;
    }

    byte[] array() {
      return bytes;
    }

    /** The cell is now the array's first {@code n} bytes. */
    void resize(int n) {
      this.length = n;
    }
  }
}
