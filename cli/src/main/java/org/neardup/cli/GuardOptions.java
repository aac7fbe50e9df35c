// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import org.neardup.server.Guards;
import org.neardup.server.TokenFile;
import org.neardup.store.CollectionSettings;
import picocli.CommandLine.Option;

/** The options of {@code neardup serve} against hostile clients: limits, timeouts, TLS. */
final class GuardOptions {
  @Option(
      names = "--token-file",
      description =
          "Read the bearer token from FILE (its first line): unlike --token, not shown in ps.")
  @Nullable Path tokenFile;

  @Option(
      names = "--max-collections",
      description = "Most collections clients may create (default ${DEFAULT-VALUE}).")
  int maxCollections = Guards.defaults().maxCollections();

  @Option(
      names = "--max-k",
      description = "Largest k a collection may have (default ${DEFAULT-VALUE}).")
  int maxK = Guards.defaults().maxK();

  @Option(
      names = "--request-timeout",
      description =
          "Longest a request may take to arrive, headers and body (default ${DEFAULT-VALUE}).")
  String requestTimeout = "30s";

  @Option(
      names = "--idle-timeout",
      description = "Close a connection that sends nothing this long (default ${DEFAULT-VALUE}).")
  String idleTimeout = "60s";

  @Option(names = "--tls-cert", description = "Serve HTTPS with this PEM certificate chain.")
  @Nullable Path tlsCert;

  @Option(names = "--tls-key", description = "The PEM private key (PKCS#8) of --tls-cert.")
  @Nullable Path tlsKey;

  Guards guards() {
    return new Guards(
        maxCollections,
        maxK,
        CollectionSettings.parseDuration(requestTimeout),
        CollectionSettings.parseDuration(idleTimeout),
        tlsCert,
        tlsKey);
  }

  /** The token of --token-file, or null without it. */
  @Nullable String token() {
    return tokenFile == null ? null : TokenFile.read(tokenFile);
  }
}
