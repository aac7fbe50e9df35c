package org.neardup.text;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import org.neardup.internal.Checks;

/**
 * Inverse document frequencies of words, keyed by the word's {@link TermHasher} hash of its
 * normalised form. A word the table lacks gets {@link #defaultIdf()}, the median of the table's
 * values (as jieba does).
 *
 * <p>Immutable and thread-safe. {@link #idf(long)} is one probe of an open-addressing table
 * (usually one cache miss) and allocates nothing.
 *
 * <p>Text format, one entry per line, UTF-8: {@code word SP idf}, where idf is a non-negative
 * decimal; blank lines and lines starting with {@code #} are skipped. This is the format of
 * jieba's {@code idf.txt} and of {@code neardup idf build}.
 */
public final class IdfTable {
  /*
   * Linear probing over a power-of-two table at most half full. Key 0 marks an empty slot; a word
   * whose hash is 0 is stored under key 1 (and so shares an entry with a word hashing to 1, a
   * 2^-63 event).
   */
  private final long[] keys;
  private final float[] values;
  private final int mask;
  private final int size;
  private final float defaultIdf;
  private final String id;

  private IdfTable(long[] keys, float[] values, int size, float defaultIdf, String id) {
    this.keys = keys;
    this.values = values;
    this.mask = keys.length - 1;
    this.size = size;
    this.defaultIdf = defaultIdf;
    this.id = id;
  }

  /** The IDF of the word with this hash, or {@link #defaultIdf()} if the table lacks it. */
  public float idf(long termHash) {
    long key = termHash == 0 ? 1 : termHash;
    int slot = (int) mix(key) & mask;
    while (true) {
      long k = keys[slot];
      if (k == key) {
        return values[slot];
      }
      if (k == 0) {
        return defaultIdf;
      }
      slot = (slot + 1) & mask;
    }
  }

  /** Whether the table has an entry for this hash. */
  public boolean contains(long termHash) {
    long key = termHash == 0 ? 1 : termHash;
    int slot = (int) mix(key) & mask;
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

  /** The IDF given to words missing from the table: the median of its values. */
  public float defaultIdf() {
    return defaultIdf;
  }

  /** The number of words. */
  public int size() {
    return size;
  }

  /** Names the table and its content, e.g. {@code jieba-0.42.1/sha1:5b2e...}; part of fingerprint settings. */
  public String id() {
    return id;
  }

  public long ramBytesUsed() {
    return 64 + keys.length * 8L + values.length * 4L;
  }

  private static long mix(long h) {
    // The key is already a strong hash; fold the high half in so the low bits index well.
    return h ^ (h >>> 32);
  }

  /**
   * Reads the text format.
   *
   * @param name the name to put before the content digest in {@link #id()}
   * @throws IOException with the line number of a malformed line
   */
  public static IdfTable read(BufferedReader in, String name) throws IOException {
    Builder b = new Builder();
    MessageDigest sha1 = sha1();
    TermHasher hasher = new TermHasher();
    TextBuffer norm = new TextBuffer();
    String line;
    int lineNo = 0;
    while ((line = in.readLine()) != null) {
      lineNo++;
      sha1.update(line.getBytes(StandardCharsets.UTF_8));
      sha1.update((byte) '\n');
      String s = line.strip();
      if (s.isEmpty() || s.charAt(0) == '#') {
        continue;
      }
      int sp = lastSpace(s);
      if (sp <= 0) {
        throw new IOException(name + ": line " + lineNo + ": expected 'word idf', got '" + abbreviate(s) + "'");
      }
      float idf;
      try {
        idf = Float.parseFloat(s.substring(sp + 1).strip());
      } catch (NumberFormatException e) {
        throw new IOException(name + ": line " + lineNo + ": idf is not a number in '" + abbreviate(s) + "'", e);
      }
      if (!(idf >= 0) || Float.isInfinite(idf)) {
        throw new IOException(name + ": line " + lineNo + ": idf must be a finite number >= 0, got " + idf);
      }
      String word = s.substring(0, sp).strip();
      norm.clear();
      TextNormalizer.normalize(word, 0, word.length(), norm);
      b.put(hasher.hash(norm.chars, 0, norm.length), idf);
    }
    if (b.size == 0) {
      throw new IOException(name + ": no entries");
    }
    return b.build(name + "/sha1:" + HexFormat.of().formatHex(sha1.digest(), 0, 8));
  }

  private static int lastSpace(String s) {
    for (int i = s.length() - 1; i >= 0; i--) {
      char c = s.charAt(i);
      if (c == ' ' || c == '\t') {
        return i;
      }
    }
    return -1;
  }

  private static String abbreviate(String s) {
    return s.length() <= 60 ? s : s.substring(0, 57) + "...";
  }

  private static MessageDigest sha1() {
    try {
      return MessageDigest.getInstance("SHA-1");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-1 is required of every Java platform", e);
    }
  }

  /** Builds a table from (hash, idf) pairs; the first value given for a hash wins. */
  public static final class Builder {
    private long[] keys = new long[1024];
    private float[] values = new float[1024];
    private int size;

    /** Adds an entry unless the hash is already present; returns whether it was added. */
    public boolean put(long termHash, float idf) {
      Checks.checkArgument(idf >= 0 && !Float.isInfinite(idf), "idf must be finite and >= 0, got %s", idf);
      if ((size + 1) * 2 > keys.length) {
        grow();
      }
      long key = termHash == 0 ? 1 : termHash;
      int mask = keys.length - 1;
      int slot = (int) mix(key) & mask;
      while (keys[slot] != 0) {
        if (keys[slot] == key) {
          return false;
        }
        slot = (slot + 1) & mask;
      }
      keys[slot] = key;
      values[slot] = idf;
      size++;
      return true;
    }

    private void grow() {
      long[] oldKeys = keys;
      float[] oldValues = values;
      keys = new long[oldKeys.length * 2];
      values = new float[oldKeys.length * 2];
      int mask = keys.length - 1;
      for (int i = 0; i < oldKeys.length; i++) {
        long key = oldKeys[i];
        if (key != 0) {
          int slot = (int) mix(key) & mask;
          while (keys[slot] != 0) {
            slot = (slot + 1) & mask;
          }
          keys[slot] = key;
          values[slot] = oldValues[i];
        }
      }
    }

    /**
     * @param id the table's {@link IdfTable#id()}
     * @throws IllegalStateException if nothing was added
     */
    public IdfTable build(String id) {
      Checks.checkState(size > 0, "an IdfTable needs at least one entry");
      float[] sorted = new float[size];
      int n = 0;
      for (int i = 0; i < keys.length; i++) {
        if (keys[i] != 0) {
          sorted[n++] = values[i];
        }
      }
      Arrays.sort(sorted);
      return new IdfTable(keys.clone(), values.clone(), size, sorted[size / 2], id);
    }
  }
}
