// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StepLimitTest {
  @TempDir Path dir;

  @Test
  void step_overItsLimit_namesItselfWritesStacksAndEnds() throws Exception {
    List<String> lines = new CopyOnWriteArrayList<>();
    CountDownLatch ended = new CountDownLatch(1);
    Path stacks = dir.resolve("stacks.txt");
    try (StepLimit limits = new StepLimit(stacks, lines::add, ended::countDown);
        StepLimit.Step s = limits.step("the import of 10 fingerprints", Duration.ofMillis(50))) {
      assertThat(ended.await(10, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(lines).hasSize(1);
    assertThat(lines.get(0))
        .startsWith("STALLED: the import of 10 fingerprints still running after")
        .contains("(its limit 0 s)")
        .contains(stacks.toAbsolutePath().toString());
    // This test's own thread, waiting in the latch, with its whole stack.
    assertThat(Files.readString(stacks))
        .contains("\"" + Thread.currentThread().getName() + "\"")
        .contains("step_overItsLimit_namesItselfWritesStacksAndEnds");
  }

  @Test
  void step_closedInTime_saysNothing() throws Exception {
    List<String> lines = new CopyOnWriteArrayList<>();
    CountDownLatch ended = new CountDownLatch(1);
    Path stacks = dir.resolve("stacks.txt");
    try (StepLimit limits = new StepLimit(stacks, lines::add, ended::countDown)) {
      try (StepLimit.Step s = limits.step("a quick step", Duration.ofMillis(300))) {
        assertThat(s).isNotNull();
      }
      assertThat(ended.await(1, TimeUnit.SECONDS)).isFalse();
    }
    assertThat(lines).isEmpty();
    assertThat(stacks).doesNotExist();
  }
}
