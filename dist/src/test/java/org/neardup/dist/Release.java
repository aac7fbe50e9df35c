// SPDX-License-Identifier: Apache-2.0
package org.neardup.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The release tarball of this build, unpacked once per test JVM into a temporary directory away
 * from the source tree, and the means to run its {@code bin/neardup} as a user would: with a PATH
 * that holds java and the shell's tools but no Maven, and no JAVA_HOME.
 */
final class Release {
  private static Release instance;

  final Path tarball;
  final Path home;
  final Path scratch;
  final Path pathDir;
  final String version;

  private Release(Path tarball, Path scratch, String version) throws IOException {
    this.tarball = tarball;
    this.scratch = scratch;
    this.version = version;
    Process tar =
        new ProcessBuilder("tar", "xzf", tarball.toString(), "-C", scratch.toString())
            .inheritIO()
            .start();
    try {
      assertThat(tar.waitFor(120, TimeUnit.SECONDS)).isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
    assertThat(tar.exitValue()).as("tar xzf %s", tarball).isZero();
    this.home = scratch.resolve("neardup-" + version);
    // A PATH with java and what bin/neardup and the tests use, and nothing else (no mvn).
    this.pathDir = Files.createDirectories(scratch.resolve("path"));
    Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
    Files.createSymbolicLink(pathDir.resolve("java"), java);
    for (String tool : List.of("bash", "dirname", "readlink", "mkdir", "mv", "rm")) {
      Path found = which(tool);
      if (found != null) {
        Files.createSymbolicLink(pathDir.resolve(tool), found.toRealPath());
      }
    }
    // python3 itself, not a wrapper such as a pyenv shim, which needs more than this PATH.
    Path python = python3();
    if (python != null) {
      Files.createSymbolicLink(pathDir.resolve("python3"), python);
    }
  }

  static synchronized Release get() throws IOException {
    if (instance == null) {
      Path tarball = Paths.get(System.getProperty("neardup.tarball", "target/none.tar.gz"));
      assertThat(tarball).as("the release; run through mvn verify, after package").exists();
      Path scratch = Files.createTempDirectory("neardup-release-");
      // The unpacked release is ~57 MB; without this every test run left one behind in /tmp.
      Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(scratch)));
      instance = new Release(tarball, scratch, System.getProperty("neardup.version"));
    }
    return instance;
  }

  /** Deletes {@code dir} and everything under it, without following symbolic links. */
  private static void deleteTree(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      System.err.println("could not delete " + dir + ": " + e);
    }
  }

  /** The source tree's root (the tests read files from it, never run from it). */
  static Path root() {
    return Paths.get(System.getProperty("neardup.root", "..")).toAbsolutePath().normalize();
  }

  private static Path python3() throws IOException {
    if (which("python3") == null) {
      return null;
    }
    Run run = Run.of(new ProcessBuilder("python3", "-c", "import sys; print(sys.executable)"), 60);
    return run.exit() == 0 ? Paths.get(run.out().strip()) : null;
  }

  static Path which(String tool) {
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
      Path p = Paths.get(dir, tool);
      if (Files.isExecutable(p)) {
        return p;
      }
    }
    return null;
  }

  /** A process builder for {@code command}, in {@code cwd}, with the release's bare environment. */
  ProcessBuilder command(Path cwd, List<String> command) {
    ProcessBuilder pb = new ProcessBuilder(command).directory(cwd.toFile());
    Map<String, String> env = pb.environment();
    env.clear();
    env.put("PATH", pathDir.toString());
    env.put("HOME", scratch.toString());
    env.put("LANG", "C.UTF-8");
    return pb;
  }

  /** Runs bin/neardup with {@code args} in {@code cwd} and waits for it (at most 5 minutes). */
  Run neardup(Path cwd, Map<String, String> env, String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(home.resolve("bin/neardup").toString());
    cmd.addAll(List.of(args));
    ProcessBuilder pb = command(cwd, cmd);
    pb.environment().putAll(env);
    return Run.of(pb, 300);
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /** A finished process: exit code, stdout and stderr, and how long it ran. */
  record Run(int exit, String out, String err, double seconds) {
    static Run of(ProcessBuilder pb, int timeoutSeconds) throws IOException {
      Path out = Files.createTempFile("neardup-out-", ".txt");
      Path err = Files.createTempFile("neardup-err-", ".txt");
      pb.redirectOutput(out.toFile()).redirectError(err.toFile());
      long t0 = System.nanoTime();
      Process p = pb.start();
      try {
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
          p.destroyForcibly();
          throw new AssertionError(pb.command() + " ran over " + timeoutSeconds + " s");
        }
      } catch (InterruptedException e) {
        p.destroyForcibly();
        Thread.currentThread().interrupt();
        throw new IOException(e);
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      try {
        return new Run(
            p.exitValue(),
            Files.readString(out, StandardCharsets.UTF_8),
            Files.readString(err, StandardCharsets.UTF_8),
            seconds);
      } finally {
        Files.deleteIfExists(out);
        Files.deleteIfExists(err);
      }
    }

    @Override
    public String toString() {
      return "exit " + exit + "\n--- stdout\n" + out + "\n--- stderr\n" + err;
    }
  }

  static String read(Path p) {
    try {
      return Files.readString(p, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
