// SPDX-License-Identifier: Apache-2.0
package org.neardup.client;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Reads the answers of a batch (NDJSON, or a JSON array) token by token into {@link Result}s,
 * without a tree per answer: a client sending on the same cores as the service spent most of its
 * per-document CPU building and walking those trees (docs/BENCHMARKS.md, issue 18). Fields it does
 * not know are skipped, as the tree path ignored them. Stateless; thread-safe.
 */
final class ResultReader {
  private ResultReader() {}

  /** The results in {@code body}, in order; malformed JSON is an {@link UncheckedIOException}. */
  static List<Result> readAll(JsonFactory factory, byte[] body, int expected) {
    List<Result> out = new ArrayList<>(expected);
    try (JsonParser p = factory.createParser(body)) {
      JsonToken t = p.nextToken();
      boolean array = t == JsonToken.START_ARRAY;
      if (array) {
        t = p.nextToken();
      }
      for (; t != null && !(array && t == JsonToken.END_ARRAY); t = p.nextToken()) {
        out.add(read(p));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("the service answered with malformed JSON", e);
    }
    return out;
  }

  /** One result; the parser is on its START_OBJECT and is left on its END_OBJECT. */
  static Result read(JsonParser p) throws IOException {
    expect(p, p.currentToken(), JsonToken.START_OBJECT, "a result");
    String status = null;
    String id = null;
    boolean isNew = false;
    long fingerprint = 0;
    boolean hasFingerprint = false;
    String cluster = null;
    String error = null;
    List<Result.Match> matches = new ArrayList<>(0);
    for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
      JsonToken v = p.nextToken();
      switch (name) {
        case "status" -> status = p.getValueAsString();
        case "id" -> id = v == JsonToken.VALUE_NULL ? null : p.getValueAsString();
        case "new" -> isNew = v == JsonToken.VALUE_TRUE;
        case "fingerprint" -> {
          fingerprint = Long.parseUnsignedLong(p.getText(), 16);
          hasFingerprint = true;
        }
        case "cluster" -> cluster = v == JsonToken.VALUE_NULL ? null : p.getValueAsString();
        case "error" -> error = v == JsonToken.VALUE_NULL ? null : p.getValueAsString();
        case "matches" -> {
          expect(p, v, JsonToken.START_ARRAY, "'matches'");
          for (JsonToken m = p.nextToken(); m != JsonToken.END_ARRAY; m = p.nextToken()) {
            matches.add(match(p, m));
          }
        }
        default -> p.skipChildren();
      }
    }
    expect(p, p.currentToken(), JsonToken.END_OBJECT, "the end of a result");
    if (status == null || !hasFingerprint) {
      throw new IOException(
          "a result without "
              + (status == null ? "'status'" : "'fingerprint'")
              + " at "
              + p.currentLocation());
    }
    return new Result(status, id, isNew, fingerprint, cluster, matches, error);
  }

  private static Result.Match match(JsonParser p, @Nullable JsonToken t) throws IOException {
    expect(p, t, JsonToken.START_OBJECT, "a match");
    String id = null;
    int distance = 0;
    double similarity = Double.NaN;
    for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
      p.nextToken();
      switch (name) {
        case "id" -> id = p.getValueAsString();
        case "distance" -> distance = p.getIntValue();
        case "similarity" -> similarity = p.getDoubleValue();
        default -> p.skipChildren();
      }
    }
    if (id == null) {
      throw new IOException("a match without 'id' at " + p.currentLocation());
    }
    return new Result.Match(id, distance, similarity);
  }

  /** Fails, naming {@code what} and where, unless the token is the one wanted. */
  static void expect(JsonParser p, @Nullable JsonToken actual, JsonToken wanted, String what)
      throws IOException {
    if (actual != wanted) {
      throw new IOException(
          "expected " + what + " (" + wanted + "), got " + actual + " at " + p.currentLocation());
    }
  }
}
