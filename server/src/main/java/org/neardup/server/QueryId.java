// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * The {@code id} parameter of a raw query string, percent-decoded strictly: the bytes must be valid
 * UTF-8 and the id valid Unicode, else 400, so that a GET or DELETE names exactly the id an insert
 * stored.
 */
final class QueryId {
  private QueryId() {}

  /**
   * Decodes the first {@code id=} parameter of {@code query} (the caller has checked that there is
   * exactly one and that it is not empty).
   */
  static String of(@Nullable String query) throws ApiException {
    if (query == null) {
      throw ApiException.badRequest("query parameter 'id' is required");
    }
    for (String part : query.split("&", -1)) {
      if (part.startsWith("id=")) {
        return decode(part.substring(3));
      }
    }
    throw ApiException.badRequest("query parameter 'id' is required");
  }

  static String decode(String raw) throws ApiException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length());
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c == '%') {
        int hi = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 1), 16) : -1;
        int lo = hi < 0 ? -1 : Character.digit(raw.charAt(i + 2), 16);
        if (lo < 0) {
          throw ApiException.badRequest(
              "query parameter 'id' has a '%' not followed by two hex digits at character " + i);
        }
        out.write(hi << 4 | lo);
        i += 2;
      } else if (c == '+') {
        out.write(' ');
      } else if (c < 0x80) {
        out.write(c);
      } else {
        // Undertow hands over the raw bytes as ISO-8859-1 characters.
        out.write(c & 0xFF);
      }
    }
    byte[] b = out.toByteArray();
    String bad = Utf8.problem(b, 0, b.length);
    if (bad != null) {
      throw ApiException.badRequest("query parameter 'id' is not valid UTF-8 once decoded: " + bad);
    }
    String id = new String(b, StandardCharsets.UTF_8);
    String lone = Utf8.loneSurrogate(id);
    if (lone != null) {
      throw ApiException.badRequest("query parameter 'id' is not valid Unicode: " + lone);
    }
    return id;
  }
}
