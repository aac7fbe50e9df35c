// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code fingerprint INPUT...} without picocli prints, reports and exits as picocli's run does. */
class FingerprintPlainTest {
  @TempDir Path tmp;

  private static CliRunner plain(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    Integer code =
        FingerprintCommand.runPlain(args, new PrintWriter(out, true), new PrintWriter(err, true));
    assertThat(code).as("taken by the plain path: %s", List.of(args)).isNotNull();
    return new CliRunner(code, out.toString(), err.toString());
  }

  private Path corpus() throws IOException {
    Path in = tmp.resolve("in.jsonl");
    Files.write(
        in,
        List.of(
            DedupCommandTest.doc("a", DedupCommandTest.NEWS_EN),
            "not json",
            "{\"id\": 7, \"text\": \"" + DedupCommandTest.NEWS_ZH + "\"}",
            "{\"id\": \"p\", \"text\": \"...\"}"),
        StandardCharsets.UTF_8);
    return in;
  }

  @Test
  void runPlain_filesOnly_sameOutputErrorsAndExitAsPicocli() throws IOException {
    Path in = corpus();
    Path txt = tmp.resolve("doc.txt");
    Files.writeString(txt, DedupCommandTest.NEWS_ZH + "\n" + DedupCommandTest.NEWS_EN + "\n");
    for (String[] args :
        List.of(
            new String[] {"fingerprint", in.toString()},
            new String[] {"fingerprint", in.toString(), txt.toString(), in.toString()},
            new String[] {"fingerprint", tmp.toString()})) {
      CliRunner viaPicocli = CliRunner.run(args);
      CliRunner direct = plain(args);
      assertThat(direct.exitCode).as(direct.toString()).isEqualTo(viaPicocli.exitCode);
      assertThat(direct.out).isEqualTo(viaPicocli.out).isNotEmpty();
      assertThat(direct.err).isEqualTo(viaPicocli.err);
    }
  }

  @Test
  void runPlain_missingInput_sameMessageAndExitAsPicocli() {
    String[] args = {"fingerprint", tmp.resolve("missing.jsonl").toString()};
    CliRunner viaPicocli = CliRunner.run(args);
    CliRunner direct = plain(args);
    assertThat(viaPicocli.exitCode).isEqualTo(1);
    assertThat(direct.exitCode).isEqualTo(1);
    assertThat(direct.err).isEqualTo(viaPicocli.err).contains("neardup fingerprint: error: ");
    assertThat(direct.out).isEqualTo(viaPicocli.out);
  }

  @Test
  void runPlain_optionsArgumentFilesOrOtherCommands_leftToPicocli() {
    for (String[] args :
        List.of(
            new String[] {"fingerprint"},
            new String[] {"fingerprint", "--threads", "1", "in.jsonl"},
            new String[] {"fingerprint", "in.jsonl", "-"},
            new String[] {"fingerprint", "@args.txt"},
            new String[] {"fingerprint", ""},
            new String[] {"fingerprint", "in.jsonl", "--help"},
            new String[] {"dedup", "in.jsonl"},
            new String[] {})) {
      assertThat(
              FingerprintCommand.runPlain(
                  args, new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter())))
          .as("%s", List.of(args))
          .isNull();
    }
  }
}
