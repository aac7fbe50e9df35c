// SPDX-License-Identifier: Apache-2.0
package org.neardup.client;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A document to send: an id and either a text or a precomputed fingerprint, optionally a timestamp.
 * The text is a string, or ({@link #textJson(String, byte[])}) the bytes of a JSON string literal
 * that a caller read from JSON and checked, which go into the request as they are.
 *
 * @param textJson the text as a JSON string literal in UTF-8, quotes included; null unless made by
 *     {@link #textJson(String, byte[])}
 */
public record Doc(
    String id,
    @Nullable String text,
    @Nullable Long fingerprint,
    @Nullable Instant timestamp,
    byte @Nullable [] textJson) {
  public Doc {
    Objects.requireNonNull(id, "id");
    int given = (text != null ? 1 : 0) + (textJson != null ? 1 : 0) + (fingerprint != null ? 1 : 0);
    if (given != 1) {
      throw new IllegalArgumentException("a document has exactly one of text and fingerprint");
    }
  }

  public Doc(
      String id, @Nullable String text, @Nullable Long fingerprint, @Nullable Instant timestamp) {
    this(id, text, fingerprint, timestamp, null);
  }

  public static Doc text(String id, String text) {
    return new Doc(id, text, null, null);
  }

  /**
   * A document whose text is given as a JSON string literal ({@code "a\nb"}, quotes and escapes
   * included, UTF-8), sent as it is: a caller that has the text as JSON already (a JSONL record)
   * spares its decoding and re-encoding. The caller checks it: valid UTF-8, escapes as JSON has
   * them, no control characters unescaped; the service refuses a batch holding a malformed one
   * whole. Not copied.
   */
  public static Doc textJson(String id, byte[] literal) {
    if (literal.length < 2 || literal[0] != '"' || literal[literal.length - 1] != '"') {
      throw new IllegalArgumentException("not a JSON string literal");
    }
    return new Doc(id, null, null, null, literal);
  }

  public static Doc fingerprint(String id, long fingerprint) {
    return new Doc(id, null, fingerprint, null);
  }

  public Doc at(Instant timestamp) {
    return new Doc(id, text, fingerprint, timestamp, textJson);
  }
}
