// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.InstantSource;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.neardup.store.CollectionSettings;
import org.neardup.store.StoreConfig;
import org.neardup.testkit.RedisServer;
import org.neardup.text.UserDictionary;

/**
 * Redis keeps a collection's settings as text only: settings naming a user dictionary are refused
 * at creation, before anything is written, instead of making a collection that cannot be opened.
 */
class RedisSettingsFilesTest {
  @Test
  public void userDictionary_refusedAtCreation_nothingWritten() throws IOException {
    try (RedisServer server = RedisServer.start();
        RedisStore store =
            (RedisStore)
                new RedisStoreProvider()
                    .open(
                        new StoreConfig(
                            Map.of("url", server.url(), "expire-interval", "0"),
                            InstantSource.system()))) {
      UserDictionary dict =
          UserDictionary.of("words.txt", "江南style 3 n\n".getBytes(StandardCharsets.UTF_8));
      // The refusal comes before the lexicon is loaded: jieba is not on this module's class path.
      CollectionSettings jieba = CollectionSettings.defaults();
      CollectionSettings withDict = jieba.withChinese(jieba.chinese().withUserDictionary(dict));
      assertThatThrownBy(() -> store.create("news", withDict))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("redis store does not keep a user dictionary")
          .hasMessageContaining("embedded store");
      assertThat(store.collections()).isEmpty();
      store.create(
          "news", CollectionSettings.defaults().withLexicon("none")); // the name is still free
      assertThat(store.collections()).hasSize(1);
    }
  }
}
