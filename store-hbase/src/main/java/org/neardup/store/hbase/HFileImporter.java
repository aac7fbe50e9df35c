// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import static org.neardup.store.hbase.HBaseStore.DOC_FAMILY;
import static org.neardup.store.hbase.HBaseStore.INDEX_FAMILY;
import static org.neardup.store.hbase.HBaseStore.VALUE;
import static org.neardup.store.hbase.HBaseStore.bytes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.tool.BulkLoadHFiles;
import org.apache.hadoop.hbase.util.Bytes;
import org.jspecify.annotations.Nullable;
import org.neardup.Analyzer;
import org.neardup.index.BlockScheme;
import org.neardup.internal.DaemonThreads;
import org.neardup.store.CollectionTransfer;
import org.neardup.store.StoredRecord;

/**
 * An import that writes the collection's rows as sorted HFiles and moves them into the regions with
 * HBase's bulk load ({@code import=hfiles}), instead of sending puts through the region servers:
 * the region servers only rename files, so the cost is the client's sorting and writing.
 *
 * <p>The rows are exactly those {@link HBaseTransfer}'s puts write (and a commit of {@link
 * HBaseCollection}): the same keys, qualifiers, values and TTLs (as TTL tags), with the load's time
 * as timestamp, so that the collection answers as one built by inserts. Cells are built straight
 * into KeyValue bytes ({@link CellBuilder}); files carry no block encoding (a compaction encodes
 * them later). Documents table: the document rows go to the files as records arrive (they sort by
 * ordinal, the dump's order), written on a thread of their own from batches that {@link
 * #add(StoredRecord)} hands over, so that reading the dump and writing take both cores; the id,
 * member, root-id and expiry rows, which sort otherwise, are sorted at {@link #finish()} and follow
 * in one pass (kinds {@code d < i < m < r < x}), on one thread. Index table, on another: the block
 * rows of each table t sorted by block value, then fingerprint, then ordinal (stable radix passes:
 * fingerprint, then block value; one task per table), and the band rows by band key, merged into
 * row order and written in one part per region (one task each; the documents thread takes tasks
 * once it is done). Every file set starts a new file at each region's start key, so a region gets
 * one file. A third thread bulk-loads the documents' files as soon as they are written, while the
 * index is still being written, then the index's files in one call.
 *
 * <p>Nobody sees the collection until the files are loaded and {@link HBaseTransfer#complete}
 * registers it; {@link #close()} before that deletes the staged files and the loaded rows.
 *
 * <p>Memory: the client holds per document its ordinal, fingerprint, root, expiry and id's
 * reference (40 bytes, up to 60 with the list's room to grow), its id's bytes end to end ({@link
 * IdBytes}: the id's length, no object per id) and its cluster's id when it is a root and named
 * otherwise, then at {@link #finish()} 8 bytes of expiry, 12 of the fingerprint order and 20 per
 * block table (each row's fingerprint, expiry and document, carried by the sorts so that the
 * writers read them in order; 4, the document, when that would take more than a quarter of the
 * heap), plus 56 per sort running (key, payloads and their scratch; two at a time; 72 for the sort
 * by id, which carries the id's reference too); about 300 bytes per fingerprint-only 4:1 document
 * at the peak, plus about 60 per band key. Sketches are not held: the document rows go to their
 * file as they come. Not thread-safe.
 */
final class HFileImporter implements CollectionTransfer.Importer {
  private static final byte[] REC = bytes("r");
  private static final byte[] SKETCH = bytes("s");
  private static final byte[] ROOT = bytes("p");
  private static final byte[] EMPTY = new byte[0];
  private static final long[] NO_KEYS = new long[0];

  private final HBaseStore store;
  private final HBaseCollection c;
  private final boolean verify;
  private final int bands;
  private final Configuration conf;
  private final FileSystem fs;
  private final Path dir;
  private final long now;
  private final byte[][] docStarts;
  private final byte[][] indexStarts;
  // The families' block sizes (HBaseStore's index family: 8 KiB).
  private final int docBlockSize;
  private final int indexBlockSize;
  private final DataBlockEncoding indexEncoding;
  private final DataBlockEncoding docEncoding;
  // Whether finish() registers the collection (HBaseTransfer.complete): false for one part of a
  // collection written by several imports in turn, each holding only its part's rows in memory,
  // whose caller completes the collection after the last part (HBaseStoreBench's 10M preload).
  private final boolean register;
  private final HFileSink docs;
  private final CellBuilder docCells;

  // Per document, in ordinal order (HBase ordinals: the dump's + 1), 5 longs side by side: ordinal,
  // fingerprint, root, expiry, id (its IdBytes reference) (the FIELDS offsets). The writers read
  // them in sorted orders, at random documents: side by side they are one cache miss instead of
  // one per array.
  private static final int FIELDS = 5;
  private static final int ORDINAL = 0;
  private static final int FINGERPRINT = 1;
  private static final int ROOT_FIELD = 2;
  private static final int EXPIRY = 3;
  private static final int ID = 4;
  private final LongList docData = new LongList();
  private int docCount;
  // Whether every ordinal so far is its document's index + 1 (no gaps in the dump).
  private boolean dense = true;
  private final IdBytes ids = new IdBytes();
  // Band keys and the index of their document.
  private final LongList bandKeys = new LongList();
  private final LongList bandDocs = new LongList();
  // Root-id rows: the root and its cluster's id, in order of first mention; the id as the bytes
  // of rootNames, or, where that is null, as the IdBytes reference in rootIds (a root's cluster is
  // mostly named by its id: the same bytes, not a second copy).
  private final LongList rootOrdinals = new LongList();
  private final List<byte @Nullable []> rootNames = new ArrayList<>();
  private final LongList rootIds = new LongList();
  private final Set<Long> removedRoots = new HashSet<>();

  // Document rows are written on a thread of their own while add() goes on reading: add() hands
  // over records in batches of DOC_BATCH, at most IN_FLIGHT batches ahead of the writer.
  private static final int DOC_BATCH = 4096;
  private static final int IN_FLIGHT = 4;
  // The index's rows are written in up to this many parts, split at region starts, one task each:
  // one per region of the 16 the table is created with. With 4 parts, 2 threads ended unevenly: the
  // last part ran on one thread alone for ~65 of a 10M 5:2 import's 169 s (its timeline).
  private static final int INDEX_PARTS = 16;
  private final ExecutorService docWriter =
      Executors.newSingleThreadExecutor(DaemonThreads.named("neardup-hfile-docs"));
  private final ArrayDeque<Future<?>> docBatches = new ArrayDeque<>();
  private List<StoredRecord> docBatch = new ArrayList<>(DOC_BATCH);
  // The batch's ids as UTF-8, which add() has encoded already.
  private List<byte[]> docBatchIds = new ArrayList<>(DOC_BATCH);
  // The writer's r cell values, encoded into one reused array.
  private final byte[] recordScratch = new byte[DocRecord.MAX_BYTES];

  private long last = -1;
  private boolean done;
  // Set by the loader thread before it loads a first file.
  private volatile boolean loading;

  /**
   * Nanoseconds spent reading records (and writing document rows), sorting and writing (and loading
   * the files done meanwhile), loading what was left when the writing ended.
   */
  long addNanos;

  long sortWriteNanos;
  long loadNanos;

  HFileImporter(HBaseStore store, HBaseCollection c, Analyzer analyzer, String bulkDir)
      throws IOException {
    this(store, c, analyzer, bulkDir, true);
  }

  /**
   * With {@code register} false, {@link #finish()} loads the files and returns without registering
   * the collection: a part of it, the others written by further importers of the same unregistered
   * collection with later ordinals, the last part's caller calling {@link HBaseTransfer#complete}
   * with the whole collection's count.
   */
  HFileImporter(
      HBaseStore store, HBaseCollection c, Analyzer analyzer, String bulkDir, boolean register)
      throws IOException {
    this.register = register;
    this.store = store;
    this.c = c;
    this.verify = c.settings().verify();
    this.bands = verify ? CollectionTransfer.Importer.bandCount(analyzer) : 0;
    this.conf = new Configuration(store.connection().getConfiguration());
    // HDFS's client polls for a closed file's last block every 400 ms at first: most of the time
    // of a load of a few dozen files, on an idle file system.
    conf.setIfUnset("dfs.client.block.write.locateFollowingBlock.initial.delay.ms", "20");
    // HDFS's client allocates each 64 KiB packet's buffer anew unless it recycles them: at 10M
    // fingerprints, ~7 GB of files, that allocation (DFSPacket.<init>, the array's zeroing) was
    // 3.7% of the importer's JFR samples.
    conf.setIfUnset("dfs.client.write.byte-array-manager.enabled", "true");
    Path base = new Path(bulkDir);
    // An instance of its own (not the JVM's cached one), with this configuration.
    this.fs =
        FileSystem.newInstance(
            base.toUri().getScheme() == null ? FileSystem.getDefaultUri(conf) : base.toUri(), conf);
    this.dir = fs.makeQualified(new Path(base, "c" + c.uid + "-" + UUID.randomUUID()));
    this.now = store.clock().millis();
    this.docStarts = starts(store.docs);
    this.indexStarts = starts(store.index);
    ColumnFamilyDescriptor docFamily = family(store.docs, DOC_FAMILY);
    this.docBlockSize = blockSize(docFamily);
    ColumnFamilyDescriptor index = family(store.index, INDEX_FAMILY);
    this.indexBlockSize = blockSize(index);
    DataBlockEncoding indexFamilyEncoding =
        index == null ? DataBlockEncoding.NONE : index.getDataBlockEncoding();
    this.indexEncoding =
        store.importEncoded ? indexFamilyEncoding : IndexFamily.importEncoding(indexFamilyEncoding);
    this.docEncoding =
        store.importEncoded && docFamily != null
            ? docFamily.getDataBlockEncoding()
            : DataBlockEncoding.NONE;
    fs.mkdirs(dir);
    this.docs = sink(DOC_FAMILY, "docs", docStarts);
    this.docCells = new CellBuilder(DOC_FAMILY, now);
  }

  private byte[][] starts(TableName table) throws IOException {
    try (RegionLocator l = store.connection().getRegionLocator(table)) {
      byte[][] s = l.getStartKeys();
      Arrays.sort(s, Bytes.BYTES_COMPARATOR);
      return s;
    }
  }

  /**
   * The files are written without the family's block encoding when it is FAST_DIFF (encoding cost
   * the client 14% of a 2M import's CPU, JFR: the region server reads unencoded files as they are
   * until a compaction rewrites them encoded), in ROW_INDEX_V1 when the family's is that ({@link
   * IndexFamily#importEncoding}).
   */
  private HFileSink sink(byte[] family, String name, byte[][] starts) {
    return new HFileSink(
        conf,
        fs,
        new Path(dir, Bytes.toString(family)),
        name,
        starts,
        family,
        family == INDEX_FAMILY ? indexEncoding : docEncoding,
        family == INDEX_FAMILY ? indexBlockSize : docBlockSize);
  }

  /** The table's family as created, or null. */
  private @Nullable ColumnFamilyDescriptor family(TableName table, byte[] family)
      throws IOException {
    try (Table t = store.connection().getTable(table)) {
      return t.getDescriptor().getColumnFamily(family);
    }
  }

  /** The family's block size, at most {@link HFileSink#BLOCK_SIZE}. */
  private static int blockSize(@Nullable ColumnFamilyDescriptor f) {
    return f == null ? HFileSink.BLOCK_SIZE : Math.min(HFileSink.BLOCK_SIZE, f.getBlocksize());
  }

  /** The TTL tag's milliseconds for a cell expiring at {@code exp}, or none. */
  private long ttl(long exp) {
    return exp == Long.MAX_VALUE ? CellBuilder.NO_TTL : c.ttlMs(exp, now);
  }

  @Override
  public void add(StoredRecord r) throws IOException {
    if (done) {
      throw new IllegalStateException("the import finished");
    }
    long t0 = System.nanoTime();
    byte[] id = CollectionTransfer.Importer.checkNext(r, last, verify ? bands : -1);
    last = r.ordinal();
    long o = r.ordinal() + 1;
    long root = r.root() + 1;
    long exp = r.expiresAt();
    long[] keys = verify ? r.bandKeys() : NO_KEYS;
    docBatch.add(r);
    docBatchIds.add(id);
    if (docBatch.size() == DOC_BATCH) {
      handOver();
    }
    int doc = docCount++;
    docData.add(o);
    docData.add(r.fingerprint());
    docData.add(root);
    docData.add(exp);
    long idRef = ids.add(id);
    docData.add(idRef);
    dense &= o == doc + 1;
    for (long k : keys) {
      bandKeys.add(k);
      bandDocs.add(doc);
    }
    // A cluster's id row: from its root's record, or from its first member when the root was
    // removed before the export (as the puts' importer keeps the first it sees).
    if (root == o) {
      rootOrdinals.add(root);
      boolean named = r.cluster().equals(r.id());
      rootNames.add(named ? null : bytes(r.cluster()));
      rootIds.add(named ? idRef : -1);
    } else if (!holds(doc, root) && removedRoots.add(root)) {
      rootOrdinals.add(root);
      rootNames.add(bytes(r.cluster()));
      rootIds.add(-1);
    }
    addNanos += System.nanoTime() - t0;
  }

  /**
   * Gives the batch of records to the document-row writer; waits for the oldest batch first when
   * {@link #IN_FLIGHT} are pending (and throws what its writing threw).
   */
  private void handOver() throws IOException {
    List<StoredRecord> batch = docBatch;
    List<byte[]> batchIds = docBatchIds;
    docBatch = new ArrayList<>(DOC_BATCH);
    docBatchIds = new ArrayList<>(DOC_BATCH);
    while (docBatches.size() >= IN_FLIGHT) {
      await(docBatches.removeFirst());
    }
    docBatches.addLast(
        docWriter.submit(
            () -> {
              writeDocuments(batch, batchIds);
              return null;
            }));
  }

  /** The records' document rows, on the writer thread. Qualifiers in order: p < r < s. */
  private void writeDocuments(List<StoredRecord> batch, List<byte[]> batchIds) throws IOException {
    int uid = c.uid;
    byte[] value = recordScratch;
    for (int i = 0; i < batch.size(); i++) {
      StoredRecord r = batch.get(i);
      long exp = r.expiresAt();
      long ttl = ttl(exp);
      CellBuilder b = docCells.row().putInt(uid).put(Rows.DOC).putLong(r.ordinal() + 1);
      docs.append(b.longValue(ROOT, r.root() + 1, ttl));
      long[] keys = verify ? r.bandKeys() : NO_KEYS;
      int length =
          DocRecord.encode(r.fingerprint(), r.timestamp(), exp, keys, batchIds.get(i), value);
      docs.append(b.bytesValue(REC, value, 0, length, ttl));
      if (verify) {
        docs.append(b.bytesValue(SKETCH, r.sketch(), ttl));
      }
    }
  }

  /** Whether one of the first {@code count} documents has ordinal {@code o}. */
  private boolean holds(int count, long o) {
    if (dense) {
      return o >= 1 && o <= count;
    }
    long[] a = docData.array();
    int lo = 0;
    int hi = count - 1;
    while (lo <= hi) {
      int m = (lo + hi) >>> 1;
      long v = a[m * FIELDS + ORDINAL];
      if (v < o) {
        lo = m + 1;
      } else if (v > o) {
        hi = m - 1;
      } else {
        return true;
      }
    }
    return false;
  }

  private long ordinal(int d) {
    return docData.get(d * FIELDS + ORDINAL);
  }

  @Override
  public long finish() throws IOException {
    if (done) {
      return docCount;
    }
    long t0 = System.nanoTime();
    int n = docCount;
    try {
      if (!docBatch.isEmpty()) {
        handOver();
      }
      while (!docBatches.isEmpty()) {
        await(docBatches.removeFirst());
      }
    } catch (IOException e) {
      throw store.unavailable(e);
    } finally {
      stopDocWriter();
    }
    addNanos += System.nanoTime() - t0;
    t0 = System.nanoTime();
    int uid = c.uid;
    try {
      // Two jobs, one per thread: the documents table's rows after the document rows (ids, then
      // cluster members, cluster ids and expiry rows, in the same files: one file per region, as
      // a region that receives 3 files compacts them at once), and the index's rows, whose table
      // sorts and parts the first free thread takes. They share nothing but what add() collected,
      // which all only read. A third thread, mostly waiting on the cluster, bulk-loads the
      // documents' files as soon as they are written, so that their load overlaps the index's
      // writing, then the index's. The documents go first so that close() after a failure finds
      // every loaded index row through a loaded document row (purge()).
      int threads = Math.max(2, Math.min(4, Runtime.getRuntime().availableProcessors()));
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      ExecutorService loader = Executors.newSingleThreadExecutor();
      CompletableFuture<List<Path>> docFiles = new CompletableFuture<>();
      BlockingQueue<List<Path>> indexFiles = new LinkedBlockingQueue<>();
      Throwable failed = null;
      try {
        Future<?> loads =
            loader.submit(
                () -> {
                  named("neardup-load");
                  loadAll(docFiles, indexFiles);
                  return null;
                });
        // Per document its expiry, 8 bytes apart instead of 32: the rows read it at random
        // documents.
        long[] expiries = field(n, EXPIRY);
        Future<?> rows =
            pool.submit(
                () -> {
                  named("neardup-docrows");
                  try {
                    docFiles.complete(writeDocRows(n, uid, expiries));
                  } catch (Throwable e) {
                    docFiles.completeExceptionally(e);
                    throw e;
                  }
                  return null;
                });
        Future<?> index =
            pool.submit(
                () -> {
                  named("neardup-index");
                  boolean written = false;
                  try {
                    writeIndexRows(n, uid, expiries, pool, indexFiles);
                    written = true;
                  } finally {
                    // The loader waits for one of these marks. Without ABORT a failed index job
                    // left it waiting for ever: the interrupt meant to stop it is swallowed when
                    // it comes during the documents' load (HBase's client logs "Retrieve cluster
                    // id failed" and goes on), and finish() then waited 5 minutes for it.
                    indexFiles.add(written ? END : ABORT);
                  }
                  return null;
                });
        await(rows);
        await(index);
        long t1 = System.nanoTime();
        sortWriteNanos = t1 - t0;
        await(loads);
        loadNanos = System.nanoTime() - t1;
      } catch (IOException | RuntimeException | Error e) {
        failed = e;
        throw e;
      } finally {
        // When one job failed, the others stop (interrupted) before close() deletes the staged
        // files, so that they leave none behind.
        stopWriters(pool, loader, failed);
      }
      if (register) {
        HBaseTransfer.complete(store, c, last, n);
      }
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

  /**
   * Stops the import's threads, waiting up to 5 minutes. Threads that do not stop fail the import,
   * or, when it failed already, are added to that failure, which stays the one thrown (before, a
   * 10M import whose index job had failed was reported as "did not stop within 5 minutes").
   */
  private static void stopWriters(
      ExecutorService pool, ExecutorService loader, @Nullable Throwable failed) throws IOException {
    pool.shutdownNow();
    loader.shutdownNow();
    IOException stuck = null;
    try {
      if (!pool.awaitTermination(5, java.util.concurrent.TimeUnit.MINUTES)
          || !loader.awaitTermination(5, java.util.concurrent.TimeUnit.MINUTES)) {
        stuck = new IOException("the import's writer threads did not stop within 5 minutes");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stuck = new java.io.InterruptedIOException("interrupted stopping the import's writers");
    }
    if (stuck != null) {
      if (failed == null) {
        throw stuck;
      }
      failed.addSuppressed(stuck);
    }
  }

  /** The task's result, its exception unwrapped. */
  private static <T> T await(Future<T> f) throws IOException {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted writing the import's files");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      if (cause instanceof RuntimeException re) {
        throw re;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new IOException(cause);
    }
  }

  /** Document {@code d}'s HBase ordinal: its index + 1 when the dump's ordinals have no gaps. */
  private long ordinalOf(int d) {
    return dense ? d + 1 : ordinal(d);
  }

  /** One per-document field of the first {@code n} documents, in ordinal order. */
  private long[] field(int n, int field) {
    long[] a = docData.array();
    long[] out = new long[n];
    for (int d = 0; d < n; d++) {
      out[d] = a[d * FIELDS + field];
    }
    return out;
  }

  /**
   * The id rows (sorted by id; refuses an id the dump holds twice), then the cluster member,
   * cluster-id and expiry rows (kinds d < i < m < r < x), after the document rows add() wrote. The
   * sorts carry each row's key and expiry along ({@link SortOrder#carry}), so that the rows read
   * them in order, not at random documents.
   */
  private List<Path> writeDocRows(int n, int uid, long[] expiries) throws IOException {
    // Sorted by the ids' first 8 bytes (radix), then by all their bytes among equal prefixes; the
    // sort carries each id's reference, so that the rows read the ids' bytes once each.
    long[] refs = field(n, ID);
    long[] prefixes = new long[n];
    for (int d = 0; d < n; d++) {
      prefixes[d] = ids.prefix(refs[d]);
    }
    long[] data = docData.array();
    SortOrder.Carried byId =
        SortOrder.sort(
            SortOrder.identity(n),
            prefixes,
            new long[][] {Arrays.copyOf(expiries, n), refs},
            (x, y) -> ids.compare(data[x * FIELDS + ID], data[y * FIELDS + ID]));
    prefixes = null;
    refs = null;
    CellBuilder b = new CellBuilder(DOC_FAMILY, now);
    HFileSink s = docs;
    long[] idPrefix = byId.keys();
    long[] idExpiry = byId.longs()[0];
    long[] idRef = byId.longs()[1];
    int[] idDoc = byId.ints();
    for (int i = 0; i < n; i++) {
      int d = idDoc[i];
      long ref = idRef[i];
      // Equal ids have equal prefixes: only those are compared.
      if (i > 0 && idPrefix[i - 1] == idPrefix[i] && ids.equal(idRef[i - 1], ref)) {
        throw new IllegalArgumentException(
            "the dump holds id '"
                + new String(ids.bytes(ref), StandardCharsets.UTF_8)
                + "' twice (ordinals "
                + (ordinalOf(idDoc[i - 1]) - 1)
                + " and "
                + (ordinalOf(d) - 1)
                + ")");
      }
      b.row()
          .putInt(uid)
          .put(Rows.ID)
          .put(ids.array(ref), IdBytes.offset(ref), IdBytes.length(ref));
      s.append(b.longValue(VALUE, ordinalOf(d), ttl(idExpiry[i])));
    }
    byId = null;
    idPrefix = null;
    idExpiry = null;
    idRef = null;
    idDoc = null;
    // Cluster members: by root, then ordinal.
    long[] roots = field(n, ROOT_FIELD);
    SortOrder.Carried byRoot =
        SortOrder.carry(
            roots,
            new long[][] {Arrays.copyOf(expiries, n)},
            SortOrder.identity(n),
            n,
            SortOrder.bitsOf(roots, 1, 0, n));
    roots = null;
    long[] rootKey = byRoot.keys();
    long[] rootExpiry = byRoot.longs()[0];
    int[] rootDoc = byRoot.ints();
    for (int i = 0; i < n; i++) {
      b.row().putInt(uid).put(Rows.MEMBERS).putLong(rootKey[i]);
      s.append(b.longQualifier(ordinalOf(rootDoc[i]), ttl(rootExpiry[i])));
    }
    byRoot = null;
    rootKey = null;
    rootExpiry = null;
    rootDoc = null;
    // Clusters' ids (no TTL: later members name their cluster by it).
    int[] byRootId =
        SortOrder.byKey(SortOrder.identity(rootOrdinals.size()), rootOrdinals.array(), 64);
    for (int i : byRootId) {
      b.row().putInt(uid).put(Rows.ROOT_ID).putLong(rootOrdinals.get(i));
      byte[] name = rootNames.get(i);
      long ref = rootIds.get(i);
      s.append(
          name != null
              ? b.bytesValue(VALUE, name, CellBuilder.NO_TTL)
              : b.bytesValue(
                  VALUE,
                  ids.array(ref),
                  IdBytes.offset(ref),
                  IdBytes.length(ref),
                  CellBuilder.NO_TTL));
    }
    byRootId = null;
    // Expiry rows, by expiry then ordinal.
    SortOrder.Carried byExpiry =
        SortOrder.carry(Arrays.copyOf(expiries, n), new long[0][], SortOrder.identity(n), n, 64);
    long[] expiry = byExpiry.keys();
    int[] expiryDoc = byExpiry.ints();
    for (int i = 0; i < n; i++) {
      long exp = expiry[i];
      if (exp != Long.MAX_VALUE) {
        b.row().putInt(uid).put(Rows.EXPIRY).putLong(exp).putLong(ordinalOf(expiryDoc[i]));
        s.append(b.bytesValue(VALUE, EMPTY, ttl(exp)));
      }
    }
    s.close();
    return s.files();
  }

  /**
   * The index's streams, one per block table and the band stream last, in each stream's row order:
   * each row's document, and its value (the fingerprint, or the band key) and expiry, carried; or,
   * for a block table whose {@code values[t]} is null, only the document (its value and expiry then
   * read at the document).
   */
  private final class Streams {
    final long[][] values;
    final long[][] expiries;
    final int[][] docs;

    Streams(int tables) {
      values = new long[tables + 1][];
      expiries = new long[tables + 1][];
      docs = new int[tables + 1][];
    }

    long value(int t, int p) {
      long[] v = values[t];
      return v != null ? v[p] : docData.get(docs[t][p] * FIELDS + FINGERPRINT);
    }

    long expiry(int t, int p) {
      long[] e = expiries[t];
      return e != null ? e[p] : docData.get(docs[t][p] * FIELDS + EXPIRY);
    }
  }

  /**
   * Bytes the index's block tables may take carried ({@code 20 * documents * tables}: each row's
   * fingerprint, expiry and document); beyond that each row carries only its document (4 bytes) and
   * the writers read the rest at random documents: at 10M fingerprints 5:2's 10 tables carried
   * would take 2 GB.
   */
  private long carryLimit = Runtime.getRuntime().maxMemory() / 4;

  /**
   * Tests: thrown by the index job once its sorts are done and the documents' load has begun, as
   * when a 10M import's index job ran out of heap while the loader had started.
   */
  private @Nullable RuntimeException indexFailure;

  void failIndexWith(RuntimeException e) {
    indexFailure = e;
  }

  /** Waits (up to a minute) until the loader thread has begun loading the documents' files. */
  private void awaitLoading() throws java.io.InterruptedIOException {
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (!loading && System.nanoTime() < deadline) {
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted waiting for the loader");
      }
    }
  }

  /** Sets {@link #carryLimit} (tests: 0 takes the documents' path). */
  void carryLimit(long bytes) {
    carryLimit = bytes;
  }

  /**
   * The index's files: block and band rows, sorted per table and written in parts by the rows'
   * first byte, each here or on {@code pool} (whichever thread is free first).
   */
  private void writeIndexRows(
      int n, int uid, long[] expiries, ExecutorService pool, BlockingQueue<List<Path>> out)
      throws IOException {
    // Each block table's rows sorted by block value, then fingerprint, then ordinal, and the band
    // rows by band key, then ordinal; merged into one stream in row order, (block value's 5
    // bytes, flag), written in up to INDEX_PARTS parts split at region starts, so that each region
    // gets one file. The sorts carry each row's fingerprint, expiry and document along
    // (SortOrder.carry: read in order, not at random documents): one sort by fingerprint, then
    // per table a stable sort of that order by block value. The tables' sorts and the parts are
    // tasks of their own, which this thread runs unless a free pool thread (the documents job's,
    // once it is done) has taken them first: the index has more work than the documents table,
    // and this way both threads share it.
    Streams streams = sortStreams(n, expiries, pool);
    RuntimeException failure = indexFailure;
    if (failure != null) {
      awaitLoading();
      throw failure;
    }
    writeIndexParts(c.scheme(), streams, n, bandKeys.size(), uid, pool, out);
  }

  /**
   * Each block table's rows sorted (their documents, and with {@link #carryLimit} their
   * fingerprints and expiries) and the band rows, as {@link #writeIndexRows} merges them. A method
   * of its own so that the sort by fingerprint and the sorts' tasks are garbage once it returns.
   */
  private Streams sortStreams(int n, long[] expiries, ExecutorService pool) throws IOException {
    BlockScheme scheme = c.scheme();
    int tables = scheme.tables();
    boolean carried = 20L * n * tables <= carryLimit;
    SortOrder.Carried byFingerprint =
        SortOrder.carry(
            field(n, FINGERPRINT),
            carried ? new long[][] {Arrays.copyOf(expiries, n)} : new long[0][],
            SortOrder.identity(n),
            n,
            64);
    List<FutureTask<SortOrder.Carried>> sorts = new ArrayList<>();
    for (int t = 0; t < tables; t++) {
      int table = t;
      sorts.add(
          new FutureTask<>(
              () -> {
                named("neardup-sort");
                int bits = scheme.keyBits(table);
                long[] fps = byFingerprint.keys();
                long[] blockValues = new long[n];
                for (int i = 0; i < n; i++) {
                  blockValues[i] = Rows.blockValue(scheme, table, fps[i]) >>> (64 - bits);
                }
                SortOrder.Carried sorted =
                    SortOrder.carry(
                        blockValues,
                        carried
                            ? new long[][] {
                              Arrays.copyOf(fps, n), Arrays.copyOf(byFingerprint.longs()[0], n)
                            }
                            : new long[0][],
                        Arrays.copyOf(byFingerprint.ints(), n),
                        n,
                        bits);
                // The block values sorted are not read again: dropped here rather than held
                // until every table's sort is done (8 bytes per row per table: a 10M 4:1
                // import held up to 2.6 GB after a collection in the 3 GB heap it shares with
                // the mini-cluster, and one such import's index job failed after two full GCs).
                return new SortOrder.Carried(NO_KEYS, sorted.longs(), sorted.ints());
              }));
    }
    sorts.forEach(pool::execute);
    Streams streams = new Streams(tables);
    int m = bandKeys.size();
    int[] bandDocIndex = new int[m];
    long[] bandExpiry = new long[m];
    for (int i = 0; i < m; i++) {
      bandDocIndex[i] = (int) bandDocs.get(i);
      bandExpiry[i] = expiries[bandDocIndex[i]];
    }
    SortOrder.Carried byBand =
        SortOrder.carry(
            Arrays.copyOf(bandKeys.array(), m), new long[][] {bandExpiry}, bandDocIndex, m, 64);
    streams.values[tables] = byBand.keys();
    streams.expiries[tables] = byBand.longs()[0];
    streams.docs[tables] = byBand.ints();
    // Every sort no pool thread has started, then the results (as for the parts below).
    sorts.forEach(FutureTask::run);
    for (int t = 0; t < tables; t++) {
      SortOrder.Carried sorted = await(sorts.get(t));
      if (carried) {
        streams.values[t] = sorted.longs()[0];
        streams.expiries[t] = sorted.longs()[1];
      }
      streams.docs[t] = sorted.ints();
    }
    return streams;
  }

  /** The merged index rows written in parts split at region starts, each part's files to out. */
  private void writeIndexParts(
      BlockScheme scheme,
      Streams streams,
      int n,
      int m,
      int uid,
      ExecutorService pool,
      BlockingQueue<List<Path>> out)
      throws IOException {
    int tables = scheme.tables();
    int[] lengths = new int[tables + 1];
    for (int t = 0; t < tables; t++) {
      lengths[t] = n;
    }
    lengths[tables] = m;
    // Part p starts at the first byte of region start indexStarts[p * starts / parts].
    int parts = indexStarts.length > 1 ? Math.min(INDEX_PARTS, indexStarts.length) : 1;
    int[][] bounds = new int[parts + 1][tables + 1];
    for (int p = 1; p <= parts; p++) {
      for (int t = 0; t <= tables; t++) {
        bounds[p][t] =
            p == parts
                ? lengths[t]
                : firstAtOrAfter(
                    scheme,
                    streams,
                    t,
                    lengths[t],
                    indexStarts[p * indexStarts.length / parts][0] & 0xFF);
      }
    }
    List<FutureTask<List<Path>>> merges = new ArrayList<>();
    for (int p = 0; p < parts; p++) {
      int[] from = bounds[p];
      int[] to = bounds[p + 1];
      String name = "index-" + (char) ('a' + p);
      merges.add(
          new FutureTask<>(
              () -> {
                named("neardup-merge");
                List<Path> files = mergeIndexRows(scheme, streams, from, to, uid, name);
                out.add(files); // to the loader at once
                return files;
              }));
    }
    merges.forEach(pool::execute);
    // This thread runs every part no pool thread has started, and only then waits: waiting for a
    // part another thread runs while later parts wait in the queue left one thread idle.
    merges.forEach(FutureTask::run);
    for (FutureTask<List<Path>> f : merges) {
      await(f);
    }
  }

  /** The first position of stream {@code t} whose row's first byte is {@code >= firstByte}. */
  private static int firstAtOrAfter(
      BlockScheme scheme, Streams streams, int t, int length, int firstByte) {
    int lo = 0;
    int hi = length;
    while (lo < hi) {
      int m = (lo + hi) >>> 1;
      if ((int) (head(scheme, t, streams.value(t, m)) >>> 40) < firstByte) {
        lo = m + 1;
      } else {
        hi = m;
      }
    }
    return lo;
  }

  /** Writes the rows of each stream {@code t} at positions [from[t], to[t]), merged. */
  private List<Path> mergeIndexRows(
      BlockScheme scheme, Streams streams, int[] from, int[] to, int uid, String name)
      throws IOException {
    int tables = scheme.tables();
    int[] pos = from.clone();
    long[] head = new long[tables + 1];
    for (int t = 0; t <= tables; t++) {
      head[t] = pos[t] < to[t] ? head(scheme, t, streams.value(t, pos[t])) : Long.MAX_VALUE;
    }
    CellBuilder b = new CellBuilder(INDEX_FAMILY, now);
    try (HFileSink s = sink(INDEX_FAMILY, name, indexStarts)) {
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
        int p = pos[m]++;
        long v = streams.value(m, p);
        head[m] = pos[m] < to[m] ? head(scheme, m, streams.value(m, pos[m])) : Long.MAX_VALUE;
        if (m < tables) {
          b.row()
              .putHigh(Rows.blockValue(scheme, m, v), Rows.KEY_BYTES)
              .put((byte) m)
              .putInt(uid)
              .putLong(v);
        } else {
          b.row().putHigh(v, Rows.KEY_BYTES).put(Rows.BAND_FLAG).putInt(uid).putLong(v);
        }
        s.append(b.longQualifier(ordinalOf(streams.docs[m][p]), ttl(streams.expiry(m, p))));
      }
      s.close();
      return s.files();
    }
  }

  /**
   * The row-order key of a row of stream {@code t} with value {@code v} (a fingerprint, or for the
   * band stream {@code t == tables} a band key): the row's first 5 bytes, then its flag (the block
   * table, or 0xFF).
   */
  private static long head(BlockScheme scheme, int t, long v) {
    if (t == scheme.tables()) {
      return ((v >>> 24) << 8) | (Rows.BAND_FLAG & 0xFF);
    }
    return ((Rows.blockValue(scheme, t, v) >>> 24) << 8) | t;
  }

  /**
   * Names the running thread after its task (Linux shows the name in /proc; the import's timeline
   * reads it there).
   */
  private static void named(String task) {
    Thread.currentThread().setName(task);
  }

  /** Ends the index's file lists handed to {@link #loadAll}. */
  private static final List<Path> END = java.util.Collections.unmodifiableList(new ArrayList<>());

  /** Tells {@link #loadAll} that the index's writing failed: nothing more to load. */
  private static final List<Path> ABORT = java.util.Collections.unmodifiableList(new ArrayList<>());

  /**
   * Loads the documents' files once written (while the index is still being written), then the
   * index's files, all in one call once {@link #END} comes; on the loader thread. One call per
   * table: each call of HBase's bulk load opens a cluster connection of its own (a load per part
   * made 5-16 calls).
   */
  private void loadAll(CompletableFuture<List<Path>> docFiles, BlockingQueue<List<Path>> indexFiles)
      throws IOException, InterruptedException {
    List<Path> d = await(docFiles);
    loading = true;
    load(store.docs, DOC_FAMILY, d);
    List<Path> files = new ArrayList<>();
    for (List<Path> f = indexFiles.take(); f != END; f = indexFiles.take()) {
      if (f == ABORT) {
        return; // the index job failed: finish() throws its failure
      }
      files.addAll(f);
    }
    load(store.index, INDEX_FAMILY, files);
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

  /** Stops the document-row writer (interrupting a batch it writes) and waits until it has. */
  private void stopDocWriter() throws IOException {
    docWriter.shutdownNow();
    try {
      if (!docWriter.awaitTermination(5, java.util.concurrent.TimeUnit.MINUTES)) {
        throw new IOException("the import's document writer did not stop within 5 minutes");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted stopping the import's writer");
    }
  }

  @Override
  public void close() throws IOException {
    if (done) {
      return;
    }
    done = true;
    try {
      stopDocWriter();
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
