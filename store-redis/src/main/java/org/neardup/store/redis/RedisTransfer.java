// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import static org.neardup.store.redis.Scripts.bytes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jspecify.annotations.Nullable;
import org.neardup.internal.DaemonThreads;
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
 * Export and import for the {@link RedisStore}: the collection's keys read and written directly, in
 * the layout {@link RedisStore} describes; an export reads {@value #EXPORT_CHUNK} ordinals per
 * pipeline, an import writes {@value #CHUNK} documents per pipeline. A Redis ordinal is the dump's
 * plus 1 (Redis counts from 1).
 *
 * <p>Export reads the ordinals from 1 to the collection's sequence in chunks of whole buckets:
 * records ({@link Keys#docs}), sketches ({@link Keys#sketches}), roots ({@code p}), then the ids of
 * the chunk's roots ({@code r}).
 *
 * <p>Import writes under a fresh uid that is not registered, so no service sees the collection (and
 * none can insert into it) until {@link Importer#finish()} sets its sequence and registers it;
 * {@link Importer#close()} before that deletes every key written. Per document, exactly what the
 * commit script writes for it: its record and sketch in their buckets, its id in the id index, its
 * {@link BlockEntries} entries appended to the block keys, its {@link BandEntries} in the band
 * buckets, its bucket's expiry ({@code ZADD LT}), the {@code documents} counter, and for a member
 * of a larger cluster its root, its cluster's member set (with the root itself while the root is
 * stored) and the root's id. A chunk is written by a background thread while the next one is read
 * and encoded (at most one chunk in flight), so decoding the dump and Redis's work overlap. Block
 * and band entries and id fields go through an {@link ImportWindow}: gathered over up to 2^19
 * documents (fewer in a small heap), then one APPEND per block key and band bucket and one HSET per
 * id bucket (ordinals ascend, so appending keeps each key in ordinal order; nothing travels back).
 * At the end the {@code trim} script rewrites each block key and band bucket APPENDed to by two
 * windows or more, since APPEND leaves up to the string's length again of unused room (an import
 * may take up to ~1.5x the block keys' memory until then; a key created by one APPEND has its
 * length only). The collection's operation counters ({@code inserted}, {@code duplicates}, {@code
 * checked}, {@code expired}, {@code deleted}) start at 0, as a collection opened again in the
 * embedded store: an import is not a check-and-insert; {@code documents} is the count imported.
 */
final class RedisTransfer implements CollectionTransfer {
  /** Ordinals per export pipeline: whole record buckets. */
  static final int EXPORT_CHUNK = 8 * Keys.BUCKET;

  /**
   * Documents per import pipeline: 8,192 (was 1,024 with a GET pipeline of the block keys before
   * each; measured side by side in docs/BENCHMARKS.md).
   */
  static final int CHUNK = 64 * Keys.BUCKET;

  /**
   * Bytes of records per import chunk at most (~4 MB): with sketches of ~1 KB a chunk holds fewer
   * documents, so an import's heap stays small (two chunks and one pipeline's copy of one).
   */
  static final int CHUNK_BYTES = 4 << 20;

  /** Block keys per call of the trim script at the end of an import (a few ms of Redis each). */
  static final int TRIM_KEYS = 1000;

  private final RedisStore store;
  private final int chunkSize;
  private final int windowSize;

  RedisTransfer(RedisStore store) {
    this(store, CHUNK, ImportWindow.capacityFor(Runtime.getRuntime().maxMemory()));
  }

  /**
   * With another import chunk size and {@link ImportWindow} capacity (tests: several chunks and
   * windows from a small collection).
   */
  RedisTransfer(RedisStore store, int chunkSize, int windowSize) {
    this.store = store;
    this.chunkSize = chunkSize;
    this.windowSize = windowSize;
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
      for (long from = 0; from <= seq; from += EXPORT_CHUNK) {
        int n = (int) Math.min(EXPORT_CHUNK, seq - from + 1);
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
          DocRecord d = DocRecord.decode(rec, c.retention);
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

  /**
   * Fills an unregistered collection a chunk at a time; a writer thread writes a chunk while the
   * next one fills.
   */
  private final class Loader implements Importer {
    private final RedisCollection c;
    private final boolean verify;
    private final int bands;
    private List<StoredRecord> chunk = new ArrayList<>(chunkSize);
    private long chunkBytes;
    private long last = -1;
    private long added;
    private boolean done;
    private final ExecutorService writer =
        Executors.newSingleThreadExecutor(DaemonThreads.named("neardup-redis-import"));
    private @Nullable Future<?> inFlight;

    /**
     * The block entries and id fields not written yet; the writer thread's (and {@link #finish}'s
     * once the writer is idle).
     */
    private final ImportWindow window;

    Loader(RedisCollection c, org.neardup.Analyzer analyzer) {
      this.c = c;
      this.verify = c.settings().verify();
      this.bands = verify ? Importer.bandCount(analyzer) : 0;
      this.window = new ImportWindow(c.keys, c.entries, c.bands, windowSize);
    }

    /** Writes the window's block entries and id fields. */
    private void flushWindow() {
      try (AbstractPipeline p = store.redis().pipelined()) {
        window.flush(p);
      }
    }

    @Override
    public void add(StoredRecord r) throws IOException {
      if (done) {
        throw new IllegalStateException("the import finished");
      }
      Importer.checkNext(r, last, verify ? bands : -1);
      last = r.ordinal();
      chunk.add(r);
      chunkBytes += 64 + 2L * r.id().length() + r.sketch().length + 8L * r.bandKeys().length;
      if (chunk.size() == chunkSize || chunkBytes >= CHUNK_BYTES) {
        flush();
      }
    }

    /** Hands the chunk to the writer, once the one before it is written. */
    private void flush() throws IOException {
      if (chunk.isEmpty()) {
        return;
      }
      await();
      List<StoredRecord> full = chunk;
      chunk = new ArrayList<>(chunkSize);
      chunkBytes = 0;
      inFlight = writer.submit(() -> write(full));
      added += full.size();
    }

    /** Waits for the chunk in flight; its failure is this call's. */
    private void await() throws IOException {
      Future<?> f = inFlight;
      inFlight = null;
      if (f == null) {
        return;
      }
      try {
        f.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted while writing to redis");
      } catch (ExecutionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof redis.clients.jedis.exceptions.JedisException je) {
          throw store.unavailable(je);
        }
        if (cause instanceof RuntimeException re) {
          throw re;
        }
        throw new IOException(cause);
      }
    }

    private void write(List<StoredRecord> chunk) {
      Keys keys = c.keys;
      Map<Long, Map<byte[], byte[]>> docs = new LinkedHashMap<>();
      Map<Long, Map<byte[], byte[]>> sketches = new LinkedHashMap<>();
      Map<Long, Long> expiry = new LinkedHashMap<>();
      Map<byte[], byte[]> parents = new HashMap<>();
      Map<Long, byte[]> rootIds = new LinkedHashMap<>();
      Map<Long, List<byte[]>> members = new LinkedHashMap<>();
      for (StoredRecord r : chunk) {
        long o = r.ordinal() + 1;
        long bucket = o / Keys.BUCKET;
        byte[] ord = bytes(o);
        long[] bandKeys = verify ? r.bandKeys() : new long[0];
        docs.computeIfAbsent(bucket, x -> new HashMap<>())
            .put(
                Keys.field(o),
                new DocRecord(r.fingerprint(), r.timestamp(), r.expiresAt(), bandKeys, r.id())
                    .encode(c.retention));
        if (verify) {
          sketches.computeIfAbsent(bucket, x -> new HashMap<>()).put(Keys.field(o), r.sketch());
        }
        if (window.full()) {
          flushWindow();
        }
        window.add(o, r.fingerprint(), r.id(), bandKeys);
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
      List<Response<Boolean>> rootStored = new ArrayList<>();
      try (AbstractPipeline p = store.redis().pipelined()) {
        docs.forEach((bucket, fields) -> p.hset(keys.docs(bucket * Keys.BUCKET), fields));
        sketches.forEach((bucket, fields) -> p.hset(keys.sketches(bucket * Keys.BUCKET), fields));
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
      try {
        flush();
        await();
        flushWindow();
        trim();
      } catch (redis.clients.jedis.exceptions.JedisException e) {
        close();
        throw store.unavailable(e);
      } catch (IOException | RuntimeException e) {
        close();
        throw e;
      }
      writer.shutdown();
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
      writer.shutdown();
      try {
        await();
      } catch (IOException | RuntimeException e) {
        // The import is abandoned either way: delete what was written.
      }
      try {
        deleteKeys();
      } catch (redis.clients.jedis.exceptions.JedisException e) {
        throw store.unavailable(e);
      }
    }

    /**
     * Rewrites whole, {@value #TRIM_KEYS} per script call, every block key APPENDed to by two
     * windows (a key written by one window was created by its APPEND at its length).
     */
    private void trim() {
      List<byte[]> batch = new ArrayList<>(TRIM_KEYS);
      BitSet again = window.appendedAgain();
      BitSet bandsAgain = window.bandAppendedAgain();
      List<byte[]> names = new ArrayList<>();
      for (int key = again.nextSetBit(0); key >= 0; key = again.nextSetBit(key + 1)) {
        names.add(c.keys.block(key));
      }
      for (int key = bandsAgain.nextSetBit(0); key >= 0; key = bandsAgain.nextSetBit(key + 1)) {
        names.add(c.keys.band(key));
      }
      for (byte[] name : names) {
        batch.add(name);
        if (batch.size() == TRIM_KEYS) {
          store.scripts().run(store.scripts().trim, batch, List.of());
          batch.clear();
        }
      }
      if (!batch.isEmpty()) {
        store.scripts().run(store.scripts().trim, batch, List.of());
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
