// SPDX-License-Identifier: Apache-2.0
package org.neardup.client;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Reads the service's collection descriptions ({@code GET /v1/collections/{c}}, {@code GET
 * /v1/collections}) token by token into {@link CollectionInfo}s, with the values the tree path gave
 * (a setting is its number, boolean or text; null's text is "null"). Why not a tree: {@code neardup
 * send} asks for its collection once, and that one call was the only reason it built an {@code
 * ObjectMapper}, whose classes and set-up are a fixed cost of every run (docs/BENCHMARKS.md, the
 * thirteenth session). Stateless; thread-safe.
 */
final class CollectionReader {
  private CollectionReader() {}

  /** One collection's description; malformed JSON is an {@link UncheckedIOException}. */
  static CollectionInfo readOne(JsonFactory factory, byte[] body) {
    try (JsonParser p = factory.createParser(body)) {
      return read(p, p.nextToken());
    } catch (IOException e) {
      throw new UncheckedIOException("the service answered with malformed JSON", e);
    }
  }

  /** The descriptions under {@code collections} in a listing, in order. */
  static List<CollectionInfo> readList(JsonFactory factory, byte[] body) {
    List<CollectionInfo> out = new ArrayList<>();
    try (JsonParser p = factory.createParser(body)) {
      expect(p, p.nextToken(), JsonToken.START_OBJECT, "a listing");
      boolean found = false;
      for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
        JsonToken v = p.nextToken();
        if (!name.equals("collections")) {
          p.skipChildren();
          continue;
        }
        expect(p, v, JsonToken.START_ARRAY, "'collections'");
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
          out.add(read(p, t));
        }
        found = true;
      }
      if (!found) {
        throw new IOException("a listing without 'collections'");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("the service answered with malformed JSON", e);
    }
    return out;
  }

  /** One description; the parser is on its START_OBJECT and is left on its END_OBJECT. */
  private static CollectionInfo read(JsonParser p, @Nullable JsonToken t) throws IOException {
    expect(p, t, JsonToken.START_OBJECT, "a collection");
    String name = null;
    String analyzer = null;
    Map<String, Object> settings = null;
    Map<String, Long> stats = null;
    for (String field = p.nextFieldName(); field != null; field = p.nextFieldName()) {
      JsonToken v = p.nextToken();
      switch (field) {
        case "name" -> name = p.getValueAsString();
        case "analyzer" -> analyzer = p.getValueAsString();
        case "settings" -> settings = settings(p, v);
        case "stats" -> stats = stats(p, v);
        default -> p.skipChildren();
      }
    }
    if (name == null || analyzer == null || settings == null || stats == null) {
      throw new IOException(
          "a collection without 'name', 'analyzer', 'settings' or 'stats' at "
              + p.currentLocation());
    }
    return new CollectionInfo(name, settings, analyzer, stats);
  }

  private static Map<String, Object> settings(JsonParser p, @Nullable JsonToken t)
      throws IOException {
    expect(p, t, JsonToken.START_OBJECT, "'settings'");
    Map<String, Object> out = new LinkedHashMap<>();
    for (String key = p.nextFieldName(); key != null; key = p.nextFieldName()) {
      JsonToken v = p.nextToken();
      Object value;
      if (v == JsonToken.VALUE_NUMBER_INT || v == JsonToken.VALUE_NUMBER_FLOAT) {
        value = p.getNumberValue();
      } else if (v == JsonToken.VALUE_TRUE || v == JsonToken.VALUE_FALSE) {
        value = v == JsonToken.VALUE_TRUE;
      } else if (v == JsonToken.VALUE_NULL) {
        value = "null";
      } else if (v == JsonToken.VALUE_STRING) {
        value = p.getText();
      } else {
        p.skipChildren(); // a nested value: the tree's asText() of it was ""
        value = "";
      }
      out.put(key, value);
    }
    return out;
  }

  private static Map<String, Long> stats(JsonParser p, @Nullable JsonToken t) throws IOException {
    expect(p, t, JsonToken.START_OBJECT, "'stats'");
    Map<String, Long> out = new LinkedHashMap<>();
    for (String key = p.nextFieldName(); key != null; key = p.nextFieldName()) {
      p.nextToken();
      long value = p.getValueAsLong();
      p.skipChildren(); // a nested value counts 0, as the tree's asLong() had it
      out.put(key, value);
    }
    return out;
  }

  /** Fails, naming {@code what} and where, unless the token is the one wanted. */
  private static void expect(
      JsonParser p, @Nullable JsonToken actual, JsonToken wanted, String what) throws IOException {
    if (actual != wanted) {
      throw new IOException(
          "expected " + what + " (" + wanted + "), got " + actual + " at " + p.currentLocation());
    }
  }
}
