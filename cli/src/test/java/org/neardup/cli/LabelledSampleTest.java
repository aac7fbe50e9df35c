// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Issue 21: docs/EVAL.md used a labelled set a reader could not get. examples/labelled ships one
 * (the documents of examples/sample.jsonl with every listed pair among them); this checks it is a
 * dataset {@code eval} reads whole, with the figures docs/EVAL.md quotes.
 */
class LabelledSampleTest {
  private static final Path SAMPLE = Path.of("..", "examples", "labelled");

  @Test
  void eval_shippedLabelledSample_readsWholeAndScoresAsDocumented() {
    assertThat(Files.isRegularFile(SAMPLE.resolve("docs.jsonl"))).isTrue();
    CliRunner r = CliRunner.run("eval", SAMPLE.toString(), "--no-sweeps", "--no-variants", "-q");
    assertThat(r.exitCode).as(r.toString()).isZero();
    assertThat(r.err).as(r.toString()).doesNotContain("skipped");
    assertThat(r.out)
        .contains("544 documents, 232 listed pairs, 205 near-duplicates (Jaccard >= 0.8)")
        .containsPattern("ALL +205 +206 +205 +1 +0 +0\\.9951 +1\\.0000 +0\\.9976");
  }
}
