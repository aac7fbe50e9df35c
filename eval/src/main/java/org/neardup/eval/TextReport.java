// SPDX-License-Identifier: Apache-2.0
package org.neardup.eval;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * What {@code neardup eval} prints: the run, score.py's table at the given settings (the same text
 * score.py prints for the same pairs), the sweeps and the settings alternatives.
 */
public final class TextReport {
  private TextReport() {}

  /** The language/length cells of the dataset, e.g. {@code en/short}, in score.py's order. */
  static List<String> cells(Dataset data) {
    TreeSet<String> cells = new TreeSet<>();
    for (Dataset.Pair p : data.pairs()) {
      cells.add(p.lang() + "/" + p.lenClass());
    }
    return new ArrayList<>(cells);
  }

  /** Hard-negative kinds of the dataset, by name. */
  static List<String> hardNegativeKinds(Score s) {
    return new ArrayList<>(s.hardNegatives().keySet());
  }

  public static String render(Evaluation.Result r, String datasetName) {
    StringBuilder out = new StringBuilder();
    Dataset data = r.dataset();
    Evaluation.Engine base = r.base();
    Corpus c = r.corpus();
    out.append(
        f(
            "neardup eval %s: %,d documents, %,d listed pairs, %,d near-duplicates (Jaccard >= %s)%n",
            datasetName,
            data.docs().size(),
            data.pairs().size(),
            r.score().positives(),
            Score.formatG(r.options().labelThreshold, 3)));
    out.append(f("settings: %s (%s)%n  id: %s%n", base.label(), base.summary(), base.settingsId()));
    out.append(
        f(
            "analysis: %.2f s for the whole dataset on %d threads (the first pass: JIT warm-up"
                + " included); pairs: %.2f s; %d documents without letters or digits left out%n",
            c.seconds(), c.threads(), r.pairs().seconds(), c.excludedCount()));
    if (!r.variants().isEmpty() && r.variants().get(0).docsPerSecond().length > 0) {
      out.append(
          f(
              "throughput: %s documents/s (median and range of %d timed rounds, analysis only)%n",
              docsPerSecond(r.variants().get(0), data.docs().size()),
              r.variants().get(0).docsPerSecond().length));
    }
    out.append('\n');
    out.append(r.score().header(datasetName)).append('\n');
    out.append(r.score().table());
    out.append(r.score().hardNegativesText());

    List<String> cells = cells(data);
    if (r.fingerprintByK() != null) {
      out.append(
          f("%nfingerprint only (--no-verify): near-duplicates are fingerprints within k bits%n"));
      kTable(out, r.fingerprintByK(), cells);
    }
    if (r.verifiedByK() != null) {
      out.append(
          f(
              "%nverified (threshold %s): candidates within k bits or sharing a MinHash band,"
                  + " kept when their similarity reaches the threshold%n",
              Score.formatG(base.threshold(), 3)));
      kTable(out, r.verifiedByK(), cells);
    }
    if (!r.byThreshold().isEmpty()) {
      out.append(
          f(
              "%nverified at k = %d, by similarity threshold t: against the dataset's label (J >= %s),"
                  + " and against a label moved to t%n",
              base.maxDistance(), Score.formatG(r.options().labelThreshold, 3)));
      out.append(
          f(
              "%9s %6s %8s | %7s %7s %7s | %8s %7s %7s %7s%n",
              "threshold",
              "bands",
              "pred",
              "prec",
              "recall",
              "F1",
              "gold_pos",
              "prec",
              "recall",
              "F1"));
      for (Evaluation.ThresholdPoint p : r.byThreshold()) {
        Score.Counts l = p.atLabel().all();
        Score.Counts m = p.matched().all();
        out.append(
            f(
                "%9s %6s %8d | %s %s %s | %8d %s %s %s%n",
                Score.formatG(p.threshold(), 3),
                p.bands(),
                p.predicted(),
                r4(l.precision()),
                r4(l.recall()),
                r4(l.f1()),
                p.matched().positives(),
                r4(m.precision()),
                r4(m.recall()),
                r4(m.f1())));
      }
    }
    if (r.variants().size() > 1) {
      out.append(
          f(
              "%nsettings alternatives: one option changed from the given settings. docs/s: analysis"
                  + " on %d threads, median and range of %d rounds; F1 fp: fingerprint only (within k"
                  + " bits) from the same fingerprints%n",
              c.threads(), r.options().throughputRounds));
      StringBuilder head =
          new StringBuilder(
              f(
                  "%-26s %15s %8s %7s %7s %7s %7s |",
                  "settings", "docs/s", "pred", "prec", "recall", "F1", "F1 fp"));
      for (String cell : cells) {
        head.append(f(" %9s", cell));
      }
      out.append(head).append('\n');
      for (Evaluation.Variant v : r.variants()) {
        Score.Counts a = v.score().all();
        out.append(
            f(
                "%-26s %15s %8d %s %s %s %s |",
                rowLabel(v, r.variants().indexOf(v)),
                docsPerSecond(v, data.docs().size()),
                v.score().predicted(),
                r4(a.precision()),
                r4(a.recall()),
                r4(a.f1()),
                r4(v.fingerprintOnly().all().f1())));
        for (String cell : cells) {
          out.append(f(" %9s", r4(v.score().get("lang/len=" + cell).f1())));
        }
        out.append('\n');
      }
      List<String> kinds = hardNegativeKinds(r.score());
      if (!kinds.isEmpty()) {
        out.append(f("%nhard negatives predicted as duplicates (%% of each kind)%n"));
        StringBuilder h = new StringBuilder(f("%-26s", "settings"));
        for (String k : kinds) {
          h.append(f(" %10s", shortKind(k)));
        }
        out.append(h).append('\n');
        for (Evaluation.Variant v : r.variants()) {
          out.append(f("%-26s", rowLabel(v, r.variants().indexOf(v))));
          Map<String, Score.HardNegatives> hn = v.score().hardNegatives();
          for (String k : kinds) {
            Score.HardNegatives x = hn.get(k);
            out.append(f(" %10s", x == null ? "-" : Score.formatF(100 * x.share(), 0, 2)));
          }
          out.append('\n');
        }
      }
      List<String> edits = editKinds(data);
      if (!edits.isEmpty()) {
        out.append(
            f(
                "%nF1 per kind of edited copy, and the share of listed pairs found (reported as"
                    + " near-duplicates, whatever their label)%n"));
        StringBuilder h = new StringBuilder(f("%-26s", "settings"));
        for (String k : edits) {
          h.append(f(" %12s", shortKind(k)));
        }
        out.append(h).append('\n');
        for (Evaluation.Variant v : r.variants()) {
          out.append(f("%-26s", rowLabel(v, r.variants().indexOf(v))));
          for (String k : edits) {
            out.append(f(" %12s", r4(v.score().get("kind=" + k).f1())));
          }
          out.append('\n');
          out.append(f("%-26s", "  found"));
          for (String k : edits) {
            out.append(f(" %11s%%", Score.formatF(100 * found(v.score(), data, k), 0, 1)));
          }
          out.append('\n');
        }
      }
    }
    return out.toString();
  }

  /** The kinds of listed pairs that are not hard negatives, in name order. */
  static List<String> editKinds(Dataset data) {
    java.util.TreeSet<String> kinds = new java.util.TreeSet<>();
    for (Dataset.Pair p : data.pairs()) {
      if (!p.kind().startsWith("hn_")) {
        kinds.add(p.kind());
      }
    }
    return List.copyOf(kinds);
  }

  /** The share of the listed pairs of a kind that the score's prediction reports, labels aside. */
  static double found(Score score, Dataset data, String kind) {
    long listed = 0;
    for (Dataset.Pair p : data.pairs()) {
      if (p.kind().equals(kind)) {
        listed++;
      }
    }
    Score.Counts c = score.get("kind=" + kind);
    return listed == 0 ? Double.NaN : (double) (c.tp() + c.fp()) / listed;
  }

  /**
   * Median throughput and its range over the rounds, e.g. {@code 3,612 (3.1-4.0k)}; the whole
   * dataset's single pass when there were no rounds.
   */
  static String docsPerSecond(Evaluation.Variant v, int docs) {
    if (v.docsPerSecond().length == 0) {
      return f("%,.0f", docs / v.analysisSeconds());
    }
    return f(
        "%,.0f %s",
        v.medianDocsPerSecond(),
        v.docsPerSecond().length > 1
            ? f("%.1f-%.1fk", v.minDocsPerSecond() / 1000, v.maxDocsPerSecond() / 1000)
            : "");
  }

  /** The label of a settings row; the first row is the given settings. */
  static String rowLabel(Evaluation.Variant v, int row) {
    return row == 0 ? v.engine().label() + " (given)" : v.engine().label();
  }

  /** {@code hn_same_author} → {@code same_author}. */
  static String shortKind(String kind) {
    return kind.startsWith("hn_") ? kind.substring(3) : kind;
  }

  private static void kTable(StringBuilder out, Score[] byK, List<String> cells) {
    StringBuilder head =
        new StringBuilder(
            f(
                "%3s %8s %8s %8s %8s %7s %7s %7s |",
                "k", "pred", "TP", "FP", "FN", "prec", "recall", "F1"));
    for (String cell : cells) {
      head.append(f(" %9s", cell));
    }
    out.append(head).append("   (F1 by language/length)\n");
    for (int k = 0; k < byK.length; k++) {
      Score s = byK[k];
      Score.Counts a = s.all();
      out.append(
          f(
              "%3d %8d %8d %8d %8d %s %s %s |",
              k,
              s.predicted(),
              a.tp(),
              a.fp(),
              a.fn(),
              r4(a.precision()),
              r4(a.recall()),
              r4(a.f1())));
      for (String cell : cells) {
        out.append(f(" %9s", r4(s.get("lang/len=" + cell).f1())));
      }
      out.append('\n');
    }
  }

  /** A ratio as score.py prints it: 4 decimals in 7 characters. */
  static String r4(double v) {
    return Score.formatF(v, 7, 4);
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
