// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import java.io.IOException;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.neardup.store.FingerprintStore;
import org.neardup.store.StoreConfig;
import org.neardup.testkit.FingerprintStoreContract;
import org.neardup.testkit.RedisServer;

/** The Redis store passes the contract every store passes, against a real redis-server. */
class RedisStoreContractTest extends FingerprintStoreContract {
  private static RedisServer server;
  private static int tests;
  private String prefix;

  @BeforeAll
  static void startRedis() throws IOException {
    server = RedisServer.start();
  }

  @AfterAll
  static void stopRedis() throws IOException {
    if (server != null) {
      server.close();
    }
  }

  @BeforeEach
  void freshPrefix() {
    // Each test starts empty: its own key prefix on the shared server.
    prefix = "t" + (++tests);
  }

  @Override
  protected boolean opensTwice() {
    return true;
  }

  /** Store options beside the server, the test's prefix and no background expiry. */
  protected Map<String, String> storeOptions() {
    return Map.of();
  }

  @Override
  protected FingerprintStore open(InstantSource clock) throws IOException {
    Map<String, String> options = new HashMap<>(storeOptions());
    options.putAll(Map.of("url", server.url(), "prefix", prefix, "expire-interval", "0"));
    return new RedisStoreProvider().open(new StoreConfig(options, clock));
  }
}
