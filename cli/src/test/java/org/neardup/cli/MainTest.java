// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

class MainTest {
  @Test
  void message_wrapperWithCause_namesTheCause() {
    IllegalStateException e =
        new IllegalStateException(
            "a background merge of this index failed", new OutOfMemoryError("Java heap space"));
    assertThat(Main.message(e))
        .startsWith("a background merge of this index failed: out of memory (Java heap space)")
        .contains("NEARDUP_JAVA_OPTS=-Xmx");
  }

  @Test
  void message_causeAlreadyInTheMessage_saidOnce() {
    IOException io = new IOException("disk full");
    IllegalStateException e = new IllegalStateException("writing pairs: disk full", io);
    assertThat(Main.message(e)).isEqualTo("writing pairs: disk full");
  }

  @Test
  void message_plainWrappers_unwrapped() {
    NoSuchFileException missing = new NoSuchFileException("/nowhere/x.jsonl");
    ExecutionException e =
        new ExecutionException(new UncheckedIOException(missing.toString(), missing));
    assertThat(Main.message(new ExecutionException(missing)))
        .isEqualTo("/nowhere/x.jsonl: no such file or directory");
    assertThat(Main.message(e)).contains("/nowhere/x.jsonl");
    assertThat(Main.message(new IllegalArgumentException("k must be 0 to 8")))
        .isEqualTo("k must be 0 to 8");
  }

  /**
   * A run builds only the subcommand it names; what that subcommand does with its arguments must
   * not depend on it: the usage of each, and of its own subcommands, reads the same as with all
   * subcommands built.
   */
  @Test
  void commandLine_oneSubcommand_sameUsageAsWithAll() {
    picocli.CommandLine all = Main.commandLine();
    for (String name : all.getSubcommands().keySet()) {
      picocli.CommandLine one = Main.commandLine(name);
      if (name.equals("help")) {
        assertThat(one.getSubcommands().keySet()).isEqualTo(all.getSubcommands().keySet());
        continue;
      }
      assertThat(one.getSubcommands().keySet()).containsExactly(name);
      picocli.CommandLine a = all.getSubcommands().get(name);
      picocli.CommandLine o = one.getSubcommands().get(name);
      assertThat(o.getUsageMessage()).isEqualTo(a.getUsageMessage());
      assertThat(o.getCommandSpec().qualifiedName()).isEqualTo("neardup " + name);
      for (String sub : a.getSubcommands().keySet()) {
        assertThat(o.getSubcommands().get(sub).getUsageMessage())
            .isEqualTo(a.getSubcommands().get(sub).getUsageMessage());
      }
    }
    assertThat(Main.commandLine("--help").getSubcommands()).hasSameSizeAs(all.getSubcommands());
    assertThat(Main.commandLine("nonsense").getSubcommands()).hasSameSizeAs(all.getSubcommands());
  }
}
