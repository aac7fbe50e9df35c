// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import org.jspecify.annotations.Nullable;

/**
 * One document read from an input, or the reason it could not be read.
 *
 * @param ordinal position in the whole input, from 0
 * @param idJson the document's id as a JSON value ({@code "abc"} or {@code 42}); null if missing
 * @param text the document's text; null when {@code error} is set
 * @param location where it came from, for messages: {@code file:line} or a file path
 * @param record the record to copy to unique.jsonl / duplicates.jsonl: the original line's bytes
 *     for JSONL input, else null (an {@code {"id", "text"}} object is written)
 * @param error why the document is unusable, or null
 * @param fingerprint for {@code send}: the fingerprint a record gave instead of a text, or null
 * @param timestamp for {@code send}: the record's timestamp in epoch milliseconds, or null
 */
record InputDocument(
    long ordinal,
    @Nullable String idJson,
    @Nullable String text,
    String location,
    byte @Nullable [] record,
    @Nullable String error,
    @Nullable Long fingerprint,
    @Nullable Long timestamp) {

  InputDocument(
      long ordinal,
      @Nullable String idJson,
      @Nullable String text,
      String location,
      byte @Nullable [] record,
      @Nullable String error) {
    this(ordinal, idJson, text, location, record, error, null, null);
  }

  boolean ok() {
    return error == null;
  }
}
