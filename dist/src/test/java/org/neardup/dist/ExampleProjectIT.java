// SPDX-License-Identifier: Apache-2.0
package org.neardup.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * neardup-core as a user's project gets it: installed (jar, POM, sources, javadoc, and the parent
 * POM it inherits from, as mvn install lays them out) into a temporary local repository, never the
 * shared ~/.m2, then examples/java-library built against it by a separate Maven run, and its
 * program run. That Maven run finds its plugins in ~/.m2 read as a remote repository (a file://
 * mirror), so it downloads nothing and writes nothing there.
 */
class ExampleProjectIT {
  @TempDir Path work;

  @Test
  void exampleProject_buildsAgainstTheInstalledCore_andFindsTheRepost() throws Exception {
    Path root = Release.root();
    String version = System.getProperty("neardup.version");
    Path m2 =
        Paths.get(
            System.getProperty("neardup.m2", System.getProperty("user.home") + "/.m2/repository"));
    Path repo = work.resolve("repository");
    Path settings = work.resolve("settings.xml");
    Files.writeString(
        settings,
        "<settings><offline>false</offline><mirrors><mirror><id>shared-m2-read-only</id>"
            + "<mirrorOf>*</mirrorOf><url>"
            + m2.toUri()
            + "</url></mirror></mirrors></settings>",
        StandardCharsets.UTF_8);
    Path mvn = Release.which("mvn");
    assertThat(mvn).as("mvn on the PATH").isNotNull();
    // What mvn install writes for the parent POM and neardup-core, from what this build made
    // (copied into the repository's layout: maven-install-plugin itself may be missing from a
    // fresh ~/.m2, which a verify build never needs it in).
    Path parent = repo.resolve("org/neardup/neardup-parent/" + version);
    Files.createDirectories(parent);
    Files.copy(root.resolve("pom.xml"), parent.resolve("neardup-parent-" + version + ".pom"));
    Path core = root.resolve("core/target/neardup-core-" + version);
    Path into = Files.createDirectories(repo.resolve("org/neardup/neardup-core/" + version));
    Files.copy(root.resolve("core/pom.xml"), into.resolve("neardup-core-" + version + ".pom"));
    for (String suffix : List.of(".jar", "-sources.jar", "-javadoc.jar")) {
      Files.copy(Paths.get(core + suffix), into.resolve("neardup-core-" + version + suffix));
    }
    Path installed = repo.resolve("org/neardup/neardup-core/" + version);
    for (String suffix : List.of(".jar", ".pom", "-sources.jar", "-javadoc.jar")) {
      Path file = installed.resolve("neardup-core-" + version + suffix);
      assertThat(file).isRegularFile();
      if (suffix.endsWith(".jar")) {
        try (java.util.jar.JarFile jar = new java.util.jar.JarFile(file.toFile())) {
          assertThat(jar.getEntry("META-INF/LICENSE")).as("%s LICENSE", file).isNotNull();
          assertThat(jar.getEntry("META-INF/NOTICE")).as("%s NOTICE", file).isNotNull();
        }
      }
    }
    assertThat(Release.read(installed.resolve("neardup-core-" + version + ".pom")))
        .contains("<artifactId>neardup-parent</artifactId>");
    assertThat(
            Release.read(
                repo.resolve(
                    "org/neardup/neardup-parent/"
                        + version
                        + "/neardup-parent-"
                        + version
                        + ".pom")))
        .contains("<licenses>")
        .contains("<scm")
        .contains("<developers>");

    // The example, copied out of the tree, built (and its test run) against that repository.
    Path example = work.resolve("java-library");
    copy(root.resolve("examples/java-library"), example);
    run(mvn, example, settings, repo, "package", "-Dneardup.version=" + version);
    assertThat(example.resolve("target/repost-filter-1.0.jar")).isRegularFile();
    assertThat(example.resolve("target/surefire-reports")).isDirectory();

    String classpath =
        example.resolve("target/classes")
            + ":"
            + installed.resolve("neardup-core-" + version + ".jar");
    ProcessBuilder java =
        new ProcessBuilder(
            Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp",
            classpath,
            "org.neardup.examples.RepostFilter");
    Path input = work.resolve("posts.txt");
    String news =
        "The city council approved the new budget on Tuesday after a long debate about schools,"
            + " roads and the public library, and the mayor said the plan will be reviewed in spring.";
    Files.writeString(
        input,
        news + "\nA bakery on Elm Street sells rye bread every morning.\n" + news + " (Reposted)\n",
        StandardCharsets.UTF_8);
    java.redirectInput(input.toFile());
    Release.Run ran = Release.Run.of(java, 120);
    assertThat(ran.exit()).as("%s", ran).isZero();
    assertThat(ran.out().strip()).isEqualTo("line 3 repeats line 1");
  }

  private static void run(Path mvn, Path dir, Path settings, Path repo, String... args)
      throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.addAll(
        List.of(
            mvn.toString(),
            "-B",
            "-ntp",
            "-q",
            "-s",
            settings.toString(),
            "-Dmaven.repo.local=" + repo));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
    Release.Run run = Release.Run.of(pb, 600);
    assertThat(run.exit()).as("%s in %s: %s", cmd, dir, run).isZero();
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path p : files.collect(Collectors.toList())) {
        Path rel = from.relativize(p);
        if (rel.startsWith("target")) {
          continue;
        }
        Path dest = to.resolve(rel.toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(dest);
        } else {
          Files.copy(p, dest);
        }
      }
    }
  }
}
