// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import java.util.regex.Pattern;

/**
 * The wording of a malformed JSONL record's error, the same as {@code neardup dedup}'s: "malformed
 * JSON at column C: " and the parser's message, with the parser's "[Source: ...; line: L, column:
 * C]" locations inside it rewritten as "column C" (a record is one line, so its line is the error
 * line's location already).
 */
final class JsonErrors {
  private static final Pattern SOURCE =
      Pattern.compile("\\[Source: [^\\]]*?; line: (\\d+), column: (\\d+)\\]");

  private JsonErrors() {}

  static String malformed(JsonProcessingException e) {
    JsonLocation l = e.getLocation();
    String at = l != null && l.getColumnNr() > 0 ? " at column " + l.getColumnNr() : "";
    String m = SOURCE.matcher(String.valueOf(e.getOriginalMessage())).replaceAll("column $2");
    return "malformed JSON" + at + ": " + m;
  }
}
