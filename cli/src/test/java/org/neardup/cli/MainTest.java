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
}
