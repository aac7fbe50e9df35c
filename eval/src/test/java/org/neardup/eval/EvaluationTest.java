// SPDX-License-Identifier: Apache-2.0
package org.neardup.eval;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.neardup.Analyzer;
import org.neardup.Deduplicator;

/**
 * The sweeps are shortcuts (one pass over the pairs within the largest k, one normalisation per
 * text for every threshold); each point must equal a direct run of the engine at that setting.
 */
class EvaluationTest {
  private static final int MAX_K = 12;
  private static Dataset data;
  private static Evaluation.Result result;
  private static Scorer scorer;

  @BeforeAll
  static void run() {
    Analyzer analyzer = Deduplicator.builder().analyzer();
    data = GeneratedData.make(analyzer, 150, 42);
    Evaluation.Options o = new Evaluation.Options();
    o.threads = 2;
    o.maxK = MAX_K;
    o.warmUp = 0;
    o.throughputRounds = 2;
    o.throughputSample = 50;
    Evaluation.Engine base = new Evaluation.Engine("defaults", analyzer, 3, 0.8);
    Evaluation.Engine noVerify =
        new Evaluation.Engine(
            "--no-verify", Deduplicator.builder().verify(false).analyzer(), 3, 0.8);
    result =
        Evaluation.run(
            data, base, t -> Deduplicator.builder().threshold(t).analyzer(), List.of(noVerify), o);
    scorer = new Scorer(data, 0.8);
  }

  @Test
  void generatedData_spreadsOverDistancesAndSimilarities() {
    // Guards the other tests against a degenerate input where every sweep point is the same.
    Score[] byK = result.fingerprintByK();
    assertThat(byK[MAX_K].predicted()).isGreaterThan(byK[0].predicted());
    assertThat(data.pairs().stream().filter(p -> p.jaccard() >= 0.8).count()).isGreaterThan(20);
    assertThat(data.pairs().stream().filter(p -> p.jaccard() < 0.8).count()).isGreaterThan(20);
  }

  @Test
  void fingerprintByK_equalsDirectRunAtEachK() {
    Corpus c = result.corpus();
    for (int k = 0; k <= MAX_K; k++) {
      PairList p = c.findPairs(k, 0.8, false, 2);
      assertThat(result.fingerprintByK()[k].toJson()).as("k = %s", k).isEqualTo(score(p).toJson());
    }
  }

  @Test
  void verifiedByK_equalsDirectRunAtEachK() {
    Corpus c = result.corpus();
    for (int k = 0; k <= MAX_K; k++) {
      PairList p = c.findPairs(k, 0.8, true, 2);
      assertThat(result.verifiedByK()[k].toJson()).as("k = %s", k).isEqualTo(score(p).toJson());
    }
  }

  @Test
  void byThreshold_equalsDirectRunWithThatThresholdsAnalyzer() {
    assertThat(result.byThreshold()).hasSize(10);
    for (Evaluation.ThresholdPoint point : result.byThreshold()) {
      double t = point.threshold();
      Analyzer a = Deduplicator.builder().threshold(t).analyzer();
      Corpus c = Corpus.analyse(data, a, 2, 0);
      PairList p = c.findPairs(3, t, true, 2);
      assertThat(point.bands()).isEqualTo(a.shingler().bands().toString());
      assertThat(point.predicted()).isEqualTo(p.size());
      assertThat(point.atLabel().toJson()).as("t = %s", t).isEqualTo(score(p).toJson());
      assertThat(point.matched().toJson())
          .as("t = %s", t)
          .isEqualTo(new Scorer(data, t).score(p.keys(), p.size()).toJson());
    }
  }

  @Test
  void sweepsByK_countsMonotonic() {
    for (Score[] byK : new Score[][] {result.fingerprintByK(), result.verifiedByK()}) {
      for (int k = 1; k < byK.length; k++) {
        Score.Counts before = byK[k - 1].all();
        Score.Counts now = byK[k].all();
        assertThat(byK[k].predicted()).isGreaterThanOrEqualTo(byK[k - 1].predicted());
        assertThat(now.tp()).isGreaterThanOrEqualTo(before.tp());
        assertThat(now.fp()).isGreaterThanOrEqualTo(before.fp());
        assertThat(now.fn()).isLessThanOrEqualTo(before.fn());
        assertThat(now.tp() + now.fn()).isEqualTo(before.tp() + before.fn());
      }
    }
  }

  @Test
  void byThreshold_matchedPositivesShrinkAsTheThresholdRises() {
    List<Evaluation.ThresholdPoint> pts = result.byThreshold();
    for (int i = 1; i < pts.size(); i++) {
      assertThat(pts.get(i).matched().positives())
          .isLessThanOrEqualTo(pts.get(i - 1).matched().positives());
      // Against the fixed label, a higher threshold never finds more true positives.
      assertThat(pts.get(i).atLabel().all().tp())
          .isLessThanOrEqualTo(pts.get(i - 1).atLabel().all().tp());
    }
  }

  @Test
  void variants_firstIsGivenSettings_fingerprintOnlyMatchesNoVerifyRow() {
    List<Evaluation.Variant> vs = result.variants();
    assertThat(vs).hasSize(2);
    assertThat(vs.get(0).score().toJson()).isEqualTo(result.score().toJson());
    assertThat(vs.get(0).fingerprintOnly().toJson()).isEqualTo(result.fingerprintByK()[3].toJson());
    assertThat(vs.get(1).score().toJson()).isEqualTo(result.fingerprintByK()[3].toJson());
    assertThat(vs.get(0).docsPerSecond()).hasSize(2);
    assertThat(vs.get(0).minDocsPerSecond()).isPositive();
  }

  @Test
  void examples_areMistakesOfTheGivenSettings() {
    for (Evaluation.Example x : result.falsePositives()) {
      assertThat(scorer.isPositive(x.a().index(), x.b().index())).isFalse();
    }
    for (Evaluation.Example x : result.falseNegatives()) {
      assertThat(scorer.isPositive(x.a().index(), x.b().index())).isTrue();
      assertThat(x.reason()).isNotBlank();
    }
  }

  private static Score score(PairList p) {
    return scorer.score(p.keys(), p.size());
  }
}
