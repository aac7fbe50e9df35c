// SPDX-License-Identifier: Apache-2.0
package org.neardup.dist;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A {@code bin/neardup serve} process of the release on a free loopback port, with a 768 MB heap
 * (the launcher's other serve defaults kept). {@link #close} stops it with SIGTERM, as systemd
 * does.
 */
final class Service implements AutoCloseable {
  final Process process;
  final int port;
  final String url;

  /** The "neardup listening on ..." line. */
  final String listening;

  /** Seconds from the start of bin/neardup to the listening line. */
  final double secondsToReady;

  private final Path stderr;

  private Service(Process process, int port, String listening, double seconds, Path stderr) {
    this.process = process;
    this.port = port;
    this.url = "http://127.0.0.1:" + port;
    this.listening = listening;
    this.secondsToReady = seconds;
    this.stderr = stderr;
  }

  static Service start(Release release, Path data, Map<String, String> env, String... options)
      throws IOException {
    int port = Release.freePort();
    List<String> cmd = new ArrayList<>();
    cmd.add(release.home.resolve("bin/neardup").toString());
    cmd.addAll(List.of("serve", "--data", data.toString(), "--port", Integer.toString(port)));
    cmd.addAll(List.of(options));
    ProcessBuilder pb = release.command(data.getParent(), cmd);
    pb.environment().put("NEARDUP_JAVA_OPTS", "-Xmx768m");
    pb.environment().putAll(env);
    Path stderr = Files.createTempFile("neardup-serve-", ".err");
    pb.redirectError(stderr.toFile());
    long t0 = System.nanoTime();
    Process p = pb.start();
    CompletableFuture<String> line =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                BufferedReader r =
                    new BufferedReader(
                        new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                for (String l = r.readLine(); l != null; l = r.readLine()) {
                  if (l.startsWith("neardup listening on")) {
                    return l;
                  }
                }
                return null;
              } catch (IOException e) {
                return null;
              }
            });
    String listening;
    try {
      listening = line.get(120, TimeUnit.SECONDS);
    } catch (TimeoutException | java.util.concurrent.ExecutionException e) {
      listening = null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      listening = null;
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    if (listening == null) {
      p.destroyForcibly();
      throw new AssertionError("serve did not start:\n" + Release.read(stderr));
    }
    return new Service(p, port, listening, seconds, stderr);
  }

  String stderr() {
    return Release.read(stderr);
  }

  /** SIGTERM, then waits for the exit (at most 2 minutes); returns the exit code. */
  int stop() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("serve did not stop within 120 s of SIGTERM:\n" + stderr());
    }
    return process.exitValue();
  }

  @Override
  public void close() throws IOException {
    if (process.isAlive()) {
      process.destroyForcibly();
    }
    Files.deleteIfExists(stderr);
  }
}
