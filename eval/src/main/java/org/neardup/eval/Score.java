// SPDX-License-Identifier: Apache-2.0
package org.neardup.eval;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Pairwise precision, recall and F1 of one prediction, overall and per group ({@code ALL}, {@code
 * lang=zh}, {@code len=short}, {@code lang/len=zh/short}, {@code kind=word_edit}), counted exactly
 * as {@code shared/data/score.py} counts them, plus the share of each hard-negative kind predicted
 * as duplicates. Immutable once made by a {@link Scorer}.
 *
 * <p>{@link #table()}, {@link #hardNegativesText()} and {@link #toJson()} print what score.py
 * prints and writes, character for character and number for number: a group is listed when it has a
 * true positive, a false positive or a false negative, in score.py's order; ratios are the same
 * IEEE divisions and are rounded half-even from their exact binary value, as Python's {@code %}
 * formatting does.
 */
public final class Score {
  /** TP, FP, FN counts of one group. */
  public static final class Counts {
    long tp;
    long fp;
    long fn;

    Counts() {}

    Counts(long tp, long fp, long fn) {
      this.tp = tp;
      this.fp = fp;
      this.fn = fn;
    }

    public long tp() {
      return tp;
    }

    public long fp() {
      return fp;
    }

    public long fn() {
      return fn;
    }

    /** Gold positives of the group: TP + FN. */
    public long positives() {
      return tp + fn;
    }

    /** Predicted pairs of the group: TP + FP. */
    public long predicted() {
      return tp + fp;
    }

    /** TP / (TP + FP); NaN when nothing was predicted. */
    public double precision() {
      return tp + fp == 0 ? Double.NaN : (double) tp / (tp + fp);
    }

    /** TP / (TP + FN); NaN when the group has no gold positive. */
    public double recall() {
      return tp + fn == 0 ? Double.NaN : (double) tp / (tp + fn);
    }

    /** The harmonic mean of precision and recall; 0 when both are defined and TP is 0. */
    public double f1() {
      double p = precision();
      double r = recall();
      if (tp == 0) {
        return tp + fp > 0 && tp + fn > 0 ? 0.0 : Double.NaN;
      }
      return 2 * p * r / (p + r);
    }

    @Override
    public String toString() {
      return "tp=" + tp + " fp=" + fp + " fn=" + fn;
    }
  }

  /** How many hard negatives of one kind there were and how many were predicted. */
  public record HardNegatives(long total, long predicted) {
    /** predicted / total; NaN for none. */
    public double share() {
      return total == 0 ? Double.NaN : (double) predicted / total;
    }
  }

  private static final List<String> HEADS = List.of("ALL", "lang", "len", "lang/len", "kind");

  /** score.py's order: ALL, lang=, len=, lang/len=, kind=, each by name. */
  static final Comparator<String> ORDER =
      Comparator.comparingInt((String g) -> HEADS.indexOf(g.split("=", -1)[0]))
          .thenComparing(Comparator.naturalOrder());

  private final double threshold;
  private final Map<String, Counts> groups;
  private final Map<String, HardNegatives> hardNegatives;
  private final long predicted;
  private final long positives;

  Score(
      double threshold,
      Map<String, Counts> groups,
      Map<String, HardNegatives> hardNegatives,
      long predicted,
      long positives) {
    this.threshold = threshold;
    TreeMap<String, Counts> g = new TreeMap<>(ORDER);
    g.putAll(groups);
    this.groups = Collections.unmodifiableMap(g);
    this.hardNegatives = Collections.unmodifiableMap(new TreeMap<>(hardNegatives));
    this.predicted = predicted;
    this.positives = positives;
  }

  /** The gold threshold: positives are listed pairs with jaccard at least this. */
  public double threshold() {
    return threshold;
  }

  /** Counts per group in score.py's order; only groups with a TP, FP or FN. */
  public Map<String, Counts> groups() {
    return groups;
  }

  /** The overall counts. */
  public Counts all() {
    return get("ALL");
  }

  /** The counts of a group, or zero counts when the group had no TP, FP or FN. */
  public Counts get(String group) {
    Counts c = groups.get(group);
    return c == null ? new Counts() : c;
  }

  /** Per hard-negative kind (listed {@code hn_*} pairs below the threshold), by name. */
  public Map<String, HardNegatives> hardNegatives() {
    return hardNegatives;
  }

  /** The number of distinct predicted pairs. */
  public long predicted() {
    return predicted;
  }

  /** The number of gold positives. */
  public long positives() {
    return positives;
  }

  /**
   * score.py's first line: {@code gold: NAME threshold: jaccard >= 0.8 gold positives: N
   * predictions: pairs, N pairs}.
   */
  public String header(String gold) {
    return "gold: "
        + gold
        + "  threshold: jaccard >= "
        + formatG(threshold, 3)
        + "  gold positives: "
        + positives
        + "  predictions: pairs, "
        + predicted
        + " pairs";
  }

  /** score.py's table: a heading line and one line per group, each ending in a newline. */
  public String table() {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "%-34s %8s %8s %8s %8s %8s %7s %7s %7s\n",
            "group",
            "gold_pos",
            "pred",
            "TP",
            "FP",
            "FN",
            "prec",
            "recall",
            "F1"));
    groups.forEach(
        (g, c) ->
            out.append(
                    String.format(
                        Locale.ROOT,
                        "%-34s %8d %8d %8d %8d %8d %7s %7s %7s",
                        g,
                        c.tp + c.fn,
                        c.tp + c.fp,
                        c.tp,
                        c.fp,
                        c.fn,
                        formatF(c.precision(), 7, 4),
                        formatF(c.recall(), 7, 4),
                        formatF(c.f1(), 7, 4)))
                .append('\n'));
    return out.toString();
  }

  /** score.py's hard-negative lines (empty when there is no hard negative below threshold). */
  public String hardNegativesText() {
    if (hardNegatives.isEmpty()) {
      return "";
    }
    StringBuilder out =
        new StringBuilder("\nhard negatives below threshold that were predicted as duplicates:\n");
    hardNegatives.forEach(
        (kind, h) ->
            out.append(
                    String.format(
                        Locale.ROOT,
                        "  %-26s %6d of %6d  (%s%%)",
                        kind,
                        h.predicted(),
                        h.total(),
                        formatF(100.0 * h.predicted() / h.total(), 0, 2)))
                .append('\n'));
    return out.toString();
  }

  /**
   * The object score.py writes with {@code --json}: {@code threshold, gold_positives,
   * predicted_pairs, groups: {name: {tp, fp, fn, precision, recall, f1}}}, and {@code
   * hard_negatives: {kind: {n, predicted}}} when there are any; undefined ratios are null.
   */
  public ObjectNode toJson() {
    JsonNodeFactory f = JsonNodeFactory.instance;
    ObjectNode out = f.objectNode();
    out.put("threshold", threshold);
    out.put("gold_positives", positives);
    out.put("predicted_pairs", predicted);
    ObjectNode gs = out.putObject("groups");
    groups.forEach(
        (g, c) -> {
          ObjectNode o = gs.putObject(g);
          o.put("tp", c.tp);
          o.put("fp", c.fp);
          o.put("fn", c.fn);
          putRatio(o, "precision", c.precision());
          putRatio(o, "recall", c.recall());
          putRatio(o, "f1", c.f1());
        });
    if (!hardNegatives.isEmpty()) {
      ObjectNode hn = out.putObject("hard_negatives");
      hardNegatives.forEach(
          (k, h) -> {
            ObjectNode o = hn.putObject(k);
            o.put("n", h.total());
            o.put("predicted", h.predicted());
          });
    }
    return out;
  }

  private static void putRatio(ObjectNode o, String name, double v) {
    if (Double.isNaN(v)) {
      o.putNull(name);
    } else {
      o.put(name, v);
    }
  }

  /**
   * Python's {@code "%W.Pf" % v}: the exact binary value rounded half-even to P decimals, NaN as
   * {@code nan}, right-aligned in W characters.
   */
  static String formatF(double v, int width, int decimals) {
    String s;
    if (Double.isNaN(v)) {
      s = "nan";
    } else if (Double.isInfinite(v)) {
      s = v > 0 ? "inf" : "-inf";
    } else {
      s = new BigDecimal(v).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
    }
    return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
  }

  /** Python's {@code "%.Pg" % v} for the plain-notation values a threshold or floor takes. */
  static String formatG(double v, int precision) {
    if (v == 0) {
      return "0";
    }
    BigDecimal d =
        new BigDecimal(v)
            .round(new MathContext(precision, RoundingMode.HALF_EVEN))
            .stripTrailingZeros();
    return d.scale() < 0 ? d.setScale(0).toPlainString() : d.toPlainString();
  }
}
