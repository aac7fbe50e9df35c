// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dropped collections give their memory back: 200 rounds of create (jieba), insert one, drop, over
 * HTTP, in a 160 MB heap ({@link DropRounds}, a separate JVM). Before the fix each round kept about
 * 17 MB (the per-thread scratch of the collection's fingerprinter held the fingerprinter and its
 * IDF table), and a 256 MB heap ran out within 20 rounds.
 */
class DropMemoryIT {
  @TempDir Path dir;

  @Test
  public void twoHundredRounds_inASmallHeap() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String cp =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    Process p =
        new ProcessBuilder(
                List.of(
                    java,
                    "-Xmx160m",
                    "-XX:+UseSerialGC",
                    "-XX:+ExitOnOutOfMemoryError",
                    "-cp",
                    cp,
                    DropRounds.class.getName(),
                    dir.resolve("data").toString(),
                    "200"))
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(10, TimeUnit.MINUTES)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out).contains("ok 200 rounds");
  }
}
