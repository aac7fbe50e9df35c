// SPDX-License-Identifier: Apache-2.0
package org.neardup.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * What the slowest singles of a warm service run met, from a flight recording of the server made
 * with {@code benchmarks/single-tail.jfc} ({@code service-curve.sh} with {@code JFR=FILE}): each
 * single's stages ({@code org.neardup.SingleCheck}), and beside each the recording's events that
 * overlapped it in time: ZGC cycles, safepoints (VM operations at a safepoint), JIT compilations
 * (C1 and C2 apart), the log's file forces (and the forces of the zeros written ahead of it), file
 * reads of 1 ms or more on the singles' threads (a candidate's sketch), and the machine's CPU load
 * in that second.
 *
 * <p>Prints the slowest FRACTION (default 0.01) of the last LAST singles (default: all) before the
 * last SKIP (default 0: with service-curve.sh's CLIENTS="jdk socket" and 3,000 singles a pass,
 * {@code 3000 0.01 3000} is the first measured pass, {@code 3000} the second) one per line, then
 * for each kind of event the share of the slow requests it overlapped beside the share of all
 * requests it overlapped: a cause shows as a kind that the slow ones meet far more often than the
 * rest; a kind they meet as often as the rest is only there. Then which stage holds each slow
 * request's excess over the median request, summed.
 *
 * <pre>
 * java -cp benchmarks.jar org.neardup.benchmarks.SingleTail RECORDING.jfr [LAST [FRACTION [SKIP]]]
 * </pre>
 */
@SuppressForbidden(reason = "reads a flight recording through jdk.jfr.consumer")
public final class SingleTail {
  private static final String[] STAGES = {"read", "analyse", "decide", "durable", "answer"};
  private static final String[] KINDS = {
    "GC cycle",
    "safepoint>=0.5ms",
    "C2 compile",
    "C1 compile",
    "log force>=2ms",
    "zeros force>=2ms",
    "file read>=1ms",
    "machine>=90%"
  };

  private SingleTail() {}

  /** One single: when it started and ended (epoch nanos) and its stages (nanos). */
  record Single(long start, long end, long[] stages) {
    long total() {
      return end - start;
    }
  }

  /** A span of time some event covered; {@code level} for compilations, else 0. */
  record Span(long start, long end, int level, String what) {
    boolean overlaps(Single s) {
      return start < s.end && end > s.start;
    }
  }

  public static void main(String[] args) throws IOException {
    if (args.length < 1 || args.length > 4) {
      System.err.println("usage: SingleTail RECORDING.jfr [LAST [FRACTION [SKIP]]]");
      System.exit(2);
    }
    List<Single> singles = new ArrayList<>();
    List<Span> gc = new ArrayList<>();
    List<Span> safepoints = new ArrayList<>();
    List<Span> compiles = new ArrayList<>();
    List<Span> forces = new ArrayList<>();
    List<Span> zeros = new ArrayList<>();
    List<Span> reads = new ArrayList<>();
    List<Span> busy = new ArrayList<>();
    try (RecordingFile in = new RecordingFile(Path.of(args[0]))) {
      while (in.hasMoreEvents()) {
        RecordedEvent e = in.readEvent();
        switch (e.getEventType().getName()) {
          case "org.neardup.SingleCheck" -> {
            long end = nanos(e.getStartTime());
            long[] stages = new long[STAGES.length];
            for (int i = 0; i < STAGES.length; i++) {
              stages[i] = e.getLong(STAGES[i]);
            }
            singles.add(new Single(end - e.getLong("total"), end, stages));
          }
          case "jdk.GarbageCollection" -> gc.add(span(e, 0, e.getString("name")));
          case "jdk.ExecuteVMOperation" -> {
            if (e.getBoolean("safepoint") && e.getDuration().toNanos() >= 500_000) {
              safepoints.add(span(e, 0, e.getString("operation")));
            }
          }
          case "jdk.Compilation" -> {
            String method =
                e.getValue("method") instanceof jdk.jfr.consumer.RecordedMethod m
                    ? m.getType().getName() + "." + m.getName()
                    : "?";
            compiles.add(span(e, e.getShort("compileLevel"), method));
          }
          case "jdk.FileForce" -> {
            if (e.getDuration().toNanos() >= 2_000_000) {
              RecordedThread t = e.getThread();
              String name = t == null ? "?" : t.getJavaName();
              (name.startsWith("neardup-log-zeros") ? zeros : forces).add(span(e, 0, name));
            }
          }
          case "jdk.FileRead" -> {
            // A check's reads of its candidates' sketches (the recording's threshold: 1 ms).
            RecordedThread t = e.getThread();
            if (t != null
                && t.getJavaName() != null
                && t.getJavaName().startsWith("neardup-single")) {
              reads.add(span(e, 0, t.getJavaName()));
            }
          }
          case "jdk.CPULoad" -> {
            // The second before this sample; machineTotal counts every process on the machine.
            if (e.getFloat("machineTotal") >= 0.9f) {
              long end = nanos(e.getStartTime());
              busy.add(new Span(end - 1_000_000_000L, end, 0, "machine"));
            }
          }
          default -> {}
        }
      }
    }
    if (singles.isEmpty()) {
      System.err.println(
          "no org.neardup.SingleCheck events: record with benchmarks/single-tail.jfc");
      System.exit(1);
    }
    singles.sort(Comparator.comparingLong(Single::end));
    int last = args.length > 1 ? Integer.parseInt(args[1]) : singles.size();
    double fraction = args.length > 2 ? Double.parseDouble(args[2]) : 0.01;
    int skip = args.length > 3 ? Integer.parseInt(args[3]) : 0;
    int end = singles.size() - skip;
    List<Single> pass = singles.subList(Math.max(0, end - last), end);
    List<Single> slow = new ArrayList<>(pass);
    slow.sort(Comparator.comparingLong(Single::total).reversed());
    slow = slow.subList(0, Math.max(1, (int) Math.round(pass.size() * fraction)));
    List<List<Span>> kinds =
        List.of(
            gc,
            safepoints,
            compiles.stream().filter(c -> c.level() == 4).toList(),
            compiles.stream().filter(c -> c.level() < 4).toList(),
            forces,
            zeros,
            reads,
            busy);
    long t0 = pass.get(0).start();
    long[] median = new long[STAGES.length];
    for (int i = 0; i < STAGES.length; i++) {
      final int stage = i;
      median[i] = percentile(pass.stream().mapToLong(s -> s.stages()[stage]).toArray(), 0.5);
    }
    System.out.printf(
        Locale.ROOT,
        "%d singles in the pass, %d slowest (%.1f%%): total p50 %.2f ms, p99 %.2f ms, max %.2f ms%n",
        pass.size(),
        slow.size(),
        100 * fraction,
        ms(percentile(pass.stream().mapToLong(Single::total).toArray(), 0.5)),
        ms(percentile(pass.stream().mapToLong(Single::total).toArray(), 0.99)),
        ms(slow.get(0).total()));
    System.out.println(
        "  at s     total    read analyse  decide durable  answer  | overlapping (ms of it)");
    for (Single s : slow) {
      StringBuilder line = new StringBuilder();
      line.append(String.format(Locale.ROOT, "%7.2f %8.2f", (s.start() - t0) / 1e9, ms(s.total())));
      for (long stage : s.stages()) {
        line.append(String.format(Locale.ROOT, " %7.2f", ms(stage)));
      }
      line.append("  |");
      for (int k = 0; k < KINDS.length; k++) {
        long overlap = 0;
        String what = null;
        for (Span sp : kinds.get(k)) {
          if (sp.overlaps(s)) {
            overlap += Math.min(sp.end(), s.end()) - Math.max(sp.start(), s.start());
            what = what == null ? sp.what() : what;
          }
        }
        if (what != null) {
          line.append(String.format(Locale.ROOT, " %s %.1f", KINDS[k], ms(overlap)));
          if (k == 2 || k == 3) {
            line.append(" (").append(shortName(what)).append(')');
          }
          line.append(';');
        }
      }
      System.out.println(line);
    }
    System.out.println("kind of event: share of the slow singles it overlapped / of all singles");
    for (int k = 0; k < KINDS.length; k++) {
      System.out.printf(
          Locale.ROOT,
          "  %-18s %5.1f%% / %5.1f%%%n",
          KINDS[k],
          100.0 * share(slow, kinds.get(k)),
          100.0 * share(pass, kinds.get(k)));
    }
    long[] excess = new long[STAGES.length];
    long excessSum = 0;
    int[] largest = new int[STAGES.length];
    for (Single s : slow) {
      int top = 0;
      for (int i = 0; i < STAGES.length; i++) {
        long x = Math.max(0, s.stages()[i] - median[i]);
        excess[i] += x;
        excessSum += x;
        if (s.stages()[i] - median[i] > s.stages()[top] - median[top]) {
          top = i;
        }
      }
      largest[top]++;
    }
    System.out.println(
        "stage: median of the pass; the slow singles' time over it, summed (share); slow singles"
            + " whose largest excess it is");
    for (int i = 0; i < STAGES.length; i++) {
      System.out.printf(
          Locale.ROOT,
          "  %-8s %6.2f ms; %8.1f ms (%4.1f%%); %d%n",
          STAGES[i],
          ms(median[i]),
          ms(excess[i]),
          100.0 * excess[i] / Math.max(1, excessSum),
          largest[i]);
    }
    long c2 = kinds.get(2).stream().filter(c -> c.start() >= t0).count();
    long c1 = kinds.get(3).stream().filter(c -> c.start() >= t0).count();
    long cycles = gc.stream().filter(c -> c.end() >= t0).count();
    System.out.printf(
        Locale.ROOT,
        "during the pass: %d GC cycles, %d safepoints >= 0.5 ms, %d C2 and %d C1 compilations"
            + " (%.1f and %.1f ms), %d log forces >= 2 ms%n",
        cycles,
        safepoints.stream().filter(c -> c.start() >= t0).count(),
        c2,
        c1,
        ms(
            kinds.get(2).stream()
                .filter(c -> c.start() >= t0)
                .mapToLong(c -> c.end() - c.start())
                .sum()),
        ms(
            kinds.get(3).stream()
                .filter(c -> c.start() >= t0)
                .mapToLong(c -> c.end() - c.start())
                .sum()),
        forces.stream().filter(c -> c.start() >= t0).count());
  }

  private static double share(List<Single> of, List<Span> spans) {
    if (spans.isEmpty()) {
      return 0;
    }
    long[] starts = spans.stream().mapToLong(Span::start).sorted().toArray();
    Span[] byStart = spans.toArray(new Span[0]);
    Arrays.sort(byStart, Comparator.comparingLong(Span::start));
    long longest = spans.stream().mapToLong(s -> s.end() - s.start()).max().orElse(0);
    int hit = 0;
    for (Single s : of) {
      // Spans that start before the single ends and after its start less the longest span.
      int from = lowerBound(starts, s.start() - longest);
      for (int i = from; i < byStart.length && byStart[i].start() < s.end(); i++) {
        if (byStart[i].overlaps(s)) {
          hit++;
          break;
        }
      }
    }
    return (double) hit / of.size();
  }

  private static int lowerBound(long[] a, long key) {
    int lo = 0;
    int hi = a.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (a[mid] < key) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  private static Span span(RecordedEvent e, int level, String what) {
    long start = nanos(e.getStartTime());
    return new Span(start, start + e.getDuration().toNanos(), level, what);
  }

  private static long nanos(Instant t) {
    return Duration.between(Instant.EPOCH, t).toNanos();
  }

  private static long percentile(long[] values, double p) {
    long[] v = values.clone();
    Arrays.sort(v);
    return v[Math.min(v.length - 1, (int) Math.ceil(p * v.length) - 1)];
  }

  private static double ms(long nanos) {
    return nanos / 1e6;
  }

  private static String shortName(String method) {
    int dot = method.lastIndexOf('.', method.lastIndexOf('.') - 1);
    return dot < 0 ? method : method.substring(dot + 1);
  }
}
