// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21: after {@code mvn verify} the launcher rebuilt the jar on the next run (~20 s), because
 * the JMH sources generated in benchmarks/target were newer than the jar. The launcher's {@code
 * stale()} (run by bash, as the launcher runs it) must look only at what the CLI jar is built from:
 * the poms and src/main of cli and the modules it depends on, read from the real poms.
 */
class LauncherStaleTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Instant BUILT = Instant.parse("2026-01-01T12:00:00Z");

  @TempDir Path tree;

  @BeforeEach
  void copyThePomsAndBuildTheJar() throws IOException {
    Files.copy(ROOT.resolve("pom.xml"), tree.resolve("pom.xml"));
    try (Stream<Path> modules = Files.list(ROOT)) {
      for (Path m : modules.filter(d -> Files.isRegularFile(d.resolve("pom.xml"))).toList()) {
        Path copy = Files.createDirectories(tree.resolve(m.getFileName().toString()));
        Files.copy(m.resolve("pom.xml"), copy.resolve("pom.xml"));
        touch(copy.resolve("src/main/java/Main.java"), BUILT.minusSeconds(100));
        touch(copy.resolve("pom.xml"), BUILT.minusSeconds(100));
      }
    }
    touch(tree.resolve("pom.xml"), BUILT.minusSeconds(100));
    touch(tree.resolve("cli/target/neardup.jar"), BUILT);
  }

  /**
   * Gives {@code p} the time {@code t}, creating it if needed; its directories get a time before
   * the build (stale() also sees a directory whose files were added or removed since).
   */
  private void touch(Path p, Instant t) throws IOException {
    Files.createDirectories(p.getParent());
    if (!Files.exists(p)) {
      Files.writeString(p, "x", StandardCharsets.UTF_8);
    }
    Files.setLastModifiedTime(p, FileTime.from(t));
    for (Path d = p.getParent(); d.startsWith(tree); d = d.getParent()) {
      Files.setLastModifiedTime(d, FileTime.from(BUILT.minusSeconds(100)));
    }
  }

  /** Runs the launcher's own stale() on the tree: true when it would rebuild. */
  private boolean stale() throws IOException, InterruptedException {
    String script =
        "root=\"$1\"; jar=\"$root/cli/target/neardup.jar\";"
            + " source <(sed -n '/^stale() {/,/^}/p' \"$2\");"
            + " if stale; then echo stale; else echo fresh; fi";
    Process p =
        new ProcessBuilder(
                "bash", "-c", script, "bash", tree.toString(), ROOT.resolve("neardup").toString())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(out).isIn("stale", "fresh");
    return out.equals("stale");
  }

  @Test
  void stale_nothingNewer_fresh() throws Exception {
    assertThat(stale()).isFalse();
  }

  @Test
  void stale_generatedBenchmarkSourcesOrTestsNewer_fresh() throws Exception {
    for (String p :
        List.of(
            "benchmarks/target/generated-sources/annotations/Jmh_Generated.java",
            "benchmarks/src/main/java/Bench.java",
            "core/src/test/java/SomeTest.java",
            "cli/target/classes/Other.java")) {
      touch(tree.resolve(p), BUILT.plusSeconds(100));
      assertThat(stale()).as(p).isFalse();
    }
  }

  @Test
  void stale_aSourceOrPomOfTheJarNewer_rebuilds() throws Exception {
    for (String p :
        List.of(
            "core/src/main/java/Main.java",
            "store-embedded/src/main/resources/x.properties",
            "cli/pom.xml",
            "pom.xml")) {
      touch(tree.resolve(p), BUILT.plusSeconds(100));
      assertThat(stale()).as(p).isTrue();
      touch(tree.resolve(p), BUILT.minusSeconds(100));
    }
  }

  @Test
  void stale_noJar_rebuilds() throws Exception {
    Files.delete(tree.resolve("cli/target/neardup.jar"));
    assertThat(stale()).isTrue();
  }
}
