// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.InstantSource;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.store.FingerprintStore;
import org.neardup.store.StoreConfig;

/**
 * Durations that would overflow milliseconds or nanoseconds later (a timeout of 2^63 seconds, a
 * retention of 2^63 seconds) are refused when given, naming the range. Before, they were accepted
 * and failed at the first use ("long overflow").
 */
class SettingBoundsTest {
  @TempDir Path dir;

  private static ServerConfig parse(String... args) {
    return ServerConfig.parse(args, Map.of());
  }

  @Test
  public void serverDurations() {
    assertThatThrownBy(() -> parse("--shutdown-timeout", "PT2562047788015215H"))
        .hasMessageContaining("shutdown timeout must be in [0, 24h)");
    assertThatThrownBy(() -> parse("--retention", "PT2562047788015215H"))
        .hasMessageContaining("retention must be in [0, 36500d]");
    assertThatThrownBy(() -> parse("--retention", "9223372036854775807s"))
        .hasMessageContaining("duration");
  }

  @Test
  public void storeDurations() {
    for (String[] o :
        new String[][] {
          {"fsync-interval", "PT2562047788015215H", "fsync interval must be in (0, 60s)"},
          {"maintenance-interval", "PT2562047788015215H", "maintenance interval must be in (0, 1h)"}
        }) {
      assertThatThrownBy(
              () ->
                  FingerprintStore.open(
                      "embedded",
                      new StoreConfig(
                          Map.of("data", dir.toString(), o[0], o[1]), InstantSource.system())))
          .hasMessageContaining(o[2]);
    }
  }
}
