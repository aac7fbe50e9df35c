// SPDX-License-Identifier: Apache-2.0
package org.neardup.eval;

import org.neardup.CorpusDedup;

/** Pairs found by {@link CorpusDedup}, with how long finding them took. */
public final class PairList extends org.neardup.PairList {
  double seconds;

  /** Wall-clock seconds {@link CorpusDedup#findPairs} took. */
  public double seconds() {
    return seconds;
  }
}
