// SPDX-License-Identifier: Apache-2.0
package org.neardup.eval;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The numbers of an evaluation as JSON. The top level is exactly what {@code score.py --json}
 * writes for the pairs found at the given settings ({@code threshold, gold_positives,
 * predicted_pairs, groups, hard_negatives}), so tools that read score.py's output read this too;
 * the other keys add the settings, the throughput, the sweeps and the alternatives, each point a
 * score in the same form.
 */
public final class JsonReport {
  private JsonReport() {}

  public static ObjectNode render(Evaluation.Result r) {
    ObjectNode out = r.score().toJson();
    ObjectNode dataset = out.putObject("dataset");
    dataset.put("dir", r.dataset().dir().toString());
    dataset.put("documents", r.dataset().docs().size());
    dataset.put("listed_pairs", r.dataset().pairs().size());
    dataset.put("floor", r.dataset().floor());
    ObjectNode settings = out.putObject("settings");
    engine(settings, r.base());
    settings.put("threads", r.corpus().threads());
    ObjectNode analysis = out.putObject("analysis");
    analysis.put("seconds", r.corpus().seconds());
    analysis.put("documents_per_second", r.corpus().docsPerSecond());
    analysis.put("pair_seconds", r.pairs().seconds());
    analysis.put("excluded_documents", r.corpus().excludedCount());
    ObjectNode sweeps = out.putObject("sweeps");
    if (r.fingerprintByK() != null) {
      byK(sweeps.putArray("fingerprint_by_k"), r.fingerprintByK());
    }
    if (r.verifiedByK() != null) {
      byK(sweeps.putArray("verified_by_k"), r.verifiedByK());
    }
    if (!r.byThreshold().isEmpty()) {
      ArrayNode a = sweeps.putArray("by_threshold");
      for (Evaluation.ThresholdPoint p : r.byThreshold()) {
        ObjectNode o = a.addObject();
        o.put("threshold", p.threshold());
        o.put("bands", p.bands());
        o.put("predicted_pairs", p.predicted());
        o.set("at_label", p.atLabel().toJson());
        o.set("matched", p.matched().toJson());
      }
    }
    ArrayNode variants = out.putArray("variants");
    for (Evaluation.Variant v : r.variants()) {
      ObjectNode o = variants.addObject();
      engine(o, v.engine());
      o.put("documents_per_second", v.medianDocsPerSecond());
      ArrayNode rounds = o.putArray("documents_per_second_rounds");
      for (double d : v.docsPerSecond()) {
        rounds.add(d);
      }
      o.put("analysis_seconds", v.analysisSeconds());
      o.put("pair_seconds", v.pairSeconds());
      o.set("score", v.score().toJson());
      o.set("fingerprint_only", v.fingerprintOnly().toJson());
    }
    return out;
  }

  private static void engine(ObjectNode o, Evaluation.Engine e) {
    o.put("label", e.label());
    o.put("id", e.settingsId());
    o.put("max_distance", e.maxDistance());
    o.put("verify", e.verifies());
    if (e.verifies()) {
      o.put("threshold", e.threshold());
    }
  }

  private static void byK(ArrayNode a, Score[] byK) {
    for (int k = 0; k < byK.length; k++) {
      ObjectNode o = a.addObject();
      o.put("k", k);
      o.setAll(byK[k].toJson());
    }
  }
}
