// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import static org.neardup.store.redis.Scripts.bytes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.neardup.decide.CandidateKeys;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.CollectionTransfer;
import org.neardup.store.FingerprintStore;
import org.neardup.store.StoredRecord;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * Export and import for the {@link RedisStore}: the collection's keys read and written directly, a
 * chunk of {@value #CHUNK} documents per pipeline. A Redis ordinal is the dump's plus 1 (Redis
 * counts from 1).
 *
 * <p>Export reads the ordinals from 1 to the collection's sequence in chunks: records ({@code d}),
 * sketches ({@code s}), roots ({@code p}), then the ids of the chunk's roots ({@code r}).
 *
 * <p>Import writes under a fresh uid that is not registered, so no service sees the collection (and
 * none can insert into it) until {@link Importer#finish()} sets its sequence and registers it;
 * {@link Importer#close()} before that deletes every key written. Per document, exactly what the
 * commit script writes for it: its record, sketch, id, block and band set entries, expiry, and for
 * a member of a larger cluster its root, its cluster's member set (with the root itself while the
 * root is stored) and the root's id.
 */
final class RedisTransfer implements CollectionTransfer {
  static final int CHUNK = 1000;

  private final RedisStore store;

  RedisTransfer(RedisStore store) {
    this.store = store;
  }

  @Override
  public long export(String name, RecordSink sink) throws IOException {
    RedisCollection c = (RedisCollection) store.collection(name);
    if (c == null) {
      throw new IllegalArgumentException("no collection named '" + name + "'");
    }
    try {
      byte[] s = store.redis().get(c.keys.seq);
      long seq = s == null ? 0 : Long.parseLong(new String(s, StandardCharsets.US_ASCII));
      long exported = 0;
      for (long from = 1; from <= seq; from += CHUNK) {
        int n = (int) Math.min(CHUNK, seq - from + 1);
        byte[][] ordinals = new byte[n][];
        for (int i = 0; i < n; i++) {
          ordinals[i] = bytes(from + i);
        }
        List<byte[]> recs;
        List<byte[]> sketches;
        List<byte[]> roots;
        try (AbstractPipeline p = store.redis().pipelined()) {
          Response<List<byte[]>> r1 = p.hmget(c.keys.docs, ordinals);
          Response<List<byte[]>> r2 = p.hmget(c.keys.sketches, ordinals);
          Response<List<byte[]>> r3 = p.hmget(c.keys.parents, ordinals);
          p.sync();
          recs = r1.get();
          sketches = r2.get();
          roots = r3.get();
        }
        Map<Long, String> rootIds = rootIds(c, roots);
        for (int i = 0; i < n; i++) {
          byte[] rec = recs.get(i);
          if (rec == null) {
            continue; // removed
          }
          long o = from + i;
          DocRecord d = DocRecord.decode(rec);
          long root = roots.get(i) == null ? o : parse(roots.get(i));
          byte[] sketch = sketches.get(i);
          sink.accept(
              new StoredRecord(
                  o - 1,
                  d.id(),
                  d.fingerprint(),
                  d.timestamp(),
                  d.expiresAt(),
                  root - 1,
                  root == o ? d.id() : rootIds.getOrDefault(root, ""),
                  d.bandKeys(),
                  sketch == null ? new byte[0] : sketch));
          exported++;
        }
      }
      return exported;
    } catch (redis.clients.jedis.exceptions.JedisException e) {
      throw store.unavailable(e);
    }
  }

  private Map<Long, String> rootIds(RedisCollection c, List<byte[]> roots) {
    LinkedHashMap<Long, byte[]> distinct = new LinkedHashMap<>();
    for (byte[] r : roots) {
      if (r != null) {
        distinct.putIfAbsent(parse(r), r);
      }
    }
    Map<Long, String> out = new HashMap<>();
    if (distinct.isEmpty()) {
      return out;
    }
    List<byte[]> ids =
        store.redis().hmget(c.keys.rootIds, distinct.values().toArray(new byte[0][]));
    int i = 0;
    for (long root : distinct.keySet()) {
      byte[] id = ids.get(i++);
      out.put(root, id == null ? "" : new String(id, StandardCharsets.UTF_8));
    }
    return out;
  }

  private static long parse(byte[] ascii) {
    return Long.parseLong(new String(ascii, StandardCharsets.US_ASCII));
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
    try {
      if (store.collection(name) != null) {
        throw new IllegalArgumentException("collection '" + name + "' exists");
      }
      return new Loader(store.unregistered(name, settings), analyzer);
    } catch (redis.clients.jedis.exceptions.JedisException e) {
      throw store.unavailable(e);
    }
  }

  /** Fills an unregistered collection a chunk at a time. */
  private final class Loader implements Importer {
    private final RedisCollection c;
    private final boolean verify;
    private final int bands;
    private final CandidateKeys candidateKeys;
    private final List<StoredRecord> chunk = new ArrayList<>(CHUNK);
    private long last = -1;
    private long added;
    private boolean done;

    Loader(RedisCollection c, org.neardup.Analyzer analyzer) {
      this.c = c;
      this.verify = c.settings().verify();
      this.bands = verify ? analyzer.analyze("neardup band count").sketch().bandKeys().length : 0;
      this.candidateKeys = new CandidateKeys(c.settings().maxDistance());
    }

    @Override
    public void add(StoredRecord r) throws IOException {
      if (done) {
        throw new IllegalStateException("the import finished");
      }
      if (r.ordinal() <= last) {
        throw new IllegalArgumentException(
            "ordinals must increase: " + r.ordinal() + " after " + last);
      }
      if (verify && (r.bandKeys().length != bands || r.sketch().length == 0)) {
        throw new IllegalArgumentException(
            "document '"
                + r.id()
                + "' has "
                + r.bandKeys().length
                + " band keys and a sketch of "
                + r.sketch().length
                + " bytes; this collection verifies with "
                + bands
                + " band keys: it was exported with other settings");
      }
      int idBytes = r.id().getBytes(StandardCharsets.UTF_8).length;
      if (idBytes < 1 || idBytes > Collection.MAX_ID_BYTES) {
        throw new IllegalArgumentException("document " + r.ordinal() + ": bad id length");
      }
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
      try {
        write();
      } catch (redis.clients.jedis.exceptions.JedisException e) {
        throw store.unavailable(e);
      }
      added += chunk.size();
      chunk.clear();
    }

    private void write() {
      Keys keys = c.keys;
      Map<byte[], byte[]> docs = new HashMap<>();
      Map<byte[], byte[]> sketches = new HashMap<>();
      Map<byte[], byte[]> ids = new HashMap<>();
      Map<byte[], byte[]> parents = new HashMap<>();
      Map<byte[], Double> expiry = new HashMap<>();
      Map<Long, byte[]> rootIds = new LinkedHashMap<>();
      Map<Long, List<byte[]>> members = new LinkedHashMap<>();
      try (AbstractPipeline p = store.redis().pipelined()) {
        for (StoredRecord r : chunk) {
          long o = r.ordinal() + 1;
          byte[] ord = bytes(o);
          long[] bandKeys = verify ? r.bandKeys() : new long[0];
          docs.put(
              ord,
              new DocRecord(r.fingerprint(), r.timestamp(), r.expiresAt(), bandKeys, r.id())
                  .encode());
          if (verify) {
            sketches.put(ord, r.sketch());
          }
          ids.put(bytes(r.id()), ord);
          for (int key : candidateKeys.blockKeys(r.fingerprint())) {
            p.sadd(keys.block(key), ord);
          }
          for (long key : bandKeys) {
            p.sadd(keys.band(key), ord);
          }
          if (r.expiresAt() != Long.MAX_VALUE) {
            expiry.put(ord, (double) r.expiresAt());
          }
          if (!r.isRoot()) {
            long root = r.root() + 1;
            parents.put(ord, bytes(root));
            rootIds.putIfAbsent(root, bytes(r.cluster()));
            members.computeIfAbsent(root, x -> new ArrayList<>()).add(ord);
          }
        }
        p.hset(keys.docs, docs);
        if (!sketches.isEmpty()) {
          p.hset(keys.sketches, sketches);
        }
        p.hset(keys.ids, ids);
        if (!expiry.isEmpty()) {
          p.zadd(keys.expiry, expiry);
        }
        List<Response<Boolean>> rootStored = new ArrayList<>();
        if (!parents.isEmpty()) {
          p.hset(keys.parents, parents);
          Map<byte[], byte[]> r = new HashMap<>();
          rootIds.forEach((root, id) -> r.put(bytes(root), id));
          p.hset(keys.rootIds, r);
          for (Map.Entry<Long, List<byte[]>> e : members.entrySet()) {
            p.sadd(keys.members(e.getKey()), e.getValue().toArray(new byte[0][]));
            rootStored.add(p.hexists(keys.docs, bytes(e.getKey())));
          }
        }
        p.sync();
        // A stored root belongs to its own member set (commit.lua files it when the cluster forms).
        int i = 0;
        List<Long> stored = new ArrayList<>();
        for (long root : members.keySet()) {
          if (rootStored.get(i++).get()) {
            stored.add(root);
          }
        }
        if (!stored.isEmpty()) {
          try (AbstractPipeline q = store.redis().pipelined()) {
            for (long root : stored) {
              q.sadd(keys.members(root), bytes(root));
            }
            q.sync();
          }
        }
      }
    }

    @Override
    public long finish() throws IOException {
      if (done) {
        return added;
      }
      flush();
      try {
        if (last >= 0) {
          store.redis().set(c.keys.seq, bytes(last + 1));
        }
        store.register(c);
      } catch (redis.clients.jedis.exceptions.JedisException e) {
        throw store.unavailable(e);
      } catch (IllegalArgumentException e) {
        deleteKeys();
        done = true;
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
      try {
        deleteKeys();
      } catch (redis.clients.jedis.exceptions.JedisException e) {
        throw store.unavailable(e);
      }
    }

    /** Deletes every key of the unregistered collection. */
    private void deleteKeys() {
      ScanParams params = new ScanParams().match(c.keys.pattern()).count(1000);
      String cursor = ScanParams.SCAN_POINTER_START;
      do {
        ScanResult<byte[]> page =
            store.redis().scan(cursor.getBytes(StandardCharsets.US_ASCII), params);
        List<byte[]> found = page.getResult();
        if (!found.isEmpty()) {
          store.redis().unlink(found.toArray(new byte[0][]));
        }
        cursor = page.getCursor();
      } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
    }
  }

  /** Registered under {@code META-INF/services}. */
  public static final class Provider implements CollectionTransfer.Provider {
    @Override
    public String kind() {
      return "redis";
    }

    @Override
    public CollectionTransfer open(FingerprintStore store) {
      return new RedisTransfer((RedisStore) store);
    }
  }
}
