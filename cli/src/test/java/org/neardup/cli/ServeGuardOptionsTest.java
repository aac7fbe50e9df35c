// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.server.ServerConfig;
import picocli.CommandLine;

/** {@code neardup serve} takes the options against hostile clients that {@code Main} takes. */
class ServeGuardOptionsTest {
  @TempDir Path dir;

  private static ServerConfig parse(String... args) {
    ServeCommand c = new ServeCommand(System.out);
    new CommandLine(c).parseArgs(args);
    return c.config();
  }

  @Test
  public void guardsAndTokenFile() throws Exception {
    Path token = Files.writeString(dir.resolve("token"), "from-file\n");
    ServerConfig c =
        parse(
            "--token-file",
            token.toString(),
            "--max-collections",
            "7",
            "--max-k",
            "12",
            "--request-timeout",
            "5s",
            "--idle-timeout",
            "2s");
    assertThat(c.token()).isEqualTo("from-file");
    assertThat(c.guards().maxCollections()).isEqualTo(7);
    assertThat(c.guards().maxK()).isEqualTo(12);
    assertThat(c.guards().requestTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(c.guards().idleTimeout()).isEqualTo(Duration.ofSeconds(2));
    assertThat(parse().guards().maxK()).isEqualTo(8);
    assertThatThrownBy(() -> parse("--k", "9")).hasMessageContaining("above --max-k 8");
    assertThatThrownBy(() -> parse("--tls-cert", "c.pem")).hasMessageContaining("--tls-key");
  }
}
