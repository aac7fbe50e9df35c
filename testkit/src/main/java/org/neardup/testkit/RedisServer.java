// SPDX-License-Identifier: Apache-2.0
package org.neardup.testkit;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.opentest4j.TestAbortedException;

/**
 * A real {@code redis-server} for tests: started on a free loopback port in a temporary directory,
 * stopped (and the directory deleted) by {@link #close()}. It can be killed with SIGKILL and
 * started again on the same port and directory, to test faults.
 *
 * <p>When {@code redis-server} is not on the PATH, {@link #start} fails the test, naming the
 * package to install, so CI cannot pass without exercising Redis. On a developer machine, setting
 * the environment variable {@code NEARDUP_SKIP_REDIS=1} turns that failure into a skip with the
 * same message.
 */
public final class RedisServer implements AutoCloseable {
  private static final String MISSING =
      "redis-server is not on the PATH: install it (Debian: apt-get install redis-server"
          + " redis-tools), or set NEARDUP_SKIP_REDIS=1 to skip the Redis tests on a developer"
          + " machine";

  private final String binary;
  private final Path dir;
  private final List<String> extra;
  private final int port;
  private @Nullable Process process;

  private RedisServer(String binary, Path dir, int port, List<String> extra) {
    this.binary = binary;
    this.dir = dir;
    this.port = port;
    this.extra = extra;
  }

  /**
   * Starts a server with no persistence, plus {@code args} (e.g. {@code "--appendonly", "yes"}).
   */
  public static RedisServer start(String... args) throws IOException {
    return start(false, args);
  }

  /**
   * Starts a server; {@code clusterBus} picks a port whose cluster bus port (the port + 10000) is
   * free too, for a node of a {@link RedisCluster}.
   */
  static RedisServer start(boolean clusterBus, String... args) throws IOException {
    String binary = find();
    Path dir = Files.createTempDirectory("neardup-redis");
    IOException last = null;
    for (int attempt = 0; attempt < 5; attempt++) {
      int port = clusterBus ? freeClusterPort() : freePort();
      RedisServer s = new RedisServer(binary, dir, port, List.of(args));
      try {
        s.launch();
        return s;
      } catch (IOException e) {
        last = e;
      }
    }
    throw last;
  }

  private static String find() {
    String path = System.getenv("PATH");
    if (path != null) {
      for (String d : path.split(File.pathSeparator)) {
        Path p = Path.of(d, "redis-server");
        if (Files.isExecutable(p)) {
          return p.toString();
        }
      }
    }
    if ("1".equals(System.getenv("NEARDUP_SKIP_REDIS"))) {
      throw new TestAbortedException(MISSING);
    }
    throw new IllegalStateException(MISSING);
  }

  /** A free port below 55,536 whose port + 10,000 is free as well. */
  private static int freeClusterPort() throws IOException {
    for (int i = 0; i < 100; i++) {
      int port = freePort();
      if (port + 10_000 > 65_535) {
        port = 20_000 + Math.floorMod(port * 31, 30_000);
      }
      if (isFree(port) && isFree(port + 10_000)) {
        return port;
      }
    }
    throw new IOException("found no free port p with p + 10000 free on 127.0.0.1");
  }

  private static boolean isFree(int port) {
    try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  static String findCli() {
    Path server = Path.of(find());
    Path cli = server.resolveSibling("redis-cli");
    if (!Files.isExecutable(cli)) {
      throw new IllegalStateException(
          "redis-cli is not beside "
              + server
              + ": install it (Debian: apt-get install redis-tools)");
    }
    return cli.toString();
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private void launch() throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(binary);
    cmd.addAll(
        List.of(
            "--port",
            String.valueOf(port),
            "--bind",
            "127.0.0.1",
            "--dir",
            dir.toString(),
            "--save",
            "",
            "--appendonly",
            "no",
            "--daemonize",
            "no",
            "--protected-mode",
            "no"));
    cmd.addAll(extra);
    process =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("redis.log").toFile())
            .start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IOException(
            "redis-server exited at start: " + Files.readString(dir.resolve("redis.log")));
      }
      if (ping()) {
        return;
      }
      sleep(20);
    }
    process.destroyForcibly();
    throw new IOException("redis-server did not answer PING within 30 s on port " + port);
  }

  /** Whether the server answers PING (without authentication: any reply means it is up). */
  private boolean ping() {
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
      s.setSoTimeout(2000);
      OutputStream out = s.getOutputStream();
      out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      int c = in.read();
      return c == '+' || c == '-';
    } catch (IOException e) {
      return false;
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  public int port() {
    return port;
  }

  /** {@code redis://127.0.0.1:PORT}. */
  public String url() {
    return "redis://127.0.0.1:" + port;
  }

  /** The server's directory (its log, and its append-only file when enabled). */
  public Path dir() {
    return dir;
  }

  /** Kills the server with SIGKILL: no shutdown, no final save. */
  public void kill() throws InterruptedException {
    Process p = process;
    if (p != null) {
      p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
  }

  /** Starts the server again on the same port and directory. */
  public void restart() throws IOException {
    launch();
  }

  @Override
  public void close() throws IOException {
    Process p = process;
    if (p != null) {
      p.destroy();
      try {
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
          p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(f);
      }
    }
  }
}
