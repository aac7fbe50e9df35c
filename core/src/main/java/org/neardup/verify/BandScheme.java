// SPDX-License-Identifier: Apache-2.0
package org.neardup.verify;

import org.neardup.internal.Checks;

/**
 * MinHash banding: {@code bands} groups of {@code rows} MinHash values; two texts become candidates
 * when all rows of any one band agree. For Jaccard similarity J the chance of that is {@code 1 - (1
 * - J^rows)^bands} (Leskovec, Rajaraman, Ullman, Mining of Massive Datasets, ch. 3). Immutable.
 */
public final class BandScheme {
  private final int bands;
  private final int rows;

  private BandScheme(int bands, int rows) {
    this.bands = bands;
    this.rows = rows;
  }

  /**
   * @throws IllegalArgumentException unless 1 <= bands <= 64 and 1 <= rows <= 8
   */
  public static BandScheme of(int bands, int rows) {
    Checks.checkArgument(bands >= 1 && bands <= 64, "bands must be in [1, 64], got %s", bands);
    Checks.checkArgument(rows >= 1 && rows <= 8, "rows must be in [1, 8], got %s", rows);
    return new BandScheme(bands, rows);
  }

  /**
   * The fewest bands of two rows that make a pair at exactly {@code threshold} a candidate with
   * probability at least {@code recall} (capped at 64 bands). For threshold 0.8 and recall 0.997: 6
   * bands, which find a pair at J = 0.8 with probability 0.9978 and at J = 0.9 with 0.99995.
   */
  public static BandScheme forThreshold(double threshold, double recall) {
    Checks.checkArgument(
        threshold > 0 && threshold <= 1, "threshold must be in (0, 1], got %s", threshold);
    Checks.checkArgument(recall > 0 && recall < 1, "recall must be in (0, 1), got %s", recall);
    int rows = 2;
    double pBand = Math.pow(threshold, rows);
    if (pBand >= 1) {
      return new BandScheme(1, rows);
    }
    int bands = (int) Math.ceil(Math.log(1 - recall) / Math.log(1 - pBand) - 1e-9);
    return new BandScheme(Math.max(1, Math.min(64, bands)), rows);
  }

  public int bands() {
    return bands;
  }

  public int rows() {
    return rows;
  }

  /** The number of MinHash values: bands * rows. */
  public int values() {
    return bands * rows;
  }

  /** The probability that a pair of Jaccard similarity j becomes a candidate. */
  public double candidateProbability(double j) {
    return 1 - Math.pow(1 - Math.pow(j, rows), bands);
  }

  @Override
  public String toString() {
    return bands + "x" + rows;
  }

  @Override
  public boolean equals(@org.jspecify.annotations.Nullable Object o) {
    return o instanceof BandScheme
        && ((BandScheme) o).bands == bands
        && ((BandScheme) o).rows == rows;
  }

  @Override
  public int hashCode() {
    return bands * 31 + rows;
  }
}
