// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import static org.neardup.store.redis.Scripts.bytes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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
import redis.clients.jedis.exceptions.JedisException;

/**
 * A collection of the {@link RedisStore}. A check-and-insert runs in two steps, each one script run
 * alone by Redis: a probe reads the candidates under the document's keys and the collection's
 * sequence number; the decision is made here, by the same classes as the embedded engine's ({@link
 * Decision}); the commit stores the document only if nothing the decision depends on changed since
 * the probe (see {@code commit.lua}), else the check starts again. Thread-safe, and nothing is kept
 * between calls but the settings: any number of processes may use the collection at once.
 */
final class RedisCollection implements Collection {
  /** Probes before a check-and-insert gives up (each retry means another node won a race). */
  private static final int MAX_ATTEMPTS = 10_000;

  /** Documents per round of a batch: two pipelines of this many scripts. */
  private static final int ROUND = 64;

  private final RedisStore store;
  private final String name;
  final long uid;
  private final CollectionSettings settings;
  private final Analyzer analyzer;
  final Keys keys;
  private final CandidateKeys candidateKeys;
  private final Decision decision;
  private final boolean verify;
  private final byte[] k;
  volatile boolean dropped;

  RedisCollection(RedisStore store, String name, long uid, CollectionSettings settings) {
    this.store = store;
    this.name = name;
    this.uid = uid;
    this.settings = settings;
    this.analyzer = settings.deduplicator().analyzer();
    this.keys = new Keys(store.prefix(), name, uid);
    this.candidateKeys = new CandidateKeys(settings.maxDistance());
    this.verify = settings.verify();
    this.decision =
        new Decision(
            new Verifier(settings.maxDistance(), settings.threshold(), verify),
            Deduplicator.DEFAULT_MAX_MATCHES);
    this.k = bytes(settings.maxDistance());
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

  // --- probe: the candidates under the document's keys ----------------------------------------

  /** What a probe found: the sequence number it saw and its candidates' ids. */
  private static final class Probe {
    long seq;
    final CandidateTable table = new CandidateTable();
    final Map<Long, String> ids = new HashMap<>();
    final Map<Long, String> rootIds = new HashMap<>();
  }

  private List<byte[]> lookupKeys(Analysis a) {
    List<byte[]> out = new ArrayList<>();
    for (int key : candidateKeys.blockKeys(a.fingerprint())) {
      out.add(keys.block(key));
    }
    for (long key : bandKeys(a)) {
      out.add(keys.band(key));
    }
    return out;
  }

  private long[] bandKeys(Analysis a) {
    return verify ? a.sketch().bandKeys() : new long[0];
  }

  /** The keys and arguments of a probe of {@code a}: {@code [keys, args]}. */
  private List<List<byte[]>> probeCall(Analysis a) {
    List<byte[]> lookup = lookupKeys(a);
    List<byte[]> ks = new ArrayList<>(6 + lookup.size());
    ks.add(keys.meta);
    ks.add(keys.seq);
    ks.add(keys.docs);
    ks.add(keys.sketches);
    ks.add(keys.parents);
    ks.add(keys.rootIds);
    ks.addAll(lookup);
    int nb = candidateKeys.blockCount();
    List<byte[]> args =
        List.of(
            ByteBuffer.allocate(8).putLong(a.fingerprint()).array(),
            k,
            bytes(nb),
            bytes(lookup.size() - nb),
            bytes(0),
            bytes(verify ? 1 : 0));
    return List.of(ks, args);
  }

  private Probe probe(Analysis a) {
    List<List<byte[]>> call = probeCall(a);
    return parseProbe(
        (List<?>) store.scripts().run(store.scripts().probe, call.get(0), call.get(1)));
  }

  private Probe parseProbe(List<?> out) {
    long seq = (Long) out.get(0);
    if (seq < 0) {
      throw gone();
    }
    Probe p = new Probe();
    p.seq = seq;
    for (int i = 1; i + 5 < out.size(); i += 6) {
      long ordinal = Long.parseLong(new String((byte[]) out.get(i), StandardCharsets.US_ASCII));
      boolean viaBand = (Long) out.get(i + 1) == 1;
      byte[] rec = (byte[]) out.get(i + 2);
      long root = Long.parseLong(new String((byte[]) out.get(i + 3), StandardCharsets.US_ASCII));
      String rootId = new String((byte[]) out.get(i + 4), StandardCharsets.UTF_8);
      byte[] sketch = (byte[]) out.get(i + 5);
      p.table.add(ordinal, DocRecord.fingerprint(rec), root, sketch, viaBand);
      p.ids.put(ordinal, DocRecord.id(rec));
      p.rootIds.put(root, rootId);
    }
    return p;
  }

  private MatchSet decide(Analysis a, Probe p) {
    MatchSet m = decision.newMatchSet();
    decision.verify(a, p.table, m);
    return m;
  }

  private List<Outcome.Match> reported(MatchSet m, Probe p) {
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

  private Outcome checkOnly(Status status, @Nullable String id, Analysis a) {
    Probe p = probe(a);
    MatchSet m = decide(a, p);
    long[] roots = m.joinedRoots();
    String cluster = roots.length == 0 ? null : p.rootIds.get(roots[0]);
    store.redis().hincrBy(keys.stats, bytes("checked"), 1);
    return new Outcome(status, id, m.isEmpty(), a.fingerprint(), cluster, reported(m, p));
  }

  // --- check-and-insert ---------------------------------------------------------------------

  @Override
  public Outcome checkAndInsert(Document document) throws IOException {
    checkId(document.id(), -1);
    checkAnalysis(document.analysis(), -1);
    checkOpen();
    return io(() -> insert(document, store.clock().millis()));
  }

  @Override
  public List<Outcome> checkAndInsertAll(List<Document> documents) throws IOException {
    for (int i = 0; i < documents.size(); i++) {
      checkId(documents.get(i).id(), i);
      checkAnalysis(documents.get(i).analysis(), i);
    }
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
      this.record = new DocRecord(a.fingerprint(), ts, exp, bandKeys(a), d.id()).encode();
      this.sketch = verify ? a.sketch().shingles().encode() : new byte[0];
    }

    boolean expired(long now) {
      return exp <= now;
    }

    /** Decides from a probe. */
    void decide(Probe p) {
      probe = p;
      matches = RedisCollection.this.decide(doc.analysis(), p);
      roots = matches.joinedRoots();
    }

    /** The commit's keys and arguments, {@code [keys, args]}; marker, if any, is the last key. */
    List<List<byte[]>> commitCall(byte @Nullable [] marker) {
      Analysis a = doc.analysis();
      List<byte[]> ks = new ArrayList<>();
      ks.add(keys.meta);
      ks.add(keys.seq);
      ks.add(keys.docs);
      ks.add(keys.sketches);
      ks.add(keys.parents);
      ks.add(keys.rootIds);
      ks.add(keys.ids);
      ks.add(keys.expiry);
      ks.add(keys.stats);
      List<byte[]> lookup = lookupKeys(a);
      ks.addAll(lookup);
      for (long root : roots) {
        ks.add(keys.members(root));
      }
      if (marker != null) {
        ks.add(marker);
      }
      List<byte[]> args = new ArrayList<>();
      args.add(bytes(probe.seq));
      args.add(bytes(doc.id()));
      args.add(record);
      args.add(sketch);
      args.add(exp == Long.MAX_VALUE ? new byte[0] : bytes(exp));
      args.add(k);
      args.add(bytes(candidateKeys.blockCount()));
      args.add(bytes(lookup.size() - candidateKeys.blockCount()));
      args.add(bytes(matches.size()));
      args.add(bytes(roots.length));
      for (int i = 0; i < matches.size(); i++) {
        args.add(bytes(matches.ordinal(i)));
        args.add(bytes(matches.root(i)));
      }
      for (long root : roots) {
        args.add(bytes(root));
      }
      return List.of(ks, args);
    }

    /** The outcome a commit answered, or null when it must be decided again. */
    @Nullable Outcome outcome(List<?> out) {
      String status = new String((byte[]) out.get(0), StandardCharsets.US_ASCII);
      switch (status) {
        case "stored":
          String cluster = roots.length == 0 ? doc.id() : probe.rootIds.get(roots[0]);
          return new Outcome(
              Status.STORED,
              doc.id(),
              matches.isEmpty(),
              doc.analysis().fingerprint(),
              cluster,
              reported(matches, probe));
        case "exists":
          byte[] rec = (byte[]) out.get(1);
          return exists(
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
      at.decide(probe(d.analysis()));
      List<List<byte[]>> call = at.commitCall(null);
      Outcome o =
          at.outcome(
              (List<?>) store.scripts().run(store.scripts().commit, call.get(0), call.get(1)));
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
      return exists(d.id(), stored.get().fingerprint(), stored.get().cluster());
    }
    return checkOnly(Status.EXPIRED, d.id(), d.analysis());
  }

  /**
   * A batch in rounds of two pipelines, probes then commits, so a round of up to {@value #ROUND}
   * documents costs two round trips. Commits run in batch order; the first that answers retry (its
   * decision missed a document stored since its probe, often an earlier one of the same batch)
   * makes the rest of its round answer retry too (the batch marker), and the next round starts from
   * it: documents are stored in batch order, each decided against everything stored before it. A
   * document already expired ends a round and is checked alone.
   */
  private List<Outcome> insertAll(List<Document> documents, long now) {
    int n = documents.size();
    Outcome[] out = new Outcome[n];
    byte[] marker =
        (keys.base + "batch:" + java.util.UUID.randomUUID()).getBytes(StandardCharsets.UTF_8);
    int from = 0;
    int rounds = 0;
    try {
      while (from < n) {
        if (++rounds > MAX_ATTEMPTS + n) {
          throw new IllegalStateException("a batch lost " + MAX_ATTEMPTS + " races in a row");
        }
        List<Attempt> round = new ArrayList<>();
        for (int i = from; i < n && round.size() < ROUND; i++) {
          Attempt at = new Attempt(documents.get(i), now);
          if (at.expired(now)) {
            break;
          }
          round.add(at);
        }
        if (round.isEmpty()) {
          out[from] = expired(documents.get(from));
          from++;
          continue;
        }
        List<List<List<byte[]>>> probes = new ArrayList<>(round.size());
        for (Attempt at : round) {
          probes.add(probeCall(at.doc.analysis()));
        }
        List<Object> probed = store.scripts().runAll(store.scripts().probe, probes);
        List<List<List<byte[]>>> commits = new ArrayList<>(round.size());
        for (int j = 0; j < round.size(); j++) {
          round.get(j).decide(parseProbe((List<?>) probed.get(j)));
          commits.add(round.get(j).commitCall(marker));
        }
        List<Object> committed = store.scripts().runAll(store.scripts().commit, commits);
        int j = 0;
        for (; j < round.size(); j++) {
          Outcome o = round.get(j).outcome((List<?>) committed.get(j));
          if (o == null) {
            break;
          }
          out[from + j] = o;
        }
        if (j < round.size()) {
          store.redis().del(marker);
        }
        from += j;
      }
    } finally {
      store.redis().del(marker);
    }
    return List.of(out);
  }

  private static Outcome exists(String id, long fingerprint, String cluster) {
    return new Outcome(Status.EXISTS, id, false, fingerprint, cluster, List.of());
  }

  @Override
  public Outcome check(Analysis analysis) {
    checkAnalysis(analysis, -1);
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
                    List.of(keys.meta, keys.docs, keys.parents, keys.rootIds, keys.ids),
                    List.of(bytes(id)));
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
          DocRecord r = DocRecord.decode((byte[]) out.get(0));
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
      DocRecord r = DocRecord.decode(rec);
      long root = Long.parseLong(new String((byte[]) out.get(2), StandardCharsets.US_ASCII));
      List<byte[]> ks = new ArrayList<>();
      ks.add(keys.meta);
      ks.add(keys.docs);
      ks.add(keys.sketches);
      ks.add(keys.parents);
      ks.add(keys.rootIds);
      ks.add(keys.ids);
      ks.add(keys.expiry);
      ks.add(keys.stats);
      ks.add(keys.members(root));
      for (int key : candidateKeys.blockKeys(r.fingerprint())) {
        ks.add(keys.block(key));
      }
      for (long key : r.bandKeys()) {
        ks.add(keys.band(key));
      }
      List<byte[]> args =
          List.of(
              bytes(id),
              (byte[]) out.get(1),
              (byte[]) out.get(2),
              bytes(candidateKeys.blockCount()),
              bytes(r.bandKeys().length),
              bytes(counter));
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

  @Override
  public int expire() {
    if (settings.retention().isZero() || dropped) {
      return 0;
    }
    long now = store.clock().millis();
    return unchecked(
        () -> {
          int removed = 0;
          while (true) {
            List<byte[]> due =
                store.redis().zrangeByScore(keys.expiry, Double.NEGATIVE_INFINITY, now, 0, 256);
            if (due.isEmpty()) {
              return removed;
            }
            int before = removed;
            for (byte[] ordinal : due) {
              byte[] rec = store.redis().hget(keys.docs, ordinal);
              if (rec == null) {
                store.redis().zrem(keys.expiry, ordinal); // removed meanwhile
                continue;
              }
              if (remove(DocRecord.id(rec), "expired")) {
                removed++;
              }
            }
            if (removed == before && due.size() < 256) {
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
          long documents = store.redis().hlen(keys.ids);
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
