// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code --token-file}: the bearer token read from a file, so that it does not show in {@code ps}
 * as {@code --token} does. The file holds the token on its first line; surrounding whitespace and
 * the line end are dropped.
 */
public final class TokenFile {
  private TokenFile() {}

  /** Reads the token; throws IllegalArgumentException naming the file and the problem. */
  public static String read(Path file) {
    String text;
    try {
      if (Files.size(file) > 4096) {
        throw new IllegalArgumentException(
            "--token-file " + file + " is over 4096 bytes; it should hold one token");
      }
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalArgumentException("--token-file " + file + " cannot be read: " + e, e);
    }
    int nl = text.indexOf('\n');
    String token = (nl < 0 ? text : text.substring(0, nl)).strip();
    if (token.isEmpty()) {
      throw new IllegalArgumentException("--token-file " + file + " holds no token");
    }
    return token;
  }
}
