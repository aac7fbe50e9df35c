// SPDX-License-Identifier: Apache-2.0
package org.neardup.store;

import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.neardup.fingerprint.FingerprintSettings;
import org.neardup.text.UserDictionary;

/**
 * A collection's Chinese text settings: simplified/traditional folding and a user dictionary for
 * the lexicon's segmenter. Both change fingerprints and sketches, so both are part of the
 * collection's analyzer id.
 *
 * <p>In {@link CollectionSettings#toText()} they appear as {@code han=fold} (no {@code han} key
 * means keep, as in settings stored before the option) and {@code userdict=sha256:<64 hex digits>}:
 * the text names the dictionary by its content's hash, and a store keeps the bytes themselves (the
 * embedded store in its data directory) and hands them back to {@link
 * CollectionSettings#parse(String, java.util.function.Function)}.
 *
 * @param han whether traditional characters fold to simplified ones
 * @param userDictionary the user dictionary, or null for none
 */
public record ChineseOptions(FingerprintSettings.Han han, @Nullable UserDictionary userDictionary) {
  /** The defaults of a new collection: folding, no user dictionary. */
  public static final ChineseOptions DEFAULT =
      new ChineseOptions(FingerprintSettings.Han.FOLD, null);

  /**
   * No folding, no user dictionary: what settings text without {@code han} and {@code userdict}
   * means, as collections made before these options were stored.
   */
  public static final ChineseOptions NONE = new ChineseOptions(FingerprintSettings.Han.KEEP, null);

  public ChineseOptions {
    Objects.requireNonNull(han, "han");
  }

  public ChineseOptions withHan(FingerprintSettings.Han h) {
    return new ChineseOptions(h, userDictionary);
  }

  public ChineseOptions withUserDictionary(@Nullable UserDictionary d) {
    return new ChineseOptions(han, d);
  }

  /** Parses {@code keep} or {@code fold}. */
  public static FingerprintSettings.Han parseHan(String text) {
    switch (text) {
      case "keep":
        return FingerprintSettings.Han.KEEP;
      case "fold":
        return FingerprintSettings.Han.FOLD;
      default:
        throw new IllegalArgumentException("han must be 'keep' or 'fold', got '" + text + "'");
    }
  }

  /** The {@code key=value} pairs that differ from {@link #NONE}, each after a {@code ;}. */
  String toText() {
    StringBuilder b = new StringBuilder();
    if (han != FingerprintSettings.Han.KEEP) {
      b.append(";han=").append(han.name().toLowerCase(Locale.ROOT));
    }
    if (userDictionary != null) {
      b.append(";userdict=sha256:").append(userDictionary.sha256());
    }
    return b.toString();
  }
}
