// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.neardup.decide.CandidateKeys;
import org.neardup.internal.DaemonThreads;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.FingerprintStore;
import redis.clients.jedis.Connection;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.util.Pool;

/**
 * A {@link FingerprintStore} in Redis, shared by any number of service processes.
 *
 * <h2>Layout</h2>
 *
 * The seeds' layout, a key per block value holding the documents that have it, with those documents
 * packed into one string per key rather than a set. Keys of collection {@code c} (uid {@code u},
 * prefix {@code P}) all carry the hash tag {@code {c:u}}:
 *
 * <ul>
 *   <li>{@code P:{c:u}:b<3 bytes>}: per block key ({@link BlockEntries#key}: the block's number and
 *       16-bit value, or the value's top {@code block-key-bits}), a string of {@link BlockEntries}:
 *       each document's ordinal and 32 of the bits of its fingerprint outside the block (9 bytes
 *       for k <= 3), so a check drops candidates farther than k from one GET per block key; {@code
 *       P:{c:u}:k<3 bytes>}: per band bucket (the top {@code band-key-bits} of a MinHash band key),
 *       a string of {@link BandEntries}: each document's ordinal and the low 3 bytes of its band
 *       key (8 bytes), confirmed on the record's full band keys;
 *   <li>{@code d<ordinal / 128>}: hashes of 128 records each (field ordinal % 128; {@link
 *       DocRecord}: fingerprint, timestamp, expiry unless it is the timestamp plus the retention,
 *       band keys, id), which Redis keeps as compact listpacks while a record is at most 64 bytes;
 *       {@code s<ordinal / 128>}: the encoded shingle sketches the same way; {@code i<2 or 3
 *       bytes>}: id to ordinal, in 2^{@code id-bucket-bits} buckets by a hash of the id (16 by
 *       default: listpacks up to ~8M documents with Redis's default of 128 fields; the collection's
 *       bits are in its {@code meta});
 *   <li>{@code p}: ordinal to its cluster's root, for members of clusters of several documents;
 *       {@code m<root>}: the stored members of such a cluster; {@code r}: root to its id (a removed
 *       root keeps representing its cluster while the cluster has a stored member);
 *   <li>{@code seq}: the last ordinal given (ordinals grow with insertion order: the earliest
 *       member, the smallest ordinal, represents a cluster); {@code x}: sorted set of record
 *       buckets by the earliest expiry in each (one entry per 128 documents, not one per document);
 *       {@code st}: counters (documents, inserted, ...); {@code meta}: the layout's version and
 *       id-bucket-bits, then the settings (present while the collection exists; a collection of
 *       another layout is refused with how to move it).
 * </ul>
 *
 * <p>{@code P:collections} maps each name to {@code uid;settings}. Nothing is kept in the process
 * but the connection pool and a cache of settings, so a second process sees the same collections.
 *
 * <p>Memory (Redis {@code used_memory}, fingerprint-only documents with 2-8 character ids, 4:1):
 * 92.3 B per document at 10.2M stored with {@code id-bucket-bits=17}; at 1M, 95.9 B with the layout
 * sized for it ({@code expected-documents=1000000}: 14-bit block keys, 2^14 id buckets, {@link
 * Layout}) against 119.5 B with the default one, whose 262,144 block keys (~90 B of fixed cost
 * each) weigh 24 B per document ({@code benchmarks/redis-10m.sh}, {@code redis-memory.py};
 * docs/BENCHMARKS.md). Thread-safe: any number of threads and processes may use one store.
 *
 * <h2>Exactly one new document among near-duplicates</h2>
 *
 * See {@link RedisCollection} and {@code commit.lua}: the commit re-checks, inside Redis, every key
 * the decision read, so no JVM lock is involved and nodes race safely.
 */
public final class RedisStore implements FingerprintStore {
  private final UnifiedJedis redis;
  private final Scripts scripts;
  private final String prefix;
  private final InstantSource clock;
  private final String where;
  private final byte[] registry;
  private final byte[] uids;
  private final Map<String, RedisCollection> cache = new ConcurrentHashMap<>();
  private final Layout layout;
  private final boolean groupCommit;
  private final @Nullable Boolean appendEntries;
  private volatile boolean closed;
  private final java.util.concurrent.@Nullable ScheduledExecutorService expiry;

  RedisStore(
      UnifiedJedis redis,
      String prefix,
      InstantSource clock,
      String where,
      java.time.Duration expireInterval,
      Layout layout,
      boolean groupCommit,
      @Nullable Boolean appendEntries) {
    this.layout = layout;
    this.groupCommit = groupCommit;
    this.appendEntries = appendEntries;
    this.redis = redis;
    this.scripts = new Scripts(redis);
    this.prefix = prefix;
    this.clock = clock;
    this.where = where;
    this.registry = (prefix + ":collections").getBytes(StandardCharsets.UTF_8);
    this.uids = (prefix + ":uid").getBytes(StandardCharsets.UTF_8);
    if (expireInterval.isZero()) {
      expiry = null;
    } else {
      expiry =
          java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
              DaemonThreads.named("neardup-redis-expiry"));
      long ms = expireInterval.toMillis();
      expiry.scheduleWithFixedDelay(
          this::expireAll, ms, ms, java.util.concurrent.TimeUnit.MILLISECONDS);
    }
  }

  /**
   * Removes expired documents of every collection (any node may: the removal script checks what it
   * removes, so nodes sweeping at once remove each document once).
   */
  private void expireAll() {
    try {
      for (Collection c : collections()) {
        c.expire();
      }
    } catch (RuntimeException e) {
      // Redis unavailable or a collection dropped meanwhile: the next sweep tries again.
    }
  }

  /**
   * Checks that Redis keeps what it acknowledged: every acknowledged insert survives a crash of
   * Redis only with {@code appendonly yes} and {@code appendfsync always}. Returns a warning naming
   * the weaker settings, or null when they are these (or cannot be read: CONFIG may be disabled,
   * which the warning then says).
   */
  @Nullable String durabilityWarning() {
    try {
      String appendonly = config("appendonly");
      String fsync = config("appendfsync");
      if ("yes".equals(appendonly) && "always".equals(fsync)) {
        return null;
      }
      return "redis at "
          + where
          + " has appendonly "
          + appendonly
          + " and appendfsync "
          + fsync
          + ": inserts acknowledged shortly before Redis stops can be lost; set appendonly yes"
          + " and appendfsync always to keep every acknowledged insert";
    } catch (RuntimeException e) {
      return "could not read the persistence settings of redis at "
          + where
          + " ("
          + e.getMessage()
          + "); every acknowledged insert survives a crash of Redis only with appendonly yes and"
          + " appendfsync always";
    }
  }

  /**
   * Checks that Redis keeps the layout's small hashes compact: records, sketches and ids live in
   * hashes of up to ~128 fields (128 ordinals per record bucket; ~128 ids per id bucket at 2^bits x
   * 128 documents), which Redis stores as listpacks only while {@code hash-max-listpack-entries} is
   * at least their field count and {@code hash-max-listpack-value} at least their longest value (a
   * record: 17 bytes + 8 per band key + the id, 8 more for an explicit expiry). Above either, a
   * hash becomes a hash table, about 60 more bytes per document. Returns a warning naming a limit
   * below Redis's defaults (128 and 64), or null (also when CONFIG cannot be read).
   */
  @Nullable String listpackWarning() {
    try {
      for (String v : config("hash-max-listpack-entries").split("/")) {
        if (Long.parseLong(v) < Keys.BUCKET) {
          return "redis at "
              + where
              + " has hash-max-listpack-entries "
              + v
              + ": below "
              + Keys.BUCKET
              + ", the store's record buckets become hash tables (~60 more bytes per document);"
              + " set it to at least "
              + Keys.BUCKET;
        }
      }
      for (String v : config("hash-max-listpack-value").split("/")) {
        if (Long.parseLong(v) < 64) {
          return "redis at "
              + where
              + " has hash-max-listpack-value "
              + v
              + ": records longer than that (17 bytes + 8 per band key + the id) make their"
              + " bucket a hash table (~60 more bytes per document); set it to at least 64, or"
              + " more for long ids";
        }
      }
      return null;
    } catch (RuntimeException e) {
      return null; // CONFIG disabled, or an unexpected value: nothing to say.
    }
  }

  /** Pings the server, or every node of a cluster; throws when one does not answer. */
  void ping() {
    onEveryNode(Jedis::ping);
  }

  /** A setting's value, or the distinct values of the nodes of a cluster joined by "/". */
  private String config(String name) {
    java.util.Set<String> values = new java.util.TreeSet<>();
    for (String v :
        onEveryNode(
            node -> {
              Map<String, String> pair = node.configGet(name);
              return pair.isEmpty() ? "?" : pair.values().iterator().next();
            })) {
      values.add(v);
    }
    return String.join("/", values);
  }

  /**
   * Runs {@code f} on a connection to each node: the one server, or every node of a cluster
   * (commands without a key, which a cluster client cannot route by slot).
   */
  private <T> List<T> onEveryNode(java.util.function.Function<Jedis, T> f) {
    List<Pool<Connection>> pools = new ArrayList<>();
    if (redis instanceof JedisCluster c) {
      pools.addAll(c.getClusterNodes().values());
    } else {
      pools.add(((JedisPooled) redis).getPool());
    }
    List<T> out = new ArrayList<>();
    for (Pool<Connection> pool : pools) {
      try (Connection connection = pool.getResource()) {
        out.add(f.apply(new Jedis(connection)));
      }
    }
    return out;
  }

  @Override
  public String toString() {
    return "redis at " + where + " (prefix " + prefix + ")";
  }

  UnifiedJedis redis() {
    return redis;
  }

  Scripts scripts() {
    return scripts;
  }

  String prefix() {
    return prefix;
  }

  InstantSource clock() {
    return clock;
  }

  /** An IOException naming the server (host and port only: never the password). */
  IOException unavailable(Exception cause) {
    return new IOException("redis at " + where + " is unavailable: " + cause.getMessage(), cause);
  }

  /** The URI without user and password, for messages. */
  static String where(URI uri) {
    return uri.getScheme()
        + "://"
        + uri.getHost()
        + ":"
        + (uri.getPort() < 0 ? 6379 : uri.getPort());
  }

  /**
   * Whether collections run concurrent single check-and-inserts as batches ({@link GroupCommit}).
   */
  boolean groupCommit() {
    return groupCommit;
  }

  /**
   * Whether a commit APPENDs its block and band entries (less of Redis's CPU, room left in the
   * strings) or writes each key whole (no room left). See {@code commit.lua}. Unless the {@code
   * append-entries} option says, verified collections append (their checks are where Redis's CPU
   * goes, and the room is ~3% of their memory) and fingerprint-only ones write whole keys (the room
   * would be ~11% of theirs and take them past 100 B per document).
   */
  boolean appendEntries(boolean verify) {
    return appendEntries != null ? appendEntries : verify;
  }

  @Override
  public String kind() {
    return "redis";
  }

  private void checkNotClosed() {
    if (closed) {
      throw new IllegalStateException("the redis store is closed");
    }
  }

  @Override
  public Collection create(String name, CollectionSettings settings) throws IOException {
    FingerprintStore.checkName(name);
    checkNotClosed();
    // Fails on an unknown lexicon or k, or settings naming files, before anything is written.
    settings.requireNoFiles("redis");
    settings.deduplicator().analyzer();
    new CandidateKeys(settings.maxDistance());
    try {
      long uid = redis.incr(uids);
      RedisCollection c = new RedisCollection(this, name, uid, settings, layout);
      redis.set(c.keys.meta, meta(settings));
      byte[] entry = (uid + ";" + settings.toText()).getBytes(StandardCharsets.UTF_8);
      if (redis.hsetnx(registry, name.getBytes(StandardCharsets.UTF_8), entry) == 0) {
        redis.del(c.keys.meta);
        throw new IllegalArgumentException("collection '" + name + "' exists");
      }
      cache.put(name, c);
      return c;
    } catch (redis.clients.jedis.exceptions.JedisException e) {
      throw unavailable(e);
    }
  }

  /**
   * A collection under a fresh uid that nobody sees until {@link #register}: for {@link
   * RedisTransfer}, which fills its keys first.
   */
  RedisCollection unregistered(String name, CollectionSettings settings) {
    settings.requireNoFiles("redis");
    return new RedisCollection(this, name, redis.incr(uids), settings, layout);
  }

  /**
   * Makes a collection from {@link #unregistered} visible, as {@link #create} does.
   *
   * @throws IllegalArgumentException if the name was taken meanwhile
   */
  void register(RedisCollection c) {
    redis.set(c.keys.meta, meta(c.settings()));
    byte[] entry = (c.uid + ";" + c.settings().toText()).getBytes(StandardCharsets.UTF_8);
    if (redis.hsetnx(registry, c.name().getBytes(StandardCharsets.UTF_8), entry) == 0) {
      redis.del(c.keys.meta);
      throw new IllegalArgumentException("collection '" + c.name() + "' exists");
    }
    cache.put(c.name(), c);
  }

  /**
   * A collection's {@code meta}: the layout its keys are written in ({@link Layout#metaLine}: 4,
   * block entries and band buckets; 2 and 3, block entries and a set per band key; collections of
   * the earlier builds have no such line), then its settings.
   */
  private byte[] meta(CollectionSettings settings) {
    return (layout.metaLine() + "\n" + settings.toText()).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * A collection's layout; refuses a collection written in another layout (its block keys would be
   * misread). The default when meta is gone (dropped meanwhile: the scripts then say so).
   */
  private Layout layoutOf(String name, long uid) {
    byte[] meta = redis.get(new Keys(prefix, name, uid, Keys.DEFAULT_ID_BITS).meta);
    if (meta == null) {
      return Layout.DEFAULT;
    }
    String text = new String(meta, StandardCharsets.UTF_8);
    int end = text.indexOf('\n');
    String line = end < 0 ? "" : text.substring(0, end);
    Layout l = Layout.parse(line);
    if (l == null && Layout.isSetsLayout(line)) {
      throw new IllegalStateException(
          "collection '"
              + name
              + "' is in layout "
              + line.charAt(Layout.V2.length() - 2)
              + " of the redis store (a set per band key), which this build does not read (it packs"
              + " band keys into band buckets, layout 4): move it with the build that wrote it,"
              + " `neardup store export`, then this build's `neardup store import` under a new"
              + " name (or after dropping the old collection)");
    }
    if (l == null) {
      throw new IllegalStateException(
          "collection '"
              + name
              + "' was written by an earlier build of the redis store, in another layout: move it"
              + " with that build's `neardup store export` and this build's `neardup store import`");
    }
    return l;
  }

  private @Nullable RedisCollection fromEntry(String name, byte @Nullable [] entry) {
    if (entry == null) {
      return null;
    }
    String text = new String(entry, StandardCharsets.UTF_8);
    int semi = text.indexOf(';');
    long uid = Long.parseLong(text.substring(0, semi));
    RedisCollection cached = cache.get(name);
    if (cached != null && cached.uid == uid) {
      return cached;
    }
    RedisCollection c =
        new RedisCollection(
            this,
            name,
            uid,
            CollectionSettings.parse(text.substring(semi + 1)),
            layoutOf(name, uid));
    cache.put(name, c);
    return c;
  }

  @Override
  public @Nullable Collection collection(String name) {
    checkNotClosed();
    try {
      return fromEntry(name, redis.hget(registry, name.getBytes(StandardCharsets.UTF_8)));
    } catch (redis.clients.jedis.exceptions.JedisException e) {
      throw new java.io.UncheckedIOException(unavailable(e));
    }
  }

  @Override
  public List<Collection> collections() {
    checkNotClosed();
    Map<String, byte[]> sorted = new TreeMap<>();
    Map<byte[], byte[]> all;
    try {
      all = redis.hgetAll(registry);
    } catch (redis.clients.jedis.exceptions.JedisException e) {
      throw new java.io.UncheckedIOException(unavailable(e));
    }
    for (Map.Entry<byte[], byte[]> e : all.entrySet()) {
      sorted.put(new String(e.getKey(), StandardCharsets.UTF_8), e.getValue());
    }
    List<Collection> out = new ArrayList<>();
    for (Map.Entry<String, byte[]> e : sorted.entrySet()) {
      out.add(fromEntry(e.getKey(), e.getValue()));
    }
    out.sort(Comparator.comparing(Collection::name));
    return out;
  }

  @Override
  public boolean drop(String name) throws IOException {
    checkNotClosed();
    byte[] field = name.getBytes(StandardCharsets.UTF_8);
    RedisCollection c = fromEntry(name, redis.hget(registry, field));
    if (c == null || redis.hdel(registry, field) == 0) {
      return false;
    }
    c.dropped = true;
    cache.remove(name, c);
    // Scripts refuse a collection without meta: in-flight calls on other nodes stop here.
    redis.del(c.keys.meta);
    ScanParams params = new ScanParams().match(c.keys.pattern()).count(1000);
    String cursor = ScanParams.SCAN_POINTER_START;
    do {
      ScanResult<byte[]> page = redis.scan(cursor.getBytes(StandardCharsets.US_ASCII), params);
      List<byte[]> found = page.getResult();
      if (!found.isEmpty()) {
        redis.unlink(found.toArray(new byte[0][]));
      }
      cursor = page.getCursor();
    } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
    return true;
  }

  @Override
  public void sync() {
    // Every write is in Redis when the call returns; its durability is Redis's persistence.
  }

  @Override
  public void checkpoint() {
    // Nothing to compact: removals free their keys at once.
  }

  @Override
  public boolean isHealthy() {
    if (closed) {
      return false;
    }
    try {
      return onEveryNode(Jedis::ping).stream().allMatch("PONG"::equals);
    } catch (RuntimeException e) {
      return false;
    }
  }

  @Override
  public @Nullable String unhealthyReason() {
    if (closed) {
      return "the redis store is closed";
    }
    try {
      ping();
      return null;
    } catch (RuntimeException e) {
      return unavailable(e).getMessage();
    }
  }

  @Override
  public Map<String, Number> metrics() {
    Map<String, Number> out = new TreeMap<>();
    try {
      long used = 0;
      for (String info : onEveryNode(node -> node.info("memory"))) {
        for (String line : info.split("\r?\n")) {
          if (line.startsWith("used_memory:")) {
            used += Long.parseLong(line.substring(12).trim());
          }
        }
      }
      out.put("redis_used_memory_bytes", used);
    } catch (RuntimeException e) {
      // Unavailable: no gauge.
    }
    return out;
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      if (expiry != null) {
        expiry.shutdownNow();
      }
      redis.close();
    }
  }
}
