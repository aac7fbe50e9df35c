// SPDX-License-Identifier: Apache-2.0
package org.neardup.segment.jieba;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPInputStream;
import org.jspecify.annotations.Nullable;
import org.neardup.text.IdfTable;
import org.neardup.text.Lexicon;
import org.neardup.text.Segmenter;
import org.neardup.text.UserDictionary;

/**
 * jieba 0.42.1: its Chinese segmentation and its IDF table, as the {@link Lexicon} named {@value
 * #NAME}. Find it with {@code Lexicon.load("jieba")} or take {@link #instance()}.
 *
 * <p>Thread-safe. The segmenter and the IDF table each load once per class loader, on first use,
 * and are shared by every instance. They load from the binary images the build writes ({@link
 * JiebaImage}): 137-178 ms of the loading thread's CPU for both, against 814-894 ms parsing the
 * text files (one core, fresh JVMs, a loaded 2-core box); they keep about 9.6 and 12.6 MB. A load
 * that fails throws {@link UncheckedIOException} and is tried again on the next call.
 */
public final class JiebaLexicon implements Lexicon {
  /** The name {@link Lexicon#load} finds this lexicon by. */
  public static final String NAME = "jieba";

  static final String IDF = "idf.txt.gz";

  private static final JiebaLexicon INSTANCE = new JiebaLexicon();
  private static final Object LOCK = new Object();
  private static volatile @Nullable JiebaSegmenter segmenter;
  private static volatile @Nullable IdfTable idf;

  /** For {@link java.util.ServiceLoader}; prefer {@link #instance()}. */
  public JiebaLexicon() {}

  /** The shared instance. */
  public static JiebaLexicon instance() {
    return INSTANCE;
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * jieba's {@code cut(text, HMM=True)} for runs of Han characters and the ASCII letters, digits
   * and joiners jieba keeps with them; its {@link Segmenter#id()} is {@code
   * jieba-0.42.1/dag+hmm+mixed/sha1:} and 16 hex digits of the SHA-1 of the dictionary and model.
   */
  @Override
  public Segmenter segmenter() {
    JiebaSegmenter s = segmenter;
    if (s == null) {
      synchronized (LOCK) {
        s = segmenter;
        if (s == null) {
          s = JiebaSegmenter.load();
          segmenter = s;
        }
      }
    }
    return s;
  }

  /**
   * jieba's {@code analyse/idf.txt}: about 270,000 words, median IDF 11.955, id {@code
   * jieba-0.42.1/sha1:...}.
   */
  @Override
  public IdfTable idf() {
    IdfTable t = idf;
    if (t == null) {
      synchronized (LOCK) {
        t = idf;
        if (t == null) {
          t = loadIdf();
          idf = t;
        }
      }
    }
    return t;
  }

  static IdfTable loadIdf() {
    try {
      IdfTable t = JiebaImage.readIdf();
      return t != null ? t : loadIdfFromText();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@link #loadIdf()} from the text file, not the image: what the image is made of. */
  static IdfTable loadIdfFromText() {
    var raw = JiebaLexicon.class.getResourceAsStream(IDF);
    if (raw == null) {
      throw new UncheckedIOException(
          new IOException(
              "resource org/neardup/segment/jieba/"
                  + IDF
                  + " is missing from the class path; the neardup-segment-jieba jar is incomplete"));
    }
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(new GZIPInputStream(raw, 1 << 16), StandardCharsets.UTF_8),
            1 << 16)) {
      return IdfTable.read(in, JiebaSegmenter.VERSION);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * jieba with a user dictionary in {@code jieba.load_userdict}'s format ({@code word [freq] [tag]}
   * lines; see {@link JiebaUserWords} for the rules, jieba's). The dictionary is read here, so a
   * malformed one fails now; the segmenter (a copy of jieba's dictionary with the user's words,
   * about 10 MB) is built once per distinct dictionary and kept for the last {@value
   * #CACHED_USER_SEGMENTERS} distinct ones.
   *
   * @throws IllegalArgumentException if the dictionary is not UTF-8 or has a bad frequency
   */
  @Override
  public Lexicon withUserDictionary(UserDictionary dictionary) {
    JiebaSegmenter s = userSegmenter(dictionary);
    return new WithUserDictionary(s, this);
  }

  static final int CACHED_USER_SEGMENTERS = 4;

  private static final java.util.LinkedHashMap<String, JiebaSegmenter> USER_SEGMENTERS =
      new java.util.LinkedHashMap<>(8, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(java.util.Map.Entry<String, JiebaSegmenter> eldest) {
          return size() > CACHED_USER_SEGMENTERS;
        }
      };

  private static JiebaSegmenter userSegmenter(UserDictionary dictionary) {
    synchronized (USER_SEGMENTERS) {
      JiebaSegmenter s = USER_SEGMENTERS.get(dictionary.sha256());
      if (s == null) {
        s = JiebaSegmenter.load(dictionary);
        USER_SEGMENTERS.put(dictionary.sha256(), s);
      }
      return s;
    }
  }

  /**
   * jieba as releases before mixed blocks ran it: segmenter id {@code
   * jieba-0.42.1/dag+hmm/sha1:...}, only runs of Han characters reach the segmenter ({@link
   * JiebaSegmenter#legacy()}); the same dictionary and IDF table. Those releases had no user
   * dictionaries, so this form takes none.
   */
  @Override
  public java.util.List<Lexicon> legacy() {
    return java.util.List.of(new Legacy(this));
  }

  /** {@link #legacy()}: the shared segmenter's legacy form, made on first use. */
  private static final class Legacy implements Lexicon {
    private final JiebaLexicon base;
    private volatile @Nullable JiebaSegmenter segmenter;

    Legacy(JiebaLexicon base) {
      this.base = base;
    }

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public Segmenter segmenter() {
      JiebaSegmenter s = segmenter;
      if (s == null) {
        s = ((JiebaSegmenter) base.segmenter()).legacy();
        segmenter = s;
      }
      return s;
    }

    @Override
    public IdfTable idf() {
      return base.idf();
    }

    @Override
    public String toString() {
      return "JiebaLexicon[" + NAME + ", " + JiebaSegmenter.LEGACY_ALGORITHM + "]";
    }
  }

  /** jieba's lexicon with a user dictionary's words in its segmenter and jieba's IDF table. */
  private static final class WithUserDictionary implements Lexicon {
    private final JiebaSegmenter segmenter;
    private final JiebaLexicon base;

    WithUserDictionary(JiebaSegmenter segmenter, JiebaLexicon base) {
      this.segmenter = segmenter;
      this.base = base;
    }

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public Segmenter segmenter() {
      return segmenter;
    }

    @Override
    public IdfTable idf() {
      return base.idf();
    }

    @Override
    public Lexicon withUserDictionary(UserDictionary dictionary) {
      throw new IllegalArgumentException(
          "this lexicon already has a user dictionary; merge the files into one");
    }

    @Override
    public String toString() {
      return "JiebaLexicon[" + NAME + ", " + segmenter.id() + "]";
    }
  }

  @Override
  public String toString() {
    return "JiebaLexicon[" + NAME + "]";
  }
}
