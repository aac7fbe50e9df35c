// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import java.util.Locale;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.util.BloomFilterUtil;
import org.neardup.store.StoreConfig;

/**
 * The settings the index table's family is created with: block encoding, Bloom filter, block size,
 * whether its blocks are cached in the in-memory tier and whether a region server reads a store
 * file's blocks into its block cache when it opens the file. They apply when the store creates the
 * table; a table that exists keeps its own (HBase's {@code alter} changes them, and files written
 * before keep their old encoding and filters until a compaction rewrites them). Immutable.
 */
final class IndexFamily {
  /*
   * Why no Bloom filter by default. A probe reads the index with one scan per region, its ranges
   * in a MultiRowRangeFilter (HBaseCollection.probe); HBase 2.5 consults a family's row or row
   * prefix Bloom filter only when it opens a store file's scanner, and only for a scan whose start
   * and stop rows are one row (ROW) or share the prefix (ROWPREFIX_FIXED_LENGTH), never on the
   * reseeks from one range to the next (StoreFileReader.passesBloomFilter,
   * StoreFileScanner.requestSeek: only ROWCOL with explicit columns). So a filter on the index is
   * written at every flush and compaction, held on disk, and never read. Asking per range instead
   * (a get per band row, a scan per block prefix) opens a region scanner per range: 2,000 for a
   * batch of 200 where the probe sends ~32 scan RPCs; and at 4:1 with 1M documents all but
   * e^-15 of the 65,536 16-bit block prefixes are present, so a prefix filter would skip nothing.
   */

  /** HBase's default block size, for the documents and meta tables: their reads are gets. */
  static final int DEFAULT_BLOCK_BYTES = 64 * 1024;

  /**
   * The index family's block size. A check seeks once per block prefix and band row, each a new
   * block of a large store file, and a seek walks its block from the start (unencoded files, as the
   * importer writes them, and FAST_DIFF alike): with HBase's 64 KiB that walk was 37% of the region
   * server's handler samples at 1M verified documents stored (JFR). An eighth of it walks an eighth
   * as far for ~0.4% more bytes of block headers and a larger block index.
   */
  static final int DEFAULT_INDEX_BLOCK_BYTES = 8 * 1024;

  /*
   * Why the index's blocks are prefetched when a store file opens (index-prefetch, on by default).
   * Every check seeks into a random block of each index region's files, so the whole of every file
   * is hot, and a file the region server has just opened (a major compaction's, a bulk-loaded
   * import's, a flush's, a region moved or reopened after a restart) starts cold: the checks then
   * read its blocks one at a time, each a positional read over a new connection to the DataNode.
   * At 1M verified documents, right after the preload's major compaction, those misses were 31% of
   * the handlers' samples and 0.83 ms of a document's 3.26 ms of CPU (HDFS threads) over the first
   * 10,000 checks, and still 6% of the handlers' samples after 20,000. A prefetch reads the file once,
   * front to back, in a region server's background threads. Where the index is larger than the
   * block cache it only fills the cache sooner; the cache's size is the deployment's to set.
   */

  static final IndexFamily DEFAULT =
      new IndexFamily(
          DataBlockEncoding.FAST_DIFF, BloomType.NONE, DEFAULT_INDEX_BLOCK_BYTES, false, true);

  final DataBlockEncoding encoding;
  final BloomType bloom;
  final int blockBytes;
  final boolean inMemory;
  final boolean prefetch;

  IndexFamily(
      DataBlockEncoding encoding,
      BloomType bloom,
      int blockBytes,
      boolean inMemory,
      boolean prefetch) {
    if (blockBytes < 1024 || blockBytes > HFileSink.BLOCK_SIZE) {
      throw new IllegalArgumentException(
          "index-block-bytes must be 1024 to " + HFileSink.BLOCK_SIZE + ", got " + blockBytes);
    }
    this.encoding = encoding;
    this.bloom = bloom;
    this.blockBytes = blockBytes;
    this.inMemory = inMemory;
    this.prefetch = prefetch;
  }

  /**
   * The settings the store options name ({@code index-encoding}, {@code index-bloom}, {@code
   * index-block-bytes}, {@code index-in-memory}, {@code index-prefetch}), the defaults for those
   * not given.
   */
  static IndexFamily of(StoreConfig config) {
    String blockBytes = config.get("index-block-bytes");
    boolean inMemory = config.flag("index-in-memory", DEFAULT.inMemory);
    boolean prefetch = config.flag("index-prefetch", DEFAULT.prefetch);
    return new IndexFamily(
        named(DataBlockEncoding.class, "index-encoding", config.get("index-encoding"))
            .orElse(DEFAULT.encoding),
        named(BloomType.class, "index-bloom", config.get("index-bloom")).orElse(DEFAULT.bloom),
        blockBytes == null ? DEFAULT.blockBytes : parseBlockBytes(blockBytes),
        inMemory,
        prefetch);
  }

  private static int parseBlockBytes(String v) {
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("index-block-bytes must be an integer, got '" + v + "'");
    }
  }

  private static <E extends Enum<E>> java.util.Optional<E> named(
      Class<E> kind, String option, String value) {
    if (value == null) {
      return java.util.Optional.empty();
    }
    try {
      return java.util.Optional.of(Enum.valueOf(kind, value.toUpperCase(Locale.ROOT)));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          option
              + " must be one of "
              + java.util.Arrays.toString(kind.getEnumConstants())
              + ", got '"
              + value
              + "'",
          e);
    }
  }

  /** The family's descriptor; a row prefix filter covers an index row's 10-byte prefix. */
  ColumnFamilyDescriptor descriptor() {
    ColumnFamilyDescriptorBuilder b =
        ColumnFamilyDescriptorBuilder.newBuilder(HBaseStore.INDEX_FAMILY)
            .setMaxVersions(1)
            .setDataBlockEncoding(encoding)
            .setBloomFilterType(bloom)
            .setBlocksize(blockBytes)
            .setInMemory(inMemory)
            .setPrefetchBlocksOnOpen(prefetch);
    if (bloom == BloomType.ROWPREFIX_FIXED_LENGTH) {
      b.setConfiguration(BloomFilterUtil.PREFIX_LENGTH_KEY, Integer.toString(Rows.PREFIX_BYTES));
    }
    return b.build();
  }

  /**
   * The encoding the importer writes a family's files in, given the family's: the family's when it
   * costs the client little (ROW_INDEX_V1 adds a row offset per row, so a loaded file has its
   * in-block binary search at once); otherwise none (FAST_DIFF cost the client 14% of a 2M import's
   * CPU, JFR), and a compaction encodes the files.
   */
  static DataBlockEncoding importEncoding(DataBlockEncoding family) {
    return family == DataBlockEncoding.ROW_INDEX_V1 ? family : DataBlockEncoding.NONE;
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "index-encoding=%s index-bloom=%s index-block-bytes=%d index-in-memory=%b"
            + " index-prefetch=%b",
        encoding,
        bloom,
        blockBytes,
        inMemory,
        prefetch);
  }
}
