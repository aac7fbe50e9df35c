// SPDX-License-Identifier: Apache-2.0
package org.neardup.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CollectionReaderTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonFactory FACTORY = new JsonFactory();

  /** What the server answers for a collection with its defaults (copied from a running serve). */
  private static final String DEFAULT =
      "{\"name\":\"default\",\"settings\":{\"k\":3,\"threshold\":0.8,\"verify\":true,"
          + "\"retention\":\"PT0S\",\"retentionBasis\":\"timestamp\",\"lexicon\":\"jieba\","
          + "\"han\":\"fold\",\"numbers\":\"keep\",\"html\":\"visible\",\"volatileLines\":\"keep\","
          + "\"topN\":20,\"sketchCapacity\":512,\"scheme\":\"4:1\"},"
          + "\"analyzer\":\"neardup-fp/1;seg=jieba\",\"stats\":{\"documents\":12,"
          + "\"ramBytes\":1268152,\"inserted\":12,\"duplicates\":0,\"checked\":0,\"expired\":0,"
          + "\"deleted\":0}}";

  @Test
  void readOne_serversAnswer_settingsAndStatsTyped() throws IOException {
    CollectionInfo c = CollectionReader.readOne(FACTORY, bytes(DEFAULT));
    assertThat(c.name()).isEqualTo("default");
    assertThat(c.analyzer()).isEqualTo("neardup-fp/1;seg=jieba");
    assertThat(c.settings().get("k")).isEqualTo(3);
    assertThat(c.settings().get("threshold")).isEqualTo(0.8);
    assertThat(c.settings().get("verify")).isEqualTo(true);
    assertThat(c.settings().get("scheme")).isEqualTo("4:1");
    assertThat(c.documents()).isEqualTo(12);
    assertThat(c).isEqualTo(treePath(DEFAULT));
  }

  /**
   * Random descriptions (numbers of each kind, booleans, null, strings with escapes, unknown and
   * nested fields, any order) read by the streaming reader and by the tree path it replaced: the
   * same collections, in the same order. The seed is in the failure message.
   */
  @Test
  void readList_randomDescriptions_sameAsTheTreePath() throws IOException {
    for (long seed = 0; seed < 300; seed++) {
      Random r = new Random(seed);
      List<ObjectNode> collections = new ArrayList<>();
      int n = r.nextInt(5);
      for (int i = 0; i < n; i++) {
        collections.add(description(r));
      }
      ObjectNode listing = MAPPER.createObjectNode();
      if (r.nextBoolean()) {
        listing.put("before", "x");
      }
      listing.putArray("collections").addAll(collections);
      String body = MAPPER.writeValueAsString(listing);
      List<CollectionInfo> trees = new ArrayList<>();
      for (JsonNode c : MAPPER.readTree(body).get("collections")) {
        trees.add(treePath(c.toString()));
      }
      assertThat(CollectionReader.readList(FACTORY, bytes(body)))
          .as("seed " + seed)
          .isEqualTo(trees);
      for (ObjectNode c : collections) {
        String one = MAPPER.writeValueAsString(c);
        assertThat(CollectionReader.readOne(FACTORY, bytes(one)))
            .as("seed " + seed)
            .isEqualTo(treePath(one));
      }
    }
  }

  @Test
  void readOne_missingOrMalformed_fails() {
    assertThatThrownBy(() -> CollectionReader.readOne(FACTORY, bytes("{\"name\":\"a\"}")))
        .isInstanceOf(UncheckedIOException.class);
    assertThatThrownBy(() -> CollectionReader.readOne(FACTORY, bytes(DEFAULT.substring(0, 40))))
        .isInstanceOf(UncheckedIOException.class);
    assertThatThrownBy(() -> CollectionReader.readList(FACTORY, bytes("{\"other\":[]}")))
        .isInstanceOf(UncheckedIOException.class);
  }

  private static ObjectNode description(Random r) {
    ObjectNode c = MAPPER.createObjectNode();
    List<Runnable> fields = new ArrayList<>();
    fields.add(() -> c.put("name", word(r)));
    fields.add(() -> c.put("analyzer", word(r)));
    fields.add(
        () -> {
          ObjectNode s = c.putObject("settings");
          int n = r.nextInt(8);
          for (int i = 0; i < n; i++) {
            String key = "s" + i;
            switch (r.nextInt(7)) {
              case 0 -> s.put(key, r.nextInt(1000));
              case 1 -> s.put(key, r.nextLong());
              case 2 -> s.put(key, r.nextDouble());
              case 3 -> s.put(key, r.nextBoolean());
              case 4 -> s.putNull(key);
              case 5 -> s.put(key, word(r));
              default -> s.putObject(key).put("inner", 1);
            }
          }
        });
    fields.add(
        () -> {
          ObjectNode s = c.putObject("stats");
          int n = r.nextInt(8);
          for (int i = 0; i < n; i++) {
            s.put("c" + i, (long) r.nextInt(Integer.MAX_VALUE) * r.nextInt(1000));
          }
        });
    if (r.nextBoolean()) {
      fields.add(() -> c.putArray("unknown").add(1).addObject().put("x", "y"));
    }
    java.util.Collections.shuffle(fields, r);
    fields.forEach(Runnable::run);
    return c;
  }

  private static String word(Random r) {
    String[] parts = {"a", "é", "中文", "\"", "\\", "\n", "😀", "4:1", "PT0S"};
    StringBuilder b = new StringBuilder();
    int n = r.nextInt(5);
    for (int i = 0; i < n; i++) {
      b.append(parts[r.nextInt(parts.length)]);
    }
    return b.toString();
  }

  /** The tree path NeardupClient used before CollectionReader, kept here as the reference. */
  private static CollectionInfo treePath(String body) throws IOException {
    JsonNode n = MAPPER.readTree(body);
    Map<String, Object> settings = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = n.get("settings").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode v = e.getValue();
      settings.put(
          e.getKey(),
          v.isNumber() ? v.numberValue() : v.isBoolean() ? v.booleanValue() : v.asText());
    }
    Map<String, Long> stats = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = n.get("stats").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      stats.put(e.getKey(), e.getValue().asLong());
    }
    return new CollectionInfo(n.get("name").asText(), settings, n.get("analyzer").asText(), stats);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
