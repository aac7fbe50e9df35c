// SPDX-License-Identifier: Apache-2.0
package org.neardup.verify;

import java.util.Arrays;
import org.neardup.internal.Checks;
import org.neardup.internal.PerThread;
import org.neardup.text.CharClass;
import org.neardup.text.TermHasher;

/**
 * Cuts normalised text into shingles and sketches them.
 *
 * <p>Mode: when at least a tenth of the letters and digits are Chinese characters the shingles are
 * runs of {@value #CHAR_SHINGLE} consecutive letters or digits (punctuation and spaces dropped);
 * otherwise they are runs of {@value #WORD_SHINGLE} consecutive words, a word being a maximal run
 * of letters and digits. A text with fewer letters or words than that has one shingle: all of them.
 * With number folding on, every digit counts as {@code 0} (and every all-digit word as a word of
 * that many zeros), so counters, dates and times that changed value but not length do not change
 * the shingles.
 *
 * <p>Thread-safe; per-thread scratch space, so the only allocation per text is the result (its
 * hashes' array twice when the text repeats a shingle: sized before the repeats are dropped, then
 * trimmed). Cost: linear in the text, about one 64-bit mix per character (~10 ns per character of a
 * Chinese text, half of it the shingles' hashing and a third the sort); the bottom-{@code capacity}
 * selection keeps memory bounded for texts of any length.
 */
public final class Shingler {
  /** Letters per shingle in character mode. */
  public static final int CHAR_SHINGLE = 5;

  /** Words per shingle in word mode. */
  public static final int WORD_SHINGLE = 3;

  /** The default number of shingle hashes kept per text. */
  public static final int DEFAULT_CAPACITY = 512;

  /** Folded all-digit words hash to this plus their length. */
  private static final long DIGITS = 0x2323232323232323L;

  private final int capacity;
  private final BandScheme bands;
  private final boolean foldNumbers;
  private final PerThread<Scratch> scratch = new PerThread<>(() -> new Scratch());

  /**
   * @param capacity shingle hashes kept per text (texts with more keep the smallest)
   * @param bands how MinHash values are banded into candidate keys
   * @param foldNumbers whether every digit counts as 0
   */
  public Shingler(int capacity, BandScheme bands, boolean foldNumbers) {
    Checks.checkArgument(
        capacity >= 16 && capacity <= 1 << 20, "capacity must be in [16, 2^20], got %s", capacity);
    this.capacity = capacity;
    this.bands = bands;
    this.foldNumbers = foldNumbers;
  }

  public int capacity() {
    return capacity;
  }

  public BandScheme bands() {
    return bands;
  }

  public boolean foldNumbers() {
    return foldNumbers;
  }

  /** Names these settings, e.g. {@code shingle/1;cap=512;bands=6x2;numbers=keep}. */
  public String id() {
    return "shingle/1;chars="
        + CHAR_SHINGLE
        + ";words="
        + WORD_SHINGLE
        + ";cap="
        + capacity
        + ";bands="
        + bands
        + ";numbers="
        + (foldNumbers ? "fold" : "keep");
  }

  /** Sketches normalised text {@code text[start, end)}. */
  public Sketch sketch(char[] text, int start, int end) {
    return sketch(text, start, end, mode(letters(text, start, end)));
  }

  /**
   * Sketches normalised text {@code text[start, end)} in a mode already chosen by {@link #mode}.
   */
  public Sketch sketch(char[] text, int start, int end, ShingleSketch.Mode mode) {
    if (mode == ShingleSketch.Mode.NONE) {
      return new Sketch(ShingleSketch.empty(), new long[0]);
    }
    Scratch s = scratch.get();
    s.reset(bands.values(), capacity);
    if (mode == ShingleSketch.Mode.CHARS) {
      charShingles(text, start, end, s);
    } else {
      wordShingles(text, start, end, s);
    }
    return new Sketch(s.bottom(mode, capacity), s.bandKeys(bands));
  }

  /**
   * The sketch of shingles already hashed (each as {@link #mix} gives it), in this order: the
   * selection and the bins alone, for tests that hold them to a model.
   */
  Sketch sketchOfShingleHashes(long[] shingleHashes, ShingleSketch.Mode mode) {
    Scratch s = scratch.get();
    s.reset(bands.values(), capacity);
    for (long h : shingleHashes) {
      s.add(h);
    }
    return new Sketch(s.bottom(mode, capacity), s.bandKeys(bands));
  }

  /**
   * Counts the letters and digits of normalised text: Chinese characters in the high 32 bits, all
   * others in the low 32 bits (each saturating at 2^31 - 1).
   */
  public static long letters(char[] text, int start, int end) {
    // HAN is 1 and WORD 2, so c & 1 and c >>> 1 count them with no branch per char (this pass over
    // every text was 40% of the sketch's JFR samples in the 1M realistic dedup when it branched).
    long han = 0;
    long other = 0;
    for (int i = start; i < end; i++) {
      char ch = text[i];
      int c;
      if (Character.isSurrogate(ch)) {
        c = CharClass.at(text, i, end); // a pair is one code point; a lone one separates
        i += CharClass.width(text, i, end) - 1;
      } else {
        c = CharClass.classify(ch);
      }
      han += c & 1;
      other += c >>> 1;
    }
    return (Math.min(han, Integer.MAX_VALUE) << 32) | Math.min(other, Integer.MAX_VALUE);
  }

  /** The mode for a text with these {@link #letters} counts. */
  public static ShingleSketch.Mode mode(long letters) {
    long han = letters >>> 32;
    long other = letters & 0xFFFFFFFFL;
    if (han + other == 0) {
      return ShingleSketch.Mode.NONE;
    }
    return han * 10 >= han + other ? ShingleSketch.Mode.CHARS : ShingleSketch.Mode.WORDS;
  }

  /**
   * Starts sketching a {@link ShingleSketch.Mode#WORDS} text from words that another pass hashes
   * anyway (a {@link org.neardup.text.WordTap}): feed every word in order to {@link
   * WordSession#word}, then call {@link WordSession#finish}. The session belongs to the calling
   * thread and must be finished before the next one starts on it.
   */
  public WordSession words() {
    Scratch s = scratch.get();
    s.reset(bands.values(), capacity);
    s.session.count = 0;
    return s.session;
  }

  /** Words fed one by one; see {@link #words()}. */
  public final class WordSession {
    private final Scratch s;
    int count;
    // The last three words' hashes, w2 the newest.
    long w0;
    long w1;
    long w2;

    private WordSession(Scratch s) {
      this.s = s;
    }

    /**
     * Takes the next word {@code text[start, end)} whose {@link TermHasher} hash is {@code hash}.
     */
    public void word(char[] text, int start, int end, long hash) {
      // A number: digits, or digits with the '.' and '%' jieba keeps in them (3.5, 50%).
      boolean allDigits = text[start] >= '0' && text[start] <= '9';
      for (int i = start + 1; i < end && allDigits; i++) {
        char c = text[i];
        allDigits = (c >= '0' && c <= '9') || c == '.' || c == '%';
      }
      w0 = w1;
      w1 = w2;
      w2 = foldNumbers && allDigits ? DIGITS + (end - start) : hash;
      count++;
      if (count >= WORD_SHINGLE) {
        s.add(mix(WORD_SHINGLE + w0 * P0 + w1 * P1 + w2 * P2));
      }
    }

    /** The sketch of the words fed so far. */
    public Sketch finish() {
      if (count == 0) {
        return new Sketch(ShingleSketch.empty(), new long[0]);
      }
      if (count < WORD_SHINGLE) {
        s.add(shortShingle(new long[] {w1, w2}, 2 - count, count));
      }
      return new Sketch(s.bottom(ShingleSketch.Mode.WORDS, capacity), s.bandKeys(bands));
    }
  }

  /*
   * A shingle of n tokens hashes to mix(n + sum(token[k] * POSITION[k])), oldest token at k = 0:
   * the tokens are kept in locals shifted by one per token (no ring buffer, no division per token),
   * which with the multiplies unrolled halved the hashing's cost; ShinglerGoldenTest holds the
   * hashes to the bit.
   */

  private void charShingles(char[] text, int start, int end, Scratch s) {
    // The last five tokens, w4 the newest.
    long w0 = 0;
    long w1 = 0;
    long w2 = 0;
    long w3 = 0;
    long w4 = 0;
    int count = 0;
    for (int i = start; i < end; ) {
      // One table lookup classifies a char; the table calls every surrogate a separator, so only
      // chars it calls separators are tested for a surrogate (a pair is one code point, which may
      // be a letter; a lone one separates): a letter's path has no surrogate test.
      char ch = text[i];
      byte c = CharClass.classify(ch);
      int cp = ch;
      if (c == CharClass.SEPARATOR && Character.isSurrogate(ch)) {
        int w = CharClass.width(text, i, end);
        c = CharClass.at(text, i, end);
        cp = w == 2 ? Character.toCodePoint(ch, text[i + 1]) : ch;
        i += w;
      } else {
        i++;
      }
      if (c != CharClass.SEPARATOR) {
        w0 = w1;
        w1 = w2;
        w2 = w3;
        w3 = w4;
        w4 = foldNumbers && Character.isDigit(cp) ? '0' : cp;
        count++;
        if (count >= CHAR_SHINGLE) {
          s.add(mix(CHAR_SHINGLE + w0 * P0 + w1 * P1 + w2 * P2 + w3 * P3 + w4 * P4));
        }
      }
    }
    if (count > 0 && count < CHAR_SHINGLE) {
      s.add(shortShingle(new long[] {w1, w2, w3, w4}, 4 - count, count));
    }
  }

  private void wordShingles(char[] text, int start, int end, Scratch s) {
    long w0 = 0;
    long w1 = 0;
    long w2 = 0;
    int count = 0;
    int i = start;
    while (i < end) {
      byte c = CharClass.at(text, i, end);
      if (c == CharClass.SEPARATOR) {
        i += CharClass.width(text, i, end);
        continue;
      }
      int wordStart = i;
      boolean allDigits = true;
      while (i < end && CharClass.at(text, i, end) != CharClass.SEPARATOR) {
        if (text[i] < '0' || text[i] > '9') {
          allDigits = false;
        }
        i += CharClass.width(text, i, end);
      }
      w0 = w1;
      w1 = w2;
      w2 = foldNumbers && allDigits ? DIGITS + (i - wordStart) : s.hasher.hash(text, wordStart, i);
      count++;
      if (count >= WORD_SHINGLE) {
        s.add(mix(WORD_SHINGLE + w0 * P0 + w1 * P1 + w2 * P2));
      }
    }
    if (count > 0 && count < WORD_SHINGLE) {
      s.add(shortShingle(new long[] {w1, w2}, 2 - count, count));
    }
  }

  /**
   * The one shingle of a text with fewer tokens than a shingle: the {@code n} tokens {@code
   * tokens[from, from + n)}, oldest first.
   */
  private static long shortShingle(long[] tokens, int from, int n) {
    long h = n;
    for (int k = 0; k < n; k++) {
      h += tokens[from + k] * POSITION[k];
    }
    return mix(h);
  }

  /** Odd multipliers, one per position in a shingle, so the order of tokens matters. */
  private static final long[] POSITION = {
    0x9E3779B97F4A7C15L,
    0xC2B2AE3D27D4EB4FL,
    0x165667B19E3779F9L,
    0x85EBCA77C2B2AE63L,
    0x27D4EB2F165667C5L,
    0xD6E8FEB86659FD93L,
    0xFF51AFD7ED558CCDL,
    0xC4CEB93FE53E63BBL
  };

  private static final long P0 = POSITION[0];
  private static final long P1 = POSITION[1];
  private static final long P2 = POSITION[2];
  private static final long P3 = POSITION[3];
  private static final long P4 = POSITION[4];

  static long mix(long h) {
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb93fe53e63bL;
    h ^= h >>> 33;
    return h;
  }

  /** A {@link Scratch#cutoff} above every int: nothing is cut. */
  private static final long NEVER_CUT = 1L << 31;

  /** Per-thread buffers. */
  private final class Scratch {
    final WordSession session = new WordSession(this);
    final TermHasher hasher = new TermHasher();

    /** The shingles' 32-bit hashes with the sign bit flipped, so signed order is unsigned order. */
    int[] hashes = new int[1024];

    int[] tmp = new int[1024];
    int[] counts = new int[1025];
    int n;
    boolean truncated;

    /**
     * Hashes at or above this are never kept: once truncated, the largest hash kept by the last
     * compaction (sign bit flipped); before, above every int, so that one compare tests both.
     */
    long cutoff;

    int capacity;
    int[] minValue = new int[16];

    /**
     * Bins whose minimum is Integer.MAX_VALUE (sign bit flipped) although they took a shingle: a
     * bin took one when its minimum is below that or it is marked here. Marking only that value
     * (once in 2^32 shingles) instead of every bin taken saves a store per shingle.
     */
    boolean[] filledAtMax = new boolean[16];

    int bins;

    void reset(int bins, int capacity) {
      this.capacity = capacity;
      n = 0;
      truncated = false;
      cutoff = NEVER_CUT;
      this.bins = bins;
      if (minValue.length < bins) {
        minValue = new int[bins];
        filledAtMax = new boolean[bins];
      }
      Arrays.fill(filledAtMax, 0, bins, false);
      Arrays.fill(minValue, 0, bins, Integer.MAX_VALUE);
    }

    /** Takes one shingle hash: into the one-permutation MinHash bins and the bottom-k buffer. */
    void add(long h) {
      int bin = (int) (((h & 0xFFFFFFFFL) * bins) >>> 32);
      // The high half, independent of the bin, which the low half chose; sign bit flipped, so the
      // signed minimum (no branch) is the unsigned one.
      int value = (int) (h >>> 32) ^ Integer.MIN_VALUE;
      minValue[bin] = Math.min(minValue[bin], value);
      if (value == Integer.MAX_VALUE) {
        filledAtMax[bin] = true;
      }
      if (value >= cutoff) {
        return; // not below the largest of the smallest capacity already kept: never kept
      }
      if (n == hashes.length) {
        if (capacity > 0 && n >= 4 * capacity) {
          compact(capacity);
          if (truncated) {
            cutoff = hashes[n - 1];
            if (value >= cutoff) {
              return;
            }
          }
        } else {
          hashes = Arrays.copyOf(hashes, n * 2);
          tmp = new int[hashes.length];
        }
      }
      hashes[n++] = value;
    }

    /** Sorts, drops duplicates and keeps the smallest {@code keep}. */
    void compact(int keep) {
      sort();
      int m = 0;
      for (int i = 0; i < n; i++) {
        if (m == 0 || hashes[m - 1] != hashes[i]) {
          hashes[m++] = hashes[i];
        }
      }
      if (m > keep) {
        m = keep;
        truncated = true;
      }
      n = m;
    }

    /**
     * The sketch of the shingles taken: as {@link #compact} then a copy with the sign bits flipped
     * back, in one pass over the sorted hashes that drops repeats, stops after the smallest {@code
     * keep} and flips as it copies. The two passes and the copy's array were ~1.3 of the ~10 ns per
     * char of a 258-char Chinese text's sketch (the sort ~3.7, the shingles' hashing ~4.9).
     */
    ShingleSketch bottom(ShingleSketch.Mode mode, int keep) {
      sort();
      int[] out = new int[Math.min(n, keep)];
      int m = 0;
      for (int i = 0; i < n; i++) {
        int h = hashes[i];
        if (m > 0 && (out[m - 1] ^ Integer.MIN_VALUE) == h) {
          continue; // a repeated shingle
        }
        if (m == keep) {
          truncated = true; // a distinct hash beyond the smallest keep
          break;
        }
        out[m++] = h ^ Integer.MIN_VALUE;
      }
      if (m < out.length) {
        out = Arrays.copyOf(out, m);
      }
      return new ShingleSketch(mode, out, !truncated);
    }

    /**
     * Sorts hashes[0, n): uniformly random values, so one counting pass on their top log2(n) + 1
     * bits leaves at most one per bucket mostly and a final insertion sort finishes in linear time.
     * For the ~100 hashes of a short text this is several times faster than Arrays.sort's insertion
     * sort. Two to four buckets per hash rather than one to two: the insertion sort moves fewer of
     * them, and its inner loop's exit is mispredicted less often; 0.88x the time per array of
     * 50-2,000 random hashes (one core, ThreadMXBean, 5 interleaved rounds, 2,105-2,265 against
     * 2,356-2,560 ns), four buckets per hash no faster than one.
     */
    private void sort() {
      if (n < 48) {
        insertionSort(hashes, n);
        return;
      }
      int bits = 33 - Integer.numberOfLeadingZeros(n - 1);
      int buckets = 1 << bits;
      if (counts.length < buckets + 1) {
        counts = new int[buckets + 1];
      }
      if (tmp.length < n) {
        tmp = new int[hashes.length];
      }
      Arrays.fill(counts, 0, buckets + 1, 0);
      int shift = 32 - bits;
      for (int i = 0; i < n; i++) {
        counts[((hashes[i] ^ Integer.MIN_VALUE) >>> shift) + 1]++;
      }
      for (int b = 0; b < buckets; b++) {
        counts[b + 1] += counts[b];
      }
      for (int i = 0; i < n; i++) {
        tmp[counts[(hashes[i] ^ Integer.MIN_VALUE) >>> shift]++] = hashes[i];
      }
      int[] t = hashes;
      hashes = tmp;
      tmp = t;
      insertionSort(hashes, n);
    }

    private static void insertionSort(int[] a, int n) {
      for (int i = 1; i < n; i++) {
        int v = a[i];
        int j = i - 1;
        while (j >= 0 && a[j] > v) {
          a[j + 1] = a[j];
          j--;
        }
        a[j + 1] = v;
      }
    }

    /** Densifies empty bins (Shrivastava 2017) and folds each band's rows into one key. */
    long[] bandKeys(BandScheme scheme) {
      boolean any = false;
      for (int i = 0; i < bins; i++) {
        any |= filled(i);
      }
      if (!any) {
        return new long[0];
      }
      int rows = scheme.rows();
      long[] keys = new long[scheme.bands()];
      for (int b = 0; b < keys.length; b++) {
        long h = b + 1;
        for (int r = 0; r < rows; r++) {
          int bin = b * rows + r;
          h = mix(Long.rotateLeft(h, 21) ^ (densified(bin) & 0xFFFFFFFFL));
        }
        keys[b] = h;
      }
      return keys;
    }

    private boolean filled(int bin) {
      return minValue[bin] != Integer.MAX_VALUE || filledAtMax[bin];
    }

    private int densified(int bin) {
      if (filled(bin)) {
        return minValue[bin] ^ Integer.MIN_VALUE;
      }
      for (long attempt = 1; ; attempt++) {
        long h = mix(((long) bin << 32) ^ attempt ^ 0x5851F42D4C957F2DL);
        int other = (int) (((h & 0xFFFFFFFFL) * bins) >>> 32);
        if (filled(other)) {
          return minValue[other] ^ Integer.MIN_VALUE;
        }
      }
    }
  }
}
