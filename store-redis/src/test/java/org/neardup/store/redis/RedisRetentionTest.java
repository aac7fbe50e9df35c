// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.CollectionSettings.RetentionBasis;
import org.neardup.store.Document;
import org.neardup.store.FingerprintStore;
import org.neardup.store.StoreConfig;
import org.neardup.testkit.ManualClock;
import org.neardup.testkit.RedisServerExtension;
import org.neardup.testkit.Texts;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * Retention and removal leave nothing behind in Redis: once every document has expired or been
 * deleted, the only keys left of a collection are its settings, sequence number and counters; no
 * block or band set, record, sketch, id, cluster or expiry entry names a removed document.
 */
class RedisRetentionTest {
  @RegisterExtension static final RedisServerExtension server = new RedisServerExtension();

  private static List<String> keys(JedisPooled redis, String prefix) {
    List<String> out = new ArrayList<>();
    String cursor = ScanParams.SCAN_POINTER_START;
    do {
      ScanResult<String> page = redis.scan(cursor, new ScanParams().match(prefix + ":*"));
      out.addAll(page.getResult());
      cursor = page.getCursor();
    } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
    return out;
  }

  private static String suffix(String key) {
    return key.substring(key.indexOf('}') + 2);
  }

  @Test
  public void expireAndDelete_leaveNoOrphans() throws IOException {
    ManualClock clock = new ManualClock();
    try (FingerprintStore store =
            new RedisStoreProvider()
                .open(
                    new StoreConfig(
                        Map.of("url", server.url(), "prefix", "ret", "expire-interval", "0"),
                        clock));
        JedisPooled redis = new JedisPooled(server.url())) {
      Collection c =
          store.create(
              "news",
              CollectionSettings.defaults()
                  .withLexicon(CollectionSettings.NO_LEXICON)
                  .withRetention(Duration.ofHours(1))
                  .withRetentionBasis(RetentionBasis.ARRIVAL));
      SplittableRandom r = new SplittableRandom(42);
      List<String> ids = new ArrayList<>();
      // Clusters of several (copies and edits), some spanning the two halves of the window.
      for (int g = 0; g < 60; g++) {
        String base = Texts.text(r, 60);
        for (int i = 0; i < 1 + g % 4; i++) {
          String id = g + "/" + i;
          c.checkAndInsert(
              new Document(id, c.analyzer().analyze(i == 0 ? base : Texts.edit(r, base))));
          ids.add(id);
        }
        if (g == 30) {
          clock.advance(Duration.ofMinutes(30));
        }
      }
      assertThat(c.stats().duplicates()).isGreaterThan(50);
      // Some removals by hand, earliest members (representatives) included.
      int deleted = 0;
      for (int g = 0; g < 60; g += 7) {
        deleted += c.delete(g + "/0") ? 1 : 0;
      }
      int before = keys(redis, "ret").size();
      clock.advance(Duration.ofMinutes(31)); // the first half is out of the window
      int first = c.expire();
      assertThat(first).isPositive();
      assertThat(keys(redis, "ret").size()).isLessThan(before);
      assertThat(c.stats().documents()).isEqualTo(ids.size() - deleted - first);
      clock.advance(Duration.ofMinutes(30));
      int second = c.expire();
      assertThat(first + second + deleted).isEqualTo(ids.size());
      assertThat(c.stats().documents()).isZero();
      assertThat(c.stats().expired()).isEqualTo(first + second);
      TreeSet<String> left = new TreeSet<>();
      for (String k : keys(redis, "ret")) {
        left.add(k.startsWith("ret:{") ? suffix(k) : k);
      }
      assertThat(left).containsExactlyInAnyOrder("ret:collections", "ret:uid", "meta", "seq", "st");
      // And a document stored again after all that is new and alone.
      String text = Texts.text(r, 60);
      assertThat(c.checkAndInsert(new Document("again", c.analyzer().analyze(text))).isNew())
          .isTrue();
      List<String> records = new ArrayList<>();
      for (String k : keys(redis, "ret")) {
        if (k.startsWith("ret:{") && suffix(k).startsWith("d")) {
          records.add(k);
        }
      }
      assertThat(records).hasSize(1);
      assertThat(redis.hlen(records.get(0).getBytes(StandardCharsets.UTF_8))).isEqualTo(1);
    }
  }
}
