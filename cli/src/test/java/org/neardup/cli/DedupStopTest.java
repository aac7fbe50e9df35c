// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code neardup dedup} stopped by SIGTERM once left its {@code .OUT.neardup-tmp-*} staging
 * directory behind (spill files of gigabytes at 10M documents): the staging directory was deleted
 * only by a normal return. A real process is stopped here while it reads its input.
 */
class DedupStopTest {
  @TempDir Path tmp;

  private List<Path> staging() throws IOException {
    try (Stream<Path> s = Files.list(tmp)) {
      return s.filter(p -> p.getFileName().toString().startsWith(".out.neardup-tmp-")).toList();
    }
  }

  @Test
  void dedup_sigterm_deletesItsStagingDirectory() throws Exception {
    Path out = tmp.resolve("out");
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "dedup",
                "-",
                "--out",
                out.toString(),
                "--quiet")
            .redirectErrorStream(true)
            .redirectOutput(tmp.resolve("log.txt").toFile())
            .start();
    try {
      // Documents on stdin, which stays open: the run waits for more, its staging directory (and
      // its spill files) in place.
      OutputStream in = p.getOutputStream();
      for (int i = 0; i < 50; i++) {
        in.write(
            (DedupCommandTest.doc("d" + i, DedupCommandTest.NEWS_EN + " " + i) + "\n")
                .getBytes(StandardCharsets.UTF_8));
      }
      in.flush();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (staging().isEmpty()
          || !Files.exists(staging().get(0).resolve("work").resolve("sketches"))) {
        assertThat(p.isAlive()).as("still running; log: %s", log()).isTrue();
        assertThat(System.nanoTime()).as("staging directory never appeared").isLessThan(deadline);
        Thread.sleep(50);
      }
      p.destroy(); // SIGTERM
      assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).as(log()).isNotZero();
      assertThat(staging()).as("staging directories left; log: %s", log()).isEmpty();
      assertThat(out).doesNotExist();
    } finally {
      p.destroyForcibly();
    }
  }

  private String log() throws IOException {
    return Files.readString(tmp.resolve("log.txt"), StandardCharsets.UTF_8);
  }
}
