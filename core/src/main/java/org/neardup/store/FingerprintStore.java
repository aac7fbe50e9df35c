// SPDX-License-Identifier: Apache-2.0
package org.neardup.store;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.jspecify.annotations.Nullable;

/**
 * A durable set of named collections of fingerprinted documents: what the online service stores its
 * indexes in.
 *
 * <p>Thread-safe. Every method may be called from any number of threads.
 *
 * <h2>Implementing a store</h2>
 *
 * A store implements this interface and {@link Collection}, registers a {@link Provider} under
 * {@code META-INF/services/org.neardup.store.FingerprintStore$Provider}, and passes {@code
 * org.neardup.testkit.FingerprintStoreContract}. The service then runs on it with {@code neardup
 * serve --store NAME --store-option key=value ...}, unchanged. Two shapes work:
 *
 * <ol>
 *   <li><b>Engine in memory, external system as the log</b> (one service instance per collection):
 *       keep a {@link org.neardup.Deduplicator} per collection and let it decide; append each
 *       decided document ({@link Document#id()}, {@link org.neardup.Analysis#encode()}, timestamp,
 *       cluster) to the external system in decision order before acknowledging (Redis: {@code XADD}
 *       or {@code RPUSH} with {@code appendfsync always}; HBase: one row per document, rowkey =
 *       collection + docId); on open, rebuild each engine with {@link
 *       org.neardup.Deduplicator#restore} in that order, never re-verifying. This is what {@code
 *       neardup-store-embedded} does with local files.
 *   <li><b>Index in the external system</b> (several service instances share collections): store
 *       each fingerprint under its block keys ({@link org.neardup.index.BlockScheme#keyMask};
 *       Redis: one set per block value; HBase: rowkey = block value + table flag + fingerprint, one
 *       prefix scan per table), fetch the candidates of a query there, verify them locally with
 *       {@link org.neardup.verify.ShingleSketch#jaccard}, and make check-then-insert atomic there
 *       (a Lua script in Redis, {@code checkAndMutate} on a per-collection lock row in HBase).
 * </ol>
 *
 * Expiry: a store may drop expired documents lazily (Redis {@code EXPIRE}, HBase TTL) as long as
 * {@link Collection#expire()} makes them stop matching. Durability: {@link #sync()} is the hook the
 * service calls before it exits; {@link #checkpoint()} lets a store with a log write a snapshot.
 */
public interface FingerprintStore extends Closeable {

  /** The name this store is opened by, e.g. {@code embedded}. */
  String kind();

  /**
   * Creates a collection; durable when it returns.
   *
   * @throws IllegalArgumentException if the name is invalid ({@link #checkName}) or taken, or the
   *     settings name a lexicon that is not on the class path
   */
  Collection create(String name, CollectionSettings settings) throws IOException;

  /** The collection named {@code name}, or null. */
  @Nullable Collection collection(String name);

  /** Every collection, sorted by name. */
  List<Collection> collections();

  /**
   * Drops a collection and every document in it; durable when it returns. Calls in progress on the
   * collection finish; later calls throw {@link IllegalStateException}.
   *
   * @return whether the collection existed
   */
  boolean drop(String name) throws IOException;

  /** Makes every write that has returned durable on the store's medium (an fsync for files). */
  void sync() throws IOException;

  /**
   * Writes a snapshot and reclaims the space of removed documents now, if the store has such a
   * thing; otherwise does nothing.
   */
  void checkpoint() throws IOException;

  /**
   * Whether the store can take writes; false once a write to its medium has failed or it closed.
   */
  boolean isHealthy();

  /**
   * Why the store cannot take writes, for {@code /ready} and operators (never a secret such as a
   * password); null while it is healthy. The default names no cause.
   */
  default @Nullable String unhealthyReason() {
    return isHealthy() ? null : "the store reports itself unhealthy";
  }

  /**
   * Store-specific counters and gauges (log bytes, fsyncs, snapshot size, ...) by snake_case name;
   * the service exports each as {@code neardup_store_<name>}. Empty by default.
   */
  default Map<String, Number> metrics() {
    return Map.of();
  }

  /** Syncs, checkpoints if that speeds up the next open, and releases the store. Idempotent. */
  @Override
  void close() throws IOException;

  /**
   * Checks a collection name: 1 to 64 characters of {@code [A-Za-z0-9._-]}, starting with a letter
   * or digit. Names are used in URLs and file names, so nothing else is allowed.
   *
   * @throws IllegalArgumentException naming the rule and the name
   */
  static String checkName(String name) {
    if (!name.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,63}")) {
      throw new IllegalArgumentException(
          "collection name must be 1 to 64 characters of [A-Za-z0-9._-] starting with a letter or"
              + " digit, got '"
              + (name.length() > 80 ? name.substring(0, 80) + "..." : name)
              + "'");
    }
    return name;
  }

  /**
   * Opens the store of the given kind from the class path.
   *
   * @throws IllegalArgumentException naming the kinds that are available when none matches
   */
  static FingerprintStore open(String kind, StoreConfig config) throws IOException {
    List<String> seen = new ArrayList<>();
    for (Provider provider : ServiceLoader.load(Provider.class)) {
      if (provider.kind().equals(kind)) {
        return provider.open(config);
      }
      seen.add(provider.kind());
    }
    throw new IllegalArgumentException(
        "no store named '"
            + kind
            + "' on the class path (found: "
            + seen
            + "); add the module that provides it, e.g. neardup-store-embedded for 'embedded'");
  }

  /** Opens stores of one kind; found with {@link ServiceLoader}. */
  interface Provider {
    /** The name users select it by, e.g. {@code embedded}. */
    String kind();

    /**
     * Opens (creating if needed) the store described by {@code config}.
     *
     * @throws IllegalArgumentException if an option is missing, unknown or malformed
     * @throws CorruptStoreException if stored data fails its checks
     */
    FingerprintStore open(StoreConfig config) throws IOException;
  }
}
