package org.neardup.eval;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * Pairwise precision, recall and F1 of one prediction, overall and per group ({@code ALL},
 * {@code lang=zh}, {@code len=short}, {@code lang/len=zh/short}, {@code kind=word_edit}), counted
 * exactly as {@code shared/data/score.py} counts them, plus the share of each hard-negative kind
 * predicted as duplicates.
 */
public final class Score {
  /** TP, FP, FN counts of one group. */
  public static final class Counts {
    long tp;
    long fp;
    long fn;

    public long tp() {
      return tp;
    }

    public long fp() {
      return fp;
    }

    public long fn() {
      return fn;
    }

    public double precision() {
      return tp + fp == 0 ? Double.NaN : (double) tp / (tp + fp);
    }

    public double recall() {
      return tp + fn == 0 ? Double.NaN : (double) tp / (tp + fn);
    }

    public double f1() {
      double p = precision();
      double r = recall();
      if (tp == 0) {
        return tp + fp > 0 && tp + fn > 0 ? 0.0 : Double.NaN;
      }
      return 2 * p * r / (p + r);
    }
  }

  /** How many hard negatives of one kind there were and how many were predicted. */
  public record HardNegatives(long total, long predicted) {
    public double share() {
      return total == 0 ? Double.NaN : (double) predicted / total;
    }
  }

  final Map<String, Counts> groups = new TreeMap<>();
  final Map<String, long[]> hardNegatives = new TreeMap<>();
  long predicted;
  long positives;

  Counts group(String name) {
    return groups.computeIfAbsent(name, g -> new Counts());
  }

  /** Counts per group name; always has {@code ALL}. */
  public Map<String, Counts> groups() {
    return Collections.unmodifiableMap(groups);
  }

  public Counts all() {
    return group("ALL");
  }

  /** The counts of a group, or empty counts when the group had no pair. */
  public Counts get(String group) {
    Counts c = groups.get(group);
    return c == null ? new Counts() : c;
  }

  public Map<String, HardNegatives> hardNegatives() {
    Map<String, HardNegatives> out = new TreeMap<>();
    hardNegatives.forEach((k, v) -> out.put(k, new HardNegatives(v[0], v[1])));
    return out;
  }

  /** The number of distinct predicted pairs. */
  public long predicted() {
    return predicted;
  }

  /** The number of gold positives. */
  public long positives() {
    return positives;
  }
}
