// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The service as a separate process ({@code java -cp <test class path> org.neardup.server.Main}),
 * so tests can kill it with SIGKILL or stop it with SIGTERM.
 */
final class ServerProcess implements AutoCloseable {
  private static final Pattern LISTENING = Pattern.compile("neardup listening on (http://\\S+)");

  final Process process;
  final URI uri;
  final String startLine;

  private ServerProcess(Process process, URI uri, String startLine) {
    this.process = process;
    this.uri = uri;
    this.startLine = startLine;
  }

  /** Starts the service on {@code data} with a free port and waits until it listens. */
  static ServerProcess start(Path data, Path stderr, String... extra) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String cp =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> cmd =
        new ArrayList<>(
            List.of(java, "-Xmx512m", "-XX:+UseSerialGC", "-ea", "-cp", cp, Main.class.getName()));
    cmd.addAll(List.of("--port", "0", "--data", data.toString(), "--lexicon", "none"));
    cmd.addAll(List.of(extra));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.redirectError(ProcessBuilder.Redirect.appendTo(stderr.toFile()));
    pb.environment().remove(ServerConfig.TOKEN_ENV);
    Process p = pb.start();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    CompletableFuture<String> line =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return out.readLine();
              } catch (IOException e) {
                return null;
              }
            });
    String first;
    try {
      first = line.get(120, TimeUnit.SECONDS);
    } catch (Exception e) {
      p.destroyForcibly();
      throw new IOException("the service did not start within 120 s; see " + stderr, e);
    }
    if (first == null) {
      throw new IOException(
          "the service exited with " + waitExit(p) + " before listening; see " + stderr);
    }
    Matcher m = LISTENING.matcher(first);
    if (!m.find()) {
      p.destroyForcibly();
      throw new IOException("unexpected first line: " + first);
    }
    // Keep draining stdout so the child never blocks on a full pipe.
    Thread drain =
        new Thread(
            () -> {
              try {
                while (out.readLine() != null) {
                  // discard
                }
              } catch (IOException e) {
                // the process died
              }
            });
    drain.setDaemon(true);
    drain.start();
    return new ServerProcess(p, URI.create(m.group(1)), first);
  }

  private static int waitExit(Process p) {
    try {
      return p.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  /** SIGKILL (Process.destroyForcibly on Linux), and wait for it to be gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(60, TimeUnit.SECONDS);
  }

  /** SIGTERM (Process.destroy on Linux); returns the exit code. */
  int terminate() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("the service did not stop within 120 s of SIGTERM");
    }
    return process.exitValue();
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      kill();
    }
  }
}
