// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import java.io.IOException;
import java.io.PrintStream;
import java.time.InstantSource;
import org.neardup.store.CorruptStoreException;
import org.neardup.store.FingerprintStore;
import org.neardup.store.StoreConfig;

/**
 * {@code java -cp ... org.neardup.server.Main [options]}: the service on its own, with the options
 * of {@code neardup serve} ({@link ServerConfig#usage()}). Prints one line {@code neardup listening
 * on http://HOST:PORT} to stdout once it accepts requests; shuts down gracefully on SIGTERM or
 * Ctrl-C.
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) throws InterruptedException {
    for (String a : args) {
      if (a.equals("--help") || a.equals("-h")) {
        System.out.println(ServerConfig.usage());
        return;
      }
    }
    ServerConfig config;
    try {
      config = ServerConfig.parse(args, System.getenv());
    } catch (IllegalArgumentException e) {
      System.err.println("neardup serve: " + e.getMessage());
      System.exit(2);
      return;
    }
    NeardupServer server;
    try {
      server = serve(config, System.out);
    } catch (IllegalArgumentException | IOException e) {
      System.err.println("neardup serve: " + e.getMessage());
      System.exit(e instanceof CorruptStoreException ? 3 : 1);
      return;
    }
    server.awaitClosed();
  }

  /**
   * Opens the store, starts the server, installs the SIGTERM hook and prints the listening line.
   * {@code neardup serve} calls this too.
   */
  public static NeardupServer serve(ServerConfig config, PrintStream out) throws IOException {
    long t0 = System.nanoTime();
    HugePages pages = HugePages.ofThisJvm();
    if (!pages.on()) {
      System.err.println(
          "neardup: warning: the heap is not on huge pages, so index searches miss the TLB and"
              + " batches run 10-20% slower with twice the p99 (docs/BENCHMARKS.md): "
              + pages.explanation());
    }
    FingerprintStore store =
        FingerprintStore.open(
            config.store(), new StoreConfig(config.storeOptions(), InstantSource.system()));
    NeardupServer server;
    try {
      server = NeardupServer.start(config, store);
    } catch (IOException | RuntimeException e) {
      store.close();
      throw e;
    }
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  // Straight to stderr: java.util.logging closes its handlers in its own hook.
                  long stop0 = System.nanoTime();
                  System.err.println(
                      "neardup: stopping: answering requests in progress, then syncing the store"
                          + " and writing a snapshot");
                  try {
                    server.close();
                    System.err.printf(
                        java.util.Locale.ROOT,
                        "neardup: stopped in %.1f s%n",
                        (System.nanoTime() - stop0) / 1e9);
                  } catch (IOException | RuntimeException e) {
                    System.err.println("neardup: shutdown failed: " + e);
                  }
                },
                "neardup-shutdown"));
    long docs = 0;
    for (org.neardup.store.Collection c : store.collections()) {
      docs += c.stats().documents();
    }
    out.printf(
        java.util.Locale.ROOT,
        "neardup listening on %s (store %s, %d documents in %d collections, ready in %.1f s)%n",
        server.uri(),
        store,
        docs,
        store.collections().size(),
        (System.nanoTime() - t0) / 1e9);
    out.flush();
    return server;
  }
}
