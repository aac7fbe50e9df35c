// SPDX-License-Identifier: Apache-2.0
package org.neardup.store;

import org.neardup.fingerprint.FingerprintSettings;

/**
 * A named set of defaults for the options that decide what is a duplicate, for one kind of text.
 * Options given beside a preset win over it.
 */
public enum Preset {
  /** The plain defaults. */
  NONE(false, FingerprintSettings.Html.VISIBLE, FingerprintSettings.Volatile.KEEP),
  /**
   * Crawled pages: numbers folded (a page whose counter or date changed is the same page), the main
   * content of HTML (the same article under another site's template), and volatile lines (view and
   * comment counters, post dates, "last edited") left out of the fingerprint and the shingles.
   */
  WEB(true, FingerprintSettings.Html.MAIN, FingerprintSettings.Volatile.DROP);

  private final boolean foldNumbers;
  private final FingerprintSettings.Html html;
  private final FingerprintSettings.Volatile volatileLines;

  Preset(boolean foldNumbers, FingerprintSettings.Html html, FingerprintSettings.Volatile v) {
    this.foldNumbers = foldNumbers;
    this.html = html;
    this.volatileLines = v;
  }

  public boolean foldNumbers() {
    return foldNumbers;
  }

  public FingerprintSettings.Html html() {
    return html;
  }

  public FingerprintSettings.Volatile volatileLines() {
    return volatileLines;
  }

  /** The preset's name as users write it: {@code none} or {@code web}. */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /** Parses {@code none} or {@code web}. */
  public static Preset parse(String text) {
    switch (text.toLowerCase(java.util.Locale.ROOT)) {
      case "none":
        return NONE;
      case "web":
        return WEB;
      default:
        throw new IllegalArgumentException("preset must be 'none' or 'web', got '" + text + "'");
    }
  }
}
