// SPDX-License-Identifier: Apache-2.0
package org.neardup.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A real {@code neardup serve} as a separate process ({@code java -cp <test class path>
 * org.neardup.server.Main}), for tests that kill or stop it, or run several nodes on one backend:
 * on a free loopback port, with {@code --lexicon none} and the test's serve options (e.g. {@code
 * --store redis --store-option url=...}). Its standard error goes to a file; {@link #close()} kills
 * it if it still runs.
 */
public final class ServeProcess implements AutoCloseable {
  private static final Pattern LISTENING = Pattern.compile("neardup listening on (http://\\S+)");
  private static final String MAIN = "org.neardup.server.Main";

  private final Process process;
  private final Path stderr;
  private @Nullable URI uri;

  private ServeProcess(Process process, Path stderr) {
    this.process = process;
    this.stderr = stderr;
  }

  /**
   * Starts the service; returns at once (start several, then wait for each with {@link #uri}).
   *
   * @param jvmFlags flags for its JVM besides the heap and collector (e.g. {@code -ea}, HBase's on
   *     Java 17)
   * @param serveOptions the service's options (store, data directory, workers)
   */
  public static ServeProcess start(Path stderr, List<String> jvmFlags, List<String> serveOptions)
      throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx512m");
    cmd.add("-XX:+UseSerialGC");
    for (String flag : jvmFlags) {
      if (!flag.isBlank()) {
        cmd.add(flag);
      }
    }
    cmd.add("-cp");
    cmd.add(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
    cmd.add(MAIN);
    cmd.addAll(List.of("--port", "0", "--lexicon", "none"));
    cmd.addAll(serveOptions);
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.redirectError(ProcessBuilder.Redirect.appendTo(stderr.toFile()));
    pb.environment().remove("NEARDUP_TOKEN");
    return new ServeProcess(pb.start(), stderr);
  }

  /**
   * The node's address, once it printed its "listening" line (lines before it, e.g. a backend
   * client's logging, are skipped); afterwards its output is drained so it never blocks on it.
   */
  public URI uri(Duration timeout) throws IOException, InterruptedException {
    if (uri != null) {
      return uri;
    }
    BufferedReader out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    CompletableFuture<@Nullable String> line =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                for (String l = out.readLine(); l != null; l = out.readLine()) {
                  if (LISTENING.matcher(l).find()) {
                    return l;
                  }
                }
                return null;
              } catch (IOException e) {
                return null;
              }
            });
    String found;
    try {
      found = line.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      process.destroyForcibly();
      throw new IOException("the service did not listen within " + timeout + "; see " + stderr, e);
    }
    if (found == null) {
      process.waitFor(60, TimeUnit.SECONDS);
      String how =
          process.isAlive() ? "closed its output" : "exited with code " + process.exitValue();
      throw new IOException("the service " + how + " before listening; see " + stderr);
    }
    Matcher m = LISTENING.matcher(found);
    if (!m.find()) {
      throw new AssertionError("not a listening line: " + found);
    }
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
    uri = URI.create(m.group(1));
    return uri;
  }

  /** The process, to look at or signal. */
  public Process process() {
    return process;
  }

  /** SIGKILL (Process.destroyForcibly on Linux), and wait for it to be gone. */
  public void kill() throws InterruptedException {
    process.destroyForcibly().waitFor(60, TimeUnit.SECONDS);
  }

  /** SIGTERM (Process.destroy on Linux); returns the exit code. */
  public int terminate() throws InterruptedException {
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
