// SPDX-License-Identifier: Apache-2.0
package org.neardup.fingerprint;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.neardup.internal.PerThread;
import org.neardup.text.HtmlText;
import org.neardup.text.IdfTable;
import org.neardup.text.StopWords;
import org.neardup.text.TermHasher;
import org.neardup.text.TextBuffer;
import org.neardup.text.TextNormalizer;
import org.neardup.text.Tokenizer;
import org.neardup.text.VolatileLines;
import org.neardup.text.WordSink;
import org.neardup.text.WordTap;

/**
 * The TF-IDF weighted simhash: words (or word n-grams) of the normalised text, weighted by term
 * frequency times inverse document frequency, the top N kept.
 */
final class SimhashFingerprinter implements Fingerprinter {
  /*
   * Per text: HTML -> visible text -> TextNormalizer -> HanFolder (han=fold) -> Tokenizer (Segmenter
   * for Han runs) ->
   * filter (length, stop words, numbers) -> hash -> count in an open-addressing term table ->
   * weight -> top N by (weight desc, hash asc) -> Simhash.of.
   * Ties in the top-N cut break on the hash, not on position, so that an edit elsewhere in the
   * text cannot swap which of two equal-weight words is kept.
   * With single words (shingle 1) the IDF is looked up at the cut, not per word: stop words are
   * told apart by the small StopWords table, and weighTop looks up only the IDFs of terms whose
   * count could still place them in the top N. On the dev set's zh texts that is 0.78x the
   * lookups (each mostly a cache miss in jieba's 4 MB table) and the warm pass took ~0.83x the
   * CPU (docs/BENCHMARKS.md, the thirteenth session).
   */
  private final FingerprintSettings settings;
  private final Tokenizer tokenizer;

  /** The IDF lookups {@link Scratch#weighTop} makes together, so that their misses overlap. */
  private static final int BATCH = 16;

  /** Tops of up to this many terms are kept sorted by insertion; larger ones in a heap. */
  private static final int SORTED_MAX = 32;

  /** IDF and stop words in one table: stop words weigh -1. */
  private final IdfTable weights;

  /**
   * The stop words, for the words whose IDF lookup waits until {@link Scratch#selectTop}: a small
   * table that stays cached, where {@link #weights} answers -1 for exactly these hashes.
   */
  private final StopWords stopWords;

  private final PerThread<Scratch> scratch;
  private final boolean foldHan;
  private final boolean dropVolatile;

  SimhashFingerprinter(FingerprintSettings settings) {
    this.settings = settings;
    this.foldHan = settings.han() == FingerprintSettings.Han.FOLD;
    this.dropVolatile = settings.volatileLines() == FingerprintSettings.Volatile.DROP;
    this.tokenizer = new Tokenizer(settings.segmenter());
    this.stopWords = settings.stopWords();
    IdfTable idf = settings.idf();
    this.weights =
        idf == null
            ? IdfTable.ofStopWords(settings.stopWords(), 1f, "none")
            : idf.withStopWords(settings.stopWords());
    this.scratch = new PerThread<>(Scratch::new);
  }

  @Override
  public FingerprintSettings settings() {
    return settings;
  }

  @Override
  public long fingerprint(CharSequence text) {
    Scratch s = scratch.get();
    int n = extract(text, s, false);
    return Simhash.of(s.topHashes, s.topWeights, n, s.sums);
  }

  @Override
  public void normalize(CharSequence text, TextBuffer out) {
    normalize(text, scratch.get(), out);
  }

  /**
   * Appends the normalised text of {@code text} to {@code out} (which is none of {@code s}'s raw
   * and visible buffers). Through this thread's buffers, not two new ones per text: those were 1.08
   * GB of the 4.95 GB dedup's workers allocated at 1M realistic documents, and their zeroing 1.7%
   * of the workers' JFR samples. The scratch is held weakly (PerThread), so the buffers of a huge
   * text do not outlive the next collection.
   */
  private void normalize(CharSequence text, Scratch s, TextBuffer out) {
    s.raw.setTo(text);
    normalize(s.raw.array(), 0, s.raw.length(), s, out);
  }

  /**
   * Normalises {@code text[start, end)} straight from the caller's chars: dedup's reader decodes a
   * record's text into a buffer of its own, where a String of it cost a failed Latin-1 compression
   * (a byte per char) and two bytes per char of every Chinese text, then a copy into the raw
   * buffer.
   */
  @Override
  public void normalize(char[] text, int start, int end, TextBuffer out) {
    java.util.Objects.checkFromToIndex(start, end, text.length);
    normalize(text, start, end, scratch.get(), out);
  }

  private void normalize(char[] text, int start, int end, Scratch s, TextBuffer out) {
    int mark = out.length();
    normalizeTo(text, start, end, s.visible, out);
    if (dropVolatile) {
      VolatileLines.remove(out, mark);
    }
  }

  @Override
  public long fingerprintNormalized(char[] text, int start, int end) {
    return fingerprintNormalized(text, start, end, null);
  }

  @Override
  public long fingerprintNormalized(char[] text, int start, int end, @Nullable WordTap tap) {
    Scratch s = scratch.get();
    s.reset(false);
    s.tap = tap;
    try {
      tokenizer.tokenize(text, start, end, s);
    } finally {
      s.tap = null;
    }
    int n = s.selectTop(settings.topN(), settings.tf());
    return Simhash.of(s.topHashes, s.topWeights, n, s.sums);
  }

  @Override
  public Features features(CharSequence text) {
    Scratch s = new Scratch();
    int n = extract(text, s, true);
    long fp = Simhash.of(s.topHashes, s.topWeights, n, s.sums);
    List<String> words = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      words.add(s.words.get(s.topIndex[i]));
    }
    return new Features(
        List.copyOf(words),
        Arrays.copyOf(s.topHashes, n),
        Arrays.copyOf(s.topWeights, n),
        fp,
        s.terms.size);
  }

  /**
   * Appends the normalised text of {@code raw[start, end)} to {@code out}, its visible text first
   * when it is a page. On char arrays only: a CharSequence that is a String here and a TextBuffer
   * there made C2 compile the loops again at the first page (docs/BENCHMARKS.md, the eleventh
   * session).
   */
  private void normalizeTo(char[] raw, int start, int end, TextBuffer visible, TextBuffer out) {
    HtmlText.Mode mode = settings.html().mode();
    char[] from = raw;
    if (mode != null && HtmlText.looksLikeHtml(raw, start, end)) {
      visible.clear();
      HtmlText.extract(raw, start, end, mode, visible);
      from = visible.array();
      start = 0;
      end = visible.length();
    }
    if (foldHan) {
      TextNormalizer.normalizeFolded(from, start, end, out);
    } else {
      TextNormalizer.normalize(from, start, end, out);
    }
  }

  /**
   * Fills s.topHashes / s.topWeights with the kept features, heaviest first; returns their count.
   */
  private int extract(CharSequence text, Scratch s, boolean keepWords) {
    s.reset(keepWords);
    TextBuffer norm = s.norm;
    normalize(text, s, norm);
    tokenizer.tokenize(norm.array(), 0, norm.length(), s);
    return s.selectTop(settings.topN(), settings.tf());
  }

  /** Per-thread state; also the WordSink the tokenizer feeds. */
  private final class Scratch implements WordSink {
    final TextBuffer raw = new TextBuffer();
    final TextBuffer visible = new TextBuffer();
    final TextBuffer norm = new TextBuffer();
    final TermHasher hasher = new TermHasher();
    final TermTable terms = new TermTable();

    /** Words below the minimum length, used only when a text has no longer word. */
    final TermTable shortTerms = settings.minWordLength() > 1 ? new TermTable() : null;

    final List<String> shortWords = new ArrayList<>();
    final double[] sums = new double[64];
    final int shingle = settings.shingle();
    final long[] ringHash = new long[8];
    final float[] ringIdf = new float[8];
    final int[] ringStart = new int[8];
    final int[] ringEnd = new int[8];
    int seen;
    long[] topHashes = new long[64];
    float[] topWeights = new float[64];
    int[] topIndex = new int[64];
    /*
     * The heap of selectTop and weighTop: term indices with their weights and hashes beside them,
     * so that comparing two entries reads the heap's own arrays rather than the term table's
     * through the indices.
     */
    int[] heap = new int[64];
    float[] heapWeight = new float[64];
    long[] heapHash = new long[64];

    /*
     * The top of at most SORTED_MAX terms (the default 20) is kept instead in topIndex, best first,
     * with each term's weight and the high half of its hash packed into one sortable long in
     * topKey (see key): a term that beats the worst kept is inserted by shifting the worse ones
     * down. Each entering term costs one compare per place it moves, on one long, and one
     * mispredicted branch where it stops; the heap's sift took two compares of a float and a hash
     * per level with a branch each, half of them mispredicted.
     */
    long[] topKey = new long[64];
    boolean sorted;

    /** Term indices whose IDFs {@link #weighBatch} looks up together. */
    final int[] batch = new int[BATCH];

    boolean keepWords;
    final List<String> words = new ArrayList<>();
    @Nullable WordTap tap;

    void reset(boolean keepWords) {
      visible.clear();
      norm.clear();
      terms.clear();
      if (shortTerms != null) {
        shortTerms.clear();
      }
      shortWords.clear();
      seen = 0;
      this.keepWords = keepWords;
      words.clear();
    }

    @Override
    public void word(char[] text, int start, int end) {
      long h = 0;
      if (tap != null) {
        h = hasher.hash(text, start, end);
        tap.word(text, start, end, h);
      }
      int len = end - start;
      boolean tooShort =
          len < settings.minWordLength()
              && Character.codePointCount(text, start, len) < settings.minWordLength();
      if (tooShort && (terms.size > 0 || shortTerms == null)) {
        return;
      }
      if (settings.numbers() == FingerprintSettings.Numbers.DROP && allDigits(text, start, end)) {
        return;
      }
      if (tap == null) {
        h = hasher.hash(text, start, end);
      }
      if (shingle == 1 && !tooShort) {
        // A word the text had before is counted in the small term table. A new one enters it
        // without its IDF (one probe into the IDF table, 4 MB for jieba's, most probes a cache
        // miss): selectTop looks up only the IDFs that can still reach the top N.
        int found = terms.countOrFreeSlot(h);
        if (found >= 0 || stopWords.contains(h)) {
          return; // counted, or a stop word
        }
        keepWord(terms.addAt(-found - 1, h, TermTable.IDF_PENDING), text, start, end);
        return;
      }
      float w = weights.idf(h);
      if (w < 0) {
        return; // a stop word
      }
      if (tooShort) {
        // Kept aside in case the text has no longer word at all (a very short text).
        shortTerms.increment(h, w);
        if (keepWords && shortWords.size() < shortTerms.size) {
          shortWords.add(new String(text, start, end - start));
        }
        return;
      }
      if (shingle == 1) {
        add(h, w, text, start, end);
        return;
      }
      int slot = seen & 7;
      ringHash[slot] = h;
      ringIdf[slot] = w;
      ringStart[slot] = start;
      ringEnd[slot] = end;
      seen++;
      if (seen >= shingle) {
        long sh = 0;
        float sum = 0;
        for (int k = shingle; k >= 1; k--) {
          int at = (seen - k) & 7;
          sh = Shingles.combine(sh, ringHash[at]);
          sum += ringIdf[at];
        }
        add(sh, sum / shingle, text, ringStart[(seen - shingle) & 7], end);
      }
    }

    private void add(long h, float idfValue, char[] text, int start, int end) {
      keepWord(terms.increment(h, idfValue), text, start, end);
    }

    /** Keeps the word of a term for {@link #features} when the term at {@code index} is new. */
    private void keepWord(int index, char[] text, int start, int end) {
      if (keepWords && index == words.size()) {
        words.add(new String(text, start, end - start));
      }
    }

    /** Weights every term and keeps the top n (all when n == 0) in topHashes/topWeights. */
    int selectTop(int n, FingerprintSettings.TfScaling tf) {
      TermTable terms = this.terms;
      if (terms.size == 0 && shortTerms != null && shortTerms.size > 0) {
        terms = shortTerms;
        if (keepWords) {
          words.clear();
          words.addAll(shortWords);
        }
      }
      int count = terms.size;
      int limit = n == 0 ? count : Math.min(n, count);
      if (topHashes.length < limit) {
        topHashes = new long[limit];
        topWeights = new float[limit];
        topIndex = new int[limit];
        heap = new int[limit];
        heapWeight = new float[limit];
        heapHash = new long[limit];
      }
      if (topKey.length < limit) {
        topKey = new long[limit];
      }
      sorted = limit <= SORTED_MAX;
      long[] hashes = terms.hashOfIndex;
      float[] weights;
      int size;
      if (terms == this.terms && shingle == 1) {
        weights = terms.weights;
        size = weighTop(limit, tf);
      } else {
        weights = terms.weights(tf);
        // The best `limit` term indices by (weight desc, hash asc).
        size = 0;
        for (int i = 0; i < count; i++) {
          size = offer(i, size, limit, weights, hashes);
        }
      }
      if (sorted) {
        for (int k = 0; k < size; k++) {
          int i = topIndex[k];
          topHashes[k] = hashes[i];
          topWeights[k] = weights[i];
        }
        return size;
      }
      // Pop worst first to fill the output from the back: heaviest first.
      for (int k = size - 1; k >= 0; k--) {
        topIndex[k] = heap[0];
        topHashes[k] = heapHash[0];
        topWeights[k] = heapWeight[0];
        siftDown(0, k, heap[k], heapWeight[k], heapHash[k]);
      }
      return size;
    }

    /**
     * The weight of the worst of the {@code size} terms kept so far (a full top: size is the
     * limit).
     */
    private float worstWeight(int size) {
      return sorted ? keyWeight(topKey[size - 1]) : heapWeight[0];
    }

    /**
     * Offers term {@code i} to the min-heap of the best {@code limit} term indices by (weight desc,
     * hash asc) in {@code heap}, which holds {@code size} of them; returns the new size.
     */
    private int offer(int i, int size, int limit, float[] weights, long[] hashes) {
      float w = weights[i];
      long h = hashes[i];
      if (sorted) {
        return insert(i, w, h, size, limit, hashes);
      }
      if (size < limit) {
        siftUp(size, i, w, h);
        return size + 1;
      }
      if (better(w, h, heapWeight[0], heapHash[0])) {
        siftDown(0, size, i, w, h);
      }
      return size;
    }

    /**
     * Weighs the term table's terms as {@link TermTable#weights} would and leaves the best {@code
     * limit} of them in the heap, as selectTop's own loop over all weights would; returns the
     * heap's size. Only the terms that can still reach the heap are weighed (their IDFs looked up):
     * the others' weights are left as they were, and no caller reads them.
     */
    private int weighTop(int limit, FingerprintSettings.TfScaling tf) {
      /*
       * A term's weight is scale(count) * idf, and scale is the same non-decreasing function of
       * the count for all terms, so scale(count) * maxIdf bounds it (float products are monotonic
       * in each factor). Terms are weighed by count, the more frequent first: once the heap holds
       * `limit` terms, a count whose bound is below the weight of the heap's worst cannot place a
       * term in the top, nor can a smaller count. Strictly below: a term of equal weight can still
       * win on its hash. The heap is the same set as offering every term would give, since
       * (weight desc, hash asc) orders distinct hashes strictly, and the terms left out are below
       * `limit` others. Weighing straight into the index heap replaced a float heap of the best
       * weights followed by a second pass offering every term to the index heap.
       */
      TermTable t = terms;
      int count = t.size;
      int[] counts = t.counts;
      float[] idfs = t.idfs;
      float[] weights = t.weights;
      long[] hashes = t.hashOfIndex;
      IdfTable idfTable = SimhashFingerprinter.this.weights;
      if (count <= limit) {
        for (int i = 0; i < count; i++) {
          idfs[i] = idfTable.idf(hashes[i]);
        }
        t.weights(tf);
        int size = 0;
        for (int i = 0; i < count; i++) {
          size = offer(i, size, limit, weights, hashes);
        }
        return size;
      }
      float maxIdf = idfTable.maxIdf();
      int[] batch = this.batch;
      int size = 0;
      for (int pass = 0; pass < 3; pass++) {
        // Pass 0: counts >= 3, pass 1: count 2, pass 2: count 1.
        int from = 3 - pass;
        int to = pass == 0 ? Integer.MAX_VALUE : from;
        if (size == limit && TermTable.scale(tf, from) * maxIdf < worstWeight(size)) {
          return size; // no term of this count, or of a smaller one, can enter the top
        }
        int batched = 0;
        for (int i = 0; i < count; i++) {
          int c = counts[i];
          if (c < from || c > to) {
            continue;
          }
          if (size == limit && TermTable.scale(tf, c) * maxIdf < worstWeight(size)) {
            continue;
          }
          batch[batched++] = i;
          if (batched == BATCH) {
            size = weighBatch(batched, size, limit, tf);
            batched = 0;
          }
        }
        size = weighBatch(batched, size, limit, tf);
      }
      return size;
    }

    /**
     * Looks up the IDFs of the first {@code batched} terms of {@link #batch}, then weighs them and
     * offers them to the heap of {@code size}; returns its new size.
     */
    private int weighBatch(int batched, int size, int limit, FingerprintSettings.TfScaling tf) {
      /*
       * The lookups first, in a loop of their own: each is mostly a miss in jieba's 4 MB table,
       * and with no heap work between them (whose branches on the weights just read stall the
       * next lookup behind a misprediction) their misses overlap. A term taken into a batch
       * after a term of the same batch would have raised the heap's bound above its own is
       * weighed for nothing: offer rejects it, as the bound would have; the heap is the same set.
       */
      TermTable t = terms;
      int[] batch = this.batch;
      int[] counts = t.counts;
      float[] idfs = t.idfs;
      float[] weights = t.weights;
      long[] hashes = t.hashOfIndex;
      IdfTable idfTable = SimhashFingerprinter.this.weights;
      for (int k = 0; k < batched; k++) {
        int i = batch[k];
        idfs[i] = idfTable.idf(hashes[i]);
      }
      for (int k = 0; k < batched; k++) {
        int i = batch[k];
        weights[i] = TermTable.scale(tf, counts[i]) * idfs[i];
        size = offer(i, size, limit, weights, hashes);
      }
      return size;
    }

    /**
     * Puts term {@code i} (weight w, hash h) into the sorted top of {@code size} terms (best first)
     * if it is among the best {@code limit}; returns the new size.
     */
    private int insert(int i, float w, long h, int size, int limit, long[] hashes) {
      long[] keys = topKey;
      int[] index = topIndex;
      long key = key(w, h);
      int at;
      if (size < limit) {
        at = size++;
      } else if (before(key, h, keys[limit - 1], hashes[index[limit - 1]])) {
        at = limit - 1; // the worst kept drops out
      } else {
        return size;
      }
      while (at > 0 && before(key, h, keys[at - 1], hashes[index[at - 1]])) {
        keys[at] = keys[at - 1];
        index[at] = index[at - 1];
        at--;
      }
      keys[at] = key;
      index[at] = i;
      return size;
    }

    /**
     * Whether the term of {@code key} and hash {@code h} goes before that of {@code otherKey} and
     * {@code otherHash}: {@link #better} on the packed keys, the hashes' low halves read only when
     * the keys are equal (equal weights and equal high halves).
     */
    private static boolean before(long key, long h, long otherKey, long otherHash) {
      return key > otherKey || (key == otherKey && Long.compareUnsigned(h, otherHash) < 0);
    }

    /**
     * A term's weight and hash as one long whose signed order is {@link #better}'s up to the
     * hashes' low halves: the weight's bits above (a weight is a finite or infinite float >= 0, an
     * IDF >= 0 times a count's scale >= 1, and the bits of such floats are ordered as the floats
     * are; -0.0 is taken as +0.0, which it equals), the high half of the hash's complement below,
     * so that the lower hash gives the larger key.
     */
    private static long key(float w, long h) {
      return (long) Float.floatToRawIntBits(w + 0f) << 32 | (~h >>> 32);
    }

    /** The weight of a {@link #key}. */
    private static float keyWeight(long key) {
      return Float.intBitsToFloat((int) (key >>> 32));
    }

    /** Whether (weight wa, hash ha) goes before (wb, hb): the heavier, on a tie the lower hash. */
    private static boolean better(float wa, long ha, float wb, long hb) {
      return wa > wb || (wa == wb && Long.compareUnsigned(ha, hb) < 0);
    }

    /** Puts term i (weight w, hash h) into the heap's free position pos, moving it up. */
    private void siftUp(int pos, int i, float w, long h) {
      while (pos > 0) {
        int parent = (pos - 1) >>> 1;
        if (!better(heapWeight[parent], heapHash[parent], w, h)) {
          break;
        }
        move(parent, pos);
        pos = parent;
      }
      put(pos, i, w, h);
    }

    /** Puts term i (weight w, hash h) at pos of a heap of size entries, moving it down. */
    private void siftDown(int pos, int size, int i, float w, long h) {
      while (true) {
        int l = 2 * pos + 1;
        if (l >= size) {
          break;
        }
        int worst = l;
        if (l + 1 < size
            && better(heapWeight[l], heapHash[l], heapWeight[l + 1], heapHash[l + 1])) {
          worst = l + 1;
        }
        if (!better(w, h, heapWeight[worst], heapHash[worst])) {
          break;
        }
        move(worst, pos);
        pos = worst;
      }
      put(pos, i, w, h);
    }

    private void move(int from, int to) {
      heap[to] = heap[from];
      heapWeight[to] = heapWeight[from];
      heapHash[to] = heapHash[from];
    }

    private void put(int pos, int i, float w, long h) {
      heap[pos] = i;
      heapWeight[pos] = w;
      heapHash[pos] = h;
    }
  }

  /** Digits, or digits with the '.' and '%' jieba keeps in a number (3.5, 50%). */
  private static boolean allDigits(char[] text, int start, int end) {
    if (text[start] < '0' || text[start] > '9') {
      return false;
    }
    for (int i = start + 1; i < end; i++) {
      char c = text[i];
      if ((c < '0' || c > '9') && c != '.' && c != '%') {
        return false;
      }
    }
    return true;
  }
}
