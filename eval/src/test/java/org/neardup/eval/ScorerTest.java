// SPDX-License-Identifier: Apache-2.0
package org.neardup.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScorerTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The numbers must be score.py's, so eval and the official scorer never disagree: random
   * predictions (listed pairs, unlisted pairs of one language and of two, misses, hard negatives
   * found) at several gold thresholds, compared as JSON values and as printed text.
   */
  @Test
  void score_samePredictionsAsScorePy_identicalNumbersAndText(@TempDir Path tmp) throws Exception {
    assumeTrue(
        TestData.hasPython(), "python3 not found on PATH: skipping the score.py agreement test");
    Dataset data = TestData.tiny();
    SplittableRandom random = new SplittableRandom(20240501);
    int n = data.docs().size();
    for (double threshold : new double[] {0.8, 0.7, 0.5, 0.95}) {
      Scorer scorer = new Scorer(data, threshold);
      for (int round = 0; round < 4; round++) {
        Set<Long> predicted = new HashSet<>();
        for (Dataset.Pair p : data.pairs()) {
          if (random.nextInt(3) > 0) {
            predicted.add(Scorer.key(p.a(), p.b()));
          }
        }
        for (int extra = random.nextInt(12); extra > 0; extra--) {
          int a = random.nextInt(n);
          int b = random.nextInt(n);
          if (a != b) {
            predicted.add(Scorer.key(a, b));
          }
        }
        Path pred = tmp.resolve("pred-" + threshold + "-" + round + ".jsonl");
        List<String> lines = new ArrayList<>();
        for (long k : predicted) {
          lines.add(
              "{\"a\": \""
                  + data.docs().get(Scorer.second(k)).id()
                  + "\", \"b\": \""
                  + data.docs().get(Scorer.first(k)).id()
                  + "\"}");
        }
        Files.write(pred, lines, StandardCharsets.UTF_8);
        Path json = tmp.resolve("score-" + threshold + "-" + round + ".json");
        String stdout = runScorePy(data.dir(), pred, threshold, json);

        Score score = scorer.score(predicted);
        String ours =
            score.header(data.dir().toString()) + "\n" + score.table() + score.hardNegativesText();
        assertThat(ours).as("printed output, threshold %s", threshold).isEqualTo(stdout);
        JsonNode theirs = JSON.readTree(json.toFile());
        assertThat(JSON.readTree(JSON.writeValueAsString(score.toJson())))
            .as("JSON, threshold %s", threshold)
            .isEqualTo(theirs);
      }
    }
  }

  @Test
  void vendoredScorePy_sameAsOfficial() throws IOException {
    Path official = TestData.officialScorePy();
    assumeTrue(official != null, "no ../shared/data/score.py next to this checkout");
    Path vendored = TestData.tinyDir().getParent().resolve("score.py");
    assertThat(Files.readString(vendored, StandardCharsets.UTF_8))
        .as("src/test/resources/score.py must be a copy of %s", official)
        .isEqualTo(Files.readString(official, StandardCharsets.UTF_8));
  }

  @Test
  void scoreLevels_nestedPredictions_equalScoringEachLevelAlone() {
    Dataset data = TestData.tiny();
    Scorer scorer = new Scorer(data, 0.8);
    SplittableRandom random = new SplittableRandom(7);
    int n = data.docs().size();
    List<Long> keys = new ArrayList<>();
    List<Integer> levels = new ArrayList<>();
    for (Dataset.Pair p : data.pairs()) {
      keys.add(Scorer.key(p.a(), p.b()));
      levels.add(random.nextInt(8));
    }
    for (int i = 0; i < 40; i++) {
      int a = random.nextInt(n);
      int b = random.nextInt(n);
      if (a != b) {
        keys.add(Scorer.key(a, b));
        levels.add(random.nextInt(8));
      }
    }
    long[] k = keys.stream().mapToLong(Long::longValue).toArray();
    int[] l = levels.stream().mapToInt(Integer::intValue).toArray();
    Score[] byLevel = scorer.scoreLevels(k, l, k.length, 6);
    for (int level = 0; level <= 6; level++) {
      Set<Long> alone = new HashSet<>();
      for (int i = 0; i < k.length; i++) {
        if (l[i] <= level) {
          alone.add(k[i]);
        }
      }
      Score direct = scorer.score(alone);
      assertThat(byLevel[level].table()).isEqualTo(direct.table());
      assertThat(byLevel[level].toJson()).isEqualTo(direct.toJson());
      if (level > 0) {
        Score.Counts before = byLevel[level - 1].all();
        Score.Counts now = byLevel[level].all();
        assertThat(now.tp()).isGreaterThanOrEqualTo(before.tp());
        assertThat(now.fp()).isGreaterThanOrEqualTo(before.fp());
        assertThat(now.fn()).isLessThanOrEqualTo(before.fn());
      }
    }
  }

  @Test
  void score_selfPairsAndRepeats_ignoredLikeScorePy() {
    Dataset data = TestData.tiny();
    Scorer scorer = new Scorer(data, 0.8);
    Dataset.Pair p = data.pairs().get(1);
    long key = Scorer.key(p.a(), p.b());
    Score once = scorer.score(new long[] {key}, 1);
    Score repeated = scorer.score(new long[] {key, key, Scorer.key(3, 3)}, 3);
    assertThat(repeated.predicted()).isEqualTo(1);
    assertThat(repeated.toJson()).isEqualTo(once.toJson());
  }

  @Test
  void formatF_roundsTheExactBinaryValueHalfEven() {
    // 0.03125 is exact in binary: a true tie, which Python rounds to even.
    assertThat(Score.formatF(0.03125, 7, 4)).isEqualTo(" 0.0312");
    // 0.00015 is a little below its decimal in binary: Python prints 0.0001, not 0.0002.
    assertThat(Score.formatF(0.00015, 7, 4)).isEqualTo(" 0.0001");
    assertThat(Score.formatF(Double.NaN, 7, 4)).isEqualTo("    nan");
    assertThat(Score.formatF(100.0, 0, 2)).isEqualTo("100.00");
  }

  @Test
  void formatG_likePython() {
    assertThat(Score.formatG(0.8, 3)).isEqualTo("0.8");
    assertThat(Score.formatG(0.85, 3)).isEqualTo("0.85");
    assertThat(Score.formatG(1.0, 3)).isEqualTo("1");
    assertThat(Score.formatG(0.5, 2)).isEqualTo("0.5");
  }

  private static String runScorePy(Path gold, Path pred, double threshold, Path json)
      throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder(
                "python3",
                TestData.scorePy().toString(),
                "--gold",
                gold.toString(),
                "--pred",
                pred.toString(),
                "--threshold",
                Double.toString(threshold),
                "--json",
                json.toString())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    byte[] out = p.getInputStream().readAllBytes();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("score.py exit code").isZero();
    return new String(out, StandardCharsets.UTF_8);
  }
}
