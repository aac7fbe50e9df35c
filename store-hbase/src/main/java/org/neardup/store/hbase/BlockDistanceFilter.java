// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.exceptions.DeserializationException;
import org.apache.hadoop.hbase.filter.FilterBase;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A region-server-side filter of a probe's scan: drops each block row whose fingerprint is more
 * than k bits from every fingerprint of the batch that asked for its block prefix, so that only the
 * rows a check keeps travel back to the client. A row under no prefix it was given (a band row, or
 * a row between the ranges, which the scan's {@code MultiRowRangeFilter} seeks past) is left to the
 * other filters.
 *
 * <p>Why: a block row is kept by the client only when its fingerprint is within k bits of an asker
 * ({@code Verifier.isFingerprintCandidate}); at 4:1 with 10M documents a check's four 16-bit
 * prefixes hold ~597 rows of which ~1 is within k, and each row returned costs the region server a
 * result and the cell block's bytes, and the client their parsing. Every row is still read from the
 * store files: the rows under a prefix are sorted by their full fingerprint, and no order turns
 * "within k bits" into a range.
 *
 * <p>The region server loads this class by name from the scan's serialized filter ({@link
 * #parseFrom}), so it must be public and on the region servers' class path (the store's jar: this
 * class uses HBase's and the JDK's classes only). Not thread-safe: HBase gives each scan its own
 * instance, read on one thread at a time.
 */
public final class BlockDistanceFilter extends FilterBase {
  private static final byte VERSION = 1;

  private final int maxDistance;
  private final int prefixBytes;

  /** The prefixes, sorted, each {@link #prefixBytes} long, one after the other. */
  private final byte[] prefixes;

  /** Prefix i's fingerprints are {@code fingerprints[starts[i] .. starts[i + 1])}. */
  private final int[] starts;

  private final long[] fingerprints;

  /** Whether the row {@link #filterRowKey} saw last is dropped. */
  private boolean dropping;

  /**
   * @param maxDistance k: a row within k bits of an asker passes
   * @param prefixBytes the length of a block prefix; a block row's fingerprint follows it
   * @param prefixes the block prefixes, in unsigned byte order, each {@code prefixBytes} long
   * @param starts {@code prefixes' count + 1} offsets into {@code fingerprints}, ascending
   * @param fingerprints the askers' fingerprints, prefix by prefix
   */
  BlockDistanceFilter(
      int maxDistance, int prefixBytes, byte[] prefixes, int[] starts, long[] fingerprints) {
    if (maxDistance < 0 || maxDistance > 64 || prefixBytes <= 0) {
      throw new IllegalArgumentException(
          "maxDistance " + maxDistance + " or prefixBytes " + prefixBytes + " out of range");
    }
    if (prefixes.length % prefixBytes != 0
        || starts.length != prefixes.length / prefixBytes + 1
        || starts[0] != 0
        || starts[starts.length - 1] != fingerprints.length) {
      throw new IllegalArgumentException("prefixes, starts and fingerprints do not agree");
    }
    for (int i = 1; i < starts.length; i++) {
      if (starts[i] < starts[i - 1]) {
        throw new IllegalArgumentException("starts must ascend");
      }
      if (i < starts.length - 1
          && Bytes.compareTo(
                  prefixes,
                  (i - 1) * prefixBytes,
                  prefixBytes,
                  prefixes,
                  i * prefixBytes,
                  prefixBytes)
              >= 0) {
        throw new IllegalArgumentException("prefixes must be sorted and distinct");
      }
    }
    this.maxDistance = maxDistance;
    this.prefixBytes = prefixBytes;
    this.prefixes = prefixes;
    this.starts = starts;
    this.fingerprints = fingerprints;
  }

  /** Whether the row {@code row[off, off + len)} is dropped. */
  boolean drops(byte[] row, int off, int len) {
    if (len < prefixBytes + 8) {
      return false;
    }
    int p = find(row, off);
    if (p < 0) {
      return false; // not a block row of this scan's prefixes: the range filter decides
    }
    long stored = Bytes.toLong(row, off + prefixBytes);
    for (int i = starts[p]; i < starts[p + 1]; i++) {
      if (Long.bitCount(stored ^ fingerprints[i]) <= maxDistance) {
        return false;
      }
    }
    return true;
  }

  /** The index of the prefix the row starts with, or -1. */
  private int find(byte[] row, int off) {
    int lo = 0;
    int hi = starts.length - 2;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int c = Bytes.compareTo(prefixes, mid * prefixBytes, prefixBytes, row, off, prefixBytes);
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -1;
  }

  /**
   * Decides the row. Within a {@code FilterList} of {@code MUST_PASS_ALL} the answer alone does not
   * drop it: the list passes a row that a hinting filter (the {@code MultiRowRangeFilter}) let
   * through, so that filter's seek hint is not lost; {@link #filterCell} then skips the dropped
   * row's cells.
   */
  @Override
  public boolean filterRowKey(Cell firstRowCell) {
    dropping =
        drops(firstRowCell.getRowArray(), firstRowCell.getRowOffset(), firstRowCell.getRowLength());
    return dropping;
  }

  @Override
  public ReturnCode filterCell(Cell c) {
    return dropping ? ReturnCode.NEXT_ROW : ReturnCode.INCLUDE;
  }

  /** Version, k, prefix length, prefix count, fingerprint count, prefixes, starts, fingerprints. */
  @Override
  public byte[] toByteArray() {
    int n = starts.length - 1;
    ByteBuffer b =
        ByteBuffer.allocate(
            1 + 4 * 4 + prefixes.length + 4 * starts.length + 8 * fingerprints.length);
    b.put(VERSION).putInt(maxDistance).putInt(prefixBytes).putInt(n).putInt(fingerprints.length);
    b.put(prefixes);
    for (int s : starts) {
      b.putInt(s);
    }
    for (long fp : fingerprints) {
      b.putLong(fp);
    }
    return b.array();
  }

  /** Reads what {@link #toByteArray} wrote; HBase's region server calls it by reflection. */
  public static BlockDistanceFilter parseFrom(byte[] bytes) throws DeserializationException {
    try {
      ByteBuffer b = ByteBuffer.wrap(bytes);
      byte version = b.get();
      if (version != VERSION) {
        throw new DeserializationException("unknown BlockDistanceFilter version " + version);
      }
      int maxDistance = b.getInt();
      int prefixBytes = b.getInt();
      int n = b.getInt();
      int count = b.getInt();
      if (prefixBytes <= 0
          || n < 0
          || count < 0
          || (long) n * prefixBytes + 4L * (n + 1) + 8L * count != b.remaining()) {
        throw new DeserializationException("BlockDistanceFilter bytes do not add up");
      }
      byte[] prefixes = new byte[n * prefixBytes];
      b.get(prefixes);
      int[] starts = new int[n + 1];
      for (int i = 0; i <= n; i++) {
        starts[i] = b.getInt();
      }
      long[] fingerprints = new long[count];
      for (int i = 0; i < count; i++) {
        fingerprints[i] = b.getLong();
      }
      return new BlockDistanceFilter(maxDistance, prefixBytes, prefixes, starts, fingerprints);
    } catch (BufferUnderflowException | IllegalArgumentException e) {
      throw new DeserializationException(e);
    }
  }

  @Override
  public String toString() {
    return "BlockDistanceFilter(k="
        + maxDistance
        + ", "
        + (starts.length - 1)
        + " prefixes, "
        + fingerprints.length
        + " fingerprints)";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof BlockDistanceFilter f
        && f.maxDistance == maxDistance
        && f.prefixBytes == prefixBytes
        && Arrays.equals(f.prefixes, prefixes)
        && Arrays.equals(f.starts, starts)
        && Arrays.equals(f.fingerprints, fingerprints);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(fingerprints) * 31 + Arrays.hashCode(prefixes);
  }
}
