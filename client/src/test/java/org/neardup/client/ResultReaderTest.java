// SPDX-License-Identifier: Apache-2.0
package org.neardup.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ResultReaderTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonFactory FACTORY = MAPPER.getFactory();

  /**
   * Random answers, written as the service writes them (with escapes, non-ASCII ids, matches with
   * and without similarity, unknown fields), read by the streaming reader and by the tree path it
   * replaced: the same results. The seed is in the failure message.
   */
  @Test
  void readAll_randomAnswers_sameAsTheTreePath() throws IOException {
    for (long seed = 0; seed < 300; seed++) {
      Random r = new Random(seed);
      boolean array = r.nextBoolean();
      byte[] body = answers(r, 1 + r.nextInt(20), array);
      List<Result> trees = new ArrayList<>();
      try (MappingIterator<JsonNode> it = MAPPER.readerFor(JsonNode.class).readValues(body)) {
        while (it.hasNextValue()) {
          JsonNode n = it.nextValue();
          if (n.isArray()) {
            n.forEach(e -> trees.add(NeardupClient.result(e)));
          } else {
            trees.add(NeardupClient.result(n));
          }
        }
      }
      assertThat(ResultReader.readAll(FACTORY, body, 4))
          .as("seed %s: %s", seed, new String(body, StandardCharsets.UTF_8))
          .isEqualTo(trees);
    }
  }

  @Test
  void readAll_emptyBody_noResults() {
    assertThat(ResultReader.readAll(FACTORY, new byte[0], 0)).isEmpty();
    assertThat(ResultReader.readAll(FACTORY, "[]".getBytes(StandardCharsets.UTF_8), 0)).isEmpty();
  }

  @Test
  void readAll_malformedOrIncomplete_failsNamingWhat() {
    assertThatThrownBy(() -> read("{\"status\":\"stored\",\"fingerprint\":"))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining("malformed JSON");
    assertThatThrownBy(() -> read("{\"status\":\"stored\",\"new\":true}"))
        .isInstanceOf(UncheckedIOException.class)
        .hasStackTraceContaining("a result without 'fingerprint'");
    assertThatThrownBy(() -> read("[1]"))
        .isInstanceOf(UncheckedIOException.class)
        .hasStackTraceContaining("expected a result (START_OBJECT), got VALUE_NUMBER_INT");
    assertThatThrownBy(
            () ->
                read("{\"status\":\"stored\",\"fingerprint\":\"00000000000000ff\",\"matches\":{}}"))
        .hasStackTraceContaining("expected 'matches' (START_ARRAY), got START_OBJECT");
  }

  private static List<Result> read(String body) {
    return ResultReader.readAll(FACTORY, body.getBytes(StandardCharsets.UTF_8), 1);
  }

  private static byte[] answers(Random r, int n, boolean array) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      if (array) {
        g.writeStartArray();
      }
      for (int i = 0; i < n; i++) {
        answer(g, r);
        if (!array) {
          g.writeRaw('\n');
        }
      }
      if (array) {
        g.writeEndArray();
      }
    }
    return out.toByteArray();
  }

  private static void answer(JsonGenerator g, Random r) throws IOException {
    String[] statuses = {"stored", "checked", "exists", "expired"};
    String status = statuses[r.nextInt(statuses.length)];
    g.writeStartObject();
    g.writeStringField("status", status);
    if (r.nextInt(4) != 0) {
      g.writeStringField("id", id(r));
    }
    if (status.equals("exists")) {
      g.writeStringField("error", "id '" + id(r) + "' is already stored; nothing changed");
    }
    if (r.nextInt(5) == 0) {
      g.writeFieldName("unknown");
      g.writeStartObject();
      g.writeArrayFieldStart("nested");
      g.writeNumber(r.nextInt());
      g.writeEndArray();
      g.writeEndObject();
    }
    g.writeBooleanField("new", r.nextBoolean());
    String hex = Long.toHexString(r.nextLong());
    g.writeStringField("fingerprint", "0".repeat(16 - hex.length()) + hex);
    g.writeFieldName("cluster");
    if (r.nextBoolean()) {
      g.writeNull();
    } else {
      g.writeString(id(r));
    }
    g.writeArrayFieldStart("matches");
    for (int m = r.nextInt(4); m > 0; m--) {
      g.writeStartObject();
      g.writeStringField("id", id(r));
      g.writeNumberField("distance", r.nextInt(11));
      if (r.nextBoolean()) {
        g.writeNumberField("similarity", Math.round(r.nextDouble() * 1e4) / 1e4);
      }
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  private static String id(Random r) {
    String[] parts = {"https://example.com/a?b=1&c=\"2\"", "新闻-", "\\path", "x", "\u00e9\t"};
    StringBuilder s = new StringBuilder();
    for (int i = 1 + r.nextInt(3); i > 0; i--) {
      s.append(parts[r.nextInt(parts.length)]);
    }
    return s.append(r.nextInt(1000)).toString();
  }
}
