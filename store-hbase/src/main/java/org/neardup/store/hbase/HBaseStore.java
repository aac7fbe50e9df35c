// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.jspecify.annotations.Nullable;
import org.neardup.index.BlockScheme;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.FingerprintStore;

/**
 * A {@link FingerprintStore} in HBase, shared by any number of service processes.
 *
 * <h2>Layout</h2>
 *
 * Three tables, named {@code <table-prefix>_meta}, {@code _index} and {@code _docs}:
 *
 * <ul>
 *   <li>index ({@link Rows}): the seeds' rowkey, block value + table flag (+ collection uid) +
 *       fingerprint, one prefix scan per block per check; a row per MinHash band key; qualifiers
 *       are the ordinals filed there. Pre-split by block value and band key.
 *   <li>docs: per document (uid, 'd', ordinal): record, sketch and cluster root; (uid, 'i', id) to
 *       ordinal; (uid, 'm', root) the members of a cluster; (uid, 'r', root) the root's id; (uid,
 *       'x', expiry, ordinal) for the expiry sweep. A cluster of one has no members or root-id row
 *       (its root's document row names it): the first document to join it writes both.
 *   <li>meta: {@code <prefix>/c/<name>} to {@code uid;settings}; per collection its lock, its
 *       sequence row ({@link Sequence}: the last committed ordinal, the last given, the holes) and
 *       its counters; {@code uid}, the last uid given.
 * </ul>
 *
 * Collections share the tables (no DDL per collection); a uid is never given twice, so a dropped
 * collection's leftovers never meet a new one's rows.
 *
 * <h2>Exactly one new document among near-duplicates</h2>
 *
 * See {@link HBaseCollection}: writes to a collection are serialised by a lease lock in HBase
 * ({@link LeaseLock}, {@code checkAndMutate} on the collection's lock row), and every commit moves
 * the collection's sequence with {@code checkAndMutate} from the value its decision read.
 */
public final class HBaseStore implements FingerprintStore {
  static final byte[] META_FAMILY = bytes("m");
  static final byte[] DOC_FAMILY = bytes("d");
  static final byte[] INDEX_FAMILY = bytes("f");
  static final byte[] VALUE = bytes("v");
  private static final byte[] UID_ROW = bytes("uid");

  private final Connection connection;
  private final AsyncConnection async;
  private final String prefix;
  private final InstantSource clock;
  private final String where;
  final TableName meta;
  final TableName index;
  final TableName docs;
  private final BlockScheme defaultScheme;
  final long ttlGraceMs;

  /** Where imports stage HFiles ({@code import=hfiles}), or null to import with puts. */
  final @Nullable String bulkDir;

  /**
   * Whether those HFiles are written in their families' block encodings ({@code
   * import-encoding=family}) instead of the importer's default ({@link
   * IndexFamily#importEncoding}).
   */
  final boolean importEncoded;

  /**
   * Whether probes ask the region servers to drop block rows more than k bits from every asker
   * ({@link BlockDistanceFilter}, {@code server-filter=auto}); turned off for the store's life when
   * a region server cannot load the filter (its class is not on the server's class path).
   */
  private volatile boolean serverFilter;

  /**
   * How the region servers read store files for a check's scans ({@code scan-read}): {@code PREAD}
   * (positional reads of one block each) or HBase's {@code DEFAULT}, which switches a scanner to a
   * streaming read once it has read four blocks' bytes; a check's scan reads one block per range
   * and seeks far between them, so a stream read opens a new HDFS block reader (a connection to the
   * DataNode) at almost every block that misses the block cache.
   */
  final Scan.ReadType scanReadType;

  private final Map<String, HBaseCollection> cache = new ConcurrentHashMap<>();
  private volatile boolean closed;
  private volatile boolean failed;
  final java.util.concurrent.atomic.LongAdder probes = new java.util.concurrent.atomic.LongAdder();
  final java.util.concurrent.atomic.LongAdder rowsRead =
      new java.util.concurrent.atomic.LongAdder();

  /** Commits (batches) made, and the time spent in each phase of them. */
  final java.util.concurrent.atomic.LongAdder commits = new java.util.concurrent.atomic.LongAdder();

  final java.util.concurrent.atomic.LongAdder lockNanos =
      new java.util.concurrent.atomic.LongAdder();
  final java.util.concurrent.atomic.LongAdder probeNanos =
      new java.util.concurrent.atomic.LongAdder();
  final java.util.concurrent.atomic.LongAdder writeNanos =
      new java.util.concurrent.atomic.LongAdder();
  final java.util.concurrent.atomic.LongAdder blockRowsRead =
      new java.util.concurrent.atomic.LongAdder();
  final java.util.concurrent.atomic.LongAdder lockWaits =
      new java.util.concurrent.atomic.LongAdder();

  /** Documents whose rows the purges of dropped collections (and failed imports) deleted. */
  final java.util.concurrent.atomic.LongAdder purged = new java.util.concurrent.atomic.LongAdder();

  /** Slices of a purge under way at once ({@link Purge}); a benchmark sets one against it. */
  volatile int purgeInFlight = Purge.IN_FLIGHT;

  HBaseStore(
      Connection connection,
      AsyncConnection async,
      String tablePrefix,
      String prefix,
      InstantSource clock,
      String where,
      BlockScheme defaultScheme,
      long ttlGraceMs,
      @Nullable String bulkDir,
      boolean importEncoded,
      IndexFamily indexFamily,
      boolean serverFilter,
      Scan.ReadType scanReadType)
      throws IOException {
    this.serverFilter = serverFilter;
    this.scanReadType = scanReadType;
    this.defaultScheme = defaultScheme;
    this.bulkDir = bulkDir;
    this.importEncoded = importEncoded;
    this.ttlGraceMs = ttlGraceMs;
    this.connection = connection;
    this.async = async;
    this.prefix = prefix;
    this.clock = clock;
    this.where = where;
    this.meta = TableName.valueOf(tablePrefix + "_meta");
    this.index = TableName.valueOf(tablePrefix + "_index");
    this.docs = TableName.valueOf(tablePrefix + "_docs");
    try (Admin admin = connection.getAdmin()) {
      ensure(admin, meta, documentsFamily(META_FAMILY), null);
      ensure(admin, index, indexFamily.descriptor(), Rows.indexSplits());
      ensure(admin, docs, documentsFamily(DOC_FAMILY), Rows.docSplits());
    }
  }

  /**
   * The documents' and meta tables' family: HBase's default block size and row Bloom filter, which
   * their gets use (an id get of a new document skips every store file the filter rules out).
   */
  private static ColumnFamilyDescriptor documentsFamily(byte[] family) {
    return ColumnFamilyDescriptorBuilder.newBuilder(family)
        .setMaxVersions(1)
        // Rows of one kind share their first 5 bytes: stored once per run.
        .setDataBlockEncoding(DataBlockEncoding.FAST_DIFF)
        .setBlocksize(IndexFamily.DEFAULT_BLOCK_BYTES)
        .build();
  }

  private static void ensure(
      Admin admin, TableName name, ColumnFamilyDescriptor family, byte[] @Nullable [] splits)
      throws IOException {
    if (admin.tableExists(name)) {
      return;
    }
    TableDescriptorBuilder t = TableDescriptorBuilder.newBuilder(name).setColumnFamily(family);
    try {
      if (splits == null) {
        admin.createTable(t.build());
      } else {
        admin.createTable(t.build(), splits);
      }
    } catch (TableExistsException e) {
      // Another node created it meanwhile.
    }
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  Connection connection() {
    return connection;
  }

  AsyncConnection async() {
    return async;
  }

  InstantSource clock() {
    return clock;
  }

  /** Whether probes send a {@link BlockDistanceFilter} with their scans. */
  boolean serverFilter() {
    return serverFilter;
  }

  /**
   * Turns the server-side filter off if {@code failure} says a region server could not load or read
   * it (a server without the store's jar, or with another version of it).
   *
   * @return whether it did, so the probe is worth sending again without the filter
   */
  boolean serverFilterFailed(Throwable failure) {
    for (Throwable c = failure; c != null; c = c.getCause()) {
      if (c instanceof DoNotRetryIOException
          && String.valueOf(c.getMessage()).contains(BlockDistanceFilter.class.getName())) {
        serverFilter = false;
        return true;
      }
    }
    return false;
  }

  /** An IOException naming the cluster. */
  IOException unavailable(Exception cause) {
    failed = true;
    return new IOException("hbase at " + where + " is unavailable: " + cause.getMessage(), cause);
  }

  void succeeded() {
    failed = false;
  }

  @Override
  public String kind() {
    return "hbase";
  }

  @Override
  public String toString() {
    return "hbase at " + where + " (tables " + meta + ", prefix " + prefix + ")";
  }

  private byte[] registryRow(String name) {
    return bytes(prefix + "/c/" + name);
  }

  private void checkNotClosed() {
    if (closed) {
      throw new IllegalStateException("the hbase store is closed");
    }
  }

  @Override
  public Collection create(String name, CollectionSettings settings) throws IOException {
    return create(name, settings, schemeOf(settings));
  }

  /** A collection's registry entry, {@code uid[@m:r];settings} (no {@code @m:r} for 4:1). */
  private static byte[] registryEntry(long uid, BlockScheme scheme, CollectionSettings settings) {
    String schemeText = scheme.equals(BlockScheme.DEFAULT) ? "" : "@" + scheme;
    return bytes(uid + schemeText + ";" + settings.toText());
  }

  /** The settings' block scheme, or the store's default when the settings keep the default 4:1. */
  BlockScheme schemeOf(CollectionSettings settings) {
    BlockScheme s = settings.analysis().scheme();
    return s.equals(BlockScheme.DEFAULT) ? defaultScheme : s;
  }

  /**
   * Creates a collection whose index uses {@code scheme} ({@code 4:1}, {@code 5:2}, {@code 6:3}):
   * fixed at creation and kept in the collection's registry entry, {@code uid[@m:r];settings}
   * (without {@code @m:r} for 4:1, as entries written before schemes were kept).
   */
  Collection create(String name, CollectionSettings settings, BlockScheme scheme)
      throws IOException {
    FingerprintStore.checkName(name);
    checkNotClosed();
    // Fails on an unknown lexicon, k or scheme, or settings naming files, before anything is
    // written.
    settings.requireNoFiles("hbase");
    settings.deduplicator().analyzer();
    HBaseCollection.schemeFor(scheme, settings.maxDistance());
    try (Table t = connection.getTable(meta)) {
      long uid = t.incrementColumnValue(UID_ROW, META_FAMILY, VALUE, 1);
      if (uid > Integer.MAX_VALUE) {
        throw new IOException("no collection uid left");
      }
      byte[] row = registryRow(name);
      byte[] entry = registryEntry(uid, scheme, settings);
      boolean ok =
          t.checkAndMutate(
                  CheckAndMutate.newBuilder(row)
                      .ifNotExists(META_FAMILY, VALUE)
                      .build(new Put(row).addColumn(META_FAMILY, VALUE, entry)))
              .isSuccess();
      if (!ok) {
        throw new IllegalArgumentException("collection '" + name + "' exists");
      }
      HBaseCollection c = new HBaseCollection(this, name, (int) uid, settings, scheme);
      cache.put(name, c);
      return c;
    }
  }

  /**
   * A collection under a fresh uid that nobody finds until {@link #register}: for {@link
   * HBaseTransfer}, which writes its rows first.
   */
  HBaseCollection unregistered(String name, CollectionSettings settings) throws IOException {
    settings.requireNoFiles("hbase");
    try (Table t = connection.getTable(meta)) {
      long uid = t.incrementColumnValue(UID_ROW, META_FAMILY, VALUE, 1);
      if (uid > Integer.MAX_VALUE) {
        throw new IOException("no collection uid left");
      }
      return new HBaseCollection(this, name, (int) uid, settings, schemeOf(settings));
    }
  }

  /**
   * Makes a collection from {@link #unregistered} visible, as {@link #create} does.
   *
   * @throws IllegalArgumentException if the name was taken meanwhile
   */
  void register(HBaseCollection c) throws IOException {
    try (Table t = connection.getTable(meta)) {
      byte[] row = registryRow(c.name());
      byte[] entry = registryEntry(c.uid, c.scheme(), c.settings());
      if (!t.checkAndMutate(
              CheckAndMutate.newBuilder(row)
                  .ifNotExists(META_FAMILY, VALUE)
                  .build(new Put(row).addColumn(META_FAMILY, VALUE, entry)))
          .isSuccess()) {
        throw new IllegalArgumentException("collection '" + c.name() + "' exists");
      }
      cache.put(c.name(), c);
    }
  }

  private @Nullable HBaseCollection fromEntry(String name, byte @Nullable [] entry) {
    if (entry == null) {
      return null;
    }
    String text = new String(entry, StandardCharsets.UTF_8);
    int semi = text.indexOf(';');
    int uid = uidOf(entry);
    HBaseCollection cached = cache.get(name);
    if (cached != null && cached.uid == uid) {
      return cached;
    }
    int at = text.indexOf('@');
    BlockScheme scheme =
        at < 0 || at > semi ? BlockScheme.DEFAULT : BlockScheme.parse(text.substring(at + 1, semi));
    HBaseCollection c =
        new HBaseCollection(
            this, name, uid, CollectionSettings.parse(text.substring(semi + 1)), scheme);
    cache.put(name, c);
    return c;
  }

  /** The uid the registry maps the name to now, or -1. */
  int registeredUid(Table t, String name) throws IOException {
    byte[] v =
        t.get(new Get(registryRow(name)).addColumn(META_FAMILY, VALUE))
            .getValue(META_FAMILY, VALUE);
    if (v == null) {
      return -1;
    }
    return uidOf(v);
  }

  /** The uid of a registry entry, {@code uid[@m:r];settings}. */
  static int uidOf(byte[] entry) {
    int n = 0;
    for (byte b : entry) {
      if (b < '0' || b > '9') {
        break;
      }
      n = n * 10 + (b - '0');
    }
    return n;
  }

  byte[] registryRowOf(String name) {
    return registryRow(name);
  }

  @Override
  public @Nullable Collection collection(String name) {
    checkNotClosed();
    try (Table t = connection.getTable(meta)) {
      return fromEntry(
          name,
          t.get(new Get(registryRow(name)).addColumn(META_FAMILY, VALUE))
              .getValue(META_FAMILY, VALUE));
    } catch (IOException e) {
      throw new UncheckedIOException(unavailable(e));
    }
  }

  @Override
  public List<Collection> collections() {
    checkNotClosed();
    List<Collection> out = new ArrayList<>();
    byte[] start = bytes(prefix + "/c/");
    try (Table t = connection.getTable(meta);
        ResultScanner rs = t.getScanner(new Scan().setStartStopRowForPrefixScan(start))) {
      for (Result r : rs) {
        String name =
            new String(
                r.getRow(), start.length, r.getRow().length - start.length, StandardCharsets.UTF_8);
        out.add(fromEntry(name, r.getValue(META_FAMILY, VALUE)));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(unavailable(e));
    }
    return out; // rowkey order is name order
  }

  @Override
  public boolean drop(String name) throws IOException {
    checkNotClosed();
    byte[] row = registryRow(name);
    HBaseCollection c;
    try (Table t = connection.getTable(meta)) {
      byte[] entry = t.get(new Get(row).addColumn(META_FAMILY, VALUE)).getValue(META_FAMILY, VALUE);
      c = fromEntry(name, entry);
      if (c == null
          || !t.checkAndMutate(
                  CheckAndMutate.newBuilder(row)
                      .ifEquals(META_FAMILY, VALUE, entry)
                      .build(new Delete(row)))
              .isSuccess()) {
        return false;
      }
    }
    c.dropped = true;
    cache.remove(name, c);
    c.purge();
    return true;
  }

  @Override
  public void sync() {
    // Every write is in HBase (its WAL) when the call returns.
  }

  @Override
  public void checkpoint() {
    // HBase compacts on its own.
  }

  @Override
  public boolean isHealthy() {
    return !closed && !failed && !connection.isClosed();
  }

  /**
   * {@code probes}: candidate look-ups made; {@code rows_read}: index rows (block and band) and
   * document rows they read; {@code lock_retries}: times a writer found the collection's lock held;
   * {@code block_rows_read}: block rows the prefix scans returned; {@code commits}: batches
   * committed (a group of single calls is one); {@code lock_ms}, {@code probe_ms}, {@code
   * write_ms}: time spent taking and giving back the lock, reading candidates (ids, sequence,
   * index, documents) and writing rows; {@code purged_documents}: documents whose rows the purges
   * of dropped collections deleted (a drop's progress, see {@link Purge}).
   */
  @Override
  public Map<String, Number> metrics() {
    return Map.of(
        "hbase_probes", probes.sum(),
        "hbase_rows_read", rowsRead.sum(),
        "hbase_lock_retries", lockWaits.sum(),
        "hbase_commits", commits.sum(),
        "hbase_block_rows_read", blockRowsRead.sum(),
        "hbase_lock_ms", lockNanos.sum() / 1_000_000,
        "hbase_probe_ms", probeNanos.sum() / 1_000_000,
        "hbase_write_ms", writeNanos.sum() / 1_000_000,
        "hbase_server_filter", serverFilter ? 1 : 0,
        "hbase_purged_documents", purged.sum());
  }

  @Override
  public void close() throws IOException {
    if (!closed) {
      closed = true;
      async.close();
      connection.close();
    }
  }

  static byte[] uidRow(char kind, int uid) {
    return ByteBuffer.allocate(5).put((byte) kind).putInt(uid).array();
  }
}
