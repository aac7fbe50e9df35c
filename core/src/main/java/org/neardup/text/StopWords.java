// SPDX-License-Identifier: Apache-2.0
package org.neardup.text;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * A set of words that carry no content (function words), keyed by {@link TermHasher} hash of the
 * normalised word. {@link #defaults()} holds common English and Chinese function words ({@code
 * stopwords.txt} in this package).
 *
 * <p>Immutable and thread-safe; {@link #contains(long)} is one probe of an open-addressing table.
 */
public final class StopWords {
  private static final StopWords NONE = new StopWords(new long[2], 0);
  private static volatile StopWords defaults;

  private final long[] keys;
  private final int mask;
  private final int size;

  private StopWords(long[] keys, int size) {
    this.keys = keys;
    this.mask = keys.length - 1;
    this.size = size;
  }

  /** The empty set. */
  public static StopWords none() {
    return NONE;
  }

  /** The built-in English and Chinese list. */
  public static StopWords defaults() {
    StopWords d = defaults;
    if (d == null) {
      try (InputStream in = StopWords.class.getResourceAsStream("stopwords.txt")) {
        if (in == null) {
          throw new IllegalStateException("stopwords.txt missing from the neardup-core jar");
        }
        d = read(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      defaults = d;
    }
    return d;
  }

  /** Reads one word per line; blank lines and lines starting with {@code #} are skipped. */
  public static StopWords read(BufferedReader in) throws IOException {
    long[] hashes = new long[64];
    int n = 0;
    TermHasher hasher = new TermHasher();
    TextBuffer norm = new TextBuffer();
    String line;
    while ((line = in.readLine()) != null) {
      String w = line.strip();
      if (w.isEmpty() || w.charAt(0) == '#') {
        continue;
      }
      norm.clear();
      TextNormalizer.normalize(w, 0, w.length(), norm);
      if (n == hashes.length) {
        hashes = java.util.Arrays.copyOf(hashes, n * 2);
      }
      hashes[n++] = hasher.hash(norm.chars, 0, norm.length);
    }
    int cap = Integer.highestOneBit(Math.max(4, n * 3)) * 2;
    long[] keys = new long[cap];
    int size = 0;
    for (int i = 0; i < n; i++) {
      long key = hashes[i] == 0 ? 1 : hashes[i];
      int slot = (int) (key ^ (key >>> 32)) & (cap - 1);
      boolean dup = false;
      while (keys[slot] != 0) {
        if (keys[slot] == key) {
          dup = true;
          break;
        }
        slot = (slot + 1) & (cap - 1);
      }
      if (!dup) {
        keys[slot] = key;
        size++;
      }
    }
    return new StopWords(keys, size);
  }

  /** Whether the word with this hash is a stop word. */
  public boolean contains(long termHash) {
    if (size == 0) {
      return false;
    }
    long key = termHash == 0 ? 1 : termHash;
    int slot = (int) (key ^ (key >>> 32)) & mask;
    while (true) {
      long k = keys[slot];
      if (k == key) {
        return true;
      }
      if (k == 0) {
        return false;
      }
      slot = (slot + 1) & mask;
    }
  }

  public int size() {
    return size;
  }

  /** The hashes of the stop words. */
  long[] hashes() {
    long[] out = new long[size];
    int n = 0;
    for (long k : keys) {
      if (k != 0) {
        out[n++] = k;
      }
    }
    return out;
  }
}
