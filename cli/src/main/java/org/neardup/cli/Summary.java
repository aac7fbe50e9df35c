// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.PriorityQueue;

/** What a dedup run did, for the terminal and for summary.json. */
final class Summary {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int BIGGEST = 5;

  long documents;
  long errors;
  long unique;
  long newOnArrival;
  long duplicates;
  long clusters;
  long pairs;
  double seconds;
  double readSeconds;
  double pairSeconds;
  double clusterSeconds;

  /** CPU seconds of read and analyse, pairs, clusters and write; null when unknown. */
  double @org.jspecify.annotations.Nullable [] cpuSeconds;

  double writeSeconds;

  /** What the pairs phase did; null before it ran. */
  org.neardup.CorpusDedup.@org.jspecify.annotations.Nullable Stats pairStats;

  /** Where the band keys and heads were held: "heap", "files" (memory-mapped), or null. */
  @org.jspecify.annotations.Nullable String columns;

  String settings = "";
  private final PriorityQueue<Object[]> biggest =
      new PriorityQueue<>(Comparator.comparingInt((Object[] a) -> (Integer) a[1]));

  /** Remembers a multi-document cluster if it is among the biggest. */
  void noteCluster(String repIdJson, int size) {
    biggest.add(new Object[] {repIdJson, size});
    if (biggest.size() > BIGGEST) {
      biggest.poll();
    }
  }

  private List<Object[]> biggestFirst() {
    List<Object[]> l = new ArrayList<>(biggest);
    l.sort(Comparator.comparingInt((Object[] a) -> (Integer) a[1]).reversed());
    return l;
  }

  double docsPerSecond() {
    return seconds > 0 ? documents / seconds : 0;
  }

  ObjectNode toJson() {
    ObjectNode n = JSON.createObjectNode();
    n.put("documents", documents);
    n.put("errors", errors);
    n.put("unique", unique);
    n.put("new_on_arrival", newOnArrival);
    n.put("duplicates", duplicates);
    n.put("clusters", clusters);
    n.put("pairs", pairs);
    n.put("seconds", Math.round(seconds * 1000) / 1000.0);
    n.put("documents_per_second", Math.round(docsPerSecond()));
    ObjectNode phases = n.putObject("phase_seconds");
    phases.put("read_and_analyse", Math.round(readSeconds * 1000) / 1000.0);
    phases.put("pairs", Math.round(pairSeconds * 1000) / 1000.0);
    phases.put("clusters", Math.round(clusterSeconds * 1000) / 1000.0);
    phases.put("write", Math.round(writeSeconds * 1000) / 1000.0);
    if (cpuSeconds != null) {
      ObjectNode cpu = n.putObject("phase_cpu_seconds");
      cpu.put("read_and_analyse", Math.round(cpuSeconds[0] * 1000) / 1000.0);
      cpu.put("pairs", Math.round(cpuSeconds[1] * 1000) / 1000.0);
      cpu.put("clusters_and_write", Math.round(cpuSeconds[2] * 1000) / 1000.0);
    }
    if (pairStats != null) {
      org.neardup.CorpusDedup.Stats p = pairStats;
      ObjectNode pp = n.putObject("pairs_phase");
      pp.put("head_seconds", Math.round(p.headSeconds() * 1000) / 1000.0);
      pp.put("fingerprint_seconds", Math.round(p.fingerprintSeconds() * 1000) / 1000.0);
      pp.put("band_seconds", Math.round(p.bandSeconds() * 1000) / 1000.0);
      pp.put("fingerprint_pairs", p.fingerprintPairs());
      pp.put("band_pairs", p.bandPairs());
      pp.put("candidates", p.candidates());
      pp.put("head_rejected", p.headRejected());
      pp.put("bucket_rejected", p.bucketRejected());
      pp.put("verified", p.verified());
      pp.put("sketch_reads", p.sketchReads());
      long docs = Math.max(1, documents - errors);
      pp.put("candidates_per_document", Math.round(100.0 * p.candidates() / docs) / 100.0);
      pp.put("verified_per_document", Math.round(100.0 * p.verified() / docs) / 100.0);
      if (columns != null) {
        pp.put("columns", columns);
      }
    }
    ArrayNode big = n.putArray("biggest_clusters");
    for (Object[] c : biggestFirst()) {
      ObjectNode o = big.addObject();
      try {
        o.set("representative", JSON.readTree((String) c[0]));
      } catch (java.io.IOException e) {
        o.put("representative", (String) c[0]);
      }
      o.put("size", (Integer) c[1]);
    }
    n.put("settings", settings);
    return n;
  }

  String text(Path out) {
    StringBuilder b = new StringBuilder();
    b.append(
        String.format(
            Locale.ROOT,
            "%,d documents: %,d unique, %,d duplicates in %,d clusters (%,d near-duplicate pairs)%n",
            documents - errors,
            unique,
            duplicates,
            clusters,
            pairs));
    if (newOnArrival != unique) {
      b.append(
          String.format(
              Locale.ROOT,
              "(checked one by one in input order, %,d would be new on arrival: %,d of them joined"
                  + " a cluster a later document merged)%n",
              newOnArrival,
              newOnArrival - unique));
    }
    if (errors > 0) {
      b.append(
          String.format(
              Locale.ROOT,
              "%,d documents skipped with errors (see %s)%n",
              errors,
              out.resolve("errors.jsonl")));
    }
    List<Object[]> big = biggestFirst();
    if (!big.isEmpty()) {
      b.append("biggest clusters:");
      for (Object[] c : big) {
        b.append(' ').append((String) c[0]).append(" (").append(c[1]).append(')');
      }
      b.append('\n');
    }
    b.append(
        String.format(
            Locale.ROOT, "%.2f s, %,.0f documents/s; output in %s", seconds, docsPerSecond(), out));
    return b.toString();
  }
}
