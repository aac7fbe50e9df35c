// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Scan;
import org.neardup.index.BlockScheme;
import org.neardup.store.FingerprintStore;
import org.neardup.store.StoreConfig;

/**
 * Opens the {@code hbase} store. Options: {@code zookeeper} quorum, {@code HOST:PORT[,HOST:PORT]}
 * ({@code 127.0.0.1:2181}); {@code znode} parent ({@code /hbase}); {@code table-prefix} of the
 * three tables ({@code neardup}); {@code prefix} of the collection names in them, so several stores
 * can share the tables ({@code neardup}); {@code timeout-ms} of an operation ({@code 30000});
 * {@code scheme}, the block scheme of collections created without one, {@code 4:1}, {@code 5:2} or
 * {@code 6:3} ({@code 4:1}); {@code ttl-grace-ms}, how long a document's cells outlive its expiry
 * in HBase (their TTL) so that the sweep, which counts what it removes, normally removes them first
 * ({@code 3600000}); {@code import}, how {@code neardup store import} writes a collection: {@code
 * puts} (batched puts through the region servers) or {@code hfiles} (sorted HFiles written by the
 * client and moved into the regions with HBase's bulk load; see {@link HFileImporter}) ({@code
 * puts}); {@code bulk-dir}, where {@code hfiles} stages its files, a directory on a file system the
 * region servers can read, such as {@code hdfs://namenode:8020/tmp/neardup-bulk} ({@code
 * /tmp/neardup-bulk} on the configuration's default file system, the local disk unless the Hadoop
 * configuration on the class path names HDFS); {@code import-encoding}, the block encoding of the
 * files {@code hfiles} writes: {@code none} (the region servers encode them at their next
 * compaction; the client's CPU is lower) or {@code family} (each table family's own encoding, as a
 * compaction would write them: fewer bytes on disk until the first major compaction, for a large
 * import on a small disk) ({@code none}); the index table's family, when the store creates the
 * table ({@link IndexFamily}): {@code index-encoding}, a data block encoding ({@code FAST_DIFF}, or
 * {@code ROW_INDEX_V1}, {@code NONE}, ...), {@code index-bloom}, a Bloom filter type ({@code NONE};
 * {@code ROW}, {@code ROWPREFIX_FIXED_LENGTH} on the rows' 10-byte prefix), {@code
 * index-block-bytes} ({@code 8192}), {@code index-in-memory} ({@code false}) and {@code
 * index-prefetch}, whether a region server reads a store file's blocks into its block cache when it
 * opens the file ({@code true}); {@code server-filter}, whether a check's scans ask the region
 * servers to drop the block rows more than k bits from the fingerprints that asked for them ({@link
 * BlockDistanceFilter}): {@code auto} (when the region servers can load the filter, which is in
 * this store's jar; the first check that finds a region server without it turns it off for the
 * store's life) or {@code off} ({@code auto}); {@code scan-read}, how the region servers read store
 * files for a check's scans: {@code pread} (each block by a positional read) or {@code default}
 * (HBase's choice: positional reads, then a streaming read once a scanner has read four blocks'
 * bytes, which for a check's scattered ranges means a new connection to the DataNode at most blocks
 * that miss the block cache) ({@code pread}).
 */
public final class HBaseStoreProvider implements FingerprintStore.Provider {
  @Override
  public String kind() {
    return "hbase";
  }

  @Override
  public FingerprintStore open(StoreConfig config) throws IOException {
    config.checkKnown(
        "hbase",
        "zookeeper",
        "znode",
        "table-prefix",
        "prefix",
        "timeout-ms",
        "scheme",
        "ttl-grace-ms",
        "import",
        "bulk-dir",
        "import-encoding",
        "index-encoding",
        "index-bloom",
        "index-block-bytes",
        "index-in-memory",
        "index-prefetch",
        "server-filter",
        "scan-read");
    String quorum = config.get("zookeeper", "127.0.0.1:2181");
    if (!quorum.matches("[A-Za-z0-9.\\-]+:[0-9]{1,5}(,[A-Za-z0-9.\\-]+:[0-9]{1,5})*")) {
      throw new IllegalArgumentException(
          "zookeeper must be HOST:PORT[,HOST:PORT...], got '" + quorum + "'");
    }
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", quorum);
    conf.set("zookeeper.znode.parent", config.get("znode", "/hbase"));
    int timeout = positive(config, "timeout-ms", 30_000);
    conf.setInt("hbase.client.operation.timeout", timeout);
    conf.setInt("hbase.rpc.timeout", Math.min(timeout, 10_000));
    return open(conf, config, quorum);
  }

  /** Opens the store on a cluster described by a Hadoop configuration (tests, embedding). */
  public static FingerprintStore open(Configuration conf, StoreConfig config, String where)
      throws IOException {
    String tablePrefix = config.get("table-prefix", "neardup");
    String prefix = config.get("prefix", "neardup");
    if (!tablePrefix.matches("[A-Za-z0-9_]{1,32}")) {
      throw new IllegalArgumentException(
          "table-prefix must be 1 to 32 characters of [A-Za-z0-9_], got '" + tablePrefix + "'");
    }
    if (!prefix.matches("[A-Za-z0-9._-]{1,32}")) {
      throw new IllegalArgumentException(
          "prefix must be 1 to 32 characters of [A-Za-z0-9._-], got '" + prefix + "'");
    }
    BlockScheme scheme = BlockScheme.parse(config.get("scheme", "4:1"));
    IndexFamily indexFamily = IndexFamily.of(config);
    long grace =
        config.get("ttl-grace-ms") == null ? 3_600_000 : nonNegative(config, "ttl-grace-ms");
    String importMode = config.get("import", "puts");
    if (!importMode.equals("puts") && !importMode.equals("hfiles")) {
      throw new IllegalArgumentException("import must be puts or hfiles, got '" + importMode + "'");
    }
    String bulkDir = config.get("bulk-dir", "/tmp/neardup-bulk");
    if (bulkDir.isEmpty()) {
      throw new IllegalArgumentException("bulk-dir must not be empty");
    }
    String importEncoding = config.get("import-encoding", "none");
    if (!importEncoding.equals("none") && !importEncoding.equals("family")) {
      throw new IllegalArgumentException(
          "import-encoding must be none or family, got '" + importEncoding + "'");
    }
    String serverFilter = config.get("server-filter", "auto");
    if (!serverFilter.equals("auto") && !serverFilter.equals("off")) {
      throw new IllegalArgumentException(
          "server-filter must be auto or off, got '" + serverFilter + "'");
    }
    String scanRead = config.get("scan-read", "pread");
    if (!scanRead.equals("pread") && !scanRead.equals("default")) {
      throw new IllegalArgumentException(
          "scan-read must be pread or default, got '" + scanRead + "'");
    }
    Connection connection = ConnectionFactory.createConnection(conf);
    AsyncConnection async;
    try {
      async = ConnectionFactory.createAsyncConnection(conf).join();
    } catch (RuntimeException e) {
      connection.close();
      throw new IOException("hbase at " + where + " is unavailable: " + e.getMessage(), e);
    }
    try {
      return new HBaseStore(
          connection,
          async,
          tablePrefix,
          prefix,
          config.clock(),
          where,
          scheme,
          grace,
          importMode.equals("hfiles") ? bulkDir : null,
          importEncoding.equals("family"),
          indexFamily,
          serverFilter.equals("auto"),
          scanRead.equals("pread") ? Scan.ReadType.PREAD : Scan.ReadType.DEFAULT);
    } catch (IOException | RuntimeException e) {
      async.close();
      connection.close();
      throw e;
    }
  }

  private static long nonNegative(StoreConfig config, String key) {
    String v = config.get(key);
    try {
      long n = Long.parseLong(v);
      if (n >= 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new IllegalArgumentException(key + " must be an integer >= 0, got '" + v + "'");
  }

  private static int positive(StoreConfig config, String key, int otherwise) {
    String v = config.get(key);
    if (v == null) {
      return otherwise;
    }
    try {
      int n = Integer.parseInt(v);
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new IllegalArgumentException(key + " must be a positive integer, got '" + v + "'");
  }
}
