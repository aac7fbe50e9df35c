// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import static org.neardup.store.hbase.HBaseStore.DOC_FAMILY;
import static org.neardup.store.hbase.HBaseStore.INDEX_FAMILY;
import static org.neardup.store.hbase.HBaseStore.META_FAMILY;
import static org.neardup.store.hbase.HBaseStore.VALUE;
import static org.neardup.store.hbase.HBaseStore.bytes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.neardup.store.CollectionSettings;
import org.neardup.store.CollectionTransfer;
import org.neardup.store.FingerprintStore;
import org.neardup.store.StoredRecord;

/**
 * Export and import for the {@link HBaseStore}: the collection's rows read and written directly, a
 * chunk of {@value #CHUNK} documents per batch of puts. An HBase ordinal is the dump's plus 1 (the
 * store counts from 1).
 *
 * <p>Export scans the collection's document rows (they sort by ordinal), and reads the ids of each
 * chunk's roots with one multi-get.
 *
 * <p>Import writes under a fresh uid that is not registered, so no service finds the collection
 * until {@link Importer#finish()} sets its sequence and document count and registers it; {@link
 * Importer#close()} before that deletes every row written. Per document, the rows a commit writes:
 * its document row (record, root, sketch), its cluster's member row, the root's id, the expiry,
 * block and band rows, and last its id row.
 */
final class HBaseTransfer implements CollectionTransfer {
  static final int CHUNK = 1000;

  // The document row's qualifiers, as HBaseCollection writes them.
  private static final byte[] REC = bytes("r");
  private static final byte[] SKETCH = bytes("s");
  private static final byte[] ROOT = bytes("p");

  private final HBaseStore store;

  HBaseTransfer(HBaseStore store) {
    this.store = store;
  }

  @Override
  public long export(String name, RecordSink sink) throws IOException {
    HBaseCollection c = (HBaseCollection) store.collection(name);
    if (c == null) {
      throw new IllegalArgumentException("no collection named '" + name + "'");
    }
    long exported = 0;
    Sequence seq = c.sequence(); // rows of ordinals never committed are not exported
    try (Table docs = store.connection().getTable(store.docs);
        ResultScanner rs =
            docs.getScanner(
                new Scan()
                    .setStartStopRowForPrefixScan(Rows.kindPrefix(c.uid, Rows.DOC))
                    .setCaching(CHUNK))) {
      List<Result> chunk = new ArrayList<>(CHUNK);
      for (Result r : rs) {
        chunk.add(r);
        if (chunk.size() == CHUNK) {
          exported += emit(docs, c, seq, chunk, sink);
          chunk.clear();
        }
      }
      exported += emit(docs, c, seq, chunk, sink);
    } catch (IOException e) {
      throw store.unavailable(e);
    }
    return exported;
  }

  private static long emit(
      Table docs, HBaseCollection c, Sequence seq, List<Result> chunk, RecordSink sink)
      throws IOException {
    chunk.removeIf(r -> !seq.visible(Rows.toLong(r.getRow(), 5)));
    LinkedHashMap<Long, Integer> roots = new LinkedHashMap<>();
    for (Result r : chunk) {
      long o = Rows.toLong(r.getRow(), 5);
      long root = Rows.toLong(r.getValue(DOC_FAMILY, ROOT));
      if (root != o) {
        roots.putIfAbsent(root, roots.size());
      }
    }
    List<Get> gets = new ArrayList<>(roots.size());
    for (long root : roots.keySet()) {
      gets.add(new Get(Rows.rootId(c.uid, root)));
    }
    Result[] ids = gets.isEmpty() ? new Result[0] : docs.get(gets);
    long n = 0;
    for (Result r : chunk) {
      byte[] rec = r.getValue(DOC_FAMILY, REC);
      if (rec == null) {
        continue;
      }
      long o = Rows.toLong(r.getRow(), 5);
      long root = Rows.toLong(r.getValue(DOC_FAMILY, ROOT));
      DocRecord d = DocRecord.decode(rec);
      String cluster = d.id();
      if (root != o) {
        byte[] id = ids[roots.get(root)].getValue(DOC_FAMILY, VALUE);
        cluster = id == null ? "" : new String(id, StandardCharsets.UTF_8);
      }
      byte[] sketch = r.getValue(DOC_FAMILY, SKETCH);
      sink.accept(
          new StoredRecord(
              o - 1,
              d.id(),
              d.fingerprint(),
              d.timestamp(),
              d.expiresAt(),
              root - 1,
              cluster,
              d.bandKeys(),
              sketch == null ? new byte[0] : sketch));
      n++;
    }
    return n;
  }

  @Override
  public Importer importer(String name, CollectionSettings settings, String analyzerId)
      throws IOException {
    FingerprintStore.checkName(name);
    Objects.requireNonNull(settings, "settings");
    org.neardup.Analyzer analyzer = settings.deduplicator().analyzer();
    if (!analyzer.id().equals(analyzerId)) {
      throw new IllegalArgumentException(
          "the dump was analysed with '"
              + analyzerId
              + "', this build analyses these settings with '"
              + analyzer.id()
              + "': its sketches would not match new texts (import it with the build that exported"
              + " it)");
    }
    if (store.collection(name) != null) {
      throw new IllegalArgumentException("collection '" + name + "' exists");
    }
    HBaseCollection c = store.unregistered(name, settings);
    if (store.bulkDir != null) {
      return new HFileImporter(store, c, analyzer, store.bulkDir);
    }
    return new Loader(c, analyzer);
  }

  /**
   * Completes an import: sets the collection's sequence to its last ordinal ({@code last}, the
   * dump's, -1 for none) and its document count, then registers it; a name taken meanwhile purges
   * what was written and throws.
   */
  static void complete(HBaseStore store, HBaseCollection c, long last, long added)
      throws IOException {
    try (Table meta = store.connection().getTable(store.meta)) {
      List<Put> puts = new ArrayList<>();
      if (last >= 0) {
        puts.add(Sequence.imported(HBaseStore.uidRow('q', c.uid), last + 1));
      }
      puts.add(
          new Put(HBaseStore.uidRow('s', c.uid))
              .addColumn(META_FAMILY, bytes("documents"), Rows.ordinal(added)));
      meta.put(puts);
      store.register(c);
    } catch (IllegalArgumentException e) {
      c.purge();
      throw e;
    }
  }

  /** Fills an unregistered collection a chunk at a time. */
  private final class Loader implements Importer {
    private final HBaseCollection c;
    private final boolean verify;
    private final int bands;
    private final List<StoredRecord> chunk = new ArrayList<>(CHUNK);
    private long last = -1;
    private long added;
    private boolean done;

    Loader(HBaseCollection c, org.neardup.Analyzer analyzer) {
      this.c = c;
      this.verify = c.settings().verify();
      this.bands = verify ? Importer.bandCount(analyzer) : 0;
    }

    @Override
    public void add(StoredRecord r) throws IOException {
      if (done) {
        throw new IllegalStateException("the import finished");
      }
      Importer.checkNext(r, last, verify ? bands : -1);
      last = r.ordinal();
      chunk.add(r);
      if (chunk.size() == CHUNK) {
        flush();
      }
    }

    private void flush() throws IOException {
      if (chunk.isEmpty()) {
        return;
      }
      int uid = c.uid;
      long now = store.clock().millis();
      List<Put> rows = new ArrayList<>();
      List<Put> index = new ArrayList<>();
      List<Put> ids = new ArrayList<>(chunk.size());
      Map<Long, byte[]> rootIds = new HashMap<>();
      for (StoredRecord r : chunk) {
        long o = r.ordinal() + 1;
        long root = r.root() + 1;
        byte[] ord = Rows.ordinal(o);
        long[] bandKeys = verify ? r.bandKeys() : new long[0];
        Put doc =
            new Put(Rows.doc(uid, o))
                .addColumn(
                    DOC_FAMILY,
                    REC,
                    new DocRecord(r.fingerprint(), r.timestamp(), r.expiresAt(), bandKeys, r.id())
                        .encode())
                .addColumn(DOC_FAMILY, ROOT, Rows.ordinal(root));
        if (verify) {
          doc.addColumn(DOC_FAMILY, SKETCH, r.sketch());
        }
        // Time to live as the collection writes them (HBaseCollection.ttl): every row of the
        // document but its cluster's name, which later members may still need.
        long exp = r.expiresAt();
        rows.add(c.ttl(doc, exp, now));
        rows.add(
            c.ttl(
                new Put(Rows.members(uid, root)).addColumn(DOC_FAMILY, ord, new byte[0]),
                exp,
                now));
        rootIds.putIfAbsent(root, bytes(r.cluster()));
        if (exp != Long.MAX_VALUE) {
          rows.add(
              c.ttl(
                  new Put(Rows.expiry(uid, exp, o)).addColumn(DOC_FAMILY, VALUE, new byte[0]),
                  exp,
                  now));
        }
        for (int t = 0; t < c.scheme().tables(); t++) {
          index.add(
              c.ttl(
                  new Put(Rows.block(c.scheme(), t, uid, r.fingerprint()))
                      .addColumn(INDEX_FAMILY, ord, new byte[0]),
                  exp,
                  now));
        }
        for (long key : bandKeys) {
          index.add(
              c.ttl(
                  new Put(Rows.band(key, uid)).addColumn(INDEX_FAMILY, ord, new byte[0]),
                  exp,
                  now));
        }
        ids.add(c.ttl(new Put(Rows.id(uid, r.id())).addColumn(DOC_FAMILY, VALUE, ord), exp, now));
      }
      rootIds.forEach(
          (root, id) -> rows.add(new Put(Rows.rootId(uid, root)).addColumn(DOC_FAMILY, VALUE, id)));
      try (Table docs = store.connection().getTable(store.docs);
          Table idx = store.connection().getTable(store.index)) {
        docs.put(rows);
        idx.put(index);
        docs.put(ids);
      } catch (IOException e) {
        throw store.unavailable(e);
      }
      added += chunk.size();
      chunk.clear();
    }

    @Override
    public long finish() throws IOException {
      if (done) {
        return added;
      }
      flush();
      try {
        complete(store, c, last, added);
      } catch (IllegalArgumentException e) {
        done = true; // purged
        throw e;
      }
      done = true;
      return added;
    }

    @Override
    public void close() throws IOException {
      if (done) {
        return;
      }
      done = true;
      c.purge();
    }
  }

  /** Registered under {@code META-INF/services}. */
  public static final class Provider implements CollectionTransfer.Provider {
    @Override
    public String kind() {
      return "hbase";
    }

    @Override
    public CollectionTransfer open(FingerprintStore store) {
      return new HBaseTransfer((HBaseStore) store);
    }
  }
}
