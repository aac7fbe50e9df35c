// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What protects the service from clients that are not honest: how many collections and how large a
 * {@code k} a client may create, how long a request may take to arrive, how long an idle connection
 * is kept, and the TLS key and certificate. Part of {@link ServerConfig}; immutable.
 *
 * @param maxCollections the most collections the store may hold; a create beyond it gets 400
 * @param maxK the largest {@code k} a collection may have: every extra bit of k multiplies the
 *     index probes of an insert, and k = 64 makes every insert a scan of the collection
 * @param requestTimeout the longest a request may take to arrive, headers and body; a connection
 *     still sending after it is closed
 * @param idleTimeout how long a connection may send nothing: between requests, or in the middle of
 *     one
 * @param tlsCert a PEM certificate chain, or null for plain HTTP
 * @param tlsKey the PEM private key (PKCS#8, unencrypted) of {@code tlsCert}
 */
public record Guards(
    int maxCollections,
    int maxK,
    Duration requestTimeout,
    Duration idleTimeout,
    @Nullable Path tlsCert,
    @Nullable Path tlsKey) {

  public Guards {
    Objects.requireNonNull(requestTimeout, "requestTimeout");
    Objects.requireNonNull(idleTimeout, "idleTimeout");
    check(maxCollections >= 1, "--max-collections must be >= 1, got " + maxCollections);
    check(maxK >= 0 && maxK <= 64, "--max-k must be in [0, 64], got " + maxK);
    check(
        !requestTimeout.isNegative() && !requestTimeout.isZero() && requestTimeout.toHours() < 1,
        "--request-timeout must be in (0, 1h), got " + requestTimeout);
    check(
        !idleTimeout.isNegative() && !idleTimeout.isZero() && idleTimeout.toHours() < 1,
        "--idle-timeout must be in (0, 1h), got " + idleTimeout);
    check((tlsCert == null) == (tlsKey == null), "give both --tls-cert and --tls-key, or neither");
  }

  /** 100 collections, k <= 8, 30 s to send a request, 60 s idle, plain HTTP. */
  public static Guards defaults() {
    return new Guards(100, 8, Duration.ofSeconds(30), Duration.ofSeconds(60), null, null);
  }

  public Guards withMaxCollections(int n) {
    return new Guards(n, maxK, requestTimeout, idleTimeout, tlsCert, tlsKey);
  }

  public Guards withMaxK(int k) {
    return new Guards(maxCollections, k, requestTimeout, idleTimeout, tlsCert, tlsKey);
  }

  public Guards withRequestTimeout(Duration d) {
    return new Guards(maxCollections, maxK, d, idleTimeout, tlsCert, tlsKey);
  }

  public Guards withIdleTimeout(Duration d) {
    return new Guards(maxCollections, maxK, requestTimeout, d, tlsCert, tlsKey);
  }

  public Guards withTls(@Nullable Path cert, @Nullable Path key) {
    return new Guards(maxCollections, maxK, requestTimeout, idleTimeout, cert, key);
  }

  /** Whether the service speaks TLS. */
  public boolean tls() {
    return tlsCert != null;
  }

  private static void check(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }
}
