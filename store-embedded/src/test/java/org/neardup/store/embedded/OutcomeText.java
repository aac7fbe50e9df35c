// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.util.ArrayList;
import java.util.List;
import org.neardup.store.Outcome;

/** An answer as text (status, id, cluster, each match's id, distance and similarity), for tests. */
final class OutcomeText {
  private OutcomeText() {}

  /** Every part of {@code o} that two stores must give alike, in order, as one line. */
  static String answer(Outcome o) {
    List<String> m = new ArrayList<>();
    for (Outcome.Match x : o.matches()) {
      m.add(x.id() + "@" + x.distance() + "/" + Math.round(x.similarity() * 1000));
    }
    return o.status() + " " + o.id() + " " + o.cluster() + " " + m;
  }
}
