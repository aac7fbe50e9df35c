// SPDX-License-Identifier: Apache-2.0
package org.neardup.index;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Where one query of the default 4:1 index goes: per query, the directory lookups, the bucket
 * entries scanned in each table, the cache lines those scans read, the tag compares that pass, the
 * table-0 lookups they cause and the fingerprints compared there, and the matches; then the same
 * queries timed twice each, once cold (first touch of its buckets) and once warm (the same query
 * again at once, its lines now in cache), so cold minus warm estimates what the cache misses cost
 * and warm is the work without them. The machine has no hardware counters (a VM), hence the
 * estimate.
 *
 * <p>The counts walk the same steps as {@link IndexSearch}'s one-key-per-table path on one
 * bulk-loaded segment (4-byte scans: table 0's bits 47..16, the tags of tables 1-3); cache lines
 * are counted for arrays whose data starts on a line (±1 line per range otherwise). Prints one JSON
 * line.
 *
 * <pre>
 * java -Xmx4g -XX:+UseParallelGC -XX:+UseTransparentHugePages -cp benchmarks/target/benchmarks.jar \
 *     org.neardup.index.IndexQueryProfile 10000000 100000
 * </pre>
 */
public final class IndexQueryProfile {
  private static final int LINE = 64;

  private IndexQueryProfile() {}

  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000_000;
    int queries = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
    System.out.println(new ObjectMapper().writeValueAsString(run(n, queries, true)));
  }

  /**
   * The counts for {@code queries} queries (half near-duplicates of stored fingerprints, half
   * random) on n random fingerprints, and their cold and warm latencies if {@code time}.
   */
  static Map<String, Object> run(int n, int queries, boolean time) {
    int k = 3;
    BlockScheme scheme = BlockScheme.DEFAULT;
    RecordLayout layout = new RecordLayout(scheme);
    SplittableRandom random = new SplittableRandom(42);
    long[] fps = new long[n];
    long[] ids = new long[n];
    for (int i = 0; i < n; i++) {
      fps[i] = random.nextLong();
      ids[i] = i;
    }
    long[] q = BenchmarkQueries.of(random, fps, queries, k);
    Segment seg = Segment.build(layout, fps.clone(), ids);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("size", n);
    out.put("queries", queries);
    out.put("layout", layout.prefix() ? "prefix" : "wide");
    out.put("bytes_per_fingerprint", round2((double) seg.ramBytesUsed() / n));
    Counts c = new Counts(scheme.tables());
    for (long query : q) {
      count(layout, seg, query, k, c);
    }
    c.put(out, queries);
    out.put("matches_total", c.matches);
    if (time) {
      timeColdWarm(scheme, layout, seg, q, k, out);
    } else { // a small run (tests): the linear scan's count beside the walk's
      long brute = 0;
      for (long query : q) {
        for (long fp : fps) {
          brute += Long.bitCount(fp ^ query) <= k ? 1 : 0;
        }
      }
      out.put("matches_brute_force", brute);
    }
    return out;
  }

  /** Per-query sums. */
  static final class Counts {
    final long[] entries;
    final long[] lines;
    long dirLines;
    long tagPasses;
    long skippedLookups;
    long lowReads;
    long prefixLookups;
    long searchSteps;
    long lookupCompares;
    long lookupLines;
    long matches;

    Counts(int tables) {
      entries = new long[tables];
      lines = new long[tables];
    }

    void put(Map<String, Object> out, int queries) {
      long scanned = 0;
      long scanLines = 0;
      for (int t = 0; t < entries.length; t++) {
        out.put("t" + t + "_entries", round2((double) entries[t] / queries));
        out.put("t" + t + "_lines", round2((double) lines[t] / queries));
        scanned += entries[t];
        scanLines += lines[t];
      }
      out.put("directory_lines", round2((double) dirLines / queries));
      out.put("tag_compares", round2((double) (scanned - entries[0]) / queries));
      out.put("table0_compares", round2((double) entries[0] / queries));
      out.put("tag_passes", round2((double) tagPasses / queries));
      out.put("table0_lookups", round2((double) prefixLookups / queries));
      out.put("table0_lookups_skipped", round2((double) skippedLookups / queries));
      out.put("table0_low_reads", round2((double) lowReads / queries));
      out.put("lookup_search_steps", round2((double) searchSteps / queries));
      out.put("full_compares", round2((double) (lowReads + lookupCompares) / queries));
      out.put("matches", round2((double) matches / queries));
      out.put(
          "cache_lines",
          round2((double) (dirLines + scanLines + lookupLines + lowReads) / queries));
    }
  }

  /** Lines of a range of {@code width}-byte elements [from, to) of an array starting on a line. */
  static int lines(long from, long to, int width) {
    if (from >= to) {
      return 0;
    }
    long a = from * width / LINE;
    long b = (to * width - 1) / LINE;
    return (int) (b - a + 1);
  }

  static void count(RecordLayout layout, Segment seg, long q, int k, Counts c) {
    BlockScheme scheme = layout.scheme();
    for (int t = 0; t < scheme.tables(); t++) {
      long qp = scheme.permute(t, q);
      int b = (int) (qp >>> 48);
      int[] dir = seg.dirs[t];
      c.dirLines += lines(b, b + 2, 4);
      int from = dir[b];
      int to = dir[b + 1];
      c.entries[t] += to - from;
      if (t == 0) {
        c.lines[t] += lines(from, to, 4); // bits 47..16 of each fingerprint, one int
        int qHi = (int) (q >>> 16);
        for (int i = from; i < to; i++) {
          if (Integer.bitCount(seg.table0.hi[i] ^ qHi) <= k) {
            c.lowReads++; // the 16 low bits: another line
            if (Long.bitCount(seg.fp(b, i) ^ q) <= k) {
              c.matches++;
            }
          }
        }
        continue;
      }
      PrefixRecords r = (PrefixRecords) seg.records[t];
      c.lines[t] += lines(from, to, 4);
      int qTag = layout.tag(t, q);
      int prev = -1;
      for (int i = from; i < to; i++) {
        int tag = r.tag(i);
        if (Integer.bitCount(tag ^ qTag) > k) {
          continue;
        }
        c.tagPasses++;
        if (tag == prev) {
          continue;
        }
        prev = tag;
        long known = layout.known(t, b, tag);
        boolean earlier = false;
        for (int u = 0; u < t; u++) {
          long m = scheme.keyMask(u);
          earlier |= (m & ~layout.knownMask(t)) == 0 && ((known ^ q) & m) == 0;
        }
        if (earlier) {
          c.skippedLookups++; // an earlier table reaches every entry filed here
          continue;
        }
        c.prefixLookups++;
        lookup(layout, seg, t, b, tag, q, k, c);
      }
    }
  }

  /** Mirrors IndexSearch.reportPrefix: binary search, then the scan of the prefix's run. */
  private static void lookup(
      RecordLayout layout, Segment seg, int t, int bucket, int tag, long q, int k, Counts c) {
    long known = layout.known(t, bucket, tag);
    long knownMask = layout.knownMask(t);
    long prefixMask = -1L << (64 - layout.prefixBits(t));
    long prefix = known & prefixMask;
    int b = (int) (known >>> 48);
    int lo = seg.dirs[0][b];
    int end = seg.dirs[0][b + 1];
    c.lookupLines += lines(b, b + 2, 4);
    int hi = end;
    long lastLine = -1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      c.searchSteps++;
      long line = (long) mid * 4 / LINE;
      if (line != lastLine) {
        c.lookupLines++;
        lastLine = line;
      }
      if (Long.compareUnsigned(seg.fp(b, mid), prefix) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    for (int i = lo; i < end; i++) {
      long fp = seg.fp(b, i);
      if ((fp & prefixMask) != prefix) {
        break;
      }
      c.lookupCompares++;
      long line = (long) i * 4 / LINE;
      if (line != lastLine) {
        c.lookupLines += 2; // hi, and lo for the whole fingerprint
        lastLine = line;
      }
      if ((fp & knownMask) == known && Long.bitCount(fp ^ q) <= k) {
        // reported here only if no earlier table reaches it (then it was counted there)
        boolean reached = false;
        for (int u = 0; u < t; u++) {
          reached |= Long.bitCount((fp ^ q) & layout.scheme().keyMask(u)) == 0;
        }
        if (!reached) {
          c.matches++;
        }
      }
    }
  }

  /**
   * Each query timed cold, then three times warm at once (the minimum kept), after two untimed
   * passes over all queries for the JIT.
   */
  private static void timeColdWarm(
      BlockScheme scheme,
      RecordLayout layout,
      Segment seg,
      long[] q,
      int k,
      Map<String, Object> out) {
    IndexSearch search = new IndexSearch(scheme, layout);
    Segment[] segs = {seg};
    AddBuffer[] frozen = new AddBuffer[0];
    AddBuffer buffer = new AddBuffer(scheme, 1);
    long[] sink = new long[1];
    MatchConsumer consumer = (id, fp, d) -> sink[0] += id;
    for (int pass = 0; pass < 2; pass++) {
      for (long query : q) {
        search.run(segs, frozen, buffer, query, k, consumer, Integer.MAX_VALUE);
      }
    }
    double[] cold = new double[q.length];
    double[] warm = new double[q.length];
    for (int i = 0; i < q.length; i++) {
      long t0 = System.nanoTime();
      search.run(segs, frozen, buffer, q[i], k, consumer, Integer.MAX_VALUE);
      long t1 = System.nanoTime();
      long best = Long.MAX_VALUE;
      for (int r = 0; r < 3; r++) {
        long a = System.nanoTime();
        search.run(segs, frozen, buffer, q[i], k, consumer, Integer.MAX_VALUE);
        best = Math.min(best, System.nanoTime() - a);
      }
      cold[i] = (t1 - t0) / 1e3;
      warm[i] = best / 1e3;
    }
    putLatency("cold", cold, out);
    putLatency("warm", warm, out);
    out.put("sink", sink[0] & 1);
  }

  private static void putLatency(String name, double[] lat, Map<String, Object> out) {
    double[] s = lat.clone();
    Arrays.sort(s);
    double sum = 0;
    int under = 0;
    for (double v : lat) {
      if (v <= 1000) {
        sum += v;
        under++;
      }
    }
    out.put(name + "_mean_under_1ms_us", round2(sum / Math.max(1, under)));
    out.put(name + "_p50_us", round2(s[s.length / 2]));
    out.put(name + "_p99_us", round2(s[(int) (s.length * 0.99)]));
    // BenchmarkQueries: even queries are near-duplicates (a match, buckets rescanned), odd random
    for (int parity = 0; parity < 2; parity++) {
      double[] part = new double[(lat.length + 1 - parity) / 2];
      double partSum = 0;
      int partUnder = 0;
      for (int i = parity; i < lat.length; i += 2) {
        part[i / 2] = lat[i];
        if (lat[i] <= 1000) {
          partSum += lat[i];
          partUnder++;
        }
      }
      Arrays.sort(part);
      String kind = parity == 0 ? "_near_duplicate" : "_random";
      out.put(name + kind + "_mean_under_1ms_us", round2(partSum / Math.max(1, partUnder)));
      out.put(name + kind + "_p50_us", round2(part[part.length / 2]));
    }
  }

  private static double round2(double v) {
    return Math.round(v * 100) / 100.0;
  }
}
