// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import static org.neardup.store.hbase.HBaseStore.DOC_FAMILY;
import static org.neardup.store.hbase.HBaseStore.INDEX_FAMILY;
import static org.neardup.store.hbase.HBaseStore.META_FAMILY;
import static org.neardup.store.hbase.HBaseStore.VALUE;
import static org.neardup.store.hbase.HBaseStore.bytes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.jspecify.annotations.Nullable;
import org.neardup.Analysis;
import org.neardup.Analyzer;
import org.neardup.Deduplicator;
import org.neardup.decide.CandidateKeys;
import org.neardup.decide.CandidateTable;
import org.neardup.decide.Decision;
import org.neardup.decide.MatchSet;
import org.neardup.decide.Verifier;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.CollectionStats;
import org.neardup.store.Document;
import org.neardup.store.Outcome;
import org.neardup.store.Outcome.Status;
import org.neardup.store.StoredDocument;

/**
 * A collection of the {@link HBaseStore}.
 *
 * <p>A check reads the candidates of a document with one prefix scan per block table and one get
 * per band key, all issued at once ({@link AsyncTable}), then one multi-get of the candidates'
 * rows; the decision is made here by the shared classes ({@link Decision}).
 *
 * <p>A check-and-insert runs under the collection's lock in HBase ({@link LeaseLock}): it reads the
 * collection's sequence S, probes, decides, then moves the sequence from S to S + 1 with {@code
 * checkAndMutate} before it writes the document's rows. Every writer of the collection on every
 * node takes that lock, so no document is stored between the probe and the commit; and were a lease
 * to expire under a paused holder, the sequence's compare-and-set makes the second of two writers
 * that read the same S fail and decide again. Within one process a local lock queues the threads so
 * that one of them at a time contends for the lock in HBase; it is a throttle, not what makes the
 * store correct. Reads ({@link #check}, {@link #get}) take no lock.
 */
final class HBaseCollection implements Collection {
  private static final int MAX_ATTEMPTS = 100;
  private static final byte[] REC = bytes("r");
  private static final byte[] SKETCH = bytes("s");
  private static final byte[] ROOT = bytes("p");

  private final HBaseStore store;
  private final String name;
  final int uid;
  private final CollectionSettings settings;
  private final Analyzer analyzer;
  private final CandidateKeys candidateKeys;
  private final Decision decision;
  private final boolean verify;
  private final byte[] seqRow;
  private final byte[] statsRow;
  private final byte[] lockRow;
  private final ReentrantLock local = new ReentrantLock(true);
  volatile boolean dropped;

  HBaseCollection(HBaseStore store, String name, int uid, CollectionSettings settings) {
    this.store = store;
    this.name = name;
    this.uid = uid;
    this.settings = settings;
    this.analyzer = settings.deduplicator().analyzer();
    this.candidateKeys = new CandidateKeys(settings.maxDistance());
    this.verify = settings.verify();
    this.decision =
        new Decision(
            new Verifier(settings.maxDistance(), settings.threshold(), verify),
            Deduplicator.DEFAULT_MAX_MATCHES);
    this.seqRow = HBaseStore.uidRow('q', uid);
    this.statsRow = HBaseStore.uidRow('s', uid);
    this.lockRow = HBaseStore.uidRow('l', uid);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public CollectionSettings settings() {
    return settings;
  }

  @Override
  public Analyzer analyzer() {
    return analyzer;
  }

  // --- validation -------------------------------------------------------------------------

  private static void checkId(String id, int position) {
    Objects.requireNonNull(id, "id");
    if (id.isEmpty()) {
      throw new IllegalArgumentException(at(position) + "id must not be empty");
    }
    int n = id.getBytes(StandardCharsets.UTF_8).length;
    if (n > MAX_ID_BYTES) {
      throw new IllegalArgumentException(
          at(position) + "id must be at most " + MAX_ID_BYTES + " bytes of UTF-8, got " + n);
    }
  }

  private static void checkAnalysis(Analysis a, int position) {
    Objects.requireNonNull(a, "analysis");
    if (a.isEmpty()) {
      throw new IllegalArgumentException(at(position) + "text has no letters or digits");
    }
  }

  private static String at(int position) {
    return position < 0 ? "" : "document " + position + ": ";
  }

  private void checkOpen() {
    if (dropped) {
      throw gone();
    }
  }

  private IllegalStateException gone() {
    dropped = true;
    return new IllegalStateException("collection '" + name + "' was dropped");
  }

  // --- probe --------------------------------------------------------------------------------

  /** What a probe found: the candidates and their ids and cluster ids. */
  private static final class Probe {
    final CandidateTable table = new CandidateTable();
    final Map<Long, String> ids = new HashMap<>();
    final Map<Long, String> rootIds = new HashMap<>();
  }

  private long[] bandKeys(Analysis a) {
    return verify ? a.sketch().bandKeys() : new long[0];
  }

  private Probe probe(Analysis a, long now) throws IOException {
    long fp = a.fingerprint();
    AsyncTable<?> index = store.async().getTable(store.index);
    int[] keys = candidateKeys.blockKeys(fp);
    List<CompletableFuture<List<Result>>> scans = new ArrayList<>(keys.length);
    for (int key : keys) {
      scans.add(index.scanAll(new Scan().setStartStopRowForPrefixScan(Rows.blockPrefix(key, uid))));
    }
    long[] bands = bandKeys(a);
    List<Get> bandGets = new ArrayList<>(bands.length);
    for (long key : bands) {
      bandGets.add(new Get(Rows.band(key, uid)));
    }
    CompletableFuture<List<Result>> bandRows =
        bandGets.isEmpty() ? CompletableFuture.completedFuture(List.of()) : index.getAll(bandGets);
    // ordinal -> found under a band key
    Map<Long, Boolean> found = new LinkedHashMap<>();
    store.probes.increment();
    try {
      for (CompletableFuture<List<Result>> scan : scans) {
        List<Result> rows = scan.join();
        store.rowsRead.add(rows.size());
        for (Result r : rows) {
          int distance = Long.bitCount(fp ^ Rows.blockFingerprint(r.getRow()));
          if (!decision.verifier().isFingerprintCandidate(distance)) {
            continue;
          }
          for (Cell c : r.rawCells()) {
            found.putIfAbsent(Rows.toLong(CellUtil.cloneQualifier(c)), false);
          }
        }
      }
      for (Result r : bandRows.join()) {
        store.rowsRead.add(r.isEmpty() ? 0 : 1);
        for (Cell c : r.rawCells()) {
          found.put(Rows.toLong(CellUtil.cloneQualifier(c)), true);
        }
      }
    } catch (CompletionException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
    }
    Probe p = new Probe();
    if (found.isEmpty()) {
      return p;
    }
    List<Long> ordinals = new ArrayList<>(found.keySet());
    List<Get> gets = new ArrayList<>(ordinals.size());
    for (long o : ordinals) {
      gets.add(new Get(Rows.doc(uid, o)));
    }
    List<Long> roots = new ArrayList<>();
    try (Table docs = store.connection().getTable(store.docs)) {
      Result[] rows = docs.get(gets);
      store.rowsRead.add(rows.length);
      for (int i = 0; i < rows.length; i++) {
        byte[] rec = rows[i].getValue(DOC_FAMILY, REC);
        if (rec == null) {
          continue; // removed since it was filed
        }
        DocRecord d = DocRecord.decode(rec);
        if (d.expiresAt() <= now) {
          continue; // expired: stops matching before the sweep removes it
        }
        long ordinal = ordinals.get(i);
        long root = Rows.toLong(rows[i].getValue(DOC_FAMILY, ROOT));
        p.table.add(
            ordinal,
            d.fingerprint(),
            root,
            rows[i].getValue(DOC_FAMILY, SKETCH),
            found.get(ordinal));
        p.ids.put(ordinal, d.id());
        if (!p.rootIds.containsKey(root)) {
          p.rootIds.put(root, "");
          roots.add(root);
        }
      }
      List<Get> rootGets = new ArrayList<>(roots.size());
      for (long root : roots) {
        rootGets.add(new Get(Rows.rootId(uid, root)));
      }
      Result[] rootRows = docs.get(rootGets);
      for (int i = 0; i < rootRows.length; i++) {
        byte[] id = rootRows[i].getValue(DOC_FAMILY, VALUE);
        p.rootIds.put(roots.get(i), id == null ? "" : new String(id, StandardCharsets.UTF_8));
      }
    }
    return p;
  }

  private MatchSet decide(Analysis a, Probe p) {
    MatchSet m = decision.newMatchSet();
    decision.verify(a, p.table, m);
    return m;
  }

  private static List<Outcome.Match> reported(MatchSet m, Probe p) {
    if (m.isEmpty()) {
      return List.of();
    }
    int[] order = m.reported();
    List<Outcome.Match> out = new ArrayList<>(order.length);
    for (int i : order) {
      out.add(new Outcome.Match(p.ids.get(m.ordinal(i)), m.distance(i), m.similarity(i)));
    }
    return out;
  }

  private Outcome checkOnly(Status status, @Nullable String id, Analysis a) throws IOException {
    Probe p = probe(a, store.clock().millis());
    MatchSet m = decide(a, p);
    long[] roots = m.joinedRoots();
    String cluster = roots.length == 0 ? null : p.rootIds.get(roots[0]);
    count("checked", 1);
    return new Outcome(status, id, m.isEmpty(), a.fingerprint(), cluster, reported(m, p));
  }

  private void count(String counter, long n) throws IOException {
    try (Table meta = store.connection().getTable(store.meta)) {
      meta.increment(new Increment(statsRow).addColumn(META_FAMILY, bytes(counter), n));
    }
  }

  // --- check-and-insert ---------------------------------------------------------------------

  @Override
  public Outcome checkAndInsert(Document document) throws IOException {
    checkId(document.id(), -1);
    checkAnalysis(document.analysis(), -1);
    checkOpen();
    return locked(held -> insert(document, store.clock().millis()));
  }

  @Override
  public List<Outcome> checkAndInsertAll(List<Document> documents) throws IOException {
    for (int i = 0; i < documents.size(); i++) {
      checkId(documents.get(i).id(), i);
      checkAnalysis(documents.get(i).analysis(), i);
    }
    checkOpen();
    long now = store.clock().millis();
    return locked(
        held -> {
          List<Outcome> out = new ArrayList<>(documents.size());
          for (Document d : documents) {
            held.renewIfDue();
            out.add(insert(d, now));
          }
          return out;
        });
  }

  /** Work done under the collection's lock. */
  private interface Locked<T> {
    T run(LeaseLock.Held held) throws IOException;
  }

  private <T> T locked(Locked<T> work) throws IOException {
    local.lock();
    try (Table meta = store.connection().getTable(store.meta);
        LeaseLock.Held held =
            new LeaseLock(meta, lockRow, META_FAMILY, VALUE, store.lockWaits).acquire()) {
      T out = work.run(held);
      store.succeeded();
      return out;
    } catch (IOException e) {
      throw store.unavailable(e);
    } finally {
      local.unlock();
    }
  }

  /** The sequence now, after checking the collection still exists. */
  private long sequence() throws IOException {
    try (Table meta = store.connection().getTable(store.meta)) {
      Result[] r =
          meta.get(
              List.of(
                  new Get(store.registryRowOf(name)).addColumn(META_FAMILY, VALUE),
                  new Get(seqRow).addColumn(META_FAMILY, VALUE)));
      byte[] entry = r[0].getValue(META_FAMILY, VALUE);
      if (entry == null || !new String(entry, StandardCharsets.UTF_8).startsWith(uid + ";")) {
        throw gone();
      }
      byte[] seq = r[1].getValue(META_FAMILY, VALUE);
      return seq == null ? 0 : Rows.toLong(seq);
    }
  }

  /** Moves the sequence from {@code seen} to {@code seen + 1}; false if it moved meanwhile. */
  private boolean advance(long seen) throws IOException {
    try (Table meta = store.connection().getTable(store.meta)) {
      CheckAndMutate.Builder b = CheckAndMutate.newBuilder(seqRow);
      if (seen == 0) {
        b.ifNotExists(META_FAMILY, VALUE);
      } else {
        b.ifEquals(META_FAMILY, VALUE, Rows.ordinal(seen));
      }
      return meta.checkAndMutate(
              b.build(new Put(seqRow).addColumn(META_FAMILY, VALUE, Rows.ordinal(seen + 1))))
          .isSuccess();
    }
  }

  /** The stored document's ordinal, record and root, or null. */
  private @Nullable Object[] lookup(Table docs, String id) throws IOException {
    byte[] o = docs.get(new Get(Rows.id(uid, id))).getValue(DOC_FAMILY, VALUE);
    if (o == null) {
      return null;
    }
    long ordinal = Rows.toLong(o);
    Result r = docs.get(new Get(Rows.doc(uid, ordinal)));
    byte[] rec = r.getValue(DOC_FAMILY, REC);
    if (rec == null) {
      return null;
    }
    long root = Rows.toLong(r.getValue(DOC_FAMILY, ROOT));
    byte[] rootId = docs.get(new Get(Rows.rootId(uid, root))).getValue(DOC_FAMILY, VALUE);
    return new Object[] {
      ordinal,
      DocRecord.decode(rec),
      root,
      rootId == null ? "" : new String(rootId, StandardCharsets.UTF_8)
    };
  }

  private Outcome insert(Document d, long now) throws IOException {
    Analysis a = d.analysis();
    long ts = d.timestamp() == Document.NO_TIMESTAMP ? now : d.timestamp();
    long exp = settings.expiresAt(d.timestamp(), now);
    try (Table docs = store.connection().getTable(store.docs)) {
      Object[] existing = lookup(docs, d.id());
      if (existing != null) {
        return exists(d.id(), ((DocRecord) existing[1]).fingerprint(), (String) existing[3]);
      }
      if (exp <= now) {
        sequence(); // throws if dropped
        return checkOnly(Status.EXPIRED, d.id(), a);
      }
      for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        long seen = sequence();
        Probe p = probe(a, now);
        MatchSet m = decide(a, p);
        long[] roots = m.joinedRoots();
        if (!advance(seen)) {
          continue; // another writer committed since the probe (an expired lease): decide again
        }
        long ordinal = seen + 1;
        long root = roots.length == 0 ? ordinal : roots[0];
        store(docs, d, a, ts, exp, ordinal, root, roots);
        String cluster = roots.length == 0 ? d.id() : p.rootIds.get(roots[0]);
        return new Outcome(
            Status.STORED, d.id(), m.isEmpty(), a.fingerprint(), cluster, reported(m, p));
      }
    }
    throw new IOException(
        "check-and-insert of '" + d.id() + "' lost " + MAX_ATTEMPTS + " races in a row");
  }

  /** Writes a decided document's rows and joins the clusters it matched into {@code root}'s. */
  private void store(
      Table docs, Document d, Analysis a, long ts, long exp, long ordinal, long root, long[] roots)
      throws IOException {
    long[] bands = bandKeys(a);
    byte[] ord = Rows.ordinal(ordinal);
    List<Put> puts = new ArrayList<>();
    Put doc =
        new Put(Rows.doc(uid, ordinal))
            .addColumn(
                DOC_FAMILY, REC, new DocRecord(a.fingerprint(), ts, exp, bands, d.id()).encode())
            .addColumn(DOC_FAMILY, ROOT, Rows.ordinal(root));
    if (verify) {
      doc.addColumn(DOC_FAMILY, SKETCH, a.sketch().shingles().encode());
    }
    puts.add(doc);
    puts.add(new Put(Rows.members(uid, root)).addColumn(DOC_FAMILY, ord, new byte[0]));
    if (roots.length == 0) {
      puts.add(new Put(Rows.rootId(uid, ordinal)).addColumn(DOC_FAMILY, VALUE, bytes(d.id())));
    }
    if (exp != Long.MAX_VALUE) {
      puts.add(new Put(Rows.expiry(uid, exp, ordinal)).addColumn(DOC_FAMILY, VALUE, new byte[0]));
    }
    // Clusters the document joins merge into the earliest: their members take its root.
    List<Delete> merged = new ArrayList<>();
    for (int i = 1; i < roots.length; i++) {
      Result members = docs.get(new Get(Rows.members(uid, roots[i])));
      for (Cell c : members.rawCells()) {
        byte[] member = CellUtil.cloneQualifier(c);
        puts.add(
            new Put(Rows.doc(uid, Rows.toLong(member)))
                .addColumn(DOC_FAMILY, ROOT, Rows.ordinal(root)));
        puts.add(new Put(Rows.members(uid, root)).addColumn(DOC_FAMILY, member, new byte[0]));
      }
      merged.add(new Delete(Rows.members(uid, roots[i])));
    }
    docs.put(puts);
    if (!merged.isEmpty()) {
      docs.delete(merged);
    }
    List<Put> index = new ArrayList<>();
    for (int key : candidateKeys.blockKeys(a.fingerprint())) {
      index.add(
          new Put(Rows.block(key, uid, a.fingerprint())).addColumn(INDEX_FAMILY, ord, new byte[0]));
    }
    for (long key : bands) {
      index.add(new Put(Rows.band(key, uid)).addColumn(INDEX_FAMILY, ord, new byte[0]));
    }
    try (Table t = store.connection().getTable(store.index)) {
      t.put(index);
    }
    // Last: the id names the document only once every row of it is written.
    docs.put(new Put(Rows.id(uid, d.id())).addColumn(DOC_FAMILY, VALUE, ord));
    try (Table meta = store.connection().getTable(store.meta)) {
      Increment inc =
          new Increment(statsRow)
              .addColumn(META_FAMILY, bytes("documents"), 1)
              .addColumn(META_FAMILY, bytes("inserted"), 1);
      if (roots.length > 0) {
        inc.addColumn(META_FAMILY, bytes("duplicates"), 1);
      }
      meta.increment(inc);
    }
  }

  private static Outcome exists(String id, long fingerprint, String cluster) {
    return new Outcome(Status.EXISTS, id, false, fingerprint, cluster, List.of());
  }

  @Override
  public Outcome check(Analysis analysis) {
    checkAnalysis(analysis, -1);
    checkOpen();
    try {
      sequence(); // throws if dropped
      return checkOnly(Status.CHECKED, null, analysis);
    } catch (IOException e) {
      throw new UncheckedIOException(store.unavailable(e));
    }
  }

  // --- get, delete, expire --------------------------------------------------------------------

  @Override
  public Optional<StoredDocument> get(String id) {
    checkOpen();
    try (Table docs = store.connection().getTable(store.docs)) {
      Object[] found = lookup(docs, id);
      if (found == null) {
        return Optional.empty();
      }
      DocRecord r = (DocRecord) found[1];
      return Optional.of(
          new StoredDocument(id, r.fingerprint(), r.timestamp(), r.expiresAt(), (String) found[3]));
    } catch (IOException e) {
      throw new UncheckedIOException(store.unavailable(e));
    }
  }

  @Override
  public boolean delete(String id) throws IOException {
    checkOpen();
    return locked(
        held -> {
          sequence(); // throws if dropped
          return remove(id, "deleted");
        });
  }

  /** Removes the document stored under id (the lock held); counts it under {@code counter}. */
  private boolean remove(String id, String counter) throws IOException {
    try (Table docs = store.connection().getTable(store.docs)) {
      Object[] found = lookup(docs, id);
      if (found == null) {
        return false;
      }
      long ordinal = (Long) found[0];
      DocRecord r = (DocRecord) found[1];
      long root = (Long) found[2];
      byte[] ord = Rows.ordinal(ordinal);
      // First the id and the index rows: the document stops being found.
      docs.delete(new Delete(Rows.id(uid, id)));
      removeIndex(ordinal, r);
      List<Delete> rows = new ArrayList<>();
      rows.add(new Delete(Rows.doc(uid, ordinal)));
      rows.add(new Delete(Rows.members(uid, root)).addColumns(DOC_FAMILY, ord));
      if (r.expiresAt() != Long.MAX_VALUE) {
        rows.add(new Delete(Rows.expiry(uid, r.expiresAt(), ordinal)));
      }
      docs.delete(rows);
      try (Table meta = store.connection().getTable(store.meta)) {
        meta.increment(
            new Increment(statsRow)
                .addColumn(META_FAMILY, bytes("documents"), -1)
                .addColumn(META_FAMILY, bytes(counter), 1));
      }
      return true;
    }
  }

  private void removeIndex(long ordinal, DocRecord r) throws IOException {
    byte[] ord = Rows.ordinal(ordinal);
    List<Delete> index = new ArrayList<>();
    for (int key : candidateKeys.blockKeys(r.fingerprint())) {
      index.add(new Delete(Rows.block(key, uid, r.fingerprint())).addColumns(INDEX_FAMILY, ord));
    }
    for (long key : r.bandKeys()) {
      index.add(new Delete(Rows.band(key, uid)).addColumns(INDEX_FAMILY, ord));
    }
    try (Table t = store.connection().getTable(store.index)) {
      t.delete(index);
    }
  }

  @Override
  public int expire() {
    if (settings.retention().isZero() || dropped) {
      return 0;
    }
    long now = store.clock().millis();
    try {
      return locked(
          held -> {
            List<String> due = new ArrayList<>();
            try (Table docs = store.connection().getTable(store.docs);
                ResultScanner rs =
                    docs.getScanner(
                        new Scan()
                            .withStartRow(Rows.kindPrefix(uid, Rows.EXPIRY))
                            .withStopRow(Rows.expiry(uid, now + 1, 0)))) {
              for (Result x : rs) {
                long ordinal = Rows.toLong(x.getRow(), 13);
                byte[] rec = docs.get(new Get(Rows.doc(uid, ordinal))).getValue(DOC_FAMILY, REC);
                if (rec == null) {
                  docs.delete(new Delete(x.getRow())); // removed meanwhile
                } else {
                  due.add(DocRecord.decode(rec).id());
                }
              }
            }
            int removed = 0;
            for (String id : due) {
              held.renewIfDue();
              if (remove(id, "expired")) {
                removed++;
              }
            }
            return removed;
          });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public CollectionStats stats() {
    checkOpen();
    try (Table meta = store.connection().getTable(store.meta)) {
      Result r = meta.get(new Get(statsRow));
      return new CollectionStats(
          counter(r, "documents"),
          0,
          counter(r, "inserted"),
          counter(r, "duplicates"),
          counter(r, "checked"),
          counter(r, "expired"),
          counter(r, "deleted"));
    } catch (IOException e) {
      throw new UncheckedIOException(store.unavailable(e));
    }
  }

  private static long counter(Result r, String name) {
    byte[] v = r.getValue(META_FAMILY, bytes(name));
    return v == null ? 0 : Rows.toLong(v);
  }

  /** Deletes every row of the dropped collection. */
  void purge() throws IOException {
    try (Table docs = store.connection().getTable(store.docs);
        ResultScanner rs =
            docs.getScanner(new Scan().setStartStopRowForPrefixScan(Rows.uidPrefix(uid)))) {
      List<Delete> batch = new ArrayList<>();
      for (Result r : rs) {
        byte[] row = r.getRow();
        if (row[4] == Rows.DOC) {
          byte[] rec = r.getValue(DOC_FAMILY, REC);
          if (rec != null) {
            removeIndex(Rows.toLong(row, 5), DocRecord.decode(rec));
          }
        }
        batch.add(new Delete(row));
        if (batch.size() >= 1000) {
          docs.delete(batch);
          batch = new ArrayList<>();
        }
      }
      if (!batch.isEmpty()) {
        docs.delete(batch);
      }
    }
    try (Table meta = store.connection().getTable(store.meta)) {
      meta.delete(
          new ArrayList<>(List.of(new Delete(seqRow), new Delete(statsRow), new Delete(lockRow))));
    }
  }
}
