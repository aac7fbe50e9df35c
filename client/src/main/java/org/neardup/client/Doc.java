// SPDX-License-Identifier: Apache-2.0
package org.neardup.client;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A document to send: an id and either a text or a precomputed fingerprint, optionally a timestamp.
 */
public record Doc(
    String id, @Nullable String text, @Nullable Long fingerprint, @Nullable Instant timestamp) {
  public Doc {
    Objects.requireNonNull(id, "id");
    if ((text == null) == (fingerprint == null)) {
      throw new IllegalArgumentException("a document has exactly one of text and fingerprint");
    }
  }

  public static Doc text(String id, String text) {
    return new Doc(id, text, null, null);
  }

  public static Doc fingerprint(String id, long fingerprint) {
    return new Doc(id, null, fingerprint, null);
  }

  public Doc at(Instant timestamp) {
    return new Doc(id, text, fingerprint, timestamp);
  }
}
