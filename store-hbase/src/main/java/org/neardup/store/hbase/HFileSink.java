// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.util.Bytes;
import org.jspecify.annotations.Nullable;

/**
 * Cells of one column family, appended in HBase's order, into HFiles under one directory: a new
 * file wherever a region of the table begins, so that the bulk load moves each file into its region
 * whole instead of splitting it. File format 3 with tags (the cells' TTLs), the given block
 * encoding, no compression. Not thread-safe.
 */
final class HFileSink implements Closeable {
  /**
   * The largest block size of the files (HBase's default); {@link CellBuilder}'s ring is sized to
   * it.
   */
  static final int BLOCK_SIZE = 64 * 1024;

  private final Configuration conf;
  private final FileSystem fs;
  private final Path dir;
  private final String name;
  private final byte[][] regionStarts;
  private final HFileContext context;
  private final List<Path> files = new ArrayList<>();
  private HFile.@Nullable Writer writer;
  private byte @Nullable [] nextStart;
  private long cells;

  /**
   * @param regionStarts the start keys of the table's regions, sorted, the first empty
   * @param blockSize the files' block size, at most {@link #BLOCK_SIZE}: the family's, so that
   *     files loaded and files the region server writes are read alike
   */
  HFileSink(
      Configuration conf,
      FileSystem fs,
      Path dir,
      String name,
      byte[][] regionStarts,
      byte[] family,
      DataBlockEncoding encoding,
      int blockSize) {
    if (blockSize <= 0 || blockSize > BLOCK_SIZE) {
      throw new IllegalArgumentException(
          "block size must be 1 to " + BLOCK_SIZE + ", got " + blockSize);
    }
    this.conf = conf;
    this.fs = fs;
    this.dir = dir;
    this.name = name;
    this.regionStarts = regionStarts;
    this.context =
        new HFileContextBuilder()
            .withIncludesTags(true)
            .withIncludesMvcc(false)
            .withCompression(Compression.Algorithm.NONE)
            .withDataBlockEncoding(encoding)
            .withBlockSize(blockSize)
            .withColumnFamily(family)
            .build();
  }

  /** Appends a cell; its key must not sort before the previous one's. */
  void append(KeyValue kv) throws IOException {
    HFile.Writer w = writer;
    byte[] next = nextStart;
    if (w == null
        || (next != null
            && atOrAfter(kv.getRowArray(), kv.getRowOffset(), kv.getRowLength(), next))) {
      w =
          roll(
              Arrays.copyOfRange(
                  kv.getRowArray(), kv.getRowOffset(), kv.getRowOffset() + kv.getRowLength()));
    }
    w.append(kv);
    cells++;
  }

  /**
   * Whether the row at {@code a[off, off + len)} sorts at or after {@code start}, unsigned. Rows
   * mostly differ from the next region's start in their first byte, where this returns; {@code
   * Bytes.compareTo} cost 18% of an import's writer threads' samples here (JFR, 1M fingerprints).
   */
  static boolean atOrAfter(byte[] a, int off, int len, byte[] start) {
    int n = Math.min(len, start.length);
    for (int i = 0; i < n; i++) {
      int x = a[off + i] & 0xFF;
      int y = start[i] & 0xFF;
      if (x != y) {
        return x > y;
      }
    }
    return len >= start.length;
  }

  private HFile.Writer roll(byte[] row) throws IOException {
    closeWriter();
    int region = 0;
    for (int i = 1; i < regionStarts.length; i++) {
      if (Bytes.compareTo(regionStarts[i], row) <= 0) {
        region = i;
      }
    }
    nextStart = region + 1 < regionStarts.length ? regionStarts[region + 1] : null;
    Path file = new Path(dir, String.format(Locale.ROOT, "%s-%03d", name, files.size()));
    HFile.Writer w =
        HFile.getWriterFactoryNoCache(conf).withPath(fs, file).withFileContext(context).create();
    w.appendFileInfo(HStoreFile.BULKLOAD_TIME_KEY, Bytes.toBytes(System.currentTimeMillis()));
    files.add(file);
    writer = w;
    return w;
  }

  private void closeWriter() throws IOException {
    HFile.Writer w = writer;
    writer = null;
    if (w != null) {
      w.close();
    }
  }

  /** The files written. */
  List<Path> files() {
    return files;
  }

  long cells() {
    return cells;
  }

  @Override
  public void close() throws IOException {
    closeWriter();
  }
}
