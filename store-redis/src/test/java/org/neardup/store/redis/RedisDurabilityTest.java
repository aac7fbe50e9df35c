// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.InstantSource;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.neardup.store.StoreConfig;
import org.neardup.testkit.RedisServer;

/** The store reads Redis's persistence settings at start and names the weaker ones. */
class RedisDurabilityTest {
  private static RedisStore open(RedisServer server) throws IOException {
    return (RedisStore)
        new RedisStoreProvider()
            .open(
                new StoreConfig(
                    Map.of("url", server.url(), "expire-interval", "0"), InstantSource.system()));
  }

  @Test
  public void weakPersistence_isNamed() throws IOException {
    try (RedisServer server = RedisServer.start("--appendfsync", "everysec");
        RedisStore store = open(server)) {
      assertThat(store.durabilityWarning())
          .contains("appendonly no")
          .contains("appendfsync everysec")
          .contains("127.0.0.1:" + server.port());
    }
  }

  @Test
  public void appendOnlyWithFsyncAlways_noWarning() throws IOException {
    try (RedisServer server = RedisServer.start("--appendonly", "yes", "--appendfsync", "always");
        RedisStore store = open(server)) {
      assertThat(store.durabilityWarning()).isNull();
    }
  }
}
