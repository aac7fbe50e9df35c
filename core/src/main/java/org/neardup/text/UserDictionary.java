// SPDX-License-Identifier: Apache-2.0
package org.neardup.text;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A user dictionary for a {@link Lexicon}: the bytes of a file in the lexicon's format (for jieba,
 * {@code jieba.load_userdict}'s {@code word [freq] [tag]} lines) and their SHA-256, which names it
 * in analyzer ids and stores. The lexicon parses it ({@link Lexicon#withUserDictionary}); this
 * class only carries it, so that a store can keep the exact bytes a collection was made with.
 *
 * <p>Immutable; equal when the bytes are equal.
 */
public final class UserDictionary {
  /** The largest dictionary accepted, in bytes: 64 MiB. */
  public static final int MAX_BYTES = 64 << 20;

  private final String name;
  private final byte[] content;
  private final String sha256;

  private UserDictionary(String name, byte[] content) {
    this.name = name;
    this.content = content;
    this.sha256 = hex(sha256(content));
  }

  /**
   * A dictionary of these bytes.
   *
   * @param name where it came from, for messages (a file name)
   * @throws IllegalArgumentException if it is larger than {@link #MAX_BYTES}
   */
  public static UserDictionary of(String name, byte[] content) {
    Objects.requireNonNull(name, "name");
    if (content.length > MAX_BYTES) {
      throw new IllegalArgumentException(
          "user dictionary "
              + name
              + " has "
              + content.length
              + " bytes, more than the "
              + MAX_BYTES
              + " accepted");
    }
    return new UserDictionary(name, content.clone());
  }

  /** Reads a dictionary file. */
  public static UserDictionary read(Path file) throws IOException {
    long size = Files.size(file);
    if (size > MAX_BYTES) {
      throw new IllegalArgumentException(
          "user dictionary " + file + " has " + size + " bytes, more than the " + MAX_BYTES);
    }
    try (InputStream in = Files.newInputStream(file)) {
      return new UserDictionary(file.toString(), in.readNBytes(MAX_BYTES + 1));
    }
  }

  /** Where it came from (a file name), for messages. */
  public String name() {
    return name;
  }

  /** A copy of its bytes. */
  public byte[] content() {
    return content.clone();
  }

  /** The SHA-256 of its bytes, 64 lower-case hex digits. */
  public String sha256() {
    return sha256;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof UserDictionary && ((UserDictionary) o).sha256.equals(sha256);
  }

  @Override
  public int hashCode() {
    return sha256.hashCode();
  }

  @Override
  public String toString() {
    return "UserDictionary[" + name + ", sha256:" + sha256.substring(0, 16) + "]";
  }

  /** The SHA-256 of some bytes. */
  public static byte[] sha256(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java platform", e);
    }
  }

  private static String hex(byte[] digest) {
    return HexFormat.of().formatHex(digest);
  }
}
