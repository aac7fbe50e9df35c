// SPDX-License-Identifier: Apache-2.0
package org.neardup.eval;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Scores predicted duplicate pairs against a {@link Dataset}, as {@code shared/data/score.py} does:
 * gold positives are the listed pairs with jaccard at least the threshold; a predicted pair counts
 * in the groups of its listed pair ({@code lang}, {@code len_class}, {@code kind}) or, when it is
 * not listed, in those of its documents ({@code mixed} for two languages, the shorter length class)
 * and in {@code kind=unlisted(J<floor)}.
 *
 * <p>Immutable and thread-safe: every group a pair can fall in is known once the dataset is read.
 * Cost: one hash lookup and five counter increments per predicted pair, plus a pass over the groups
 * per {@link Score}.
 */
public final class Scorer {
  /*
   * Every count comes from TP and FP per group: FN of a group is its positives minus its TP, which
   * is what score.py's "pos - pred" loop counts, since a positive is tallied in the same groups
   * whether it is found (TP) or missed (FN).
   */
  private static final List<String> RANK = List.of("short", "medium", "long");

  private final Dataset data;
  private final double threshold;
  private final List<String> groupNames = new ArrayList<>();
  private final Map<String, Integer> groupIds = new HashMap<>();
  private final Map<Long, Integer> listed;
  private final int[][] listedGroups;
  private final boolean[] positive;
  private final int[] hardNegative;
  private final List<String> hnKinds = new ArrayList<>();
  private final long[] hnTotals;
  private final long[] positivesPerGroup;
  private final long positives;
  private final Map<String, Integer> langIds = new HashMap<>();
  private final Map<String, Integer> lenIds = new HashMap<>();
  private final int[] docLang;
  private final int[] docLen;
  private final int[][][] unlistedGroups;

  /**
   * @param threshold gold positives are listed pairs with jaccard >= threshold (0.8 by the
   *     dataset's definition)
   */
  public Scorer(Dataset data, double threshold) {
    this.data = data;
    this.threshold = threshold;
    List<Dataset.Pair> pairs = data.pairs();
    listed = new HashMap<>(pairs.size() * 2);
    listedGroups = new int[pairs.size()][];
    positive = new boolean[pairs.size()];
    hardNegative = new int[pairs.size()];
    Map<String, Integer> hnIds = new TreeMap<>();
    for (Dataset.Pair p : pairs) {
      if (p.kind().startsWith("hn_") && p.jaccard() < threshold) {
        hnIds.putIfAbsent(p.kind(), 0);
      }
    }
    hnKinds.addAll(hnIds.keySet());
    for (int i = 0; i < hnKinds.size(); i++) {
      hnIds.put(hnKinds.get(i), i);
    }
    hnTotals = new long[hnKinds.size()];
    long pos = 0;
    for (int i = 0; i < pairs.size(); i++) {
      Dataset.Pair p = pairs.get(i);
      listed.put(Dataset.key(p.a(), p.b()), i);
      listedGroups[i] = ids(p.lang(), p.lenClass(), p.kind());
      positive[i] = p.jaccard() >= threshold;
      pos += positive[i] ? 1 : 0;
      hardNegative[i] = -1;
      if (p.kind().startsWith("hn_") && p.jaccard() < threshold) {
        hardNegative[i] = hnIds.get(p.kind());
        hnTotals[hardNegative[i]]++;
      }
    }
    positives = pos;
    // Unlisted pairs fall in groups named after their documents: all known up front.
    List<Dataset.Doc> docs = data.docs();
    docLang = new int[docs.size()];
    docLen = new int[docs.size()];
    for (Dataset.Doc d : docs) {
      docLang[d.index()] = langIds.computeIfAbsent(d.lang(), x -> langIds.size());
      docLen[d.index()] = lenIds.computeIfAbsent(d.lenClass(), x -> lenIds.size());
    }
    langIds.putIfAbsent("mixed", langIds.size());
    String[] langs = new String[langIds.size()];
    langIds.forEach((l, id) -> langs[id] = l);
    String[] lens = new String[lenIds.size()];
    lenIds.forEach((l, id) -> lens[id] = l);
    String unlisted = "unlisted(J<" + Score.formatG(data.floor(), 2) + ")";
    unlistedGroups = new int[langs.length][lens.length][];
    for (int l = 0; l < langs.length; l++) {
      for (int c = 0; c < lens.length; c++) {
        unlistedGroups[l][c] = ids(langs[l], lens[c], unlisted);
      }
    }
    positivesPerGroup = new long[groupNames.size()];
    for (int i = 0; i < pairs.size(); i++) {
      if (positive[i]) {
        for (int g : listedGroups[i]) {
          positivesPerGroup[g]++;
        }
      }
    }
  }

  private int[] ids(String lang, String len, String kind) {
    return new int[] {
      id("ALL"),
      id("lang=" + lang),
      id("len=" + len),
      id("lang/len=" + lang + "/" + len),
      id("kind=" + kind)
    };
  }

  private int id(String group) {
    return groupIds.computeIfAbsent(
        group,
        g -> {
          groupNames.add(g);
          return groupNames.size() - 1;
        });
  }

  public Dataset dataset() {
    return data;
  }

  public double threshold() {
    return threshold;
  }

  /** Whether the pair of documents a and b (by index) is a gold positive. */
  public boolean isPositive(int a, int b) {
    Integer i = listed.get(Dataset.key(a, b));
    return i != null && positive[i];
  }

  /**
   * Scores a set of predicted pairs, each given as {@link #key(int, int)} of two document indexes;
   * a pair of a document with itself is ignored, as score.py ignores it.
   */
  public Score score(Set<Long> predicted) {
    Tally t = new Tally();
    for (long k : predicted) {
      t.add(k);
    }
    return t.score();
  }

  /** Scores the distinct keys among {@code keys[0, n)}. */
  public Score score(long[] keys, int n) {
    long[] sorted = Arrays.copyOf(keys, n);
    Arrays.sort(sorted);
    Tally t = new Tally();
    for (int i = 0; i < n; i++) {
      if (i == 0 || sorted[i] != sorted[i - 1]) {
        t.add(sorted[i]);
      }
    }
    return t.score();
  }

  /**
   * Scores a family of nested predictions in one pass: pair {@code keys[i]} is predicted at every
   * level from {@code levels[i]} on (a key given twice counts from its lowest level), so the
   * result's element L scores the pairs with level at most L, for L in [0, maxLevel]. For example
   * levels = fingerprint distances give the scores for every k.
   */
  public Score[] scoreLevels(long[] keys, int[] levels, int n, int maxLevel) {
    if (maxLevel < 0) {
      throw new IllegalArgumentException("maxLevel must be >= 0, got " + maxLevel);
    }
    Map<Long, Integer> first = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      if (levels[i] <= maxLevel) {
        first.merge(keys[i], Math.max(0, levels[i]), Math::min);
      }
    }
    List<List<Long>> byLevel = new ArrayList<>();
    for (int l = 0; l <= maxLevel; l++) {
      byLevel.add(new ArrayList<>());
    }
    first.forEach((k, l) -> byLevel.get(l).add(k));
    Score[] out = new Score[maxLevel + 1];
    Tally t = new Tally();
    for (int l = 0; l <= maxLevel; l++) {
      for (long k : byLevel.get(l)) {
        t.add(k);
      }
      out[l] = t.score();
    }
    return out;
  }

  /** The key of the unordered pair of document indexes a and b. */
  public static long key(int a, int b) {
    return Dataset.key(a, b);
  }

  /** The lower document index of a pair key. */
  public static int first(long key) {
    return (int) (key >>> 32);
  }

  /** The higher document index of a pair key. */
  public static int second(long key) {
    return (int) key;
  }

  /** A fresh set for predicted pair keys. */
  public static Set<Long> newPairSet() {
    return new java.util.HashSet<>();
  }

  /** Running TP and FP per group of distinct pairs added so far. Not thread-safe. */
  private final class Tally {
    final long[] tp = new long[groupNames.size()];
    final long[] fp = new long[groupNames.size()];
    final long[] hnPredicted = new long[hnKinds.size()];
    long predicted;

    void add(long key) {
      int a = first(key);
      int b = second(key);
      if (a == b) {
        return;
      }
      Integer i = listed.get(key);
      int[] groups;
      boolean pos;
      if (i != null) {
        groups = listedGroups[i];
        pos = positive[i];
        if (hardNegative[i] >= 0) {
          hnPredicted[hardNegative[i]]++;
        }
      } else {
        int lang = docLang[a] == docLang[b] ? docLang[a] : langIds.get("mixed");
        int len = shorter(docLen[a], docLen[b], a, b);
        groups = unlistedGroups[lang][len];
        pos = false;
      }
      long[] counts = pos ? tp : fp;
      for (int g : groups) {
        counts[g]++;
      }
      predicted++;
    }

    /** score.py's {@code min(ca, cb, key=CLS_RANK.get)}: the first of equal ranks. */
    private int shorter(int lenA, int lenB, int a, int b) {
      String ca = data.docs().get(a).lenClass();
      String cb = data.docs().get(b).lenClass();
      return RANK.indexOf(cb) < RANK.indexOf(ca) ? lenB : lenA;
    }

    Score score() {
      Map<String, Score.Counts> groups = new HashMap<>();
      for (int g = 0; g < groupNames.size(); g++) {
        long fn = positivesPerGroup[g] - tp[g];
        if (tp[g] + fp[g] + fn > 0) {
          groups.put(groupNames.get(g), new Score.Counts(tp[g], fp[g], fn));
        }
      }
      Map<String, Score.HardNegatives> hn = new HashMap<>();
      for (int k = 0; k < hnKinds.size(); k++) {
        hn.put(hnKinds.get(k), new Score.HardNegatives(hnTotals[k], hnPredicted[k]));
      }
      return new Score(threshold, groups, hn, predicted, positives);
    }
  }
}
