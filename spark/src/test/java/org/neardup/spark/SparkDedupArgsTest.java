// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Bad arguments get exit status 2 and a message naming the problem, before Spark starts. */
class SparkDedupArgsTest {
  private static String[] run(int status, String... args) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int rc =
        SparkDedup.run(
            args,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(rc).isEqualTo(status);
    return new String[] {
      out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)
    };
  }

  @Test
  void rejectsBadArgumentsWithAMessage() throws Exception {
    assertThat(run(2, "in.jsonl")[1]).contains("--out DIR is required");
    assertThat(run(2, "--out", "x")[1]).contains("no INPUT given");
    assertThat(run(2, "in.jsonl", "--out", "x", "--threshold", "1.5")[1])
        .contains("--threshold must be in (0, 1]");
    assertThat(run(2, "in.jsonl", "--out", "x", "-k", "4", "--scheme", "4:1")[1])
        .contains("finds pairs within 3 bits only");
    assertThat(run(2, "in.jsonl", "--out", "x", "--html", "all")[1])
        .contains("--html: html must be 'visible', 'main' or 'raw', got 'all'");
    assertThat(run(2, "in.jsonl", "--out", "x", "--preset", "news")[1])
        .contains("--preset: preset must be 'none' or 'web', got 'news'");
    assertThat(run(2, "in.jsonl", "--out", "x", "--volatile-lines", "cut")[1])
        .contains("--volatile-lines: volatile lines must be 'keep' or 'drop'");
    assertThat(run(2, "in.jsonl", "--out", "x", "--lexicon", "none", "--user-dict", "pom.xml")[1])
        .contains("--lexicon none has none");
    assertThat(run(2, "in.jsonl", "--out", "x", "--bogus")[1]).contains("unknown option '--bogus'");
    assertThat(run(2, "in.jsonl", "--out", "x", "--partitions", "0")[1])
        .contains("--partitions must be >= 1");
    assertThat(run(2, "in.jsonl", "--out", "x", "--conf", "novalue")[1])
        .contains("--conf needs KEY=VALUE");
    assertThat(run(0, "--help")[0]).contains("spark-submit --class org.neardup.spark.SparkDedup");
  }
}
