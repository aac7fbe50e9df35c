// SPDX-License-Identifier: Apache-2.0
package org.neardup.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Redis Cluster for tests: three master nodes ({@code redis-server --cluster-enabled yes})
 * on free loopback ports, joined by {@code redis-cli --cluster create} with no replicas, each node
 * in its own temporary directory. {@link #close()} stops them all and deletes the directories.
 * Starts in a few seconds.
 */
public final class RedisCluster implements AutoCloseable {
  private final List<RedisServer> nodes;

  private RedisCluster(List<RedisServer> nodes) {
    this.nodes = nodes;
  }

  /** Starts three masters and waits until every node reports {@code cluster_state:ok}. */
  public static RedisCluster start() throws IOException {
    List<RedisServer> nodes = new ArrayList<>();
    RedisCluster cluster = new RedisCluster(nodes);
    try {
      for (int i = 0; i < 3; i++) {
        nodes.add(
            RedisServer.start(
                true,
                "--cluster-enabled",
                "yes",
                "--cluster-config-file",
                "nodes.conf",
                "--cluster-node-timeout",
                "5000"));
      }
      List<String> cmd = new ArrayList<>(List.of(RedisServer.findCli(), "--cluster", "create"));
      for (RedisServer n : nodes) {
        cmd.add("127.0.0.1:" + n.port());
      }
      cmd.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
      Path log = nodes.get(0).dir().resolve("cluster-create.log");
      Process create =
          new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      if (!create.waitFor(60, TimeUnit.SECONDS) || create.exitValue() != 0) {
        create.destroyForcibly();
        throw new IOException("redis-cli --cluster create failed: " + Files.readString(log));
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!cluster.allOk()) {
        if (System.nanoTime() > deadline) {
          throw new IOException("the cluster did not reach cluster_state:ok within 60 s");
        }
        Thread.sleep(50);
      }
      return cluster;
    } catch (IOException | RuntimeException e) {
      cluster.close();
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      cluster.close();
      throw new IOException("interrupted while starting the cluster", e);
    }
  }

  private boolean allOk() {
    for (RedisServer n : nodes) {
      if (!clusterInfo(n.port()).contains("cluster_state:ok")) {
        return false;
      }
    }
    return true;
  }

  /** The reply to CLUSTER INFO, or "" when the node does not answer. */
  private static String clusterInfo(int port) {
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
      s.setSoTimeout(2000);
      OutputStream out = s.getOutputStream();
      out.write("CLUSTER INFO\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      byte[] buf = new byte[4096];
      StringBuilder reply = new StringBuilder();
      int n;
      while (reply.indexOf("cluster_state") < 0
          || reply.indexOf("\n", reply.indexOf("cluster_state")) < 0) {
        n = in.read(buf);
        if (n < 0) {
          break;
        }
        reply.append(new String(buf, 0, n, StandardCharsets.US_ASCII));
      }
      return reply.toString();
    } catch (IOException e) {
      return "";
    }
  }

  /** The nodes' ports. */
  public List<Integer> ports() {
    List<Integer> out = new ArrayList<>();
    for (RedisServer n : nodes) {
      out.add(n.port());
    }
    return out;
  }

  /** {@code redis://127.0.0.1:PORT} of the first node, a seed for a cluster-aware client. */
  public String url() {
    return nodes.get(0).url();
  }

  @Override
  public void close() throws IOException {
    IOException first = null;
    for (RedisServer n : nodes) {
      try {
        n.close();
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
