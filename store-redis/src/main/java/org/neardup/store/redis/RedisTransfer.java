// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import static org.neardup.store.redis.Scripts.bytes;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.neardup.decide.CandidateKeys;
import org.neardup.store.CollectionSettings;
import org.neardup.store.CollectionTransfer;
import org.neardup.store.FingerprintStore;
import org.neardup.store.StoredRecord;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.params.ZAddParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * Export and import for the {@link RedisStore}: the collection's keys read and written directly, a
 * chunk of {@value #CHUNK} ordinals per pipeline, in the layout {@link RedisStore} describes. A
 * Redis ordinal is the dump's plus 1 (Redis counts from 1).
 *
 * <p>Export reads the ordinals from 1 to the collection's sequence in chunks of whole buckets:
 * records ({@link Keys#docs}), sketches ({@link Keys#sketches}), roots ({@code p}), then the ids of
 * the chunk's roots ({@code r}).
 *
 * <p>Import writes under a fresh uid that is not registered, so no service sees the collection (and
 * none can insert into it) until {@link Importer#finish()} sets its sequence and registers it;
 * {@link Importer#close()} before that deletes every key written. Per document, exactly what the
 * commit script writes for it: its record and sketch in their buckets, its id in the id index, its
 * {@link BlockEntries} entries appended to the block keys (ordinals ascend, so appending keeps each
 * key in ordinal order), its band set entries, its bucket's expiry ({@code ZADD LT}), the {@code
 * documents} counter, and for a member of a larger cluster its root, its cluster's member set (with
 * the root itself while the root is stored) and the root's id.
 */
final class RedisTransfer implements CollectionTransfer {
  /** Ordinals per chunk: whole record buckets. */
  static final int CHUNK = 8 * Keys.BUCKET;

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
      // Chunks start at a bucket's first ordinal; ordinal 0 is never given.
      for (long from = 0; from <= seq; from += CHUNK) {
        int n = (int) Math.min(CHUNK, seq - from + 1);
        byte[][] ordinals = new byte[n][];
        for (int i = 0; i < n; i++) {
          ordinals[i] = bytes(from + i);
        }
        List<byte[]> recs = new ArrayList<>(n);
        List<byte[]> sketches = new ArrayList<>(n);
        List<byte[]> roots;
        try (AbstractPipeline p = store.redis().pipelined()) {
          List<Response<List<byte[]>>> r1 = new ArrayList<>();
          List<Response<List<byte[]>>> r2 = new ArrayList<>();
          for (int i = 0; i < n; i += Keys.BUCKET) {
            int m = Math.min(Keys.BUCKET, n - i);
            byte[][] fields = new byte[m][];
            for (int j = 0; j < m; j++) {
              fields[j] = Keys.field(from + i + j);
            }
            r1.add(p.hmget(c.keys.docs(from + i), fields));
            r2.add(p.hmget(c.keys.sketches(from + i), fields));
          }
          Response<List<byte[]>> r3 = p.hmget(c.keys.parents, ordinals);
          p.sync();
          r1.forEach(r -> recs.addAll(r.get()));
          r2.forEach(r -> sketches.addAll(r.get()));
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
    private final BlockEntries entries;
    private final List<StoredRecord> chunk = new ArrayList<>(CHUNK);
    private long last = -1;
    private long added;
    private boolean done;

    Loader(RedisCollection c, org.neardup.Analyzer analyzer) {
      this.c = c;
      this.verify = c.settings().verify();
      this.bands = verify ? Importer.bandCount(analyzer) : 0;
      this.candidateKeys = new CandidateKeys(c.settings().maxDistance());
      this.entries = new BlockEntries(candidateKeys);
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
      Map<Long, Map<byte[], byte[]>> docs = new LinkedHashMap<>();
      Map<Long, Map<byte[], byte[]>> sketches = new LinkedHashMap<>();
      Map<ByteBuffer, Map<byte[], byte[]>> ids = new LinkedHashMap<>();
      Map<Integer, ByteArrayOutputStream> blocks = new LinkedHashMap<>();
      Map<Long, Long> expiry = new LinkedHashMap<>();
      Map<byte[], byte[]> parents = new HashMap<>();
      Map<Long, byte[]> rootIds = new LinkedHashMap<>();
      Map<Long, List<byte[]>> members = new LinkedHashMap<>();
      byte[] entry = new byte[entries.width];
      for (StoredRecord r : chunk) {
        long o = r.ordinal() + 1;
        long bucket = o / Keys.BUCKET;
        byte[] ord = bytes(o);
        long[] bandKeys = verify ? r.bandKeys() : new long[0];
        docs.computeIfAbsent(bucket, x -> new HashMap<>())
            .put(
                Keys.field(o),
                new DocRecord(r.fingerprint(), r.timestamp(), r.expiresAt(), bandKeys, r.id())
                    .encode());
        if (verify) {
          sketches.computeIfAbsent(bucket, x -> new HashMap<>()).put(Keys.field(o), r.sketch());
        }
        ids.computeIfAbsent(ByteBuffer.wrap(keys.ids(r.id())), x -> new HashMap<>())
            .put(bytes(r.id()), ord);
        int[] blockKeys = candidateKeys.blockKeys(r.fingerprint());
        for (int t = 0; t < blockKeys.length; t++) {
          entries.putEntry(t, o, r.fingerprint(), entry, 0);
          blocks.computeIfAbsent(blockKeys[t], x -> new ByteArrayOutputStream()).writeBytes(entry);
        }
        if (r.expiresAt() != Long.MAX_VALUE) {
          expiry.merge(bucket, r.expiresAt(), Math::min);
        }
        if (!r.isRoot()) {
          long root = r.root() + 1;
          parents.put(ord, bytes(root));
          rootIds.putIfAbsent(root, bytes(r.cluster()));
          members.computeIfAbsent(root, x -> new ArrayList<>()).add(ord);
        }
      }
      // Block keys already written by an earlier chunk: their entries come first (lower ordinals).
      // GET then SET of the whole string, not APPEND, for the memory reason given in commit.lua.
      List<Response<byte[]>> before = new ArrayList<>(blocks.size());
      if (added > 0) {
        try (AbstractPipeline p = store.redis().pipelined()) {
          for (int key : blocks.keySet()) {
            before.add(p.get(keys.block(key)));
          }
          p.sync();
        }
      }
      List<Response<Boolean>> rootStored = new ArrayList<>();
      try (AbstractPipeline p = store.redis().pipelined()) {
        docs.forEach((bucket, fields) -> p.hset(keys.docs(bucket * Keys.BUCKET), fields));
        sketches.forEach((bucket, fields) -> p.hset(keys.sketches(bucket * Keys.BUCKET), fields));
        ids.forEach((key, fields) -> p.hset(key.array(), fields));
        int i = 0;
        for (Map.Entry<Integer, ByteArrayOutputStream> e : blocks.entrySet()) {
          byte[] earlier = before.isEmpty() ? null : before.get(i++).get();
          byte[] added = e.getValue().toByteArray();
          byte[] value = added;
          if (earlier != null) {
            value = Arrays.copyOf(earlier, earlier.length + added.length);
            System.arraycopy(added, 0, value, earlier.length, added.length);
          }
          p.set(keys.block(e.getKey()), value);
        }
        for (StoredRecord r : chunk) {
          if (verify) {
            byte[] ord = bytes(r.ordinal() + 1);
            for (long key : r.bandKeys()) {
              p.sadd(keys.band(key), ord);
            }
          }
        }
        ZAddParams lt = ZAddParams.zAddParams().lt();
        expiry.forEach((bucket, exp) -> p.zadd(keys.expiry, exp, bytes(bucket), lt));
        p.hincrBy(keys.stats, bytes("documents"), chunk.size());
        if (!parents.isEmpty()) {
          p.hset(keys.parents, parents);
          Map<byte[], byte[]> r = new HashMap<>();
          rootIds.forEach((root, id) -> r.put(bytes(root), id));
          p.hset(keys.rootIds, r);
          for (Map.Entry<Long, List<byte[]>> e : members.entrySet()) {
            long root = e.getKey();
            p.sadd(keys.members(root), e.getValue().toArray(new byte[0][]));
            rootStored.add(p.hexists(keys.docs(root), Keys.field(root)));
          }
        }
        p.sync();
      }
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
