// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.testkit.ExactlyOneRace;

/**
 * Exactly one survivor: many clients over real HTTP send groups of copies and near-copies in random
 * order at the same time to one node on the embedded store; each group has exactly one new document
 * and every copy names it as its cluster ({@link ExactlyOneRace}).
 *
 * <p>CI runs 1,000 groups of 8 on 64 connections; {@code -Dneardup.groups=10000} runs the full
 * size.
 */
class LinearizabilityIT {
  @TempDir Path dir;

  @Test
  public void concurrentCopies_exactlyOneNewPerGroup() throws Exception {
    try (TestServer t = TestServer.start(dir)) {
      ExactlyOneRace.of("linearizability", 1000, 20251122L)
          .timeout(Duration.ofMinutes(5))
          .run(List.of(t.client));
    }
  }
}
