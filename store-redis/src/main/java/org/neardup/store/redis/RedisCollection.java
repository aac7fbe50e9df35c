// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import static org.neardup.store.redis.Scripts.bytes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.neardup.Analysis;
import org.neardup.Analyzer;
import org.neardup.decide.CandidateKeys;
import org.neardup.decide.CandidateTable;
import org.neardup.decide.MatchSet;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.CollectionStats;
import org.neardup.store.Document;
import org.neardup.store.Outcome;
import org.neardup.store.Outcome.Status;
import org.neardup.store.RemoteDecision;
import org.neardup.store.StoredDocument;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisException;

/**
 * A collection of the {@link RedisStore}. A check-and-insert runs in two steps, each one script run
 * alone by Redis: a probe reads the candidates under the document's keys and the collection's
 * sequence number; the decision is made here, by the same classes as the embedded engine's ({@link
 * RemoteDecision}); the commit stores the document only if nothing the decision depends on changed
 * since the probe (see {@code commit.lua}), else the check starts again. Thread-safe, and nothing
 * is kept between calls but the settings: any number of processes may use the collection at once.
 */
final class RedisCollection implements Collection {
  /** Probes before a check-and-insert gives up (each retry means another node won a race). */
  private static final int MAX_ATTEMPTS = 10_000;

  /**
   * Documents per round of a batch (and per group of concurrent singles): a pipeline of this many
   * probes and one commit call.
   */
  private static final int ROUND = 16;

  /*
   * Why 16, not 32 or 64 (issue 15, redis-server CPU): while a round is between its probe and its
   * commit, other threads and nodes append to the same keys, and its commit scans what was appended
   * since in Lua; a commit that answers retry ends the call, and the commits after it were sent for
   * nothing and are probed again. Both grow with the round. 16 threads sending batches of 100 into
   * 20,000 verified texts, captured and replayed under callgrind: 422,019 instructions per document
   * with 64 (1.91 probes per document), 347,777 with 32 (1.37); in a second pair of captures, 350,754
   * with 32 (1.35 probes, 4.54 GETRANGEs per document) and 311,120 with 16 (1.12, 3.10), at 0.08
   * commit calls per document instead of 0.05. A group of concurrent singles is capped at a round
   * too; with up to 16 threads per node a group never held more.
   */

  private final RedisStore store;
  private final String name;
  final long uid;
  private final CollectionSettings settings;
  private final Analyzer analyzer;
  final Keys keys;
  private final RemoteDecision decision;
  private final boolean verify;
  private final byte[] k;
  private final int maxDistance;
  final BlockEntries entries;
  final BandEntries bands;
  final Layout layout;

  /** Concurrent single check-and-inserts run as batches, unless the store's group-commit=false. */
  private final @Nullable GroupCommit group;

  /**
   * The retention in milliseconds (0: documents are kept), which records leave out ({@link
   * DocRecord}).
   */
  final long retention;

  volatile boolean dropped;

  RedisCollection(
      RedisStore store, String name, long uid, CollectionSettings settings, Layout layout) {
    this.store = store;
    this.name = name;
    this.uid = uid;
    this.settings = settings;
    this.analyzer = settings.deduplicator().analyzer();
    this.keys = new Keys(store.prefix(), name, uid, layout.idBits());
    this.group = store.groupCommit() ? new GroupCommit(ROUND) : null;
    this.layout = layout;
    this.verify = settings.verify();
    this.decision = new RemoteDecision(settings);
    this.k = bytes(settings.maxDistance());
    this.maxDistance = settings.maxDistance();
    this.entries = new BlockEntries(new CandidateKeys(settings.maxDistance()), layout.blockBits());
    this.bands = new BandEntries(layout.bandBits());
    this.retention = settings.retention().toMillis();
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

  // --- probe: the candidates under the document's keys ----------------------------------------

  /** What a probe found: the sequence number it saw and its candidates' ids. */
  private static final class Probe {
    long seq;

    /**
     * Per block key then per band bucket, where the entries above {@link #seq} began in the string
     * the probe read: 4 bytes of offset, the 5-byte ordinal of the entry before it (see {@code
     * commit.lua}).
     */
    byte[] tails = new byte[0];

    /**
     * The collection's count of removals read before the probe's keys ({@code st}'s field {@code
     * removals}): while it is unchanged, the keys only grew since (see {@code commit.lua}).
     */
    byte[] removals = ZERO;

    final CandidateTable table = new CandidateTable();
    final Map<Long, String> ids = new HashMap<>();
    final Map<Long, String> rootIds = new HashMap<>();
  }

  private long[] bandKeys(Analysis a) {
    return verify ? a.sketch().bandKeys() : new long[0];
  }

  /** A document's band keys by band bucket (none without verification). */
  private BandEntries.Grouped bandGroups(long[] bandKeys) {
    return bandKeys.length == 0 ? BandEntries.Grouped.NONE : bands.group(bandKeys);
  }

  /** A candidate found under a block key, its rest key within k bits of the query's. */
  private static final int VIA_BLOCK = 1;

  /** A candidate with an entry equal to one of the query's in a band bucket. */
  private static final int VIA_BUCKET = 2;

  /**
   * The reads of a probe of {@code a}, queued on a pipeline after the pipeline's EXISTS meta and
   * GET seq (one pair for all the probes of a pipeline: a sequence number read before every probe's
   * keys is as good for each, since the commit re-checks whatever is stored above it).
   */
  private final class Reads {
    final Analysis analysis;
    final int[] blockKeys;
    final long[] bandKeys;
    final BandEntries.Grouped bandGroups;
    final Response<Boolean> exists;
    final Response<byte[]> seq;
    final Response<byte[]> removals;

    /** The block keys' entries in block order, then the band buckets' in group order (one MGET). */
    final Response<List<byte[]>> keyEntries;

    Reads(
        Analysis a,
        AbstractPipeline p,
        Response<Boolean> exists,
        Response<byte[]> seq,
        Response<byte[]> removals) {
      this.analysis = a;
      this.blockKeys = entries.keys(a.fingerprint());
      this.bandKeys = bandKeys(a);
      this.bandGroups = bandGroups(bandKeys);
      this.exists = exists;
      this.seq = seq;
      this.removals = removals;
      // One command for the block keys and the band buckets, not one per key (issue 15, speed: a
      // command costs Redis ~1-2 us before its work).
      int[] buckets = bandGroups.buckets();
      byte[][] names = new byte[blockKeys.length + buckets.length][];
      for (int t = 0; t < blockKeys.length; t++) {
        names[t] = keys.block(blockKeys[t]);
      }
      for (int g = 0; g < buckets.length; g++) {
        names[blockKeys.length + g] = keys.band(buckets[g]);
      }
      keyEntries = p.mget(names);
    }

    /**
     * The candidates: under a block key, entries whose rest key is within k bits (a lower bound of
     * the distance: the decision verifies the full fingerprints); in a band bucket, entries equal
     * to one of the query's there (confirmed on the record's band keys by {@link #parseFetch}).
     * Ordinals above the probe's sequence number are left out. Returns {ordinal, how} pairs ({@link
     * #VIA_BLOCK}, {@link #VIA_BUCKET} or both), ordinals in first-found order.
     */
    long[] candidates(Probe probe) {
      if (!exists.get()) {
        throw gone();
      }
      byte[] s = seq.get();
      probe.seq = s == null ? 0 : Long.parseLong(new String(s, StandardCharsets.US_ASCII));
      byte[] rm = removals.get();
      probe.removals = rm == null ? ZERO : rm;
      Map<Long, Integer> found = new java.util.LinkedHashMap<>();
      long q = analysis.fingerprint();
      List<byte[]> all = keyEntries.get();
      int nk = bandGroups.buckets().length;
      probe.tails = new byte[TAIL * (blockKeys.length + nk)];
      for (int t = 0; t < blockKeys.length; t++) {
        byte[] e = all.get(t);
        if (e == null) {
          continue;
        }
        long rest = entries.restKey(t, q);
        int off = 0;
        for (; off + entries.width <= e.length; off += entries.width) {
          long o = BlockEntries.ordinal(e, off);
          if (o > probe.seq) {
            break;
          }
          if (Long.bitCount(rest ^ entries.rest(e, off)) <= maxDistance) {
            found.putIfAbsent(o, VIA_BLOCK);
          }
        }
        tail(probe.tails, t, e, off, entries.width);
      }
      for (int g = 0; g < nk; g++) {
        byte[] e = all.get(blockKeys.length + g);
        if (e == null) {
          continue;
        }
        int off = 0;
        for (; off + BandEntries.WIDTH <= e.length; off += BandEntries.WIDTH) {
          long o = BlockEntries.ordinal(e, off);
          if (o > probe.seq) {
            break;
          }
          if (bandGroups.has(g, BandEntries.rest(e, off))) {
            // Also when its block entry passed: that filter is only a lower bound of the
            // distance, so the decision must know whether the candidate shares a band key.
            found.merge(o, VIA_BUCKET, (x, y) -> x | y);
          }
        }
        tail(probe.tails, blockKeys.length + g, e, off, BandEntries.WIDTH);
      }
      long[] out = new long[2 * found.size()];
      int i = 0;
      for (Map.Entry<Long, Integer> f : found.entrySet()) {
        out[i++] = f.getKey();
        out[i++] = f.getValue();
      }
      return out;
    }
  }

  /** Writes {@code n} (below 2^24) as 3 big-endian bytes at {@code off}. */
  private static void put3(byte[] out, int off, int n) {
    if (n >>> 24 != 0) {
      throw new IllegalStateException("a commit's count is too large: " + n);
    }
    out[off] = (byte) (n >>> 16);
    out[off + 1] = (byte) (n >>> 8);
    out[off + 2] = (byte) n;
  }

  /** The field of {@code st} counting removals (remove.lua), and its value when absent. */
  private static final byte[] REMOVALS = bytes("removals");

  private static final byte[] ZERO = bytes("0");

  /** Bytes per key of a probe's tails: a 4-byte offset and a 5-byte ordinal. */
  private static final int TAIL = 9;

  /**
   * Records in {@code tails} that key {@code i}'s entries above the probe's sequence number begin
   * at {@code off} of the string {@code e} the probe read ({@code width} bytes per entry), and the
   * ordinal of the entry before them: the commit reads that key from there on only.
   */
  private static void tail(byte[] tails, int i, byte[] e, int off, int width) {
    int at = i * TAIL;
    tails[at] = (byte) (off >>> 24);
    tails[at + 1] = (byte) (off >>> 16);
    tails[at + 2] = (byte) (off >>> 8);
    tails[at + 3] = (byte) off;
    if (off > 0) {
      System.arraycopy(e, off - width, tails, at + 4, 5);
    }
  }

  /**
   * What the decision needs of a probe's candidates: record, parent (cluster root, when the
   * candidate is in a cluster of several) and sketch of each, read by plain HGETs in one pipeline
   * (issue 15, redis-server CPU: the fetch script this replaces cost Redis a script call per
   * document and ~2 us of Lua per read, plus hashing each sketch's bytes into Lua). The reads are
   * not one atomic step and need not be: a record and a sketch never change under an ordinal, and
   * the commit checks again that each match is still stored and under the root read here.
   */
  private final class Fetch {
    final long[] candidates;
    final List<Response<byte[]>> reads;

    Fetch(AbstractPipeline p, long[] candidates) {
      this.candidates = candidates;
      this.reads = new ArrayList<>(candidates.length / 2 * (verify ? 3 : 2));
      for (int i = 0; i < candidates.length; i += 2) {
        long o = candidates[i];
        byte[] field = Keys.field(o);
        reads.add(p.hget(keys.docs(o), field));
        reads.add(p.hget(keys.parents, bytes(o)));
        if (verify) {
          reads.add(p.hget(keys.sketches(o), field));
        }
      }
    }

    private int per() {
      return verify ? 3 : 2;
    }

    /** Queues the id of each root read here that is another document (the cluster's id). */
    void rootIds(AbstractPipeline p, Map<Long, Response<byte[]>> out) {
      for (int i = 0, j = 0; i < candidates.length; i += 2, j += per()) {
        byte[] parent = reads.get(j + 1).get();
        if (reads.get(j).get() != null && parent != null) {
          long root = parse(parent);
          out.computeIfAbsent(root, r -> p.hget(keys.rootIds, bytes(r)));
        }
      }
    }

    /**
     * Fills a probe's table. A candidate found in a band bucket shares a band key with the query
     * when its record says so (else the bucket's partial keys matched by chance: it stays a
     * candidate only if its block entry passed).
     */
    void fill(Probe probe, long[] queryBandKeys, Map<Long, Response<byte[]>> rootIds) {
      for (int i = 0, j = 0; i < candidates.length; i += 2, j += per()) {
        byte[] record = reads.get(j).get();
        if (record == null) {
          continue; // removed since the probe
        }
        long ordinal = candidates[i];
        int how = (int) candidates[i + 1];
        boolean viaBand =
            (how & VIA_BUCKET) != 0
                && BandEntries.share(DocRecord.decode(record, retention).bandKeys(), queryBandKeys);
        if (!viaBand && (how & VIA_BLOCK) == 0) {
          continue;
        }
        byte[] parent = reads.get(j + 1).get();
        long root = ordinal;
        @Nullable String rootId = DocRecord.id(record);
        if (parent != null) {
          root = parse(parent);
          Response<byte[]> read = rootIds.get(root);
          byte[] id = read == null ? null : read.get();
          rootId = read == null ? null : id == null ? "" : new String(id, StandardCharsets.UTF_8);
        }
        byte[] sketch = verify ? reads.get(j + 2).get() : null;
        add(probe, ordinal, record, root, rootId, sketch == null ? new byte[0] : sketch, viaBand);
      }
    }
  }

  /** Adds a candidate to a probe; {@code rootId} null when not read (the commit answers it). */
  private static void add(
      Probe probe,
      long ordinal,
      byte[] record,
      long root,
      @Nullable String rootId,
      byte[] sketch,
      boolean viaBand) {
    probe.table.add(ordinal, DocRecord.fingerprint(record), root, sketch, viaBand);
    probe.ids.put(ordinal, DocRecord.id(record));
    if (rootId != null) {
      probe.rootIds.put(root, rootId);
    }
  }

  private static long parse(byte[] ascii) {
    return Long.parseLong(new String(ascii, StandardCharsets.US_ASCII));
  }

  /**
   * Probes each analysis: one pipeline of reads, then one of fetches for those with candidates,
   * then, with {@code rootIds} (a check that stores nothing: the commit answers the cluster's id
   * itself), one of their clusters' ids when some candidate is in a cluster of several.
   */
  private List<Probe> probeAll(List<Analysis> analyses, boolean rootIds) {
    List<Reads> reads = new ArrayList<>(analyses.size());
    try (AbstractPipeline p = store.redis().pipelined()) {
      // seq first: whatever is stored after this read has a greater ordinal, and is left out.
      Response<Boolean> exists = p.exists(keys.meta);
      Response<byte[]> seq = p.get(keys.seq);
      // Removals before the keys too: a commit that sees the same count knows they only grew since.
      Response<byte[]> removals = p.hget(keys.stats, REMOVALS);
      for (Analysis a : analyses) {
        reads.add(new Reads(a, p, exists, seq, removals));
      }
      p.sync();
    }
    List<Probe> probes = new ArrayList<>(analyses.size());
    List<long[]> found = new ArrayList<>(analyses.size());
    boolean any = false;
    for (Reads r : reads) {
      Probe probe = new Probe();
      long[] candidates = r.candidates(probe);
      probes.add(probe);
      found.add(candidates);
      any |= candidates.length > 0;
    }
    if (any) {
      List<@Nullable Fetch> fetches = new ArrayList<>(probes.size());
      Response<Boolean> exists;
      try (AbstractPipeline p = store.redis().pipelined()) {
        exists = p.exists(keys.meta);
        for (long[] candidates : found) {
          fetches.add(candidates.length == 0 ? null : new Fetch(p, candidates));
        }
        p.sync();
      }
      if (!exists.get()) {
        throw gone();
      }
      Map<Long, Response<byte[]>> ids = new HashMap<>();
      if (rootIds) {
        try (AbstractPipeline p = store.redis().pipelined()) {
          for (Fetch f : fetches) {
            if (f != null) {
              f.rootIds(p, ids);
            }
          }
          if (!ids.isEmpty()) {
            p.sync();
          }
        }
      }
      for (int i = 0; i < probes.size(); i++) {
        Fetch f = fetches.get(i);
        if (f != null) {
          f.fill(probes.get(i), reads.get(i).bandKeys, ids);
        }
      }
    }
    return probes;
  }

  private Probe probe(Analysis a, boolean rootIds) {
    return probeAll(List.of(a), rootIds).get(0);
  }

  private Outcome checkOnly(Status status, @Nullable String id, Analysis a) {
    Probe p = probe(a, true);
    MatchSet m = decision.decide(a, p.table);
    String cluster = RemoteDecision.cluster(m, p.rootIds::get);
    store.redis().hincrBy(keys.stats, bytes("checked"), 1);
    return RemoteDecision.outcome(status, id, a.fingerprint(), m, cluster, p.ids::get);
  }

  // --- check-and-insert ---------------------------------------------------------------------

  @Override
  public Outcome checkAndInsert(Document document) throws IOException {
    RemoteDecision.checkId(document.id(), -1);
    RemoteDecision.checkAnalysis(document.analysis(), -1);
    checkOpen();
    if (group != null) {
      GroupCommit g = group;
      return io(() -> g.submit(document, docs -> insertAll(docs, store.clock().millis())));
    }
    return io(() -> insert(document, store.clock().millis()));
  }

  @Override
  public List<Outcome> checkAndInsertAll(List<Document> documents) throws IOException {
    RemoteDecision.checkAll(documents);
    checkOpen();
    return io(() -> insertAll(documents, store.clock().millis()));
  }

  /** A document ready to commit: what it is stored as, and the decision of one probe. */
  private final class Attempt {
    final Document doc;
    final long exp;
    final byte[] record;
    final byte[] sketch;
    @Nullable Probe probe;
    @Nullable MatchSet matches;
    long @Nullable [] roots;

    Attempt(Document d, long now) {
      this.doc = d;
      Analysis a = d.analysis();
      long ts = d.timestamp() == Document.NO_TIMESTAMP ? now : d.timestamp();
      this.exp = settings.expiresAt(d.timestamp(), now);
      this.record = new DocRecord(a.fingerprint(), ts, exp, bandKeys(a), d.id()).encode(retention);
      this.sketch = verify ? a.sketch().shingles().encode() : new byte[0];
    }

    boolean expired(long now) {
      return exp <= now;
    }

    /** Decides from a probe. */
    void decide(Probe p) {
      probe = p;
      matches = decision.decide(doc.analysis(), p.table);
      roots = matches.joinedRoots();
    }

    /**
     * This document's own keys and arguments in a commit call, {@code [keys, args]}; what every
     * commit of a call shares is added once per call ({@link #commitAll}).
     */
    List<List<byte[]>> commitCall() {
      Analysis a = doc.analysis();
      int[] blockKeys = entries.keys(a.fingerprint());
      BandEntries.Grouped groups = bandGroups(bandKeys(a));
      int[] buckets = groups.buckets();
      List<byte[]> ks = new ArrayList<>();
      ks.add(keys.ids(doc.id()));
      byte[] rests = new byte[blockKeys.length * entries.restBytes];
      for (int t = 0; t < blockKeys.length; t++) {
        ks.add(keys.block(blockKeys[t]));
        entries.putRest(t, a.fingerprint(), rests, t * entries.restBytes);
      }
      for (int bucket : buckets) {
        ks.add(keys.band(bucket));
      }
      for (long root : roots) {
        ks.add(keys.members(root));
      }
      List<byte[]> args = new ArrayList<>();
      args.add(bytes(doc.id()));
      args.add(record);
      args.add(sketch);
      args.add(blob(groups, exp, rests, probe.tails, groups.allRestBytes()));
      for (int i = 0; i < matches.size(); i++) {
        args.add(bytes(matches.ordinal(i)));
        args.add(bytes(matches.root(i)));
      }
      for (long root : roots) {
        args.add(bytes(root));
      }
      return List.of(ks, args);
    }

    /**
     * The commit's blob (see {@code commit.lua}), one argument: its shape (the number of band
     * buckets (+ 128 when an expiry follows), the numbers of matches and of distinct roots (3 bytes
     * each), the number of the query's band rests in each bucket (a byte each)), then, if any, the
     * expiry's length in a byte and the expiry in decimal, then the block rests, the probe's tails
     * and the band rests by bucket.
     */
    private byte[] blob(
        BandEntries.Grouped groups, long exp, byte[] rests, byte[] tails, byte[] bandRests) {
      /*
       * Why one argument (issue 15, redis-server CPU): each string pushed into Lua costs Redis
       * ~1,070 instructions besides its bytes, and each argument ~370 more to parse; the script
       * reads these parts only at computed offsets.
       */
      int[] buckets = groups.buckets();
      byte[] expiry = exp == Long.MAX_VALUE ? new byte[0] : bytes(exp);
      int head = 7 + buckets.length + (expiry.length > 0 ? 1 + expiry.length : 0);
      byte[] out = new byte[head + rests.length + tails.length + bandRests.length];
      out[0] = (byte) (buckets.length + (expiry.length > 0 ? 128 : 0));
      put3(out, 1, matches.size());
      put3(out, 4, roots.length);
      for (int g = 0; g < buckets.length; g++) {
        out[7 + g] = (byte) groups.restCount(g);
      }
      if (expiry.length > 0) {
        out[7 + buckets.length] = (byte) expiry.length;
        System.arraycopy(expiry, 0, out, 8 + buckets.length, expiry.length);
      }
      System.arraycopy(rests, 0, out, head, rests.length);
      System.arraycopy(tails, 0, out, head + rests.length, tails.length);
      System.arraycopy(bandRests, 0, out, head + rests.length + tails.length, bandRests.length);
      return out;
    }

    /** The outcome a commit answered, or null when it must be decided again. */
    @Nullable Outcome outcome(List<?> out) {
      String status = new String((byte[]) out.get(0), StandardCharsets.US_ASCII);
      switch (status) {
        case "stored":
          String cluster =
              roots.length == 0
                  ? doc.id()
                  : new String((byte[]) out.get(2), StandardCharsets.UTF_8);
          return RemoteDecision.outcome(
              Status.STORED,
              doc.id(),
              doc.analysis().fingerprint(),
              matches,
              cluster,
              probe.ids::get);
        case "exists":
          byte[] rec = (byte[]) out.get(1);
          return RemoteDecision.exists(
              doc.id(),
              DocRecord.fingerprint(rec),
              new String((byte[]) out.get(2), StandardCharsets.UTF_8));
        case "retry":
          return null;
        case "dropped":
          throw gone();
        default:
          throw new IllegalStateException("commit script answered " + status);
      }
    }
  }

  private Outcome insert(Document d, long now) {
    Attempt at = new Attempt(d, now);
    if (at.expired(now)) {
      return expired(d);
    }
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      at.decide(probe(d.analysis(), false));
      Outcome o = at.outcome((List<?>) commitAll(List.of(at)).get(0));
      if (o != null) {
        return o;
      }
    }
    throw new IllegalStateException(
        "check-and-insert of '" + d.id() + "' lost " + MAX_ATTEMPTS + " races in a row");
  }

  private Outcome expired(Document d) {
    Optional<StoredDocument> stored = get(d.id());
    if (stored.isPresent()) {
      return RemoteDecision.exists(d.id(), stored.get().fingerprint(), stored.get().cluster());
    }
    return checkOnly(Status.EXPIRED, d.id(), d.analysis());
  }

  /**
   * Runs the commits of {@code round} in order in one script call (see {@code commit.lua}); the
   * answers of those that ran: all of them, or up to the first that answered retry or dropped. What
   * the commits share (the collection's keys, the probes' sequence number and removal count, the
   * scheme's widths) is passed once per call: each argument of a script call costs Redis ~1,000
   * instructions (issue 15, redis-server CPU). The round's probes came from one pipeline, which
   * read the sequence number and the removal count once for all of them.
   */
  private List<?> commitAll(List<Attempt> round) {
    Probe first = round.get(0).probe;
    List<byte[]> ks = new ArrayList<>();
    ks.add(keys.meta);
    ks.add(keys.seq);
    ks.add(keys.parents);
    ks.add(keys.rootIds);
    ks.add(keys.stats);
    ks.add(keys.expiry);
    List<byte[]> args = new ArrayList<>();
    args.add(bytes(round.size()));
    args.add(bytes(first.seq));
    args.add(k);
    args.add(bytes(entries.count()));
    args.add(keys.baseBytes);
    args.add(bytes(entries.restBytes));
    args.add(bytes(store.appendEntries(verify) ? 1 : 0));
    args.add(first.removals);
    for (Attempt at : round) {
      Probe p = at.probe;
      if (p.seq != first.seq || !java.util.Arrays.equals(p.removals, first.removals)) {
        throw new IllegalStateException(
            "a commit call's probes read different sequence numbers or removal counts");
      }
      List<List<byte[]>> call = at.commitCall();
      ks.addAll(call.get(0));
      args.addAll(call.get(1));
    }
    return (List<?>) store.scripts().run(store.scripts().commit, ks, args);
  }

  /**
   * The keys of a round's documents so far, to end a round before a document whose commit would
   * find an earlier one of the same round under its keys (within k bits, or the same entry in a
   * band bucket) and answer retry: a round is probed before any of its documents is stored, so such
   * a document is decided again anyway, and the round's documents after it were probed for nothing
   * (issue 15, redis-server CPU: batches of generated texts, 30% near-copies, probed each document
   * ~2 times).
   */
  private final class RoundKeys {
    private final List<Long> fingerprints = new ArrayList<>();
    private final java.util.Set<Long> bandEntries = new java.util.HashSet<>();

    /** Adds a document's keys; false (and nothing added) when it would conflict. */
    boolean add(Analysis a) {
      long f = a.fingerprint();
      for (long g : fingerprints) {
        if (Long.bitCount(f ^ g) <= maxDistance) {
          return false;
        }
      }
      long[] bandKeys = bandKeys(a);
      long[] mine = new long[bandKeys.length];
      for (int i = 0; i < bandKeys.length; i++) {
        mine[i] = (long) bands.bucket(bandKeys[i]) << 32 | BandEntries.rest(bandKeys[i]);
        if (bandEntries.contains(mine[i])) {
          return false;
        }
      }
      fingerprints.add(f);
      for (long e : mine) {
        bandEntries.add(e);
      }
      return true;
    }
  }

  /**
   * A batch in rounds of up to {@value #ROUND} documents: a pipeline of probes, a pipeline of
   * fetches when some probe found candidates, then one script call with the round's commits, so a
   * round costs two or three round trips. Commits run in batch order; the first that answers retry
   * (its decision missed a document stored since its probe, often an earlier one of the same batch)
   * ends the call, and the next round starts from it: documents are stored in batch order, each
   * decided against everything stored before it. A document already expired ends a round and is
   * checked alone.
   */
  private List<Outcome> insertAll(List<Document> documents, long now) {
    int n = documents.size();
    Outcome[] out = new Outcome[n];
    int from = 0;
    int rounds = 0;
    while (from < n) {
      if (++rounds > MAX_ATTEMPTS + n) {
        throw new IllegalStateException("a batch lost " + MAX_ATTEMPTS + " races in a row");
      }
      List<Attempt> round = new ArrayList<>();
      RoundKeys taken = new RoundKeys();
      for (int i = from; i < n && round.size() < ROUND; i++) {
        Attempt at = new Attempt(documents.get(i), now);
        if (at.expired(now) || !taken.add(at.doc.analysis())) {
          break;
        }
        round.add(at);
      }
      if (round.isEmpty()) {
        // The first document of a round never conflicts with the round: it expired.
        out[from] = expired(documents.get(from));
        from++;
        continue;
      }
      List<Analysis> analyses = new ArrayList<>(round.size());
      for (Attempt at : round) {
        analyses.add(at.doc.analysis());
      }
      List<Probe> probed = probeAll(analyses, false);
      for (int j = 0; j < round.size(); j++) {
        round.get(j).decide(probed.get(j));
      }
      List<?> committed = commitAll(round);
      int j = 0;
      for (; j < committed.size(); j++) {
        Outcome o = round.get(j).outcome((List<?>) committed.get(j));
        if (o == null) {
          break;
        }
        out[from + j] = o;
      }
      from += j;
    }
    return List.of(out);
  }

  @Override
  public Outcome check(Analysis analysis) {
    RemoteDecision.checkAnalysis(analysis, -1);
    checkOpen();
    return unchecked(() -> checkOnly(Status.CHECKED, null, analysis));
  }

  // --- get, delete, expire --------------------------------------------------------------------

  /** The stored document: {record, ordinal, root, root id}, or null. */
  private @Nullable List<?> lookup(String id) {
    List<?> out =
        (List<?>)
            store
                .scripts()
                .run(
                    store.scripts().get,
                    List.of(keys.meta, keys.ids(id), keys.parents, keys.rootIds),
                    List.of(bytes(id), keys.baseBytes));
    if (out.isEmpty()) {
      return null;
    }
    if (out.get(0) instanceof Long) {
      throw gone();
    }
    return out;
  }

  @Override
  public Optional<StoredDocument> get(String id) {
    checkOpen();
    return unchecked(
        () -> {
          List<?> out = lookup(id);
          if (out == null) {
            return Optional.empty();
          }
          DocRecord r = DocRecord.decode((byte[]) out.get(0), retention);
          return Optional.of(
              new StoredDocument(
                  id,
                  r.fingerprint(),
                  r.timestamp(),
                  r.expiresAt(),
                  new String((byte[]) out.get(3), StandardCharsets.UTF_8)));
        });
  }

  @Override
  public boolean delete(String id) throws IOException {
    checkOpen();
    return io(() -> remove(id, "deleted"));
  }

  /** Removes the document stored under id; counts it under {@code counter}. */
  private boolean remove(String id, String counter) {
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      List<?> out = lookup(id);
      if (out == null) {
        return false;
      }
      byte[] rec = (byte[]) out.get(0);
      DocRecord r = DocRecord.decode(rec, retention);
      long root = Long.parseLong(new String((byte[]) out.get(2), StandardCharsets.US_ASCII));
      List<byte[]> ks = new ArrayList<>();
      ks.add(keys.meta);
      ks.add(keys.parents);
      ks.add(keys.rootIds);
      ks.add(keys.ids(id));
      ks.add(keys.stats);
      ks.add(keys.members(root));
      for (int key : entries.keys(r.fingerprint())) {
        ks.add(keys.block(key));
      }
      int[] buckets = bandGroups(r.bandKeys()).buckets();
      for (int bucket : buckets) {
        ks.add(keys.band(bucket));
      }
      List<byte[]> args =
          List.of(
              bytes(id),
              (byte[]) out.get(1),
              (byte[]) out.get(2),
              bytes(entries.count()),
              bytes(buckets.length),
              bytes(counter),
              keys.baseBytes,
              bytes(entries.width),
              bytes(BandEntries.WIDTH));
      long result = (Long) store.scripts().run(store.scripts().remove, ks, args);
      if (result == 1) {
        return true;
      }
      if (result == -2) {
        throw gone();
      }
      if (result == 0) {
        return false;
      }
      // -1: the document's cluster merged into another since the lookup: look again.
    }
    throw new IllegalStateException("delete of '" + id + "' lost " + MAX_ATTEMPTS + " races");
  }

  /**
   * Sweeps the record buckets whose earliest expiry has passed ({@code x} scores each bucket by
   * it): removes their expired documents one by one (each removal checks what it removes, so nodes
   * sweeping at once remove each document once), then scores the bucket again.
   */
  @Override
  public int expire() {
    if (settings.retention().isZero() || dropped) {
      return 0;
    }
    long now = store.clock().millis();
    return unchecked(
        () -> {
          int removed = 0;
          java.util.Set<Long> swept = new java.util.HashSet<>();
          while (true) {
            List<byte[]> due =
                store.redis().zrangeByScore(keys.expiry, Double.NEGATIVE_INFINITY, now, 0, 64);
            boolean progress = false;
            for (byte[] b : due) {
              long bucket = Long.parseLong(new String(b, StandardCharsets.US_ASCII));
              if (!swept.add(bucket)) {
                continue; // scored again after its sweep: a document removed meanwhile by another
              }
              progress = true;
              long first = bucket * Keys.BUCKET;
              for (byte[] rec : store.redis().hvals(keys.docs(first))) {
                if (DocRecord.decode(rec, retention).expiresAt() <= now
                    && remove(DocRecord.id(rec), "expired")) {
                  removed++;
                }
              }
              store
                  .scripts()
                  .run(
                      store.scripts().rescore,
                      List.of(keys.expiry, keys.docs(first)),
                      List.of(b, bytes(retention)));
            }
            if (!progress) {
              return removed;
            }
          }
        });
  }

  @Override
  public CollectionStats stats() {
    checkOpen();
    return unchecked(
        () -> {
          Map<byte[], byte[]> s = store.redis().hgetAll(keys.stats);
          Map<String, Long> counters = new HashMap<>();
          for (Map.Entry<byte[], byte[]> e : s.entrySet()) {
            counters.put(
                new String(e.getKey(), StandardCharsets.US_ASCII),
                Long.parseLong(new String(e.getValue(), StandardCharsets.US_ASCII)));
          }
          long documents = counters.getOrDefault("documents", 0L);
          return new CollectionStats(
              documents,
              0,
              counters.getOrDefault("inserted", 0L),
              counters.getOrDefault("duplicates", 0L),
              counters.getOrDefault("checked", 0L),
              counters.getOrDefault("expired", 0L),
              counters.getOrDefault("deleted", 0L));
        });
  }

  // --- errors -------------------------------------------------------------------------------

  /** A call to Redis. */
  interface Call<T> {
    T run();
  }

  /** Runs a call, turning a lost connection into an IOException that names only host and port. */
  private <T> T io(Call<T> call) throws IOException {
    try {
      return call.run();
    } catch (JedisException e) {
      throw store.unavailable(e);
    }
  }

  private <T> T unchecked(Call<T> call) {
    try {
      return call.run();
    } catch (JedisException e) {
      throw new UncheckedIOException(store.unavailable(e));
    }
  }
}
