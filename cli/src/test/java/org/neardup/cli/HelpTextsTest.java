// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class HelpTextsTest {
  /**
   * The build renders the texts into target/classes (process-classes); each must be what picocli
   * prints now, with and without colours, so a changed option can never show stale help.
   */
  @Test
  void storedTexts_equalPicocliRendering() throws IOException {
    for (String command : HelpTexts.COMMANDS) {
      for (boolean ansi : new boolean[] {false, true}) {
        String name = HelpTexts.resource(command, ansi);
        try (InputStream in = HelpTexts.class.getResourceAsStream(name)) {
          assertThat(in).as("%s (made by the build's help-texts execution)", name).isNotNull();
          String stored = new String(in.readAllBytes(), StandardCharsets.UTF_8);
          assertThat(stored).as(name).isEqualTo(HelpTexts.render(command, ansi));
          assertThat(stored).as(name).contains("Usage:").contains("--help");
          assertThat(stored.contains("\u001b[")).as(name + " has ANSI styles").isEqualTo(ansi);
        }
      }
    }
  }

  /** The usage a run prints is the stored text of the colours picocli picks for this process. */
  @Test
  void print_helpOfACommand_writesPicocliText() throws IOException {
    boolean ansi = picocli.CommandLine.Help.Ansi.AUTO.enabled();
    for (String[] args :
        new String[][] {{"fingerprint", "--help"}, {"dedup", "-h"}, {"--help"}, {"-h"}}) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      assertThat(HelpTexts.print(args, out)).as(String.join(" ", args)).isTrue();
      String command = args.length == 1 ? "" : args[0];
      assertThat(out.toString(StandardCharsets.UTF_8))
          .isEqualTo(HelpTexts.render(command, ansi))
          .contains(command.isEmpty() ? "Usage: neardup [-hV]" : "Usage: neardup " + command);
    }
  }

  /** Anything but a bare help request goes through picocli, which parses it. */
  @Test
  void print_otherArguments_printsNothing() throws IOException {
    for (String[] args :
        new String[][] {
          {},
          {"fingerprint"},
          {"fingerprint", "--help", "x.jsonl"},
          {"fingerprint", "x.jsonl", "--help"},
          {"serve", "--help"},
          {"help", "fingerprint"},
          {"--help", "fingerprint"},
          {"--version"},
          {"nonsense", "--help"},
          {"", "--help"},
          {"fingerprint", "--HELP"}
        }) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      assertThat(HelpTexts.print(args, out)).as(String.join(" ", args)).isFalse();
      assertThat(out.size()).isZero();
    }
  }
}
