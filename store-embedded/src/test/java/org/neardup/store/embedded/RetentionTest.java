// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings.RetentionBasis;
import org.neardup.store.Document;
import org.neardup.testkit.ManualClock;
import org.neardup.testkit.Texts;

/**
 * At a steady rate of inserts, a retention window keeps memory and disk flat: expired documents
 * stop matching at the next sweep, and compactions give their memory and log space back.
 */
class RetentionTest {
  @TempDir Path dir;

  @Test
  public void steadyRate_memoryAndDiskStayFlat() throws IOException {
    ManualClock clock = new ManualClock();
    int perMinute = 400;
    int windowMinutes = 30;
    int minutes = 8 * windowMinutes;
    SplittableRandom r = new SplittableRandom(3);
    List<Long> ram = new ArrayList<>();
    List<Long> disk = new ArrayList<>();
    List<Long> live = new ArrayList<>();
    try (EmbeddedStore s =
        EmbeddedStore.builder(dir)
            .clock(clock)
            .background(false)
            .minDeadForRebuild(1000)
            .snapshotBytes(1 << 20)
            .open()) {
      Collection c =
          s.create(
              "news",
              StoreTesting.SETTINGS
                  .withRetention(Duration.ofMinutes(windowMinutes))
                  .withRetentionBasis(RetentionBasis.ARRIVAL));
      String previous = null;
      int n = 0;
      for (int minute = 0; minute < minutes; minute++) {
        List<Document> batch = new ArrayList<>();
        for (int i = 0; i < perMinute; i++) {
          // One in four is a near-copy of the one before, so clusters form and expire too.
          String text =
              previous != null && r.nextInt(4) == 0 ? Texts.edit(r, previous) : Texts.text(r, 15);
          batch.add(new Document("d" + n++, c.analyzer().analyze(text)));
          previous = text;
        }
        c.checkAndInsertAll(batch); // one fsync a minute: this test is about memory
        clock.advance(Duration.ofMinutes(1));
        s.maintain();
        if (minute >= 2 * windowMinutes) {
          ram.add(c.stats().ramBytesUsed());
          disk.add(directorySize());
          live.add(c.stats().documents());
        }
      }
      assertThat(c.stats().expired())
          .isGreaterThan((long) perMinute * (minutes - windowMinutes - 1));
      assertThat(s.metrics().get("rebuilds_total").longValue()).isGreaterThan(5);
      // The oldest documents are gone, the newest are there.
      assertThat(c.get("d0")).isEmpty();
      assertThat(c.get("d" + (n - 1))).isPresent();
    }
    // Live documents after each sweep: the minutes whose end is still inside the window.
    assertThat(live).allMatch(x -> x == (long) perMinute * (windowMinutes - 1));
    // Memory: the last stretch uses no more than the first (sawtooth between rebuilds).
    long firstMax = max(ram.subList(0, ram.size() / 3));
    long lastMax = max(ram.subList(2 * ram.size() / 3, ram.size()));
    assertThat(lastMax).as("ram %s", ram).isLessThanOrEqualTo(firstMax * 11 / 10);
    long firstDisk = max(disk.subList(0, disk.size() / 3));
    long lastDisk = max(disk.subList(2 * disk.size() / 3, disk.size()));
    assertThat(lastDisk).as("disk %s", disk).isLessThanOrEqualTo(firstDisk * 11 / 10);
  }

  private static long max(List<Long> xs) {
    return xs.stream().mapToLong(Long::longValue).max().orElseThrow();
  }

  private long directorySize() throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.mapToLong(
              p -> {
                try {
                  return Files.size(p);
                } catch (IOException e) {
                  return 0;
                }
              })
          .sum();
    }
  }
}
