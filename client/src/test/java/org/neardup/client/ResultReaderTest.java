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
      List<Result> trees = trees(body);
      assertThat(ResultReader.readAll(body, 4))
          .as("seed %s: %s", seed, new String(body, StandardCharsets.UTF_8))
          .isEqualTo(trees);
    }
  }

  @Test
  void readAll_emptyBody_noResults() {
    assertThat(ResultReader.readAll(new byte[0], 0)).isEmpty();
    assertThat(ResultReader.readAll("[]".getBytes(StandardCharsets.UTF_8), 0)).isEmpty();
  }

  @Test
  void readAll_malformedOrIncomplete_failsNamingWhat() {
    assertThatThrownBy(() -> read("{\"status\":\"stored\",\"fingerprint\":"))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining("malformed JSON")
        .hasStackTraceContaining("expected a string at byte 33, found the end");
    assertThatThrownBy(() -> read("{\"status\":\"stored\",\"new\":true}"))
        .isInstanceOf(UncheckedIOException.class)
        .hasStackTraceContaining("a result without 'fingerprint'");
    assertThatThrownBy(() -> read("[1]"))
        .isInstanceOf(UncheckedIOException.class)
        .hasStackTraceContaining("expected a result (an object) at byte 1, found '1]'");
    assertThatThrownBy(
            () ->
                read("{\"status\":\"stored\",\"fingerprint\":\"00000000000000ff\",\"matches\":{}}"))
        .hasStackTraceContaining("expected 'matches' (an array) at byte 62");
    assertThatThrownBy(() -> read("{\"status\":\"stored\",\"fingerprint\":\"xyz\"}"))
        .hasStackTraceContaining("a fingerprint that is not 16 hex digits: xyz");
  }

  /**
   * Every proper prefix of a valid answer, and the answer with one byte changed to a character
   * JSON's grammar gives a meaning to: what Jackson refuses as JSON is refused, and what it reads
   * is read as the tree path reads it or refused (the tree path fails on a match without a
   * distance, which this reads as 0): never a different list of results, never another exception.
   */
  @Test
  void readAll_truncatedOrChanged_refusedWhereJacksonRefuses() throws IOException {
    byte[] body = answers(new Random(7), 3, false);
    byte[] marks = "{}[]\",:0-.etfn \\u".getBytes(StandardCharsets.UTF_8);
    Random r = new Random(11);
    int refused = 0;
    for (int i = 0; i < 4000; i++) {
      byte[] b;
      if (i < body.length) {
        b = java.util.Arrays.copyOf(body, i);
      } else {
        b = body.clone();
        b[r.nextInt(b.length)] = marks[r.nextInt(marks.length)];
      }
      List<Result> flat;
      try {
        flat = ResultReader.readAll(b, 3);
      } catch (UncheckedIOException e) {
        flat = null;
        refused++;
      }
      List<JsonNode> nodes = new ArrayList<>();
      try (MappingIterator<JsonNode> it = MAPPER.readerFor(JsonNode.class).readValues(b)) {
        while (it.hasNextValue()) {
          nodes.add(it.nextValue());
        }
      } catch (IOException | RuntimeException e) {
        assertThat(flat).as("Jackson refuses %s", new String(b, StandardCharsets.UTF_8)).isNull();
        continue;
      }
      List<Result> trees;
      try {
        trees = trees(b);
      } catch (RuntimeException e) {
        continue; // valid JSON the tree path cannot read as results
      }
      if (flat != null) {
        assertThat(flat).as("%s", new String(b, StandardCharsets.UTF_8)).isEqualTo(trees);
      }
    }
    assertThat(refused).isGreaterThan(1000);
  }

  private static List<Result> trees(byte[] body) throws IOException {
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
    return trees;
  }

  private static List<Result> read(String body) {
    return ResultReader.readAll(body.getBytes(StandardCharsets.UTF_8), 1);
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
