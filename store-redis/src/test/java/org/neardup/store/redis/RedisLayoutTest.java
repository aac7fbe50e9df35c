// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.InstantSource;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.neardup.Analysis;
import org.neardup.store.CollectionSettings;
import org.neardup.store.Document;
import org.neardup.store.StoreConfig;
import org.neardup.testkit.RedisServer;

/**
 * A collection's {@code meta} names the layout of its keys; a store refuses one written in another
 * layout (an earlier build's 11-byte block entries would be read as 9-byte ones and give wrong
 * candidates), with a message saying how to move it.
 */
class RedisLayoutTest {
  private static RedisStore open(RedisServer server) throws IOException {
    return open(server, "16");
  }

  private static RedisStore open(RedisServer server, String idBits) throws IOException {
    return (RedisStore)
        new RedisStoreProvider()
            .open(
                new StoreConfig(
                    Map.of("url", server.url(), "expire-interval", "0", "id-bucket-bits", idBits),
                    InstantSource.system()));
  }

  @Test
  void collection_earlierLayout_refusedWithHowToMoveIt() throws IOException {
    CollectionSettings settings = CollectionSettings.defaults().withLexicon("none");
    try (RedisServer server = RedisServer.start()) {
      try (RedisStore store = open(server)) {
        RedisCollection c = (RedisCollection) store.create("news", settings);
        c.checkAndInsert(new Document("a", Analysis.ofFingerprint(42L, 1)));
        assertThat(new String(store.redis().get(c.keys.meta), StandardCharsets.UTF_8))
            .startsWith(Layout.V4);
        // What an earlier build wrote: the settings alone.
        store.redis().set(c.keys.meta, settings.toText().getBytes(StandardCharsets.UTF_8));
      }
      try (RedisStore other = open(server)) {
        assertThatThrownBy(() -> other.collection("news"))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("earlier build of the redis store")
            .hasMessageContaining("neardup store export");
      }
    }
  }

  /**
   * A collection of layout 2 or 3 (a Redis set per band key) is refused: its band sets would not be
   * read, so its texts would be found only through their fingerprints.
   */
  @Test
  void collection_bandSetsLayout_refusedWithHowToMoveIt() throws IOException {
    CollectionSettings settings = CollectionSettings.defaults().withLexicon("none");
    try (RedisServer server = RedisServer.start()) {
      try (RedisStore store = open(server)) {
        RedisCollection c = (RedisCollection) store.create("news", settings);
        store
            .redis()
            .set(
                c.keys.meta,
                ("neardup-redis-layout 2 id-bucket-bits=16\n" + settings.toText())
                    .getBytes(StandardCharsets.UTF_8));
      }
      try (RedisStore other = open(server)) {
        assertThatThrownBy(() -> other.collection("news"))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("layout 2")
            .hasMessageContaining("a set per band key")
            .hasMessageContaining("neardup store export");
      }
    }
  }

  @Test
  void collection_sameLayout_opensInAnotherProcess() throws IOException {
    try (RedisServer server = RedisServer.start()) {
      try (RedisStore store = open(server)) {
        store
            .create("news", CollectionSettings.defaults().withLexicon("none"))
            .checkAndInsert(new Document("a", Analysis.ofFingerprint(42L, 1)));
      }
      try (RedisStore other = open(server)) {
        assertThat(other.collection("news").get("a")).isPresent();
      }
    }
  }

  /**
   * The id index's bucket count is the collection's, kept in its meta: a store opened with another
   * {@code id-bucket-bits} finds the ids where the creating one put them.
   */
  @Test
  void idBucketBits_keptPerCollection_otherStoreFindsIds() throws IOException {
    try (RedisServer server = RedisServer.start()) {
      try (RedisStore store = open(server, "18")) {
        RedisCollection c =
            (RedisCollection)
                store.create("big", CollectionSettings.defaults().withLexicon("none"));
        assertThat(c.keys.idBits).isEqualTo(18);
        for (int i = 0; i < 200; i++) {
          c.checkAndInsert(
              new Document("id" + i, Analysis.ofFingerprint(i * 0x9E3779B97F4A7C15L, 1)));
        }
      }
      try (RedisStore other = open(server, "12")) {
        RedisCollection c = (RedisCollection) other.collection("big");
        assertThat(c.keys.idBits).isEqualTo(18);
        for (int i = 0; i < 200; i++) {
          assertThat(c.get("id" + i)).as("id%s", i).isPresent();
        }
        assertThat(c.delete("id7")).isTrue();
        assertThat(c.get("id7")).isEmpty();
      }
    }
  }

  /**
   * A collection laid out for few documents (expected-documents: 8-bit block keys, each standing
   * for 256 block values) is kept in its meta: a store opened without the option reads it with the
   * creator's block keys and still finds a near-duplicate.
   */
  @Test
  void blockKeyBits_keptPerCollection_otherStoreFindsNearDuplicates() throws IOException {
    try (RedisServer server = RedisServer.start()) {
      long f = 0x0123_4567_89AB_CDEFL;
      try (RedisStore store =
          (RedisStore)
              new RedisStoreProvider()
                  .open(
                      new StoreConfig(
                          Map.of(
                              "url", server.url(),
                              "expire-interval", "0",
                              "expected-documents", "1000"),
                          InstantSource.system()))) {
        RedisCollection c =
            (RedisCollection)
                store.create(
                    "small",
                    CollectionSettings.defaults()
                        .withLexicon("none")
                        .withVerify(false)
                        .withMaxDistance(3));
        assertThat(c.layout).isEqualTo(new Layout(8, 8, 8));
        assertThat(new String(store.redis().get(c.keys.meta), StandardCharsets.UTF_8))
            .startsWith(Layout.V4);
        for (int i = 0; i < 300; i++) {
          c.checkAndInsert(
              new Document("id" + i, Analysis.ofFingerprint(i * 0x9E3779B97F4A7C15L, 1)));
        }
        assertThat(c.checkAndInsert(new Document("a", Analysis.ofFingerprint(f, 1))).status())
            .isEqualTo(org.neardup.store.Outcome.Status.STORED);
      }
      try (RedisStore other = open(server)) {
        RedisCollection c = (RedisCollection) other.collection("small");
        assertThat(c.layout).isEqualTo(new Layout(8, 8, 8));
        // 3 bits off: the top bit of blocks 0 and 1 (their keys differ) and the low bit of block 3
        // (its key is the same, its value not): found under block 2's key and block 3's.
        long g = f ^ 0x8000L ^ 0x8000_0000L ^ (1L << 48);
        var o = c.checkAndInsert(new Document("b", Analysis.ofFingerprint(g, 1)));
        assertThat(o.cluster()).isEqualTo("a");
        assertThat(c.get("id7")).isPresent();
      }
    }
  }

  @Test
  void idBucketBits_outOfRange_refusedAtOpen() {
    // Checked before connecting: nothing listens on port 1.
    assertThatThrownBy(
            () ->
                new RedisStoreProvider()
                    .open(
                        new StoreConfig(
                            Map.of("url", "redis://127.0.0.1:1", "id-bucket-bits", "30"),
                            InstantSource.system())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("id-bucket-bits must be in [8, 24]");
  }
}
