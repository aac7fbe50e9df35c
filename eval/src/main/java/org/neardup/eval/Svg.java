// SPDX-License-Identifier: Apache-2.0
package org.neardup.eval;

import java.util.List;
import java.util.Locale;
import java.util.function.DoubleFunction;
import org.jspecify.annotations.Nullable;

/**
 * Inline SVG charts for the HTML report, drawn without any library: line charts and histograms with
 * axes, ticks, grid lines, axis labels, a legend and an optional vertical marker (the setting in
 * use). Text is left to the page's CSS font.
 */
final class Svg {
  private Svg() {}

  /** A numeric axis: range, tick positions, tick label format and a label. */
  record Axis(double min, double max, double[] ticks, DoubleFunction<String> format, String label) {
    double span() {
      return max - min;
    }
  }

  /** A line series; NaN values leave gaps. */
  record Line(String name, String color, double[] x, double[] y, boolean dashed) {}

  /** A histogram series: one value per bin. */
  record Bars(String name, String color, double[] values) {}

  /** A vertical marker at x, with a short label. */
  record Marker(double x, String label) {}

  static final int LEFT = 62;
  static final int RIGHT = 18;
  static final int TOP = 52;
  static final int BOTTOM = 50;

  /** Ticks from min to max every step, for axes. */
  static double[] ticks(double min, double max, double step) {
    int n = (int) Math.floor((max - min) / step + 1e-9) + 1;
    double[] t = new double[n];
    for (int i = 0; i < n; i++) {
      t[i] = min + i * step;
    }
    return t;
  }

  /** A round upper bound and tick step for values up to {@code max}, about 5 ticks. */
  static Axis niceAxis(double max, DoubleFunction<String> format, String label) {
    if (!(max > 0)) {
      max = 1;
    }
    double raw = max / 5;
    double mag = Math.pow(10, Math.floor(Math.log10(raw)));
    double step = mag;
    for (double m : new double[] {1, 2, 2.5, 5, 10}) {
      if (m * mag >= raw) {
        step = m * mag;
        break;
      }
    }
    double top = Math.ceil(max / step - 1e-9) * step;
    return new Axis(0, top, ticks(0, top, step), format, label);
  }

  static String lineChart(
      int width,
      int height,
      Axis x,
      Axis y,
      List<Line> lines,
      @Nullable Marker marker,
      String title) {
    StringBuilder s = open(width, height, title);
    frame(s, width, height, x, y);
    double pw = width - LEFT - RIGHT;
    double ph = height - TOP - BOTTOM;
    if (marker != null) {
      marker(s, px(marker.x(), x, pw), ph, marker.label());
    }
    for (Line l : lines) {
      StringBuilder path = new StringBuilder();
      boolean pen = false;
      for (int i = 0; i < l.x().length; i++) {
        if (Double.isNaN(l.y()[i])) {
          pen = false;
          continue;
        }
        path.append(pen ? " L" : " M")
            .append(num(LEFT + px(l.x()[i], x, pw)))
            .append(',')
            .append(num(TOP + py(l.y()[i], y, ph)));
        pen = true;
      }
      s.append("<path d=\"")
          .append(path.toString().trim())
          .append("\" fill=\"none\" stroke=\"")
          .append(l.color())
          .append("\" stroke-width=\"2.2\"")
          .append(l.dashed() ? " stroke-dasharray=\"6 4\"" : "")
          .append("/>\n");
      if (l.x().length <= 24) {
        for (int i = 0; i < l.x().length; i++) {
          if (!Double.isNaN(l.y()[i])) {
            s.append("<circle cx=\"")
                .append(num(LEFT + px(l.x()[i], x, pw)))
                .append("\" cy=\"")
                .append(num(TOP + py(l.y()[i], y, ph)))
                .append("\" r=\"2.6\" fill=\"")
                .append(l.color())
                .append("\"/>\n");
          }
        }
      }
    }
    legend(
        s,
        width,
        lines.stream()
            .map(l -> new String[] {l.name(), l.color(), l.dashed() ? "dash" : "line"})
            .toList());
    return s.append("</svg>\n").toString();
  }

  /**
   * A histogram of one or more series drawn as overlaid translucent step areas; bin i spans
   * [edges[i], edges[i + 1]).
   */
  static String histogram(
      int width,
      int height,
      Axis x,
      Axis y,
      double[] edges,
      List<Bars> series,
      @Nullable Marker marker,
      String title) {
    StringBuilder s = open(width, height, title);
    frame(s, width, height, x, y);
    double pw = width - LEFT - RIGHT;
    double ph = height - TOP - BOTTOM;
    for (Bars b : series) {
      StringBuilder path = new StringBuilder();
      double base = TOP + ph;
      path.append("M").append(num(LEFT + px(edges[0], x, pw))).append(',').append(num(base));
      for (int i = 0; i < b.values().length; i++) {
        double top = TOP + py(Math.min(b.values()[i], y.max()), y, ph);
        path.append(" L").append(num(LEFT + px(edges[i], x, pw))).append(',').append(num(top));
        path.append(" L").append(num(LEFT + px(edges[i + 1], x, pw))).append(',').append(num(top));
      }
      path.append(" L")
          .append(num(LEFT + px(edges[b.values().length], x, pw)))
          .append(',')
          .append(num(base))
          .append(" Z");
      s.append("<path d=\"")
          .append(path)
          .append("\" fill=\"")
          .append(b.color())
          .append("\" fill-opacity=\"0.35\" stroke=\"")
          .append(b.color())
          .append("\" stroke-width=\"1.4\"/>\n");
    }
    if (marker != null) {
      marker(s, px(marker.x(), x, pw), ph, marker.label());
    }
    legend(s, width, series.stream().map(b -> new String[] {b.name(), b.color(), "box"}).toList());
    return s.append("</svg>\n").toString();
  }

  private static StringBuilder open(int width, int height, String title) {
    StringBuilder s = new StringBuilder();
    s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
        .append(width)
        .append("\" height=\"")
        .append(height)
        .append("\" viewBox=\"0 0 ")
        .append(width)
        .append(' ')
        .append(height)
        .append("\" role=\"img\" aria-label=\"")
        .append(Html.escape(title))
        .append("\">\n<title>")
        .append(Html.escape(title))
        .append("</title>\n");
    s.append("<rect x=\"0\" y=\"0\" width=\"")
        .append(width)
        .append("\" height=\"")
        .append(height)
        .append("\" fill=\"#fff\"/>\n");
    return s;
  }

  private static void frame(StringBuilder s, int width, int height, Axis x, Axis y) {
    double pw = width - LEFT - RIGHT;
    double ph = height - TOP - BOTTOM;
    s.append("<g font-size=\"12\" fill=\"#333\">\n");
    for (double t : y.ticks()) {
      double yy = TOP + py(t, y, ph);
      s.append("<line x1=\"")
          .append(LEFT)
          .append("\" x2=\"")
          .append(num(LEFT + pw))
          .append("\" y1=\"")
          .append(num(yy))
          .append("\" y2=\"")
          .append(num(yy))
          .append("\" stroke=\"#e3e3e3\"/>\n");
      s.append("<text x=\"")
          .append(LEFT - 6)
          .append("\" y=\"")
          .append(num(yy + 4))
          .append("\" text-anchor=\"end\">")
          .append(Html.escape(y.format().apply(t)))
          .append("</text>\n");
    }
    for (double t : x.ticks()) {
      double xx = LEFT + px(t, x, pw);
      s.append("<line x1=\"")
          .append(num(xx))
          .append("\" x2=\"")
          .append(num(xx))
          .append("\" y1=\"")
          .append(num(TOP + ph))
          .append("\" y2=\"")
          .append(num(TOP + ph + 5))
          .append("\" stroke=\"#555\"/>\n");
      s.append("<text x=\"")
          .append(num(xx))
          .append("\" y=\"")
          .append(num(TOP + ph + 18))
          .append("\" text-anchor=\"middle\">")
          .append(Html.escape(x.format().apply(t)))
          .append("</text>\n");
    }
    s.append("<line x1=\"")
        .append(LEFT)
        .append("\" x2=\"")
        .append(num(LEFT + pw))
        .append("\" y1=\"")
        .append(num(TOP + ph))
        .append("\" y2=\"")
        .append(num(TOP + ph))
        .append("\" stroke=\"#555\"/>\n");
    s.append("<line x1=\"")
        .append(LEFT)
        .append("\" x2=\"")
        .append(LEFT)
        .append("\" y1=\"")
        .append(TOP)
        .append("\" y2=\"")
        .append(num(TOP + ph))
        .append("\" stroke=\"#555\"/>\n");
    s.append("<text x=\"")
        .append(num(LEFT + pw / 2))
        .append("\" y=\"")
        .append(height - 10)
        .append("\" text-anchor=\"middle\" font-size=\"13\">")
        .append(Html.escape(x.label()))
        .append("</text>\n");
    s.append("<text transform=\"translate(16,")
        .append(num(TOP + ph / 2))
        .append(") rotate(-90)\" text-anchor=\"middle\" font-size=\"13\">")
        .append(Html.escape(y.label()))
        .append("</text>\n");
    s.append("</g>\n");
  }

  /** A dotted vertical line through the plot, labelled just above the plot's top edge. */
  private static void marker(StringBuilder s, double x, double ph, String label) {
    s.append("<line x1=\"")
        .append(num(LEFT + x))
        .append("\" x2=\"")
        .append(num(LEFT + x))
        .append("\" y1=\"")
        .append(TOP - 4)
        .append("\" y2=\"")
        .append(num(TOP + ph))
        .append("\" stroke=\"#444\" stroke-dasharray=\"2 3\"/>\n");
    s.append("<text x=\"")
        .append(num(LEFT + x))
        .append("\" y=\"")
        .append(TOP - 7)
        .append("\" text-anchor=\"middle\" font-size=\"11\" fill=\"#333\">")
        .append(Html.escape(label))
        .append("</text>\n");
  }

  /** A legend row above the plot: {name, color, style} per entry, style line, dash or box. */
  private static void legend(StringBuilder s, int width, List<String[]> entries) {
    double x = LEFT;
    double y = 16;
    s.append("<g font-size=\"12\" fill=\"#222\">\n");
    for (String[] e : entries) {
      double w = 30 + e[0].length() * 6.8;
      if (x + w > width - RIGHT && x > LEFT) {
        x = LEFT;
        y += 16;
      }
      if (e[2].equals("box")) {
        s.append("<rect x=\"")
            .append(num(x))
            .append("\" y=\"")
            .append(num(y - 9))
            .append("\" width=\"14\" height=\"10\" fill=\"")
            .append(e[1])
            .append("\" fill-opacity=\"0.35\" stroke=\"")
            .append(e[1])
            .append("\"/>\n");
      } else {
        s.append("<line x1=\"")
            .append(num(x))
            .append("\" x2=\"")
            .append(num(x + 18))
            .append("\" y1=\"")
            .append(num(y - 4))
            .append("\" y2=\"")
            .append(num(y - 4))
            .append("\" stroke=\"")
            .append(e[1])
            .append("\" stroke-width=\"2.2\"")
            .append(e[2].equals("dash") ? " stroke-dasharray=\"6 4\"" : "")
            .append("/>\n");
      }
      s.append("<text x=\"")
          .append(num(x + 22))
          .append("\" y=\"")
          .append(num(y))
          .append("\">")
          .append(Html.escape(e[0]))
          .append("</text>\n");
      x += w;
    }
    s.append("</g>\n");
  }

  private static double px(double v, Axis x, double pw) {
    return (v - x.min()) / x.span() * pw;
  }

  private static double py(double v, Axis y, double ph) {
    return ph - (v - y.min()) / y.span() * ph;
  }

  static String num(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }
}
