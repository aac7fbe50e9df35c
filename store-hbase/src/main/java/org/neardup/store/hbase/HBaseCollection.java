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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongFunction;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.MultiRowRangeFilter;
import org.apache.hadoop.hbase.filter.MultiRowRangeFilter.RowRange;
import org.apache.hadoop.hbase.util.Bytes;
import org.jspecify.annotations.Nullable;
import org.neardup.Analysis;
import org.neardup.Analyzer;
import org.neardup.decide.CandidateTable;
import org.neardup.decide.MatchSet;
import org.neardup.index.BlockScheme;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.CollectionStats;
import org.neardup.store.Document;
import org.neardup.store.Outcome;
import org.neardup.store.Outcome.Status;
import org.neardup.store.RemoteDecision;
import org.neardup.store.StoredDocument;

/**
 * A collection of the {@link HBaseStore}.
 *
 * <p>A check reads the candidates of a batch of documents with one scan per index region that holds
 * any of their block prefixes or band rows, all issued at once ({@link AsyncTable}), then one
 * multi-get of the candidates' rows; the decision is made here by the shared classes ({@link
 * RemoteDecision}).
 *
 * <p>A check-and-insert runs under the collection's lock in HBase ({@link LeaseLock}): it reads the
 * collection's sequence row ({@link Sequence}: S, the last committed ordinal), probes, decides,
 * writes every row of the documents it stores under fresh ordinals, then moves S to its last
 * ordinal with {@code checkAndMutate}: the commit point, before which no reader sees those rows.
 * Every writer of the collection on every node takes that lock, so no document is stored between
 * the probe and the commit; and were a lease to expire under a paused holder, the sequence's
 * compare-and-set makes the second of two writers that read the same S fail and decide again.
 * Within one process a local lock queues the threads so that one of them at a time contends for the
 * lock in HBase; it is a throttle, not what makes the store correct. Reads ({@link #check}, {@link
 * #get}) take no lock.
 */
final class HBaseCollection implements Collection {
  private static final int MAX_ATTEMPTS = 100;
  static final byte[] REC = bytes("r");
  private static final byte[] SKETCH = bytes("s");
  private static final byte[] ROOT = bytes("p");

  private final HBaseStore store;
  private final String name;
  final int uid;
  private final CollectionSettings settings;
  private final Analyzer analyzer;
  private final BlockScheme scheme;
  private final GroupCommit commits = new GroupCommit(this);
  private final RemoteDecision decision;
  private final boolean verify;
  private final byte[] seqRow;
  private final byte[] statsRow;
  private final byte[] lockRow;
  private final ReentrantLock local = new ReentrantLock(true);
  private final RootIds rootIds = new RootIds();
  volatile boolean dropped;

  HBaseCollection(
      HBaseStore store, String name, int uid, CollectionSettings settings, BlockScheme scheme) {
    this.store = store;
    this.name = name;
    this.uid = uid;
    this.settings = settings;
    this.analyzer = settings.deduplicator().analyzer();
    this.scheme = schemeFor(scheme, settings.maxDistance());
    this.verify = settings.verify();
    this.decision = new RemoteDecision(settings);
    this.seqRow = HBaseStore.uidRow('q', uid);
    this.statsRow = HBaseStore.uidRow('s', uid);
    this.lockRow = HBaseStore.uidRow('l', uid);
  }

  /**
   * The scheme a collection's index uses: the one asked for when it finds every match within k bits
   * with one prefix scan per table; with the default 4:1 and k above 3, k + 1 blocks of which one
   * must match (as before schemes were a setting).
   *
   * @throws IllegalArgumentException if a scheme other than 4:1 is asked for with k above what it
   *     finds exactly
   */
  static BlockScheme schemeFor(BlockScheme asked, int maxDistance) {
    if (maxDistance <= asked.exactUpTo()) {
      return asked;
    }
    if (asked.equals(BlockScheme.DEFAULT) && maxDistance <= 63) {
      return BlockScheme.of(maxDistance + 1, 1);
    }
    throw new IllegalArgumentException(
        "block scheme "
            + asked
            + " finds every match only up to k = "
            + asked.exactUpTo()
            + " with one scan per table, got k = "
            + maxDistance
            + "; use 4:1 (k + 1 blocks) for larger k");
  }

  /** The block scheme of the collection's index. */
  BlockScheme scheme() {
    return scheme;
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

  /** A stored document read as a candidate. */
  private static final class Cand {
    final long fingerprint;
    final long root;
    final byte[] sketch;
    final String id;
    final long expiresAt;

    Cand(long fingerprint, long root, byte[] sketch, String id, long expiresAt) {
      this.fingerprint = fingerprint;
      this.root = root;
      this.sketch = sketch;
      this.id = id;
      this.expiresAt = expiresAt;
    }
  }

  /**
   * What a probe of several documents found: per document the ordinals filed under its keys (true:
   * under a band key), and the candidates' rows and their clusters' ids.
   */
  private static final class Probe {
    final List<Map<Long, Boolean>> found = new ArrayList<>();
    final Map<Long, Cand> cands = new HashMap<>();
    final Map<Long, String> rootIds = new HashMap<>();

    /**
     * The roots in {@link #rootIds} whose cluster's rows are known written: not a cluster of one.
     */
    final Set<Long> clustersWritten = new HashSet<>();
  }

  private long[] bandKeys(Analysis a) {
    return verify ? a.sketch().bandKeys() : new long[0];
  }

  /**
   * Reads the candidates of every analysis at once: the block rows of all their keys with one scan
   * per index region that holds any (a {@link MultiRowRangeFilter} of the keys' prefixes and the
   * band rows, so a region server seeks from one to the next), all issued in parallel; then the
   * candidates' document rows and their roots' ids with one multi-get each.
   */
  private Probe probe(List<Analysis> as, long now, Sequence seq) throws IOException {
    AsyncTable<?> index = store.async().getTable(store.index);
    // Every block prefix and band row asked for, in row order, with the documents asking.
    TreeMap<byte[], Wanted> wanted = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    for (int i = 0; i < as.size(); i++) {
      long fp = as.get(i).fingerprint();
      for (int t = 0; t < scheme.tables(); t++) {
        wanted.computeIfAbsent(Rows.blockPrefix(scheme, t, uid, fp), Wanted::prefix).who.add(i);
      }
      for (long key : bandKeys(as.get(i))) {
        wanted.computeIfAbsent(Rows.band(key, uid), Wanted::band).who.add(i);
      }
    }
    // One scan per region (the index is pre-split on the first byte's high nibble) reads both
    // the block rows under the prefixes and the band rows, which live in the same regions: a
    // band row is a range of one row. (A multi-get of the band rows instead made the region
    // server open a scanner per band key, about 20 per document.)
    boolean filtered = store.serverFilter();
    List<CompletableFuture<List<Result>>> scans = new ArrayList<>();
    List<List<Wanted>> scanned = new ArrayList<>();
    List<Wanted> inRegion = new ArrayList<>();
    int region = -1;
    for (Wanted w : wanted.values()) {
      int r = (w.start[0] & 0xF0) >>> 4;
      if (r != region && !inRegion.isEmpty()) {
        scans.add(index.scanAll(scanOf(inRegion, as, filtered)));
        scanned.add(inRegion);
        inRegion = new ArrayList<>();
      }
      region = r;
      inRegion.add(w);
    }
    if (!inRegion.isEmpty()) {
      scans.add(index.scanAll(scanOf(inRegion, as, filtered)));
      scanned.add(inRegion);
    }
    Probe p = new Probe();
    for (int i = 0; i < as.size(); i++) {
      p.found.add(new LinkedHashMap<>());
    }
    store.probes.add(as.size());
    try {
      List<Result> bandRows = new ArrayList<>();
      List<Wanted> bandWanted = new ArrayList<>();
      long blockRows = 0;
      for (int s = 0; s < scans.size(); s++) {
        List<Result> rows = scans.get(s).join();
        List<Wanted> ws = scanned.get(s);
        store.rowsRead.add(rows.size());
        // The rows come in row order, each in one of the scan's ranges, which are in row order
        // too: walk both, without a look-up or a copy per row.
        int j = 0;
        for (Result r : rows) {
          Cell first = r.rawCells()[0];
          int place = -1;
          while (j < ws.size() && (place = ws.get(j).place(first)) < 0) {
            j++;
          }
          if (place != 0) {
            continue; // in no range (the filter returns none such)
          }
          Wanted w = ws.get(j);
          if (w.band) {
            bandRows.add(r); // after every block row, as candidates were always ordered
            bandWanted.add(w);
            continue;
          }
          blockRows++;
          long stored = Bytes.toLong(first.getRowArray(), first.getRowOffset() + Rows.PREFIX_BYTES);
          for (int i : w.who) {
            int distance = Long.bitCount(as.get(i).fingerprint() ^ stored);
            if (!decision.verifier().isFingerprintCandidate(distance)) {
              continue;
            }
            for (Cell c : r.rawCells()) {
              p.found.get(i).putIfAbsent(ordinalOf(c), false);
            }
          }
        }
      }
      store.blockRowsRead.add(blockRows);
      for (int b = 0; b < bandRows.size(); b++) {
        for (int i : bandWanted.get(b).who) {
          for (Cell c : bandRows.get(b).rawCells()) {
            p.found.get(i).put(ordinalOf(c), true);
          }
        }
      }
    } catch (CompletionException e) {
      if (filtered && store.serverFilterFailed(e.getCause())) {
        return probe(as, now, seq); // once more, without the filter the region server lacks
      }
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
    }
    TreeSet<Long> ordinals = new TreeSet<>();
    for (Map<Long, Boolean> f : p.found) {
      // Rows of an ordinal not committed (a commit cut short, or in flight) are never candidates.
      f.keySet().removeIf(o -> !seq.visible(o));
      ordinals.addAll(f.keySet());
    }
    if (ordinals.isEmpty()) {
      return p;
    }
    List<Long> order = new ArrayList<>(ordinals);
    List<Get> gets = new ArrayList<>(order.size());
    for (long o : order) {
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
          continue; // expired: stops matching before the sweep or the TTL removes it
        }
        long root = Rows.toLong(rows[i].getValue(DOC_FAMILY, ROOT));
        byte[] sketch = rows[i].getValue(DOC_FAMILY, SKETCH);
        long ordinal = order.get(i);
        p.cands.put(ordinal, new Cand(d.fingerprint(), root, sketch, d.id(), d.expiresAt()));
        if (!p.rootIds.containsKey(root)) {
          String known = rootIds.get(root);
          if (known != null) {
            p.rootIds.put(root, known);
            p.clustersWritten.add(root);
          } else if (root == ordinal) {
            p.rootIds.put(root, d.id()); // a root names its cluster; no read for a cluster of one
          } else {
            p.rootIds.put(root, "");
            roots.add(root);
          }
        }
      }
      List<Get> rootGets = new ArrayList<>(roots.size());
      for (long root : roots) {
        rootGets.add(new Get(Rows.rootId(uid, root)));
      }
      Result[] rootRows = rootGets.isEmpty() ? new Result[0] : docs.get(rootGets);
      for (int i = 0; i < rootRows.length; i++) {
        byte[] id = rootRows[i].getValue(DOC_FAMILY, VALUE);
        if (id != null) {
          String rootId = new String(id, StandardCharsets.UTF_8);
          p.rootIds.put(roots.get(i), rootId);
          p.clustersWritten.add(roots.get(i));
          rootIds.put(roots.get(i), rootId);
        }
      }
    }
    return p;
  }

  /**
   * The scan of one region's ranges, in row order; with {@code filtered}, the region server also
   * drops the block rows more than k bits from every document that asked for their prefix ({@link
   * BlockDistanceFilter}), the rows the loop in {@link #probe} skips.
   */
  private Scan scanOf(List<Wanted> ws, List<Analysis> as, boolean filtered) {
    List<RowRange> ranges = new ArrayList<>(ws.size());
    for (Wanted w : ws) {
      ranges.add(
          w.band
              ? new RowRange(w.start, true, w.start, true) // a band row's range is one row
              : new RowRange(w.start, true, Rows.after(w.start), false));
    }
    RowRange last = ranges.get(ranges.size() - 1);
    Filter filter = new MultiRowRangeFilter(ranges);
    if (filtered) {
      // The range filter first: it seeks between the ranges; the distance filter passes every row
      // outside its prefixes, so the seeks stay.
      filter = new FilterList(FilterList.Operator.MUST_PASS_ALL, filter, distanceFilter(ws, as));
    }
    return new Scan()
        .withStartRow(ranges.get(0).getStartRow())
        .withStopRow(last.getStopRow(), last.isStopRowInclusive())
        .setFilter(filter)
        .setReadType(store.scanReadType);
  }

  /**
   * The block prefixes among {@code ws} (in row order) and the fingerprints that asked for each.
   */
  private BlockDistanceFilter distanceFilter(List<Wanted> ws, List<Analysis> as) {
    int n = 0;
    int count = 0;
    for (Wanted w : ws) {
      if (!w.band) {
        n++;
        count += w.who.size();
      }
    }
    byte[] prefixes = new byte[n * Rows.PREFIX_BYTES];
    int[] starts = new int[n + 1];
    long[] fingerprints = new long[count];
    int p = 0;
    int f = 0;
    for (Wanted w : ws) {
      if (w.band) {
        continue;
      }
      System.arraycopy(w.start, 0, prefixes, p * Rows.PREFIX_BYTES, Rows.PREFIX_BYTES);
      for (int i : w.who) {
        fingerprints[f++] = as.get(i).fingerprint();
      }
      starts[++p] = f;
    }
    return new BlockDistanceFilter(
        decision.verifier().maxDistance(), Rows.PREFIX_BYTES, prefixes, starts, fingerprints);
  }

  /** The ordinal an index cell's qualifier names. */
  private static long ordinalOf(Cell c) {
    return Bytes.toLong(c.getQualifierArray(), c.getQualifierOffset(), c.getQualifierLength());
  }

  /**
   * What a probe reads in the index: the rows under a block prefix, or one band row; and the
   * documents of the batch that asked for it.
   */
  private static final class Wanted {
    final byte[] start;
    final boolean band;
    final List<Integer> who = new ArrayList<>(1);

    private Wanted(byte[] start, boolean band) {
      this.start = start;
      this.band = band;
    }

    static Wanted prefix(byte[] prefix) {
      return new Wanted(prefix, false);
    }

    static Wanted band(byte[] row) {
      return new Wanted(row, true);
    }

    /**
     * Where the cell's row is: 0 if this range holds it (it is this band row, or starts with this
     * prefix), above 0 if the range comes after it, below 0 if before it.
     */
    int place(Cell c) {
      int length = c.getRowLength();
      int compared =
          Bytes.compareTo(
              start,
              0,
              start.length,
              c.getRowArray(),
              c.getRowOffset(),
              band ? length : Math.min(length, start.length));
      return compared != 0 || band || length >= start.length ? compared : 1;
    }
  }

  private void count(String counter, long n) throws IOException {
    try (Table meta = store.connection().getTable(store.meta)) {
      meta.increment(new Increment(statsRow).addColumn(META_FAMILY, bytes(counter), n));
    }
  }

  // --- check-and-insert ---------------------------------------------------------------------

  @Override
  public Outcome checkAndInsert(Document document) throws IOException {
    RemoteDecision.checkId(document.id(), -1);
    RemoteDecision.checkAnalysis(document.analysis(), -1);
    checkOpen();
    return commits.submit(document);
  }

  @Override
  public List<Outcome> checkAndInsertAll(List<Document> documents) throws IOException {
    RemoteDecision.checkAll(documents);
    checkOpen();
    if (documents.isEmpty()) {
      return List.of();
    }
    return insertAll(documents);
  }

  /** Checks and inserts documents, in order, under one hold of the lock and one sequence step. */
  List<Outcome> insertAll(List<Document> documents) throws IOException {
    long now = store.clock().millis();
    return locked(
        held -> {
          for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            List<Outcome> out = tryInsertAll(documents, now);
            if (out != null) {
              return out;
            }
            held.renewIfDue();
          }
          throw new IOException(
              "check-and-insert of "
                  + documents.size()
                  + " documents lost "
                  + MAX_ATTEMPTS
                  + " races in a row");
        });
  }

  /** A document of a batch and its fate. */
  private static final class Attempt {
    final Document doc;
    final long ts;
    final long exp;
    final long[] bands;
    final byte[] sketch;
    @Nullable Outcome outcome; // decided before the probe (exists)
    int probeIndex = -1;
    long ordinal; // 0 unless stored by this batch
    long root;
    long[] roots = new long[0];

    Attempt(Document doc, long ts, long exp, long[] bands, byte[] sketch) {
      this.doc = doc;
      this.ts = ts;
      this.exp = exp;
      this.bands = bands;
      this.sketch = sketch;
    }
  }

  /** One try of a batch; null if another writer committed between the probe and the commit. */
  private @Nullable List<Outcome> tryInsertAll(List<Document> documents, long now)
      throws IOException {
    long t0 = System.nanoTime();
    Sequence seen = sequence(); // throws if dropped
    List<Attempt> attempts = new ArrayList<>(documents.size());
    Map<String, Attempt> byId = new HashMap<>();
    List<Get> idGets = new ArrayList<>(documents.size());
    for (Document d : documents) {
      Analysis a = d.analysis();
      long ts = d.timestamp() == Document.NO_TIMESTAMP ? now : d.timestamp();
      long exp = settings.expiresAt(d.timestamp(), now);
      attempts.add(
          new Attempt(
              d, ts, exp, bandKeys(a), verify ? a.sketch().shingles().encode() : new byte[0]));
      idGets.add(new Get(Rows.id(uid, d.id())));
    }
    // The ids and the candidates of every document at once; most are not stored yet.
    CompletableFuture<List<Result>> idsRead = store.async().getTable(store.docs).getAll(idGets);
    // Ordinals for every document, taken meanwhile; those of documents not stored stay unused.
    CompletableFuture<Result> taken = take(seen, documents.size());
    List<Analysis> all = new ArrayList<>(documents.size());
    for (Document d : documents) {
      all.add(d.analysis());
    }
    Probe p = probe(all, now, seen);
    List<Result> ids = join(idsRead);
    try (Table docs = store.connection().getTable(store.docs)) {
      for (int i = 0; i < attempts.size(); i++) {
        Attempt t = attempts.get(i);
        if (ids.get(i).getValue(DOC_FAMILY, VALUE) != null) {
          Object[] existing = lookup(docs, t.doc.id(), seen);
          if (existing != null) {
            t.outcome =
                RemoteDecision.exists(
                    t.doc.id(), ((DocRecord) existing[1]).fingerprint(), (String) existing[3]);
            continue;
          }
        }
        if (t.exp <= now || byId.putIfAbsent(t.doc.id(), t) == null) {
          t.probeIndex = i;
        }
      }
    }

    // Decide in order: each document sees the stored ones and those stored before it here.
    Map<Long, Long> mergedInto = new HashMap<>();
    Map<Long, String> newRootIds = new HashMap<>();
    Map<Long, Attempt> mine = new HashMap<>();
    List<Attempt> stored = new ArrayList<>();
    Map<Long, List<Attempt>> byBand = new HashMap<>();
    LongFunction<String> idOf =
        o -> {
          Attempt t = mine.get(o);
          return t != null ? t.doc.id() : p.cands.get(o).id;
        };
    LongFunction<String> rootIdOf =
        r -> {
          String id = newRootIds.get(r);
          return id != null ? id : p.rootIds.getOrDefault(r, "");
        };
    long next = seen.given(); // this attempt's ordinals follow every one handed out so far
    long checkedOnly = 0;
    long duplicates = 0;
    List<Outcome> out = new ArrayList<>(attempts.size());
    CandidateTable table = new CandidateTable(); // one per batch, cleared for each document
    for (Attempt t : attempts) {
      if (t.outcome != null) {
        out.add(t.outcome);
        continue;
      }
      if (t.probeIndex < 0) {
        // The same id earlier in this batch was stored: this one exists.
        Attempt first = byId.get(t.doc.id());
        out.add(
            RemoteDecision.exists(
                t.doc.id(),
                first.doc.analysis().fingerprint(),
                rootIdOf.apply(resolve(mergedInto, first.root))));
        continue;
      }
      Analysis a = t.doc.analysis();
      long fp = a.fingerprint();
      table.clear();
      for (Map.Entry<Long, Boolean> e : p.found.get(t.probeIndex).entrySet()) {
        Cand c = p.cands.get(e.getKey());
        if (c != null) {
          table.add(e.getKey(), c.fingerprint, resolve(mergedInto, c.root), c.sketch, e.getValue());
        }
      }
      Map<Long, Boolean> earlier = new LinkedHashMap<>();
      for (Attempt s : stored) {
        if (decision
            .verifier()
            .isFingerprintCandidate(Long.bitCount(fp ^ s.doc.analysis().fingerprint()))) {
          earlier.put(s.ordinal, false);
        }
      }
      for (long key : t.bands) {
        for (Attempt s : byBand.getOrDefault(key, List.of())) {
          earlier.put(s.ordinal, true);
        }
      }
      for (Map.Entry<Long, Boolean> e : earlier.entrySet()) {
        Attempt s = mine.get(e.getKey());
        table.add(
            s.ordinal,
            s.doc.analysis().fingerprint(),
            resolve(mergedInto, s.root),
            s.sketch,
            e.getValue());
      }
      MatchSet m = decision.decide(a, table);
      long[] roots = m.joinedRoots();
      String cluster = RemoteDecision.cluster(m, rootIdOf);
      if (t.exp <= now) {
        checkedOnly++;
        out.add(RemoteDecision.outcome(Status.EXPIRED, t.doc.id(), fp, m, cluster, idOf));
        continue;
      }
      t.ordinal = ++next;
      t.roots = roots;
      t.root = roots.length == 0 ? t.ordinal : roots[0];
      for (int i = 1; i < roots.length; i++) {
        mergedInto.put(roots[i], roots[0]);
      }
      if (roots.length == 0) {
        newRootIds.put(t.ordinal, t.doc.id());
        cluster = t.doc.id();
      } else {
        duplicates++;
      }
      mine.put(t.ordinal, t);
      stored.add(t);
      for (long key : t.bands) {
        byBand.computeIfAbsent(key, k -> new ArrayList<>()).add(t);
      }
      out.add(RemoteDecision.outcome(Status.STORED, t.doc.id(), fp, m, cluster, idOf));
    }
    long t1 = System.nanoTime();
    store.probeNanos.add(t1 - t0);
    if (!seen.handedOut(
        Rows.toLong(join(taken).getValue(META_FAMILY, Sequence.GIVEN)), documents.size())) {
      return null; // another writer took ordinals since the read (an expired lease): again
    }
    Map<Long, String> clustersWritten = Map.of();
    if (!stored.isEmpty()) {
      clustersWritten = writeRows(stored, now, p, mine);
      failPoint("rows-written");
    }
    // Committed even when nothing was stored, so the ordinals taken never become a hole.
    if (!commit(seen, seen.given() + documents.size())) {
      return null; // another writer committed since the probe (an expired lease): decide again
    }
    if (!stored.isEmpty()) {
      clustersWritten.forEach(rootIds::put);
      failPoint("committed");
    }
    if (!stored.isEmpty() || checkedOnly > 0) {
      Increment inc = new Increment(statsRow);
      {
        if (!stored.isEmpty()) {
          inc.addColumn(META_FAMILY, bytes("documents"), stored.size())
              .addColumn(META_FAMILY, bytes("inserted"), stored.size());
        }
        if (duplicates > 0) {
          inc.addColumn(META_FAMILY, bytes("duplicates"), duplicates);
        }
        if (checkedOnly > 0) {
          inc.addColumn(META_FAMILY, bytes("checked"), checkedOnly);
        }
      }
      CompletableFuture<Result> counted = store.async().getTable(store.meta).increment(inc);
      mergeClusters(stored);
      join(counted);
    }
    store.writeNanos.add(System.nanoTime() - t1);
    store.commits.increment();
    return out;
  }

  private static <T> T join(CompletableFuture<T> f) throws IOException {
    try {
      return f.join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
    }
  }

  private static long resolve(Map<Long, Long> mergedInto, long root) {
    Long up = mergedInto.get(root);
    while (up != null) {
      root = up;
      up = mergedInto.get(root);
    }
    return root;
  }

  private Outcome checkOnly(Status status, @Nullable String id, Analysis a, Sequence seq)
      throws IOException {
    Probe p = probe(List.of(a), store.clock().millis(), seq);
    CandidateTable table = new CandidateTable();
    for (Map.Entry<Long, Boolean> e : p.found.get(0).entrySet()) {
      Cand c = p.cands.get(e.getKey());
      if (c != null) {
        table.add(e.getKey(), c.fingerprint, c.root, c.sketch, e.getValue());
      }
    }
    MatchSet m = decision.decide(a, table);
    String cluster = RemoteDecision.cluster(m, p.rootIds::get);
    count("checked", 1);
    return RemoteDecision.outcome(status, id, a.fingerprint(), m, cluster, o -> p.cands.get(o).id);
  }

  /** Work done under the collection's lock. */
  private interface Locked<T> {
    T run(LeaseLock.Held held) throws IOException;
  }

  private <T> T locked(Locked<T> work) throws IOException {
    local.lock();
    long t0 = System.nanoTime();
    long[] t1 = {0};
    try (Table meta = store.connection().getTable(store.meta);
        LeaseLock.Held held =
            new LeaseLock(meta, lockRow, META_FAMILY, VALUE, store.lockWaits).acquire()) {
      store.lockNanos.add(System.nanoTime() - t0);
      T out = work.run(held);
      t1[0] = System.nanoTime();
      store.succeeded();
      return out;
    } catch (IOException e) {
      throw store.unavailable(e);
    } finally {
      if (t1[0] != 0) {
        store.lockNanos.add(System.nanoTime() - t1[0]);
      }
      local.unlock();
    }
  }

  /** The sequence now, after checking the collection still exists. */
  Sequence sequence() throws IOException {
    try (Table meta = store.connection().getTable(store.meta)) {
      Result[] r =
          meta.get(
              List.of(
                  new Get(store.registryRowOf(name)).addColumn(META_FAMILY, VALUE),
                  new Get(seqRow).addFamily(META_FAMILY)));
      byte[] entry = r[0].getValue(META_FAMILY, VALUE);
      if (entry == null || HBaseStore.uidOf(entry) != uid) {
        throw gone();
      }
      return Sequence.of(r[1]);
    }
  }

  /**
   * Takes the {@code n} ordinals after {@code seen.given()}, unless another writer took some
   * meanwhile ({@link Sequence#handedOut} of the result says; then the attempt decides again).
   */
  private CompletableFuture<Result> take(Sequence seen, int n) throws IOException {
    if (!seen.hasGiven()) {
      // A store written before ordinals were handed out apart from commits: start at Committed.
      join(store.async().getTable(store.meta).checkAndMutate(seen.initGiven(seqRow)));
    }
    return store.async().getTable(store.meta).increment(seen.take(seqRow, n));
  }

  /**
   * The commit point: moves the committed ordinal from what {@code seen} read to {@code last}, the
   * attempt's last ordinal, whose rows are all written; false if it moved meanwhile.
   */
  private boolean commit(Sequence seen, long last) throws IOException {
    try (Table meta = store.connection().getTable(store.meta)) {
      return meta.checkAndMutate(seen.commit(seqRow, last)).isSuccess();
    }
  }

  /** A test's hook into a commit's steps ("rows-written", "committed"); null in service. */
  interface FailPoint {
    void at(String step) throws IOException;
  }

  volatile @Nullable FailPoint failPoint;

  private void failPoint(String step) throws IOException {
    FailPoint f = failPoint;
    if (f != null) {
      f.at(step);
    }
  }

  /** The stored document's ordinal, record and root, or null. */
  private @Nullable Object[] lookup(Table docs, String id, Sequence seq) throws IOException {
    byte[] o = docs.get(new Get(Rows.id(uid, id))).getValue(DOC_FAMILY, VALUE);
    if (o == null || !seq.visible(Rows.toLong(o))) {
      return null; // never stored, or written by a commit that did not complete
    }
    long ordinal = Rows.toLong(o);
    Result r = docs.get(new Get(Rows.doc(uid, ordinal)));
    byte[] rec = r.getValue(DOC_FAMILY, REC);
    if (rec == null) {
      return null;
    }
    long root = Rows.toLong(r.getValue(DOC_FAMILY, ROOT));
    DocRecord d = DocRecord.decode(rec);
    if (root == ordinal) {
      return new Object[] {ordinal, d, root, d.id()}; // a root names its cluster
    }
    byte[] rootId = docs.get(new Get(Rows.rootId(uid, root))).getValue(DOC_FAMILY, VALUE);
    return new Object[] {
      ordinal, d, root, rootId == null ? "" : new String(rootId, StandardCharsets.UTF_8)
    };
  }

  /**
   * Gives a document's cells a TTL: its time to expiry plus the store's grace ({@code
   * ttl-grace-ms}). The sweep ({@link #expire}), which counts what it removes, normally deletes
   * them first; the TTL hides them from reads at once and removes them in compactions when no node
   * sweeps. Reads stop matching a document at its expiry either way (the probe compares the
   * record's expiry with the clock).
   */
  <M extends Mutation> M ttl(M m, long exp, long now) {
    if (exp != Long.MAX_VALUE) {
      m.setTTL(ttlMs(exp, now));
    }
    return m;
  }

  /** The TTL of the cells of a document expiring at {@code exp} (not {@code Long.MAX_VALUE}). */
  long ttlMs(long exp, long now) {
    return Math.max(1, exp - now + store.ttlGraceMs);
  }

  /**
   * Writes every row of the decided documents, under their fresh ordinals: document rows, cluster
   * members, root ids, expiry rows, index and band rows, ids. None of them is read before {@link
   * #commit} makes the ordinals committed ({@link Sequence}); the merges of the clusters the
   * documents join wait for the commit ({@link #mergeClusters}).
   *
   * <p>A cluster of one has no rows of its own: a new root writes neither a members row nor a
   * root-id row (its document row names it, as its own root). The first document to join it writes
   * both for it: the root-id row and the root's cell in the members row (the members row then lists
   * every member, the root included, as it always did). Most documents stay alone, so most store
   * two rows fewer; and a root that expires alone leaves no root-id row behind.
   *
   * @return the clusters whose root-id rows this wrote, root to id
   */
  private Map<Long, String> writeRows(
      List<Attempt> stored, long now, Probe p, Map<Long, Attempt> mine) throws IOException {
    List<Put> index = new ArrayList<>();
    List<Put> puts = new ArrayList<>();
    Map<Long, String> clustersWritten = new HashMap<>();
    for (Attempt t : stored) {
      Analysis a = t.doc.analysis();
      long fp = a.fingerprint();
      byte[] ord = Rows.ordinal(t.ordinal);
      Put doc =
          new Put(Rows.doc(uid, t.ordinal))
              .addColumn(
                  DOC_FAMILY, REC, new DocRecord(fp, t.ts, t.exp, t.bands, t.doc.id()).encode())
              .addColumn(DOC_FAMILY, ROOT, Rows.ordinal(t.root));
      if (verify) {
        doc.addColumn(DOC_FAMILY, SKETCH, t.sketch);
      }
      puts.add(ttl(doc, t.exp, now));
      if (t.roots.length > 0) {
        puts.add(
            ttl(
                new Put(Rows.members(uid, t.root)).addColumn(DOC_FAMILY, ord, new byte[0]),
                t.exp,
                now));
        if (!p.clustersWritten.contains(t.root) && !clustersWritten.containsKey(t.root)) {
          writeCluster(t.root, p, mine, puts, clustersWritten, now);
        }
      }
      if (t.exp != Long.MAX_VALUE) {
        puts.add(
            ttl(
                new Put(Rows.expiry(uid, t.exp, t.ordinal))
                    .addColumn(DOC_FAMILY, VALUE, new byte[0]),
                t.exp,
                now));
      }
      for (int k = 0; k < scheme.tables(); k++) {
        index.add(
            ttl(
                new Put(Rows.block(scheme, k, uid, fp)).addColumn(INDEX_FAMILY, ord, new byte[0]),
                t.exp,
                now));
      }
      for (long key : t.bands) {
        index.add(
            ttl(
                new Put(Rows.band(key, uid)).addColumn(INDEX_FAMILY, ord, new byte[0]),
                t.exp,
                now));
      }
      // An id row names an uncommitted ordinal until the commit: lookups ignore it till then.
      puts.add(
          ttl(new Put(Rows.id(uid, t.doc.id())).addColumn(DOC_FAMILY, VALUE, ord), t.exp, now));
    }
    join(
        CompletableFuture.allOf(
            store.async().getTable(store.docs).putAll(puts),
            store.async().getTable(store.index).putAll(index)));
    return clustersWritten;
  }

  /**
   * The rows of a cluster that was one document until now (or may be: rewriting them is harmless):
   * its root-id row, without a TTL (later members name their cluster by it after the root expires),
   * and the root's own cell in the members row, with the root's TTL. The root is one of this
   * batch's documents or a candidate it read (alive: the probe drops expired ones); a root neither
   * names a cluster whose rows were written before, and nothing is written.
   */
  private void writeCluster(
      long root,
      Probe p,
      Map<Long, Attempt> mine,
      List<Put> puts,
      Map<Long, String> clustersWritten,
      long now) {
    Attempt a = mine.get(root);
    Cand c = p.cands.get(root);
    String id;
    long exp;
    if (a != null) {
      id = a.doc.id();
      exp = a.exp;
    } else if (c != null && c.root == root) {
      id = c.id;
      exp = c.expiresAt;
    } else {
      return;
    }
    puts.add(new Put(Rows.rootId(uid, root)).addColumn(DOC_FAMILY, VALUE, bytes(id)));
    puts.add(
        ttl(
            new Put(Rows.members(uid, root)).addColumn(DOC_FAMILY, Rows.ordinal(root), new byte[0]),
            exp,
            now));
    clustersWritten.put(root, id);
  }

  /**
   * After the commit, merges the clusters each stored document joined, in order: the members of the
   * later roots take the earliest's. A process stopped before it leaves those clusters apart (every
   * document stored and matching; only the grouping misses the link).
   */
  private void mergeClusters(List<Attempt> stored) throws IOException {
    try (Table docs = store.connection().getTable(store.docs)) {
      for (Attempt t : stored) {
        if (t.roots.length > 1) {
          merge(docs, t.root, t.roots);
        }
      }
    }
  }

  /** Moves the members of clusters {@code roots[1..]} into {@code root}'s. */
  private void merge(Table docs, long root, long[] roots) throws IOException {
    List<Put> puts = new ArrayList<>();
    List<Delete> merged = new ArrayList<>();
    for (int i = 1; i < roots.length; i++) {
      Result members = docs.get(new Get(Rows.members(uid, roots[i])));
      List<byte[]> moved = new ArrayList<>();
      for (Cell c : members.rawCells()) {
        moved.add(CellUtil.cloneQualifier(c));
      }
      if (moved.isEmpty()) {
        // A cluster of one has no members row (writeRows): its root, a candidate of this batch
        // or one of its documents, is its only member.
        moved.add(Rows.ordinal(roots[i]));
      }
      for (byte[] member : moved) {
        puts.add(
            new Put(Rows.doc(uid, Rows.toLong(member)))
                .addColumn(DOC_FAMILY, ROOT, Rows.ordinal(root)));
        puts.add(new Put(Rows.members(uid, root)).addColumn(DOC_FAMILY, member, new byte[0]));
      }
      merged.add(new Delete(Rows.members(uid, roots[i])));
    }
    docs.put(puts);
    docs.delete(merged);
  }

  @Override
  public Outcome check(Analysis analysis) {
    RemoteDecision.checkAnalysis(analysis, -1);
    checkOpen();
    try {
      return checkOnly(Status.CHECKED, null, analysis, sequence()); // throws if dropped
    } catch (IOException e) {
      throw new UncheckedIOException(store.unavailable(e));
    }
  }

  // --- get, delete, expire --------------------------------------------------------------------

  @Override
  public Optional<StoredDocument> get(String id) {
    checkOpen();
    try (Table docs = store.connection().getTable(store.docs)) {
      Object[] found = lookup(docs, id, sequence());
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
          return remove(id, "deleted", sequence()); // throws if dropped
        });
  }

  /** Removes the document stored under id (the lock held); counts it under {@code counter}. */
  private boolean remove(String id, String counter, Sequence seq) throws IOException {
    try (Table docs = store.connection().getTable(store.docs)) {
      Object[] found = lookup(docs, id, seq);
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
    List<Delete> index = new ArrayList<>();
    indexDeletes(ordinal, r, index);
    try (Table t = store.connection().getTable(store.index)) {
      t.delete(index);
    }
  }

  /** Adds the deletes of the document's index cells (block rows and band rows) to {@code out}. */
  void indexDeletes(long ordinal, DocRecord r, List<Delete> out) {
    byte[] ord = Rows.ordinal(ordinal);
    for (int t = 0; t < scheme.tables(); t++) {
      out.add(
          new Delete(Rows.block(scheme, t, uid, r.fingerprint())).addColumns(INDEX_FAMILY, ord));
    }
    for (long key : r.bandKeys()) {
      out.add(new Delete(Rows.band(key, uid)).addColumns(INDEX_FAMILY, ord));
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
            Sequence seq = sequence();
            try (Table docs = store.connection().getTable(store.docs);
                ResultScanner rs =
                    docs.getScanner(
                        new Scan()
                            .withStartRow(Rows.kindPrefix(uid, Rows.EXPIRY))
                            .withStopRow(Rows.expiry(uid, now + 1, 0)))) {
              for (Result x : rs) {
                long ordinal = Rows.toLong(x.getRow(), 13);
                if (!seq.visible(ordinal)) {
                  if (ordinal <= seq.committed()) {
                    docs.delete(new Delete(x.getRow())); // never committed: its TTL does the rest
                  }
                  continue;
                }
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
              if (remove(id, "expired", seq)) {
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

  /** Deletes every row of the dropped collection (or of an import that failed): {@link Purge}. */
  void purge() throws IOException {
    new Purge(store, this, store.purgeInFlight).run();
  }
}
