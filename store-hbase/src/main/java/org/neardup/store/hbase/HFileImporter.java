// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import static org.neardup.store.hbase.HBaseStore.DOC_FAMILY;
import static org.neardup.store.hbase.HBaseStore.INDEX_FAMILY;
import static org.neardup.store.hbase.HBaseStore.VALUE;
import static org.neardup.store.hbase.HBaseStore.bytes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.ArrayBackedTag;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.Tag;
import org.apache.hadoop.hbase.TagType;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.tool.BulkLoadHFiles;
import org.apache.hadoop.hbase.util.Bytes;
import org.neardup.Analyzer;
import org.neardup.index.BlockScheme;
import org.neardup.store.CollectionTransfer;
import org.neardup.store.StoredRecord;

/**
 * An import that writes the collection's rows as sorted HFiles and moves them into the regions with
 * HBase's bulk load ({@code import=hfiles}), instead of sending puts through the region servers:
 * the region servers only rename files, so the cost is the client's sorting and writing.
 *
 * <p>The rows are exactly those {@link HBaseTransfer}'s puts write (and a commit of {@link
 * HBaseCollection}): the same keys, qualifiers, values and TTLs (as TTL tags), with the load's time
 * as timestamp, so that the collection answers as one built by inserts. Documents table: the
 * document rows go to the files as records arrive (they sort by ordinal, the dump's order); the id,
 * member, root-id and expiry rows, which sort otherwise, are sorted at {@link #finish()} and follow
 * in one pass (kinds {@code d < i < m < r < x}). Index table: the block rows of table t, sorted by
 * block value, then fingerprint, then ordinal (stable radix passes: fingerprint, then block value),
 * one file set per table t; band rows, sorted by band key, one more. Every file set starts a new
 * file at each region's start key.
 *
 * <p>Nobody sees the collection until the files are loaded and {@link HBaseTransfer#complete}
 * registers it; {@link #close()} before that deletes the staged files and the loaded rows.
 *
 * <p>Memory: the client holds per document its ordinal, fingerprint, root and expiry (32 bytes, up
 * to 48 with the lists' room to grow), its id's bytes (~ 24 + id length) and its cluster's id when
 * it is a root, then at {@link #finish()} 8 bytes per sort of documents and 4 per block table;
 * about 200 bytes per fingerprint-only document at the peak (10M: about 2 GB), plus about 30 per
 * band key. Sketches are not held: the document rows go to their file as they come. Not
 * thread-safe.
 */
final class HFileImporter implements CollectionTransfer.Importer {
  private static final byte[] REC = bytes("r");
  private static final byte[] SKETCH = bytes("s");
  private static final byte[] ROOT = bytes("p");
  private static final byte[] EMPTY = new byte[0];

  private final HBaseStore store;
  private final HBaseCollection c;
  private final boolean verify;
  private final int bands;
  private final Configuration conf;
  private final FileSystem fs;
  private final Path dir;
  private final long now;
  private final DataBlockEncoding docEncoding;
  private final DataBlockEncoding indexEncoding;
  private final byte[][] docStarts;
  private final byte[][] indexStarts;
  private final HFileSink docs;

  // Per document, in ordinal order (HBase ordinals: the dump's + 1).
  private final LongList ordinals = new LongList();
  private final LongList fingerprints = new LongList();
  private final LongList roots = new LongList();
  private final LongList expiries = new LongList();
  private final List<byte[]> ids = new ArrayList<>();
  // Band keys and the index of their document.
  private final LongList bandKeys = new LongList();
  private final LongList bandDocs = new LongList();
  // Root-id rows: the root and its cluster's id, in order of first mention.
  private final LongList rootOrdinals = new LongList();
  private final List<byte[]> rootNames = new ArrayList<>();
  private final Set<Long> removedRoots = new HashSet<>();

  private long last = -1;
  private boolean done;
  private boolean loading;

  /**
   * Nanoseconds spent reading records (and writing document rows), sorting and writing, loading.
   */
  long addNanos;

  long sortWriteNanos;
  long loadNanos;

  HFileImporter(HBaseStore store, HBaseCollection c, Analyzer analyzer, String bulkDir)
      throws IOException {
    this.store = store;
    this.c = c;
    this.verify = c.settings().verify();
    this.bands = verify ? CollectionTransfer.Importer.bandCount(analyzer) : 0;
    this.conf = new Configuration(store.connection().getConfiguration());
    // HDFS's client polls for a closed file's last block every 400 ms at first: most of the time
    // of a load of a few dozen files, on an idle file system.
    conf.setIfUnset("dfs.client.block.write.locateFollowingBlock.initial.delay.ms", "20");
    Path base = new Path(bulkDir);
    // An instance of its own (not the JVM's cached one), with this configuration.
    this.fs =
        FileSystem.newInstance(
            base.toUri().getScheme() == null ? FileSystem.getDefaultUri(conf) : base.toUri(), conf);
    this.dir = fs.makeQualified(new Path(base, "c" + c.uid + "-" + UUID.randomUUID()));
    this.now = store.clock().millis();
    try (Admin admin = store.connection().getAdmin()) {
      docEncoding =
          admin.getDescriptor(store.docs).getColumnFamily(DOC_FAMILY).getDataBlockEncoding();
      indexEncoding =
          admin.getDescriptor(store.index).getColumnFamily(INDEX_FAMILY).getDataBlockEncoding();
    }
    this.docStarts = starts(store.docs);
    this.indexStarts = starts(store.index);
    fs.mkdirs(dir);
    this.docs = sink(DOC_FAMILY, "docs", docStarts, docEncoding);
  }

  private byte[][] starts(TableName table) throws IOException {
    try (RegionLocator l = store.connection().getRegionLocator(table)) {
      byte[][] s = l.getStartKeys();
      Arrays.sort(s, Bytes.BYTES_COMPARATOR);
      return s;
    }
  }

  private HFileSink sink(byte[] family, String name, byte[][] starts, DataBlockEncoding encoding) {
    return new HFileSink(
        conf, fs, new Path(dir, Bytes.toString(family)), name, starts, family, encoding);
  }

  private KeyValue cell(byte[] row, byte[] family, byte[] qualifier, byte[] value, long exp) {
    if (exp == Long.MAX_VALUE) {
      return new KeyValue(row, family, qualifier, now, KeyValue.Type.Put, value);
    }
    List<Tag> ttl =
        List.of(new ArrayBackedTag(TagType.TTL_TAG_TYPE, Bytes.toBytes(c.ttlMs(exp, now))));
    return new KeyValue(row, family, qualifier, now, KeyValue.Type.Put, value, ttl);
  }

  @Override
  public void add(StoredRecord r) throws IOException {
    if (done) {
      throw new IllegalStateException("the import finished");
    }
    long t0 = System.nanoTime();
    byte[] id = CollectionTransfer.Importer.checkNext(r, last, verify ? bands : -1);
    last = r.ordinal();
    int uid = c.uid;
    long o = r.ordinal() + 1;
    long root = r.root() + 1;
    long exp = r.expiresAt();
    long[] keys = verify ? r.bandKeys() : new long[0];
    byte[] row = Rows.doc(uid, o);
    // Qualifiers in order: p < r < s.
    docs.append(cell(row, DOC_FAMILY, ROOT, Rows.ordinal(root), exp));
    docs.append(
        cell(
            row,
            DOC_FAMILY,
            REC,
            new DocRecord(r.fingerprint(), r.timestamp(), exp, keys, r.id()).encode(),
            exp));
    if (verify) {
      docs.append(cell(row, DOC_FAMILY, SKETCH, r.sketch(), exp));
    }
    int doc = ordinals.size();
    ordinals.add(o);
    fingerprints.add(r.fingerprint());
    roots.add(root);
    expiries.add(exp);
    ids.add(id);
    for (long k : keys) {
      bandKeys.add(k);
      bandDocs.add(doc);
    }
    // A cluster's id row: from its root's record, or from its first member when the root was
    // removed before the export (as the puts' importer keeps the first it sees).
    if (root == o) {
      rootOrdinals.add(root);
      rootNames.add(bytes(r.cluster()));
    } else if (Arrays.binarySearch(ordinals.array(), 0, doc, root) < 0 && removedRoots.add(root)) {
      rootOrdinals.add(root);
      rootNames.add(bytes(r.cluster()));
    }
    addNanos += System.nanoTime() - t0;
  }

  @Override
  public long finish() throws IOException {
    if (done) {
      return ordinals.size();
    }
    long t0 = System.nanoTime();
    int n = ordinals.size();
    int uid = c.uid;
    List<Path> indexFiles = new ArrayList<>();
    try {
      // The documents table's rows in this thread, the index's in another: they share no data
      // but what add() collected, which both only read.
      ExecutorService pool = Executors.newSingleThreadExecutor();
      Future<List<Path>> index = pool.submit(() -> writeIndexRows(n, uid));
      pool.shutdown();
      try {
        writeDocRows(n, uid);
      } finally {
        try {
          indexFiles.addAll(index.get());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new java.io.InterruptedIOException("interrupted writing the index's files");
        } catch (ExecutionException e) {
          Throwable cause = e.getCause();
          if (cause instanceof IOException io) {
            throw io;
          }
          if (cause instanceof RuntimeException re) {
            throw re;
          }
          throw new IOException(cause);
        }
      }
      long t1 = System.nanoTime();
      sortWriteNanos = t1 - t0;

      loading = true;
      load(store.docs, DOC_FAMILY, docs.files());
      load(store.index, INDEX_FAMILY, indexFiles);
      loadNanos = System.nanoTime() - t1;
      HBaseTransfer.complete(store, c, last, n);
    } catch (IllegalArgumentException e) {
      close();
      throw e;
    } catch (IOException e) {
      throw store.unavailable(e);
    }
    done = true;
    try {
      fs.delete(dir, true);
    } finally {
      fs.close();
    }
    return n;
  }

  /** The id, member, cluster-id and expiry rows, after the document rows add() wrote. */
  private void writeDocRows(int n, int uid) throws IOException {
    // Ids, sorted by their bytes; a dump never holds one twice.
    int[] byId = SortOrder.identity(n);
    SortOrder.sort(byId, (a, b) -> Arrays.compareUnsigned(ids.get(a), ids.get(b)));
    for (int i = 0; i < n; i++) {
      int d = byId[i];
      if (i > 0 && Arrays.equals(ids.get(byId[i - 1]), ids.get(d))) {
        throw new IllegalArgumentException(
            "the dump holds id '"
                + new String(ids.get(d), StandardCharsets.UTF_8)
                + "' twice (ordinals "
                + (ordinals.get(byId[i - 1]) - 1)
                + " and "
                + (ordinals.get(d) - 1)
                + ")");
      }
      docs.append(
          cell(
              Rows.id(uid, ids.get(d)),
              DOC_FAMILY,
              VALUE,
              Rows.ordinal(ordinals.get(d)),
              expiries.get(d)));
    }
    byId = null;
    // Cluster members: by root, then ordinal.
    int[] byRoot = SortOrder.byKey(SortOrder.identity(n), roots.array(), 64);
    for (int d : byRoot) {
      docs.append(
          cell(
              Rows.members(uid, roots.get(d)),
              DOC_FAMILY,
              Rows.ordinal(ordinals.get(d)),
              EMPTY,
              expiries.get(d)));
    }
    byRoot = null;
    // Clusters' ids (no TTL: later members name their cluster by it).
    int[] byRootId =
        SortOrder.byKey(SortOrder.identity(rootOrdinals.size()), rootOrdinals.array(), 64);
    for (int i : byRootId) {
      docs.append(
          cell(
              Rows.rootId(uid, rootOrdinals.get(i)),
              DOC_FAMILY,
              VALUE,
              rootNames.get(i),
              Long.MAX_VALUE));
    }
    // Expiry rows, by expiry then ordinal.
    int[] byExpiry = SortOrder.byKey(SortOrder.identity(n), expiries.array(), 64);
    for (int d : byExpiry) {
      long exp = expiries.get(d);
      if (exp != Long.MAX_VALUE) {
        docs.append(cell(Rows.expiry(uid, exp, ordinals.get(d)), DOC_FAMILY, VALUE, EMPTY, exp));
      }
    }
    byExpiry = null;
    docs.close();
  }

  /** The index's files: block and band rows. */
  private List<Path> writeIndexRows(int n, int uid) throws IOException {
    List<Path> indexFiles = new ArrayList<>();
    // Index rows: each block table's rows sorted by block value, then fingerprint, then
    // ordinal, and the band rows by band key, then ordinal; merged into one stream in row
    // order, (block value's 5 bytes, flag), so that each region gets one file.
    BlockScheme scheme = c.scheme();
    int tables = scheme.tables();
    int[] byFingerprint = SortOrder.byKey(SortOrder.identity(n), fingerprints.array(), 64);
    int[][] orders = new int[tables + 1][];
    long[] blockValues = new long[n];
    for (int t = 0; t < tables; t++) {
      int bits = scheme.keyBits(t);
      for (int d = 0; d < n; d++) {
        blockValues[d] = Rows.blockValue(scheme, t, fingerprints.get(d)) >>> (64 - bits);
      }
      orders[t] =
          SortOrder.byKey(
              t == tables - 1 ? byFingerprint : byFingerprint.clone(), blockValues, bits);
    }
    blockValues = null;
    orders[tables] = SortOrder.byKey(SortOrder.identity(bandKeys.size()), bandKeys.array(), 64);
    int[] pos = new int[tables + 1];
    long[] head = new long[tables + 1];
    for (int t = 0; t <= tables; t++) {
      head[t] = head(scheme, orders, pos, t);
    }
    try (HFileSink s = sink(INDEX_FAMILY, "index", indexStarts, indexEncoding)) {
      while (true) {
        int m = 0;
        for (int t = 1; t <= tables; t++) {
          if (head[t] < head[m]) {
            m = t;
          }
        }
        if (head[m] == Long.MAX_VALUE) {
          break;
        }
        int e = orders[m][pos[m]++];
        head[m] = head(scheme, orders, pos, m);
        if (m < tables) {
          s.append(
              cell(
                  Rows.block(scheme, m, uid, fingerprints.get(e)),
                  INDEX_FAMILY,
                  Rows.ordinal(ordinals.get(e)),
                  EMPTY,
                  expiries.get(e)));
        } else {
          int d = (int) bandDocs.get(e);
          s.append(
              cell(
                  Rows.band(bandKeys.get(e), uid),
                  INDEX_FAMILY,
                  Rows.ordinal(ordinals.get(d)),
                  EMPTY,
                  expiries.get(d)));
        }
      }
      s.close();
      indexFiles.addAll(s.files());
    }
    return indexFiles;
  }

  /**
   * The row-order key of stream {@code t}'s next row: the row's first 5 bytes, then its flag (the
   * block table, or 0xFF for the band stream {@code t == tables}); {@code Long.MAX_VALUE} when
   * done.
   */
  private long head(BlockScheme scheme, int[][] orders, int[] pos, int t) {
    if (pos[t] >= orders[t].length) {
      return Long.MAX_VALUE;
    }
    int e = orders[t][pos[t]];
    if (t == scheme.tables()) {
      return ((bandKeys.get(e) >>> 24) << 8) | (Rows.BAND_FLAG & 0xFF);
    }
    return ((Rows.blockValue(scheme, t, fingerprints.get(e)) >>> 24) << 8) | t;
  }

  /** Moves the files into the table's regions. */
  private void load(TableName table, byte[] family, List<Path> files) throws IOException {
    if (files.isEmpty()) {
      return;
    }
    Configuration c2 = new Configuration(conf);
    // Its default, 32, would refuse a region that already holds many loaded files.
    c2.setInt(BulkLoadHFiles.MAX_FILES_PER_REGION_PER_FAMILY, 1024);
    Map<BulkLoadHFiles.LoadQueueItem, java.nio.ByteBuffer> loaded =
        BulkLoadHFiles.create(c2).bulkLoad(table, Map.of(family, files));
    if (loaded.isEmpty()) {
      throw new IOException(
          "bulk load of " + files.size() + " files into " + table + " loaded none");
    }
  }

  @Override
  public void close() throws IOException {
    if (done) {
      return;
    }
    done = true;
    try {
      docs.close();
    } finally {
      try {
        fs.delete(dir, true);
        fs.close();
      } finally {
        if (loading) {
          c.purge();
        }
      }
    }
  }

  /** A growing {@code long[]}. */
  static final class LongList {
    private long[] a = new long[1024];
    private int size;

    void add(long v) {
      if (size == a.length) {
        a = Arrays.copyOf(a, a.length + (a.length >> 1));
      }
      a[size++] = v;
    }

    long get(int i) {
      return a[i];
    }

    int size() {
      return size;
    }

    /** The backing array: the values at [0, size), then unused room. */
    long[] array() {
      return a;
    }
  }
}
