// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Set;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import org.neardup.store.FingerprintStore;
import org.neardup.store.StoreConfig;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.util.JedisURIHelper;

/**
 * Opens the {@code redis} store. Options: {@code url} ({@code
 * redis://[user:password@]host:port[/db]} or {@code rediss://} for TLS; {@code
 * redis://127.0.0.1:6379} by default), {@code prefix} of every key ({@code neardup}), {@code pool}
 * connections ({@code 64}, per node in a cluster), {@code timeout-ms} per call ({@code 5000}),
 * {@code cluster} ({@code true} when the URL names a node of a Redis Cluster, {@code false} by
 * default), and the layout of the collections it creates ({@link Layout}; each collection keeps its
 * own): {@code expected-documents}, the size to lay them out for (sets the next three, see {@link
 * Layout#forDocuments}: 1000000 gives 14, 14 and 17, 10000000 gives 17, 16 and 20), or {@code
 * id-bucket-bits} (16 by default: 2^16 buckets of the id index, compact up to ~8M documents with
 * Redis's default {@code hash-max-listpack-entries} of 128; 17 for up to ~16M, and so on) and
 * {@code block-key-bits} (16 by default: a key per 16-bit block value; 14 at 1M documents cuts the
 * block keys' fixed cost per document by 4) and {@code band-key-bits} (16 by default: 2^16 band
 * buckets of packed MinHash band key entries, {@link BandEntries}), each of which overrides the
 * size's; {@code group-commit} ({@code true}: single check-and-inserts made at the same time by
 * threads of this process run as one batch, see {@link GroupCommit}; {@code false}: each alone);
 * {@code append-entries} ({@code true}: a check-and-insert APPENDs its entries to block keys and
 * band buckets, which costs Redis less CPU but leaves the room APPEND reserves, ~10 B more per
 * fingerprint-only document, ~30 B per verified one; {@code false}: it writes each key whole, with
 * no room left, at more CPU; {@code auto}, the default: {@code true} for verified collections,
 * {@code false} for fingerprint-only ones).
 */
public final class RedisStoreProvider implements FingerprintStore.Provider {
  private static final System.Logger LOG = System.getLogger(RedisStoreProvider.class.getName());

  @Override
  public String kind() {
    return "redis";
  }

  @Override
  public FingerprintStore open(StoreConfig config) throws IOException {
    config.checkKnown(
        "redis",
        "url",
        "prefix",
        "pool",
        "timeout-ms",
        "expire-interval",
        "tls-ca-file",
        "cluster",
        "id-bucket-bits",
        "block-key-bits",
        "band-key-bits",
        "expected-documents",
        "group-commit",
        "append-entries");
    String url = config.get("url", "redis://127.0.0.1:6379");
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(
          "url must be redis://[user:password@]host:port[/db] or rediss://..., got a malformed URI"
              + " ("
              + e.getReason()
              + ")");
    }
    if (!JedisURIHelper.isValid(uri)) {
      throw new IllegalArgumentException(
          "url must be redis://[user:password@]host:port[/db] or rediss://..., got "
              + RedisStore.where(uri));
    }
    String prefix = config.get("prefix", "neardup");
    if (!prefix.matches("[A-Za-z0-9._-]{1,32}")) {
      throw new IllegalArgumentException(
          "prefix must be 1 to 32 characters of [A-Za-z0-9._-], got '" + prefix + "'");
    }
    int pool = positive(config, "pool", 64);
    String expected = config.get("expected-documents");
    Layout sized = Layout.DEFAULT;
    if (expected != null) {
      long n;
      try {
        n = Long.parseLong(expected);
      } catch (NumberFormatException e) {
        n = -1;
      }
      if (n <= 0) {
        throw new IllegalArgumentException(
            "expected-documents must be a positive integer, got '" + expected + "'");
      }
      sized = Layout.forDocuments(n);
    }
    // Checks the ranges before anything connects.
    Layout layout =
        new Layout(
            positive(config, "id-bucket-bits", sized.idBits()),
            positive(config, "block-key-bits", sized.blockBits()),
            positive(config, "band-key-bits", sized.bandBits()));
    int timeout = positive(config, "timeout-ms", 5000);
    DefaultJedisClientConfig.Builder client =
        DefaultJedisClientConfig.builder()
            .user(JedisURIHelper.getUser(uri))
            .password(JedisURIHelper.getPassword(uri))
            .database(JedisURIHelper.getDBIndex(uri))
            .ssl(JedisURIHelper.isRedisSSLScheme(uri))
            .connectionTimeoutMillis(timeout)
            .socketTimeoutMillis(timeout)
            .clientName("neardup");
    boolean tls = JedisURIHelper.isRedisSSLScheme(uri);
    String caFile = config.get("tls-ca-file");
    if (caFile != null && !tls) {
      throw new IllegalArgumentException(
          "tls-ca-file is for TLS connections: give a rediss:// url, got " + RedisStore.where(uri));
    }
    if (tls) {
      // The server's certificate must name the URL's host; trust the CA file, else the JVM's CAs.
      client.sslParameters(Tls.verifyingHost());
      if (caFile != null) {
        client.sslSocketFactory(Tls.trusting(java.nio.file.Path.of(caFile)));
      }
    }
    GenericObjectPoolConfig<Connection> poolConfig = new GenericObjectPoolConfig<>();
    poolConfig.setMaxTotal(pool);
    poolConfig.setMaxIdle(pool);
    poolConfig.setMaxWait(java.time.Duration.ofMillis(timeout));
    boolean groupCommit = config.flag("group-commit", true);
    String appendOption = config.get("append-entries", "auto");
    if (!appendOption.equals("true")
        && !appendOption.equals("false")
        && !appendOption.equals("auto")) {
      throw new IllegalArgumentException(
          "append-entries must be auto, true or false, got '" + appendOption + "'");
    }
    boolean cluster = config.flag("cluster", false);
    UnifiedJedis redis;
    try {
      redis =
          cluster
              // The URL names one node, a seed: the client learns the others and the slots from it.
              ? new JedisCluster(
                  Set.of(JedisURIHelper.getHostAndPort(uri)), client.build(), 5, poolConfig)
              : new JedisPooled(JedisURIHelper.getHostAndPort(uri), client.build(), poolConfig);
    } catch (JedisException e) {
      throw new IOException(
          "redis at " + RedisStore.where(uri) + " is unavailable: " + e.getMessage(), e);
    }
    java.time.Duration expireInterval =
        org.neardup.store.CollectionSettings.parseDuration(config.get("expire-interval", "10s"));
    RedisStore store =
        new RedisStore(
            redis,
            prefix,
            config.clock(),
            RedisStore.where(uri),
            expireInterval,
            layout,
            groupCommit,
            appendOption.equals("auto") ? null : Boolean.valueOf(appendOption));
    try {
      store.ping();
    } catch (RuntimeException e) {
      redis.close();
      throw store.unavailable(e);
    }
    String warning = store.durabilityWarning();
    if (warning != null) {
      LOG.log(System.Logger.Level.WARNING, warning);
    }
    String listpacks = store.listpackWarning();
    if (listpacks != null) {
      LOG.log(System.Logger.Level.WARNING, listpacks);
    }
    return store;
  }

  private static int positive(StoreConfig config, String key, int otherwise) {
    String v = config.get(key);
    if (v == null) {
      return otherwise;
    }
    try {
      int n = Integer.parseInt(v);
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new IllegalArgumentException(key + " must be a positive integer, got '" + v + "'");
  }
}
