// SPDX-License-Identifier: Apache-2.0
package org.neardup.store;

import java.util.Objects;
import org.neardup.Analysis;

/**
 * A document to check and store: the caller's id, its analysis, its timestamp.
 *
 * @param id the caller's identifier, e.g. a URL; unique within a collection while stored
 * @param analysis the text's analysis by the collection's {@link Collection#analyzer()}
 * @param timestamp epoch milliseconds (e.g. when it was published), or {@link #NO_TIMESTAMP} to use
 *     its arrival time
 */
public record Document(String id, Analysis analysis, long timestamp) {
  /** The timestamp of a document that has none. */
  public static final long NO_TIMESTAMP = Long.MIN_VALUE;

  public Document {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(analysis, "analysis");
  }

  /** A document without timestamp. */
  public Document(String id, Analysis analysis) {
    this(id, analysis, NO_TIMESTAMP);
  }
}
