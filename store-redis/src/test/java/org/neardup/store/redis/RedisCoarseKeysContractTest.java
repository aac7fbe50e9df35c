// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import java.io.IOException;
import java.time.InstantSource;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.neardup.store.FingerprintStore;
import org.neardup.store.StoreConfig;
import org.neardup.testkit.FingerprintStoreContract;
import org.neardup.testkit.RedisServer;

/**
 * The contract again with 8-bit block keys ({@code block-key-bits=8}: a key stands for 256 block
 * values, so keys hold many documents whose blocks differ and the filter by rest keys does the work
 * the key did), the layout of small collections.
 */
class RedisCoarseKeysContractTest extends FingerprintStoreContract {
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

  @Override
  protected FingerprintStore open(InstantSource clock) throws IOException {
    return new RedisStoreProvider()
        .open(
            new StoreConfig(
                Map.of(
                    "url",
                    server.url(),
                    "prefix",
                    prefix,
                    "expire-interval",
                    "0",
                    "block-key-bits",
                    "8"),
                clock));
  }
}
