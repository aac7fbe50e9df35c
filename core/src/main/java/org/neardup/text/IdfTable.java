// SPDX-License-Identifier: Apache-2.0
package org.neardup.text;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import org.jspecify.annotations.Nullable;
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
 * decimal; blank lines and lines starting with {@code #} are skipped. This is the format of jieba's
 * {@code idf.txt} and of {@code neardup idf build}.
 */
public final class IdfTable {
  /*
   * Linear probing over a power-of-two table at most three quarters full. Each slot is one long: the high
   * 32 bits of the word's hash (a tag; 0 marks an empty slot, so a tag of 0 is stored as 1) and the
   * IDF's float bits, so a lookup costs one cache miss. The slot comes from the low bits of the hash
   * and the tag from the high bits, so two words share an entry only when their hashes agree on
   * 32 + log2(capacity) bits: for jieba's 270k words (2^19 slots), a 2^-50 event per lookup.
   */
  private final long[] slots;

  /*
   * Absent words first: bit (tag & FILTER_MASK) of filter is set for the tag of every entry, so a
   * clear bit answers "not in the table" without the probe (a cache miss into the 4 MB slots for
   * jieba's). 2^21 bits (256 KB, within L2) for jieba's ~272k tags: ~12% of absent words still
   * probe. The tag's bits are independent of the home slot's (the hash's low bits).
   */
  private static final int FILTER_BITS = 21;
  private static final int FILTER_MASK = (1 << FILTER_BITS) - 1;
  private final long[] filter;
  private final int mask;
  private final int size;
  private final float defaultIdf;

  /** At least every value {@link #idf} returns: the largest entry's IDF or the default. */
  private final float maxIdf;

  private final String id;

  /**
   * Every entry's full hash and IDF, in insertion order, for {@link #withStopWords} and {@link
   * #entryHashes()}; for a table {@link #withStopWords} made, computed on first use from {@link
   * #pending} (only lookups need the slots, and the pass over 270k entries cost every start).
   */
  private long[] entryHashes;

  private float[] entryIdfs;

  /** The stop words and table {@link #entryHashes} are still to be made of, or null. */
  private @Nullable Pending pending;

  private record Pending(IdfTable base, long[] stops) {}

  private IdfTable(
      long[] slots,
      int size,
      float defaultIdf,
      float maxIdf,
      String id,
      long[] hashes,
      float[] idfs) {
    this(slots, size, defaultIdf, maxIdf, id, hashes, idfs, filterOf(slots.length, hashes, size));
  }

  private IdfTable(
      long[] slots,
      int size,
      float defaultIdf,
      float maxIdf,
      String id,
      long[] hashes,
      float[] idfs,
      long[] filter) {
    this.slots = slots;
    this.filter = filter;
    this.mask = slots.length - 1;
    this.size = size;
    this.defaultIdf = defaultIdf;
    this.maxIdf = Math.max(defaultIdf, maxIdf);
    this.id = id;
    this.entryHashes = hashes;
    this.entryIdfs = idfs;
  }

  private IdfTable(
      long[] slots, int size, float defaultIdf, String id, Pending pending, long[] filter) {
    // The stop words weigh -1 here: the base table's bound still holds.
    this(slots, size, defaultIdf, pending.base().maxIdf, id, new long[0], new float[0], filter);
    this.pending = pending;
  }

  /** The tag filter of a table with these slots and entries (the first {@code size} hashes). */
  private static long[] filterOf(int slots, long[] hashes, int size) {
    long[] filter = new long[filterWords(slots)];
    for (int i = 0; i < size; i++) {
      mark(filter, tag(hashes[i]));
    }
    return filter;
  }

  /** The filter's length in longs for a table of {@code slots} slots. */
  private static int filterWords(int slots) {
    return Math.max(1, Math.min(slots * 4, 1 << FILTER_BITS) >>> 6);
  }

  private static void mark(long[] filter, int tag) {
    int bit = tag & FILTER_MASK & (filter.length * 64 - 1);
    filter[bit >>> 6] |= 1L << bit;
  }

  /** {@link #entryHashes} and {@link #entryIdfs}, made now if still pending. */
  private synchronized void materialize() {
    Pending p = pending;
    if (p == null) {
      return;
    }
    long[] stops = p.stops();
    long[] baseHashes = p.base().hashes();
    float[] baseIdfs = p.base().idfs();
    long[] hashes = new long[size];
    float[] idfs = new float[size];
    org.neardup.internal.LongIntMap isStop = new org.neardup.internal.LongIntMap(stops.length);
    int n = 0;
    for (long h : stops) {
      isStop.put(h, n);
      hashes[n] = h;
      idfs[n++] = 0f;
    }
    for (int i = 0; i < p.base().size; i++) {
      if (isStop.get(baseHashes[i]) < 0) {
        hashes[n] = baseHashes[i];
        idfs[n++] = baseIdfs[i];
      }
    }
    assert n == size : n + " entries for a table of " + size;
    entryHashes = hashes;
    entryIdfs = idfs;
    pending = null;
  }

  private synchronized long[] hashes() {
    materialize();
    return entryHashes;
  }

  private synchronized float[] idfs() {
    materialize();
    return entryIdfs;
  }

  /**
   * This table with every stop word's IDF set to -1, so one lookup per word answers both "is it a
   * stop word?" and "what is its weight?". {@link #id()} and {@link #defaultIdf()} stay.
   */
  public IdfTable withStopWords(StopWords stopWords) {
    /*
     * The table a Builder makes of the stop words (IDF 0, then -1) followed by this table's
     * entries, without building it again: when the stop words this table lacks leave the
     * capacity unchanged (jieba's 270k words and ~1,900 stop words: 2^19 slots either way), copy
     * the slots, mark the stop words it has -1 and add the others at the end of their probe
     * sequences. A lookup then answers as the rebuilt table does: the only difference is the order
     * within a probe sequence, which decides nothing unless two different hashes share both the
     * home slot and the 32-bit tag. Saves ~0.1 s of a process's start (docs/BENCHMARKS.md).
     */
    long[] stops = stopWords.hashes();
    int missing = 0;
    for (long h : stops) {
      if (!contains(h)) {
        missing++;
      }
    }
    int total = size + missing;
    if (capacityFor(total) != slots.length) {
      return rebuiltWithStopWords(stops);
    }
    long[] copy = slots.clone();
    long[] filter = this.filter.clone(); // the same capacity, so the same filter size
    IdfTable t =
        new IdfTable(copy, total, defaultIdf, id, new Pending(this, stops.clone()), filter);
    long stopSlot = Float.floatToIntBits(-1f) & 0xFFFFFFFFL;
    for (long h : stops) {
      if (t.contains(h)) {
        t.set(h, -1f);
      } else {
        int slot = home(h, t.mask);
        while (copy[slot] != 0) {
          slot = (slot + 1) & t.mask;
        }
        copy[slot] = ((long) tag(h) << 32) | stopSlot;
        mark(filter, tag(h));
      }
    }
    return t;
  }

  /**
   * The smallest power of two at least 4/3 of {@code size}: at most three quarters full. For
   * jieba's ~272k words, 2^19 slots (4 MB, 52% full) instead of the 2^20 (8 MB, 26% full) of the
   * earlier rule "at least twice the size": half the bytes for the probes to miss in, and a probe
   * sequence still mostly within one cache line (docs/BENCHMARKS.md, the twelfth session).
   */
  static int capacityFor(int size) {
    long wanted = Math.max(16L, ((long) size * 4 + 2) / 3);
    return (int) Long.highestOneBit(wanted * 2 - 1);
  }

  private IdfTable rebuiltWithStopWords(long[] stops) {
    Builder b = new Builder();
    for (long h : stops) {
      b.put(h, 0f);
    }
    long[] hashes = hashes();
    float[] idfs = idfs();
    for (int i = 0; i < size; i++) {
      b.put(hashes[i], idfs[i]);
    }
    IdfTable t = b.build(id);
    for (long h : stops) {
      t.set(h, -1f);
    }
    return new IdfTable(
        t.slots, t.size, defaultIdf, t.maxIdf, id, t.entryHashes, t.entryIdfs, t.filter);
  }

  /**
   * A table of these entries, as {@link #entryHashes()} and {@link #entryIdfs()} give them: for a
   * table stored in binary form. The hashes must be distinct (not checked: a repeated hash gives
   * the first one's IDF).
   *
   * @throws IllegalArgumentException if the arrays differ in length, are empty, or an IDF is not a
   *     finite number >= 0
   */
  public static IdfTable ofEntries(long[] hashes, float[] idfs, float defaultIdf, String id) {
    checkEntries(hashes, idfs);
    Checks.checkArgument(
        defaultIdf >= 0 && !Float.isInfinite(defaultIdf),
        "defaultIdf must be finite and >= 0, got %s",
        defaultIdf);
    long[] slots = new long[capacityFor(hashes.length)];
    int mask = slots.length - 1;
    float max = 0;
    for (int i = 0; i < hashes.length; i++) {
      float idf = idfs[i];
      max = Math.max(max, idf);
      if (!(idf >= 0 && idf != Float.POSITIVE_INFINITY)) {
        // Not Checks.checkArgument(ok, template, idf): a float goes to its Object... overload,
        // which boxes and allocates per entry until the JIT removes it; this loop runs
        // interpreted at every start (270k jieba entries).
        throw new IllegalArgumentException("idf must be finite and >= 0, got " + idf);
      }
      int slot = home(hashes[i], mask);
      while (slots[slot] != 0) {
        slot = (slot + 1) & mask;
      }
      slots[slot] = ((long) tag(hashes[i]) << 32) | (Float.floatToIntBits(idf) & 0xFFFFFFFFL);
    }
    return new IdfTable(slots, hashes.length, defaultIdf, max, id, hashes.clone(), idfs.clone());
  }

  /**
   * A table as another table's {@link #entryHashes()}, {@link #entryIdfs()}, {@link #maxIdf()},
   * {@link #slotsCopy()} and {@link #filterCopy()} give it: the slots and the absent-word filter
   * taken as they are, without the pass that hashes every entry into them. That pass (272k random
   * writes into jieba's 4 MB of slots, interpreted) was the largest item of a process's start
   * before its first fingerprint (docs/BENCHMARKS.md, the fifteenth session). For a stored image
   * whose checksum covers the arrays: their shapes are checked, their contents trusted; the arrays
   * are taken, not copied.
   *
   * @throws IllegalArgumentException if the arrays' lengths do not fit together or a number is not
   *     a finite value >= 0
   */
  public static IdfTable ofImage(
      long[] hashes,
      float[] idfs,
      float defaultIdf,
      float maxIdf,
      String id,
      long[] slots,
      long[] filter) {
    checkEntries(hashes, idfs);
    Checks.checkArgument(
        slots.length == capacityFor(hashes.length),
        "expected %s slots for %s entries, got %s",
        capacityFor(hashes.length),
        hashes.length,
        slots.length);
    Checks.checkArgument(
        filter.length == filterWords(slots.length),
        "expected a filter of %s longs, got %s",
        filterWords(slots.length),
        filter.length);
    if (!(defaultIdf >= 0 && maxIdf >= defaultIdf && maxIdf != Float.POSITIVE_INFINITY)) {
      throw new IllegalArgumentException(
          "defaultIdf and maxIdf must be finite, >= 0 and in order, got "
              + defaultIdf
              + " and "
              + maxIdf);
    }
    return new IdfTable(slots, hashes.length, defaultIdf, maxIdf, id, hashes, idfs, filter);
  }

  private static void checkEntries(long[] hashes, float[] idfs) {
    Checks.checkArgument(
        hashes.length == idfs.length && hashes.length > 0,
        "expected as many IDFs as hashes, at least one, got %s and %s",
        hashes.length,
        idfs.length);
  }

  /** A copy of the slots, for {@link #ofImage}. */
  public long[] slotsCopy() {
    return slots.clone();
  }

  /** A copy of the absent-word filter, for {@link #ofImage}. */
  public long[] filterCopy() {
    return filter.clone();
  }

  /** Every entry's hash, in the order they were added (a copy). */
  public long[] entryHashes() {
    return java.util.Arrays.copyOf(hashes(), size);
  }

  /** Every entry's IDF, in the order of {@link #entryHashes()} (a copy). */
  public float[] entryIdfs() {
    return java.util.Arrays.copyOf(idfs(), size);
  }

  /** A table of stop words only (IDF -1), where every other word weighs {@code defaultIdf}. */
  public static IdfTable ofStopWords(StopWords stopWords, float defaultIdf, String id) {
    Builder b = new Builder();
    for (long h : stopWords.hashes()) {
      b.put(h, 0f);
    }
    if (b.size == 0) {
      b.put(0x5EED5EED5EED5EEDL, defaultIdf); // an IdfTable is never empty
    }
    IdfTable t = b.build(id);
    for (long h : stopWords.hashes()) {
      t.set(h, -1f);
    }
    return new IdfTable(
        t.slots, t.size, defaultIdf, t.maxIdf, id, t.entryHashes, t.entryIdfs, t.filter);
  }

  private void set(long termHash, float idf) {
    int tag = tag(termHash);
    for (int slot = home(termHash, mask); slots[slot] != 0; slot = (slot + 1) & mask) {
      if ((int) (slots[slot] >>> 32) == tag) {
        slots[slot] = ((long) tag << 32) | (Float.floatToIntBits(idf) & 0xFFFFFFFFL);
        return;
      }
    }
  }

  private static int tag(long hash) {
    int t = (int) (hash >>> 32);
    return t == 0 ? 1 : t;
  }

  private static int home(long hash, int mask) {
    return (int) hash & mask;
  }

  /** The IDF of the word with this hash, or {@link #defaultIdf()} if the table lacks it. */
  public float idf(long termHash) {
    int tag = tag(termHash);
    int bit = tag & FILTER_MASK & (filter.length * 64 - 1);
    if ((filter[bit >>> 6] & (1L << bit)) == 0) {
      return defaultIdf;
    }
    for (int slot = home(termHash, mask); ; slot = (slot + 1) & mask) {
      long e = slots[slot];
      if ((int) (e >>> 32) == tag) {
        return Float.intBitsToFloat((int) e);
      }
      if (e == 0) {
        return defaultIdf;
      }
    }
  }

  /** Whether the table has an entry for this hash. */
  public boolean contains(long termHash) {
    int tag = tag(termHash);
    for (int slot = home(termHash, mask); ; slot = (slot + 1) & mask) {
      long e = slots[slot];
      if ((int) (e >>> 32) == tag) {
        return true;
      }
      if (e == 0) {
        return false;
      }
    }
  }

  /** The IDF given to words missing from the table: the median of its values. */
  public float defaultIdf() {
    return defaultIdf;
  }

  /**
   * A bound on every IDF {@link #idf} returns: no word weighs more. For a top-N selection that can
   * skip the lookups of words whose weight could not reach the N-th best.
   */
  public float maxIdf() {
    return maxIdf;
  }

  /** The number of words. */
  public int size() {
    return size;
  }

  /**
   * Names the table and its content, e.g. {@code jieba-0.42.1/sha1:5b2e...}; part of fingerprint
   * settings.
   */
  public String id() {
    return id;
  }

  public long ramBytesUsed() {
    return 64 + slots.length * 8L + filter.length * 8L + size * 12L;
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
        throw new IOException(
            name + ": line " + lineNo + ": expected 'word idf', got '" + abbreviate(s) + "'");
      }
      float idf;
      try {
        idf = Float.parseFloat(s.substring(sp + 1).strip());
      } catch (NumberFormatException e) {
        throw new IOException(
            name + ": line " + lineNo + ": idf is not a number in '" + abbreviate(s) + "'", e);
      }
      if (!(idf >= 0) || Float.isInfinite(idf)) {
        throw new IOException(
            name + ": line " + lineNo + ": idf must be a finite number >= 0, got " + idf);
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
    private long[] hashes = new long[1024];
    private float[] idfs = new float[1024];
    private int size;
    private final org.neardup.internal.LongIntMap seen = new org.neardup.internal.LongIntMap(1024);

    /** Adds an entry unless the hash is already present; returns whether it was added. */
    public boolean put(long termHash, float idf) {
      Checks.checkArgument(
          idf >= 0 && !Float.isInfinite(idf), "idf must be finite and >= 0, got %s", idf);
      if (seen.get(termHash) >= 0) {
        return false;
      }
      if (size == hashes.length) {
        hashes = Arrays.copyOf(hashes, size * 2);
        idfs = Arrays.copyOf(idfs, size * 2);
      }
      seen.put(termHash, size);
      hashes[size] = termHash;
      idfs[size] = idf;
      size++;
      return true;
    }

    /**
     * @param id the table's {@link IdfTable#id()}
     * @throws IllegalStateException if nothing was added
     */
    public IdfTable build(String id) {
      Checks.checkState(size > 0, "an IdfTable needs at least one entry");
      long[] slots = new long[capacityFor(size)];
      int mask = slots.length - 1;
      for (int i = 0; i < size; i++) {
        int slot = home(hashes[i], mask);
        while (slots[slot] != 0) {
          slot = (slot + 1) & mask;
        }
        slots[slot] = ((long) tag(hashes[i]) << 32) | (Float.floatToIntBits(idfs[i]) & 0xFFFFFFFFL);
      }
      float[] sorted = Arrays.copyOf(idfs, size);
      Arrays.sort(sorted);
      return new IdfTable(
          slots,
          size,
          sorted[size / 2],
          sorted[size - 1],
          id,
          Arrays.copyOf(hashes, size),
          Arrays.copyOf(idfs, size));
    }
  }
}
