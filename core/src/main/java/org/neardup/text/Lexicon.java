// SPDX-License-Identifier: Apache-2.0
package org.neardup.text;

/**
 * A Chinese segmenter together with the IDF table made for its words; found with {@link
 * java.util.ServiceLoader} by {@link #name()}.
 *
 * <p>Module {@code neardup-segment-jieba} provides {@code "jieba"}.
 */
public interface Lexicon {

  /** The name users select it by, e.g. {@code jieba}. */
  String name();

  /** The segmenter; loads its dictionary on first use and is shared afterwards. */
  Segmenter segmenter();

  /** The IDF table that ships with the dictionary. */
  IdfTable idf();

  /**
   * This lexicon with a user dictionary's words added to its segmenter; the segmenter's {@link
   * Segmenter#id()} then names the dictionary.
   *
   * @throws IllegalArgumentException if the dictionary is malformed (naming the line), or this
   *     lexicon takes none
   */
  default Lexicon withUserDictionary(UserDictionary dictionary) {
    throw new IllegalArgumentException(
        "lexicon '" + name() + "' does not take a user dictionary (" + dictionary.name() + ")");
  }

  /**
   * Earlier forms of this lexicon that this build still reproduces exactly, newest first: the same
   * dictionary segmented as an earlier release did, with the segmenter id that release wrote. A
   * store opens a collection whose stored analyzer id names one of them with that form ({@link
   * org.neardup.store.CollectionSettings#deduplicatorFor}), so upgrading never orphans its data.
   * None by default.
   */
  default java.util.List<Lexicon> legacy() {
    return java.util.List.of();
  }

  /**
   * Loads the lexicon named {@code name} from the class path.
   *
   * @throws IllegalArgumentException naming the lexicons that are available when none matches
   */
  static Lexicon load(String name) {
    java.util.List<String> seen = new java.util.ArrayList<>();
    for (Lexicon lexicon : java.util.ServiceLoader.load(Lexicon.class)) {
      if (lexicon.name().equals(name)) {
        return lexicon;
      }
      seen.add(lexicon.name());
    }
    throw new IllegalArgumentException(
        "no lexicon named '"
            + name
            + "' on the class path (found: "
            + seen
            + "); add the module that provides it, e.g. neardup-segment-jieba for 'jieba'");
  }
}
