// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.InstantSource;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.Document;
import org.neardup.store.FingerprintStore;
import org.neardup.store.StoreConfig;
import org.neardup.testkit.RedisServer;

/**
 * A real redis-server that requires a password for the default user and has an ACL user: the store
 * connects with either, to a database number from the URL, and no error names the password.
 */
class RedisAuthTest {
  private static final String SECRET = "s3cret-Default-pw";
  private static final String ALICE = "al1ce-Acl-pw";
  private static RedisServer server;

  @BeforeAll
  static void startRedis() throws IOException {
    server =
        RedisServer.start(
            "--requirepass", SECRET, "--user", "alice", "on", ">" + ALICE, "~*", "&*", "+@all");
  }

  @AfterAll
  static void stopRedis() throws IOException {
    if (server
        != null) { // null when NEARDUP_SKIP_REDIS=1 turned a missing redis-server into a skip
      server.close();
    }
  }

  private static FingerprintStore open(String url) throws IOException {
    return new RedisStoreProvider()
        .open(new StoreConfig(Map.of("url", url, "expire-interval", "0"), InstantSource.system()));
  }

  private static void roundTrip(FingerprintStore store, String name) throws IOException {
    Collection c =
        store.create(
            name, CollectionSettings.defaults().withLexicon(CollectionSettings.NO_LEXICON));
    String text = "the same words said twice are the same words said twice again";
    assertThat(c.checkAndInsert(new Document("a", c.analyzer().analyze(text))).isNew()).isTrue();
    assertThat(c.checkAndInsert(new Document("b", c.analyzer().analyze(text))).cluster())
        .isEqualTo("a");
  }

  @Test
  public void defaultUserWithPassword_andDatabase() throws IOException {
    try (FingerprintStore s = open("redis://:" + SECRET + "@127.0.0.1:" + server.port() + "/3")) {
      roundTrip(s, "default-user");
      assertThat(s.toString()).doesNotContain(SECRET);
    }
    // Database 3 holds it, database 0 does not.
    try (FingerprintStore s = open("redis://:" + SECRET + "@127.0.0.1:" + server.port() + "/0")) {
      assertThat(s.collection("default-user")).isNull();
    }
  }

  @Test
  public void aclUser() throws IOException {
    try (FingerprintStore s =
        open("redis://alice:" + ALICE + "@127.0.0.1:" + server.port() + "/1")) {
      roundTrip(s, "acl-user");
      assertThat(s.isHealthy()).isTrue();
    }
  }

  @Test
  public void wrongOrMissingPassword_failsWithoutNamingIt() {
    String wrong = "not-the-Password-42";
    for (String url :
        new String[] {
          "redis://alice:" + wrong + "@127.0.0.1:" + server.port(),
          "redis://127.0.0.1:" + server.port()
        }) {
      assertThatThrownBy(() -> open(url).collections())
          .satisfies(
              e -> {
                for (Throwable t = e; t != null; t = t.getCause()) {
                  assertThat(String.valueOf(t.getMessage()))
                      .doesNotContain(wrong)
                      .doesNotContain(SECRET)
                      .doesNotContain(ALICE);
                }
              });
    }
  }
}
