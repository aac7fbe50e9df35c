package org.neardup.eval;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Scores predicted duplicate pairs against a {@link Dataset}, as {@code score.py} does. */
public final class Scorer {
  private static final List<String> RANK = List.of("short", "medium", "long");

  private final Dataset data;
  private final double threshold;

  /**
   * @param threshold gold positives are listed pairs with jaccard >= threshold (0.8 by the
   *     dataset's definition)
   */
  public Scorer(Dataset data, double threshold) {
    this.data = data;
    this.threshold = threshold;
  }

  /**
   * Scores a set of predicted pairs, each given as {@link #key(int, int)} of two document indexes.
   */
  public Score score(Set<Long> predicted) {
    Score s = new Score();
    s.predicted = predicted.size();
    for (long k : predicted) {
      int a = (int) (k >>> 32);
      int b = (int) k;
      Dataset.Pair p = data.pair(a, b);
      boolean positive = p != null && p.jaccard() >= threshold;
      for (String g : groups(a, b, p)) {
        Score.Counts c = s.group(g);
        if (positive) {
          c.tp++;
        } else {
          c.fp++;
        }
      }
    }
    for (Dataset.Pair p : data.pairs()) {
      if (p.jaccard() >= threshold) {
        s.positives++;
        if (!predicted.contains(key(p.a(), p.b()))) {
          for (String g : groups(p.a(), p.b(), p)) {
            s.group(g).fn++;
          }
        }
      } else if (p.kind().startsWith("hn_")) {
        long[] hn = s.hardNegatives.computeIfAbsent(p.kind(), x -> new long[2]);
        hn[0]++;
        if (predicted.contains(key(p.a(), p.b()))) {
          hn[1]++;
        }
      }
    }
    s.group("ALL");
    return s;
  }

  private List<String> groups(int a, int b, Dataset.Pair p) {
    String lang;
    String len;
    String kind;
    if (p != null) {
      lang = p.lang();
      len = p.lenClass();
      kind = p.kind();
    } else {
      Dataset.Doc da = data.docs().get(a);
      Dataset.Doc db = data.docs().get(b);
      lang = da.lang().equals(db.lang()) ? da.lang() : "mixed";
      len =
          RANK.indexOf(da.lenClass()) <= RANK.indexOf(db.lenClass()) ? da.lenClass() : db.lenClass();
      kind = "unlisted";
    }
    return List.of("ALL", "lang=" + lang, "len=" + len, "lang/len=" + lang + "/" + len, "kind=" + kind);
  }

  /** The key of the unordered pair of document indexes a and b. */
  public static long key(int a, int b) {
    return Dataset.key(a, b);
  }

  /** A fresh set for predicted pair keys. */
  public static Set<Long> newPairSet() {
    return new HashSet<>();
  }
}
