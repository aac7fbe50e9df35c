// SPDX-License-Identifier: Apache-2.0
package org.neardup.eval;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.neardup.fingerprint.FingerprintSettings;
import org.neardup.text.HtmlText;

/**
 * The evaluation as one self-contained HTML page: inline CSS and inline SVG charts, no script and
 * nothing fetched, so it can be mailed, archived or opened offline. Sections: summary at the given
 * settings, settings alternatives, the k and threshold sweeps, distance and similarity histograms,
 * results per kind of pair, the most confident mistakes side by side with their differences marked,
 * and the settings ids.
 */
public final class HtmlReport {
  private HtmlReport() {}

  static final String BLUE = "#1f77b4";
  static final String ORANGE = "#ff7f0e";
  static final String GREEN = "#2ca02c";
  static final String RED = "#d62728";
  static final String GREY = "#7f7f7f";
  static final String PURPLE = "#9467bd";
  static final String TEAL = "#17becf";

  /** Tokens of context kept on each side of a change; longer unchanged stretches are folded. */
  static final int CONTEXT = 30;

  /** Tokens shown of one changed stretch. */
  static final int MAX_CHANGED = 400;

  private static final int CHART_W = 620;
  private static final int CHART_H = 340;

  public static void write(Evaluation.Result r, String datasetName, Writer w) throws IOException {
    w.write(render(r, datasetName));
  }

  static String render(Evaluation.Result r, String datasetName) {
    StringBuilder h = new StringBuilder(1 << 16);
    Dataset data = r.dataset();
    Score s = r.score();
    Evaluation.Engine base = r.base();
    String label = Score.formatG(r.options().labelThreshold, 3);
    h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n");
    h.append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n");
    h.append("<title>neardup evaluation: ").append(esc(datasetName)).append("</title>\n");
    h.append("<style>\n").append(CSS).append("</style>\n</head>\n<body>\n<main>\n");

    h.append("<h1>neardup evaluation</h1>\n");
    h.append("<p class=\"sub\">Dataset <code>")
        .append(esc(datasetName))
        .append("</code>: ")
        .append(f("%,d", data.docs().size()))
        .append(" documents, ")
        .append(f("%,d", data.pairs().size()))
        .append(" labelled pairs, of which ")
        .append(f("%,d", s.positives()))
        .append(" are near-duplicates.<br/>Settings: <b>")
        .append(esc(base.label()))
        .append("</b> (")
        .append(esc(base.summary()))
        .append(").</p>\n");
    h.append("<nav>")
        .append(link("summary", "Summary"))
        .append(link("alternatives", "Settings alternatives"))
        .append(r.fingerprintByK() != null ? link("k", "Fingerprint distance k") : "")
        .append(!r.byThreshold().isEmpty() ? link("threshold", "Similarity threshold") : "")
        .append(link("distributions", "Distributions"))
        .append(link("kinds", "By kind of pair"))
        .append(link("fp", "False positives"))
        .append(link("fn", "False negatives"))
        .append(link("settings", "Settings ids"))
        .append("</nav>\n");
    h.append(
            "<div class=\"howto\"><b>How to read this report.</b> neardup reports pairs of documents")
        .append(" it considers near-duplicates. A pair is a true near-duplicate (the <i>label</i>)")
        .append(
            " when the Jaccard similarity of the two texts' shingle sets (character 5-grams for")
        .append(" Chinese, word 3-grams for English, after normalisation) is at least ")
        .append(label)
        .append(". <b>Precision</b> is the share of reported pairs that are true near-duplicates;")
        .append(" <b>recall</b> the share of true near-duplicates that were reported; <b>F1</b>")
        .append(" their harmonic mean. All three are between 0 and 1, higher is better. The")
        .append(" numbers are the ones <code>score.py</code> computes for the same pairs.</div>\n");

    summary(h, r);
    alternatives(h, r);
    kSweep(h, r);
    thresholdSweep(h, r);
    distributions(h, r);
    kinds(h, r);
    examples(
        h,
        r,
        "fp",
        "False positives",
        "Pairs reported as near-duplicates whose label says they are not, most confident first"
            + (base.verifies()
                ? " (highest estimated similarity"
                : " (smallest fingerprint distance")
            + ", then lowest label Jaccard); at most "
            + Evaluation.PER_KIND
            + " of one kind, so one cause does not fill the list.",
        r.falsePositives());
    examples(
        h,
        r,
        "fn",
        "False negatives",
        "Near-duplicates by the label that were not reported, most obvious first (highest label"
            + " Jaccard); at most "
            + Evaluation.PER_KIND
            + " of one kind.",
        r.falseNegatives());
    settings(h, r, datasetName);
    h.append("</main>\n</body>\n</html>\n");
    return h.toString();
  }

  private static void summary(StringBuilder h, Evaluation.Result r) {
    Score s = r.score();
    Score.Counts all = s.all();
    h.append("<h2 id=\"summary\">Summary at the given settings</h2>\n");
    h.append("<div class=\"cards\">\n");
    card(
        h,
        "Precision",
        ratio(all.precision()),
        f("%,d of %,d reported pairs are right", all.tp(), all.predicted()));
    card(
        h,
        "Recall",
        ratio(all.recall()),
        f("%,d of %,d near-duplicates found", all.tp(), all.positives()));
    card(h, "F1", ratio(all.f1()), "harmonic mean of the two");
    if (!r.variants().isEmpty()) {
      Evaluation.Variant v = r.variants().get(0);
      card(
          h,
          "Documents / second",
          f(
              "%,.0f",
              v.docsPerSecond().length > 0 ? v.medianDocsPerSecond() : r.corpus().docsPerSecond()),
          f("analysis on %d threads", r.corpus().threads()));
    }
    h.append("</div>\n");
    h.append("<p>Precision, recall and F1 by language and by the length of the shorter document")
        .append(" (short: at most 200 characters, long: at least 500). Hard negatives, pairs built")
        .append(" to look alike without being near-duplicates, are listed under")
        .append(" <a href=\"#kinds\">By kind of pair</a>.</p>\n");
    h.append("<table>\n<tr><th class=\"l\">group</th><th>near-duplicates</th><th>reported</th>")
        .append(
            "<th>TP</th><th>FP</th><th>FN</th><th>precision</th><th>recall</th><th>F1</th></tr>\n");
    for (Map.Entry<String, Score.Counts> e : s.groups().entrySet()) {
      if (e.getKey().startsWith("kind=")) {
        continue;
      }
      countsRow(h, e.getKey(), e.getValue(), e.getKey().equals("ALL"));
    }
    h.append("</table>\n");
  }

  private static void countsRow(StringBuilder h, String name, Score.Counts c, boolean strong) {
    h.append(strong ? "<tr class=\"all\">" : "<tr>")
        .append("<td class=\"l\">")
        .append(esc(name))
        .append("</td><td>")
        .append(f("%,d", c.positives()))
        .append("</td><td>")
        .append(f("%,d", c.predicted()))
        .append("</td><td>")
        .append(f("%,d", c.tp()))
        .append("</td><td>")
        .append(f("%,d", c.fp()))
        .append("</td><td>")
        .append(f("%,d", c.fn()))
        .append("</td><td>")
        .append(ratio(c.precision()))
        .append("</td><td>")
        .append(ratio(c.recall()))
        .append("</td><td>")
        .append(ratio(c.f1()))
        .append("</td></tr>\n");
  }

  private static void alternatives(StringBuilder h, Evaluation.Result r) {
    List<Evaluation.Variant> vs = r.variants();
    if (vs.size() < 2) {
      return;
    }
    List<String> cells = TextReport.cells(r.dataset());
    h.append("<h2 id=\"alternatives\">Settings alternatives</h2>\n");
    h.append("<p>The given settings (first row) and the options a user can switch, one at a time.")
        .append(" Every row analyses the whole dataset again with those settings and finds pairs")
        .append(
            " exactly as <code>neardup dedup</code> would. <i>F1 fingerprint only</i> scores the")
        .append(" same fingerprints without verification (within k bits), which is where the")
        .append(" fingerprint options show. <i>docs/s</i> is the analysis throughput on ")
        .append(r.corpus().threads())
        .append(" threads: the median of ")
        .append(vs.get(0).docsPerSecond().length)
        .append(" timed rounds (range below it); the best value of each column is marked.</p>\n");
    double[][] cols = new double[vs.size()][cells.size() + 5];
    for (int i = 0; i < vs.size(); i++) {
      Evaluation.Variant v = vs.get(i);
      Score.Counts a = v.score().all();
      cols[i][0] = v.docsPerSecond().length > 0 ? v.medianDocsPerSecond() : Double.NaN;
      cols[i][1] = a.precision();
      cols[i][2] = a.recall();
      cols[i][3] = a.f1();
      for (int c = 0; c < cells.size(); c++) {
        cols[i][4 + c] = v.score().get("lang/len=" + cells.get(c)).f1();
      }
      cols[i][4 + cells.size()] = v.fingerprintOnly().all().f1();
    }
    h.append("<table>\n<tr><th class=\"l\">settings</th><th>docs/s</th><th>reported</th>")
        .append("<th>precision</th><th>recall</th><th>F1</th>");
    for (String c : cells) {
      h.append("<th>F1<br/>").append(esc(c)).append("</th>");
    }
    h.append("<th>F1 fingerprint<br/>only (k)</th></tr>\n");
    for (int i = 0; i < vs.size(); i++) {
      Evaluation.Variant v = vs.get(i);
      h.append(i == 0 ? "<tr class=\"all\">" : "<tr>")
          .append("<td class=\"l\">")
          .append(esc(TextReport.rowLabel(v, i)))
          .append("</td>");
      h.append(best(cols, i, 0)).append(f("%,.0f", cols[i][0]));
      if (v.docsPerSecond().length > 1) {
        h.append("<br/><small>")
            .append(f("%,.0f&#8211;%,.0f", v.minDocsPerSecond(), v.maxDocsPerSecond()))
            .append("</small>");
      }
      h.append("</td><td>").append(f("%,d", v.score().predicted())).append("</td>");
      for (int c = 1; c < cols[i].length; c++) {
        h.append(best(cols, i, c)).append(ratio(cols[i][c])).append("</td>");
      }
      h.append("</tr>\n");
    }
    h.append("</table>\n");
    List<String> kinds = TextReport.hardNegativeKinds(r.score());
    if (!kinds.isEmpty()) {
      h.append("<h3>Hard negatives reported as near-duplicates</h3>\n<p>Share of each kind of")
          .append(" look-alike pair (same author, same template, shared boilerplate, ...) that the")
          .append(
              " settings wrongly report; lower is better.</p>\n<table>\n<tr><th class=\"l\">settings</th>");
      for (String k : kinds) {
        h.append("<th>").append(esc(TextReport.shortKind(k).replace('_', ' '))).append("</th>");
      }
      h.append("</tr>\n");
      for (int i = 0; i < vs.size(); i++) {
        Evaluation.Variant v = vs.get(i);
        h.append(i == 0 ? "<tr class=\"all\">" : "<tr>")
            .append("<td class=\"l\">")
            .append(esc(TextReport.rowLabel(v, i)))
            .append("</td>");
        for (String k : kinds) {
          Score.HardNegatives x = v.score().hardNegatives().get(k);
          h.append("<td>")
              .append(x == null ? "&#8211;" : Score.formatF(100 * x.share(), 0, 2) + "%")
              .append("</td>");
        }
        h.append("</tr>\n");
      }
      h.append("</table>\n");
    }
    List<String> edits = TextReport.editKinds(r.dataset());
    if (!edits.isEmpty()) {
      h.append("<h3>Per kind of edited copy</h3>\n<p>F1 on the listed pairs of each kind, and")
          .append(" below it the share of them reported as near-duplicates whatever their label")
          .append(" (for <code>numbers</code>: the same page with a new counter or date).</p>\n")
          .append("<table>\n<tr><th class=\"l\">settings</th>");
      for (String k : edits) {
        h.append("<th>").append(esc(k.replace('_', ' '))).append("</th>");
      }
      h.append("</tr>\n");
      for (int i = 0; i < vs.size(); i++) {
        Evaluation.Variant v = vs.get(i);
        h.append(i == 0 ? "<tr class=\"all\">" : "<tr>")
            .append("<td class=\"l\">")
            .append(esc(TextReport.rowLabel(v, i)))
            .append("</td>");
        for (String k : edits) {
          h.append("<td>")
              .append(ratio(v.score().get("kind=" + k).f1()))
              .append("<br/>")
              .append(Score.formatF(100 * TextReport.found(v.score(), r.dataset(), k), 0, 1))
              .append("% found</td>");
        }
        h.append("</tr>\n");
      }
      h.append("</table>\n");
    }
  }

  /** Opens a cell, marked when its value is the column's best (the highest). */
  private static String best(double[][] cols, int row, int col) {
    double max = Double.NEGATIVE_INFINITY;
    for (double[] r : cols) {
      if (!Double.isNaN(r[col])) {
        max = Math.max(max, r[col]);
      }
    }
    double v = cols[row][col];
    boolean isBest =
        !Double.isNaN(v)
            && (col == 0 ? v == max : Score.formatF(v, 0, 4).equals(Score.formatF(max, 0, 4)));
    return isBest ? "<td class=\"best\">" : "<td>";
  }

  private static void kSweep(StringBuilder h, Evaluation.Result r) {
    Score[] fp = r.fingerprintByK();
    if (fp == null) {
      return;
    }
    int maxK = fp.length - 1;
    double[] ks = new double[fp.length];
    for (int k = 0; k < ks.length; k++) {
      ks[k] = k;
    }
    Svg.Axis x =
        new Svg.Axis(
            0,
            Math.max(1, maxK),
            Svg.ticks(0, maxK, maxK > 12 ? 2 : 1),
            v -> f("%.0f", v),
            "k: largest fingerprint distance (bits)");
    Svg.Axis y = ratioAxis("precision, recall, F1");
    List<Svg.Line> lines = new ArrayList<>();
    lines.add(new Svg.Line("precision", BLUE, ks, series(fp, c -> c.all().precision()), false));
    lines.add(new Svg.Line("recall", ORANGE, ks, series(fp, c -> c.all().recall()), false));
    lines.add(new Svg.Line("F1", GREEN, ks, series(fp, c -> c.all().f1()), false));
    if (r.verifiedByK() != null) {
      lines.add(
          new Svg.Line(
              "F1 with verification", GREEN, ks, series(r.verifiedByK(), c -> c.all().f1()), true));
    }
    Svg.Marker m = new Svg.Marker(r.base().maxDistance(), "k = " + r.base().maxDistance());
    h.append("<h2 id=\"k\">Fingerprint distance k</h2>\n<div class=\"charts\">\n");
    figure(
        h,
        "Fingerprint only: quality by k",
        Svg.lineChart(
            CHART_W, CHART_H, x, y, lines, m, "Precision, recall and F1 by k, fingerprint only"),
        "Without verification (<code>--no-verify</code>) a pair is reported when the two 64-bit"
            + " fingerprints differ in at most k bits. A larger k finds more near-duplicates (recall"
            + " rises) but also more unrelated pairs (precision falls). The dashed line is F1 with"
            + " verification, where k only adds candidates that are then checked.");
    List<String> cells = TextReport.cells(r.dataset());
    List<Svg.Line> byCell = new ArrayList<>();
    for (String cell : cells) {
      byCell.add(
          new Svg.Line(
              cell,
              cellColor(cell),
              ks,
              series(fp, c -> c.get("lang/len=" + cell).f1()),
              cell.startsWith("zh")));
    }
    figure(
        h,
        "Fingerprint only: F1 by language and length",
        Svg.lineChart(
            CHART_W,
            CHART_H,
            x,
            ratioAxis("F1"),
            byCell,
            m,
            "F1 by k for each language and length"),
        "F1 of fingerprint-only detection for each language (English solid, Chinese dashed) and"
            + " length of the shorter document. Short texts need a larger k and still score lower:"
            + " a few changed words move a short text's fingerprint further.");
    h.append("</div>\n");
    kTable(h, "Fingerprint only (--no-verify), by k", fp, r.base().maxDistance());
    if (r.verifiedByK() != null) {
      kTable(
          h,
          "With verification, by k (candidates within k bits or sharing a MinHash band)",
          r.verifiedByK(),
          r.base().maxDistance());
    }
  }

  private static void kTable(StringBuilder h, String title, Score[] byK, int given) {
    h.append("<details><summary>").append(esc(title)).append(": table</summary>\n<table>\n");
    h.append("<tr><th>k</th><th>reported</th><th>TP</th><th>FP</th><th>FN</th><th>precision</th>")
        .append("<th>recall</th><th>F1</th></tr>\n");
    for (int k = 0; k < byK.length; k++) {
      Score.Counts a = byK[k].all();
      h.append(k == given ? "<tr class=\"all\">" : "<tr>")
          .append("<td>")
          .append(k)
          .append("</td><td>")
          .append(f("%,d", byK[k].predicted()))
          .append("</td><td>")
          .append(f("%,d", a.tp()))
          .append("</td><td>")
          .append(f("%,d", a.fp()))
          .append("</td><td>")
          .append(f("%,d", a.fn()))
          .append("</td><td>")
          .append(ratio(a.precision()))
          .append("</td><td>")
          .append(ratio(a.recall()))
          .append("</td><td>")
          .append(ratio(a.f1()))
          .append("</td></tr>\n");
    }
    h.append("</table>\n</details>\n");
  }

  private static void thresholdSweep(StringBuilder h, Evaluation.Result r) {
    List<Evaluation.ThresholdPoint> pts = r.byThreshold();
    if (pts.isEmpty()) {
      return;
    }
    double[] ts = pts.stream().mapToDouble(Evaluation.ThresholdPoint::threshold).toArray();
    double lo = ts[0];
    double hi = ts[ts.length - 1];
    Svg.Axis x =
        new Svg.Axis(
            lo,
            hi == lo ? lo + 0.05 : hi,
            ts,
            v -> Score.formatG(v, 3),
            "similarity threshold (Jaccard of shingles)");
    String label = Score.formatG(r.options().labelThreshold, 3);
    Svg.Marker m =
        r.base().verifies()
            ? new Svg.Marker(
                r.base().threshold(), "given " + Score.formatG(r.base().threshold(), 3))
            : null;
    List<Svg.Line> at = new ArrayList<>();
    at.add(
        new Svg.Line(
            "precision",
            BLUE,
            ts,
            pts.stream().mapToDouble(p -> p.atLabel().all().precision()).toArray(),
            false));
    at.add(
        new Svg.Line(
            "recall",
            ORANGE,
            ts,
            pts.stream().mapToDouble(p -> p.atLabel().all().recall()).toArray(),
            false));
    at.add(
        new Svg.Line(
            "F1",
            GREEN,
            ts,
            pts.stream().mapToDouble(p -> p.atLabel().all().f1()).toArray(),
            false));
    List<Svg.Line> matched = new ArrayList<>();
    matched.add(
        new Svg.Line(
            "precision",
            BLUE,
            ts,
            pts.stream().mapToDouble(p -> p.matched().all().precision()).toArray(),
            false));
    matched.add(
        new Svg.Line(
            "recall",
            ORANGE,
            ts,
            pts.stream().mapToDouble(p -> p.matched().all().recall()).toArray(),
            false));
    matched.add(
        new Svg.Line(
            "F1",
            GREEN,
            ts,
            pts.stream().mapToDouble(p -> p.matched().all().f1()).toArray(),
            false));
    h.append("<h2 id=\"threshold\">Similarity threshold</h2>\n<div class=\"charts\">\n");
    figure(
        h,
        "Verified: against the dataset's label (Jaccard \u2265 " + label + ")",
        Svg.lineChart(
            CHART_W,
            CHART_H,
            x,
            ratioAxis("precision, recall, F1", at),
            at,
            m,
            "Quality by threshold against the fixed label"),
        "With verification, a candidate pair is reported when its estimated Jaccard similarity"
            + " reaches the threshold (k = "
            + r.base().maxDistance()
            + "). Scored against the dataset's label (near-duplicate at Jaccard \u2265 "
            + label
            + "): a lower threshold reports pairs the label calls different, a higher one misses"
            + " near-duplicates, so the best F1 sits where the two thresholds agree.");
    figure(
        h,
        "Verified: label moved with the threshold",
        Svg.lineChart(
            CHART_W,
            CHART_H,
            x,
            ratioAxis("precision, recall, F1", matched),
            matched,
            m,
            "Quality by threshold, label at the same threshold"),
        "The same predictions scored against a label moved to the same threshold (a pair is a"
            + " near-duplicate when its Jaccard is at least t): how well the engine's estimate"
            + " reproduces the exact similarity at each threshold a user may choose.");
    h.append("</div>\n");
    h.append("<details><summary>Table</summary>\n<table>\n<tr><th>threshold</th><th>bands</th>")
        .append("<th>reported</th><th>precision</th><th>recall</th><th>F1</th>")
        .append(
            "<th>near-duplicates at t</th><th>precision at t</th><th>recall at t</th><th>F1 at t</th></tr>\n");
    for (Evaluation.ThresholdPoint p : pts) {
      Score.Counts a = p.atLabel().all();
      Score.Counts b = p.matched().all();
      boolean given = r.base().verifies() && p.threshold() == r.base().threshold();
      h.append(given ? "<tr class=\"all\">" : "<tr>")
          .append("<td>")
          .append(Score.formatG(p.threshold(), 3))
          .append("</td><td>")
          .append(esc(p.bands()))
          .append("</td><td>")
          .append(f("%,d", p.predicted()))
          .append("</td><td>")
          .append(ratio(a.precision()))
          .append("</td><td>")
          .append(ratio(a.recall()))
          .append("</td><td>")
          .append(ratio(a.f1()))
          .append("</td><td>")
          .append(f("%,d", p.matched().positives()))
          .append("</td><td>")
          .append(ratio(b.precision()))
          .append("</td><td>")
          .append(ratio(b.recall()))
          .append("</td><td>")
          .append(ratio(b.f1()))
          .append("</td></tr>\n");
    }
    h.append("</table>\n</details>\n");
  }

  private static void distributions(StringBuilder h, Evaluation.Result r) {
    Evaluation.Histograms hist = r.histograms();
    String label = Score.formatG(r.options().labelThreshold, 3);
    h.append("<h2 id=\"distributions\">Distributions</h2>\n<div class=\"charts\">\n");
    double[] edges = new double[66];
    for (int i = 0; i <= 65; i++) {
      edges[i] = i - 0.5;
    }
    List<Svg.Bars> d = new ArrayList<>();
    d.add(new Svg.Bars("random pairs", GREY, percent(hist.distanceRandom())));
    d.add(new Svg.Bars("labelled non-duplicates", RED, percent(hist.distanceNegative())));
    d.add(
        new Svg.Bars(
            "near-duplicates (J \u2265 " + label + ")", GREEN, percent(hist.distancePositive())));
    double maxD = 0;
    for (Svg.Bars b : d) {
      for (double v : b.values()) {
        maxD = Math.max(maxD, v);
      }
    }
    figure(
        h,
        "Fingerprint distance of pairs",
        Svg.histogram(
            CHART_W,
            CHART_H,
            new Svg.Axis(
                -0.5,
                64.5,
                Svg.ticks(0, 64, 8),
                v -> f("%.0f", v),
                "Hamming distance between the two fingerprints (bits)"),
            Svg.niceAxis(maxD, v -> f("%.0f%%", v), "% of the pairs of each group"),
            edges,
            d,
            new Svg.Marker(r.base().maxDistance() + 0.5, "k = " + r.base().maxDistance()),
            "Histogram of fingerprint distances"),
        "How many bits the fingerprints of two documents differ in, for the labelled near-duplicates,"
            + " the labelled pairs that are not (edited copies that changed too much and look-alike"
            + " hard negatives) and random pairs of documents. Pairs left of the dotted line are"
            + " within k; the overlap of green and red is what no k can separate.");
    if (hist.similarityPositive() != null) {
      double[] sEdges = new double[21];
      for (int i = 0; i <= 20; i++) {
        sEdges[i] = i / 20.0;
      }
      List<Svg.Bars> sb = new ArrayList<>();
      sb.add(new Svg.Bars("labelled non-duplicates", RED, percent(hist.similarityNegative())));
      sb.add(
          new Svg.Bars(
              "near-duplicates (J \u2265 " + label + ")",
              GREEN,
              percent(hist.similarityPositive())));
      double maxS = 0;
      for (Svg.Bars b : sb) {
        for (double v : b.values()) {
          maxS = Math.max(maxS, v);
        }
      }
      double t = r.base().verifies() ? r.base().threshold() : r.options().labelThreshold;
      figure(
          h,
          "Estimated similarity of labelled pairs",
          Svg.histogram(
              CHART_W,
              CHART_H,
              new Svg.Axis(
                  0,
                  1,
                  Svg.ticks(0, 1, 0.1),
                  v -> f("%.1f", v),
                  "similarity the engine estimates (Jaccard of shingles)"),
              Svg.niceAxis(maxS, v -> f("%.0f%%", v), "% of the pairs of each group"),
              sEdges,
              sb,
              new Svg.Marker(t, "threshold " + Score.formatG(t, 3)),
              "Histogram of estimated similarities"),
          "The similarity verification computes for each labelled pair, in bins of 0.05. The label"
              + " uses the exact Jaccard of its own normalisation; red right of the threshold or"
              + " green left of it are pairs where the engine's estimate and the label disagree.");
    }
    h.append("</div>\n");
  }

  private static void kinds(StringBuilder h, Evaluation.Result r) {
    Score s = r.score();
    h.append("<h2 id=\"kinds\">By kind of pair</h2>\n");
    h.append(
            "<p>How each labelled pair was made: an edited copy (<i>word_edit</i>, <i>sent_add</i>,")
        .append(" <i>html</i>: the text inside a web page, <i>numbers</i>: counters and dates")
        .append(" changed, <i>combo</i>: several edits, ...), two copies of one document")
        .append(
            " (<i>sibling</i>), or two source documents that happen to be alike (<i>natural</i>).")
        .append(
            " <i>unlisted</i> are reported pairs the dataset does not list: their Jaccard is below ")
        .append(Score.formatG(r.dataset().floor(), 2))
        .append(". Edited copies below the label threshold count as negatives.</p>\n");
    h.append("<table>\n<tr><th class=\"l\">kind</th><th>near-duplicates</th><th>reported</th>")
        .append(
            "<th>TP</th><th>FP</th><th>FN</th><th>precision</th><th>recall</th><th>F1</th></tr>\n");
    for (Map.Entry<String, Score.Counts> e : s.groups().entrySet()) {
      if (e.getKey().startsWith("kind=")) {
        countsRow(h, e.getKey().substring(5), e.getValue(), false);
      }
    }
    h.append("</table>\n");
    if (!s.hardNegatives().isEmpty()) {
      h.append("<h3>Hard negatives</h3>\n<p>Pairs made to look alike without being")
          .append(" near-duplicates: different poems by one author, pages from one template, texts")
          .append(" sharing a long disclaimer. The share reported as near-duplicates should be")
          .append(
              " zero.</p>\n<table>\n<tr><th class=\"l\">kind</th><th>pairs</th><th>reported</th>")
          .append("<th>share</th></tr>\n");
      s.hardNegatives()
          .forEach(
              (k, x) ->
                  h.append("<tr><td class=\"l\">")
                      .append(esc(k))
                      .append("</td><td>")
                      .append(f("%,d", x.total()))
                      .append("</td><td>")
                      .append(f("%,d", x.predicted()))
                      .append("</td><td>")
                      .append(Score.formatF(100 * x.share(), 0, 2))
                      .append("%</td></tr>\n"));
      h.append("</table>\n");
    }
  }

  private static void examples(
      StringBuilder h,
      Evaluation.Result r,
      String id,
      String title,
      String intro,
      List<Evaluation.Example> xs) {
    h.append("<h2 id=\"").append(id).append("\">").append(esc(title)).append("</h2>\n");
    h.append("<p>")
        .append(esc(intro))
        .append(" Words only in A are <del>struck out in red</del>, words only in B")
        .append(
            " <ins>underlined in green</ins>; Chinese is compared character by character, and long")
        .append(" unchanged stretches are folded. Web pages show their visible text.</p>\n");
    long[] web = webPageShare(r, id.equals("fp"));
    if (web[1] > 0) {
      h.append("<p>")
          .append(
              f(
                  "%,d of the %,d %s",
                  web[0], web[1], id.equals("fp") ? "false positives" : "false negatives"))
          .append(f(" (%.0f%%) involve a web page", 100.0 * web[0] / web[1]))
          .append(
              ": there the engine reads the page's visible text, and any difference between its")
          .append(" text extraction and the label's shows up as a mistake.</p>\n");
    }
    if (xs.isEmpty()) {
      h.append("<p class=\"note\">None.</p>\n");
      return;
    }
    FingerprintSettings.Html mode = r.base().analyzer().fingerprinter().settings().html();
    int n = 0;
    for (Evaluation.Example x : xs) {
      n++;
      h.append("<div class=\"ex\">\n<div class=\"meta\"><b>")
          .append(n)
          .append(".</b> kind <b>")
          .append(esc(x.kind()))
          .append("</b> &#183; ")
          .append(
              esc(
                  x.pair() != null
                      ? x.pair().lang() + "/" + x.pair().lenClass()
                      : x.a().lang() + "/" + x.a().lenClass()))
          .append(" &#183; label Jaccard ")
          .append(
              x.pair() != null
                  ? ratio(x.pair().jaccard())
                  : "&lt; " + Score.formatG(r.dataset().floor(), 2))
          .append(" &#183; estimated similarity ")
          .append(ratio(x.similarity()))
          .append(" &#183; fingerprints ")
          .append(x.distance())
          .append(" bits apart")
          .append(
              r.corpus().verifies()
                  ? " &#183; shared MinHash band: " + (x.sharesBand() ? "yes" : "no")
                  : "")
          .append("<br/>")
          .append(esc(capitalize(x.reason())))
          .append(".</div>\n");
      String a = displayText(x.a().text(), mode);
      String b = displayText(x.b().text(), mode);
      String[] sides = sideBySide(a, b);
      h.append("<div class=\"side\">\n<div><div class=\"id\">A: <code>")
          .append(esc(x.a().id()))
          .append("</code> ")
          .append(esc(x.a().lang() + ", " + x.a().lenClass()))
          .append(HtmlText.looksLikeHtml(x.a().text()) ? ", web page" : "")
          .append("</div><div class=\"t\">")
          .append(sides[0])
          .append("</div></div>\n<div><div class=\"id\">B: <code>")
          .append(esc(x.b().id()))
          .append("</code> ")
          .append(esc(x.b().lang() + ", " + x.b().lenClass()))
          .append(HtmlText.looksLikeHtml(x.b().text()) ? ", web page" : "")
          .append("</div><div class=\"t\">")
          .append(sides[1])
          .append("</div></div>\n</div>\n</div>\n");
    }
  }

  /** {mistakes involving a document that looks like HTML, all mistakes}, FPs or FNs. */
  static long[] webPageShare(Evaluation.Result r, boolean falsePositives) {
    Dataset data = r.dataset();
    double t = r.options().labelThreshold;
    java.util.Set<Long> found = new java.util.HashSet<>();
    long web = 0;
    long all = 0;
    PairList p = r.pairs();
    for (int k = 0; k < p.size(); k++) {
      found.add(Scorer.key(p.first(k), p.second(k)));
      if (falsePositives) {
        Dataset.Pair gold = data.pair(p.first(k), p.second(k));
        if (gold == null || gold.jaccard() < t) {
          all++;
          web += involvesWebPage(data, p.first(k), p.second(k)) ? 1 : 0;
        }
      }
    }
    if (!falsePositives) {
      for (Dataset.Pair gold : data.pairs()) {
        if (gold.jaccard() >= t && !found.contains(Scorer.key(gold.a(), gold.b()))) {
          all++;
          web += involvesWebPage(data, gold.a(), gold.b()) ? 1 : 0;
        }
      }
    }
    return new long[] {web, all};
  }

  private static boolean involvesWebPage(Dataset data, int a, int b) {
    return HtmlText.looksLikeHtml(data.docs().get(a).text())
        || HtmlText.looksLikeHtml(data.docs().get(b).text());
  }

  /** The text as the engine reads it: a web page's visible (or main) text, whitespace tidied. */
  static String displayText(String text, FingerprintSettings.Html mode) {
    if (mode == FingerprintSettings.Html.RAW || !HtmlText.looksLikeHtml(text)) {
      return text;
    }
    String v =
        HtmlText.extract(
            text,
            mode == FingerprintSettings.Html.MAIN ? HtmlText.Mode.MAIN : HtmlText.Mode.VISIBLE);
    return v.replaceAll("[ \\t\\x0B\\f\\r]+", " ").replaceAll(" ?\\n[ \\n]*\\n", "\n\n").trim();
  }

  /**
   * The two texts as HTML with their differences marked: [0] is A with its deletions, [1] is B with
   * its insertions; unchanged stretches longer than twice {@link #CONTEXT} tokens are folded to
   * their ends, identically on both sides.
   */
  static String[] sideBySide(String a, String b) {
    List<WordDiff.Span> spans = WordDiff.diff(a, b);
    StringBuilder left = new StringBuilder();
    StringBuilder right = new StringBuilder();
    for (int i = 0; i < spans.size(); i++) {
      WordDiff.Span s = spans.get(i);
      switch (s.op()) {
        case SAME -> {
          boolean first = i == 0;
          boolean last = i == spans.size() - 1;
          left.append(folded(s.a(), first, last));
          right.append(folded(s.b(), first, last));
        }
        case DELETED -> left.append(marked("del", s.text()));
        case INSERTED -> right.append(marked("ins", s.text()));
      }
    }
    return new String[] {left.toString(), right.toString()};
  }

  /** A changed stretch in {@code <del>} or {@code <ins>}; spacing alone is not worth marking. */
  private static String marked(String tag, String text) {
    if (text.isBlank()) {
      return esc(text);
    }
    return "<" + tag + ">" + capped(text) + "</" + tag + ">";
  }

  /**
   * An unchanged stretch with its middle folded away: the context next to a change stays, and a
   * text without any change is shown up to {@link #MAX_CHANGED} tokens. Both sides of a stretch
   * have the same tokens but for whitespace, so they fold alike.
   */
  private static String folded(String text, boolean first, boolean last) {
    if (first && last) {
      return capped(text);
    }
    List<String> t = WordDiff.tokens(text);
    int keepHead = first ? 0 : CONTEXT;
    int keepTail = last ? 0 : CONTEXT;
    if (t.size() <= keepHead + keepTail + 10) {
      return esc(text);
    }
    int words = 0;
    for (int i = keepHead; i < t.size() - keepTail; i++) {
      words += isWord(t.get(i)) ? 1 : 0;
    }
    return esc(String.join("", t.subList(0, keepHead)))
        + "<span class=\"skip\">[\u2026 "
        + f("%,d", words)
        + " unchanged "
        + (words == 1 ? "word" : "words")
        + " \u2026]</span>"
        + esc(String.join("", t.subList(t.size() - keepTail, t.size())));
  }

  private static String capped(String text) {
    List<String> t = WordDiff.tokens(text);
    if (t.size() <= MAX_CHANGED + 20) {
      return esc(text);
    }
    int words = 0;
    for (int i = MAX_CHANGED; i < t.size(); i++) {
      words += isWord(t.get(i)) ? 1 : 0;
    }
    return esc(String.join("", t.subList(0, MAX_CHANGED)))
        + "<span class=\"skip\">[\u2026 "
        + f("%,d", words)
        + " more \u2026]</span>";
  }

  private static boolean isWord(String token) {
    int cp = token.codePointAt(0);
    return Character.isLetterOrDigit(cp);
  }

  private static void settings(StringBuilder h, Evaluation.Result r, String datasetName) {
    h.append("<h2 id=\"settings\">Settings ids</h2>\n<p>Every setting that changes a fingerprint")
        .append(" or a verification, as <code>neardup dedup</code> writes it to summary.json.")
        .append(" Equal ids mean equal results on any text.</p>\n<table class=\"ids\">\n");
    for (Evaluation.Variant v :
        r.variants().isEmpty() ? List.<Evaluation.Variant>of() : r.variants()) {
      h.append("<tr><td class=\"l\">")
          .append(esc(TextReport.rowLabel(v, r.variants().indexOf(v))))
          .append("</td><td class=\"l\"><code>")
          .append(esc(v.engine().settingsId()))
          .append("</code></td></tr>\n");
    }
    if (r.variants().isEmpty()) {
      h.append("<tr><td class=\"l\">")
          .append(esc(r.base().label()))
          .append("</td><td class=\"l\"><code>")
          .append(esc(r.base().settingsId()))
          .append("</code></td></tr>\n");
    }
    h.append("</table>\n<p class=\"note\">Dataset <code>")
        .append(esc(datasetName))
        .append("</code>; ")
        .append(r.corpus().threads())
        .append(" threads; Java ")
        .append(esc(System.getProperty("java.version", "?")))
        .append("; evaluation took ")
        .append(f("%.1f", r.seconds()))
        .append(" s. Made by <code>neardup eval</code>.</p>\n");
  }

  // ---- helpers ----

  private interface CountsValue {
    double of(Score s);
  }

  private static double[] series(Score[] scores, CountsValue v) {
    double[] out = new double[scores.length];
    for (int i = 0; i < scores.length; i++) {
      out[i] = v.of(scores[i]);
    }
    return out;
  }

  private static Svg.Axis ratioAxis(String label) {
    return new Svg.Axis(0, 1, Svg.ticks(0, 1, 0.2), v -> f("%.1f", v), label);
  }

  /**
   * A ratio axis ending at 1 that starts at the 0.1 below the lowest value, so curves that stay
   * high are not squeezed into the top of the chart; from 0 when any value is below 0.5.
   */
  static Svg.Axis ratioAxis(String label, List<Svg.Line> lines) {
    double min = 1;
    for (Svg.Line l : lines) {
      for (double v : l.y()) {
        if (!Double.isNaN(v)) {
          min = Math.min(min, v);
        }
      }
    }
    if (min < 0.5) {
      return ratioAxis(label);
    }
    double lo = Math.floor(min * 10) / 10;
    if (min - lo < 0.02) {
      lo -= 0.1; // keep the lowest point off the axis
    }
    lo = Math.max(0, Math.min(0.9, lo));
    double step = 1 - lo > 0.3 ? 0.1 : 0.05;
    return new Svg.Axis(
        lo, 1, Svg.ticks(lo, 1, step), v -> f(step < 0.1 ? "%.2f" : "%.1f", v), label);
  }

  private static String cellColor(String cell) {
    if (cell.endsWith("/short")) {
      return RED;
    }
    if (cell.endsWith("/medium")) {
      return PURPLE;
    }
    if (cell.endsWith("/long")) {
      return TEAL;
    }
    return GREY;
  }

  private static double[] percent(long[] counts) {
    long total = 0;
    for (long c : counts) {
      total += c;
    }
    double[] out = new double[counts.length];
    for (int i = 0; i < counts.length; i++) {
      out[i] = total == 0 ? 0 : 100.0 * counts[i] / total;
    }
    return out;
  }

  private static void figure(StringBuilder h, String title, String svg, String caption) {
    h.append("<figure>\n<h3>")
        .append(esc(title))
        .append("</h3>\n")
        .append(svg)
        .append("<figcaption>")
        .append(caption)
        .append("</figcaption>\n</figure>\n");
  }

  private static void card(StringBuilder h, String name, String value, String note) {
    h.append("<div class=\"card\"><div class=\"k\">")
        .append(esc(name))
        .append("</div><div class=\"v\">")
        .append(esc(value))
        .append("</div><div class=\"n\">")
        .append(esc(note))
        .append("</div></div>\n");
  }

  private static String link(String id, String text) {
    return "<a href=\"#" + id + "\">" + esc(text) + "</a>";
  }

  private static String capitalize(String s) {
    return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  static String ratio(double v) {
    return Double.isNaN(v) ? "&#8211;" : Score.formatF(v, 0, 4);
  }

  private static String esc(@Nullable String s) {
    return s == null ? "" : Html.escape(s);
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }

  private static final String CSS =
      """
      body{margin:0;background:#eef0f3;color:#1d1f23;
        font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK SC",
        "Source Han Sans SC","PingFang SC","Microsoft YaHei",sans-serif}
      main{max-width:1320px;margin:0 auto;padding:28px 36px 48px;background:#fff}
      h1{font-size:28px;margin:0 0 4px}
      h2{font-size:21px;margin:36px 0 10px;padding-bottom:4px;border-bottom:2px solid #e3e6ea}
      h3{font-size:15px;margin:14px 0 6px}
      p{max-width:1000px}
      .sub{color:#444;margin-top:0}
      nav{display:flex;flex-wrap:wrap;gap:6px 16px;margin:8px 0 16px;font-size:13px}
      a{color:#1a5fb4}
      code{font-size:12.5px;font-family:ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace;word-break:break-all}
      .howto{background:#f4f7fb;border-left:4px solid #1a5fb4;padding:10px 14px;max-width:1000px}
      .cards{display:flex;flex-wrap:wrap;gap:14px;margin:8px 0 14px}
      .card{border:1px solid #dde1e6;border-radius:8px;padding:10px 16px;min-width:190px}
      .card .k{color:#555;font-size:13px}.card .v{font-size:30px;font-weight:650}
      .card .n{color:#666;font-size:12px}
      table{border-collapse:collapse;font-variant-numeric:tabular-nums;margin:6px 0 10px}
      th,td{padding:4px 9px;border-bottom:1px solid #e8eaed;text-align:right;vertical-align:top}
      th{background:#f1f3f5;font-weight:600;font-size:13px}
      td.l,th.l{text-align:left}
      tr.all td{font-weight:600;background:#fafbfc}
      td.best{background:#dff3e4;font-weight:700}
      small{color:#666;font-weight:400}
      table.ids td{font-size:12.5px}
      table.ids td:first-child{white-space:nowrap}
      .charts{display:flex;flex-wrap:wrap;gap:20px 36px}
      figure{margin:0;width:620px}
      figure svg{display:block;border:1px solid #e3e6ea;border-radius:6px}
      figcaption{color:#333;font-size:13px;margin-top:6px}
      details{margin:6px 0}summary{cursor:pointer;color:#1a5fb4}
      .note{color:#555}
      .ex{border:1px solid #dde1e6;border-radius:8px;margin:14px 0;padding:10px 14px}
      .ex .meta{font-size:13px;color:#333;margin-bottom:8px}
      .side{display:grid;grid-template-columns:1fr 1fr;gap:14px}
      .side .id{font-size:12.5px;color:#444;margin-bottom:3px}
      .side .t{white-space:pre-wrap;overflow-wrap:anywhere;font-size:13.5px;line-height:1.55;
        background:#fafafa;border:1px solid #eceef0;border-radius:4px;padding:8px 10px;
        max-height:420px;overflow:auto}
      del{background:#ffd7d5;color:#8a1111;text-decoration:line-through}
      ins{background:#c9f2cf;color:#0b5c16;text-decoration:underline}
      .skip{color:#888;font-style:italic;font-size:12px}
      """;
}
