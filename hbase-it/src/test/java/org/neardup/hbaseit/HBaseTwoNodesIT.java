// SPDX-License-Identifier: Apache-2.0
package org.neardup.hbaseit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.hbase.testing.TestingHBaseCluster;
import org.apache.hadoop.hbase.testing.TestingHBaseClusterOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.client.Doc;
import org.neardup.client.NeardupClient;
import org.neardup.client.Result;
import org.neardup.testkit.Texts;

/**
 * Exactly one survivor across nodes on HBase: two real {@code neardup serve} processes on one HBase
 * (a mini-cluster in this JVM), 64 client threads sending groups of 8 near-copies spread over both
 * nodes at once. Each group has exactly one new document and every copy names it as its cluster,
 * whichever node answered it. CI runs 250 groups (2,000 took longer than the CI's budget on the
 * shared 2-core machine); {@code -Dneardup.groups=2000} runs the size.
 */
class HBaseTwoNodesIT {
  private static final Pattern LISTENING = Pattern.compile("neardup listening on (http://\\S+)");

  @TempDir Path dir;

  /** A service node on the hbase store, as a separate process. */
  private static Process node(int zkPort, Path stderr) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(List.of("-Xmx512m", "-XX:+UseSerialGC"));
    cmd.addAll(Arrays.asList(System.getProperty("hbase.flags", "").trim().split("\\s+")));
    cmd.add("-cp");
    cmd.add(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
    cmd.add("org.neardup.server.Main");
    cmd.addAll(
        List.of(
            "--port",
            "0",
            "--lexicon",
            "none",
            // A worker waits for HBase: more workers than cores keep both nodes busy.
            "--workers",
            "16",
            "--store",
            "hbase",
            "--store-option",
            "zookeeper=127.0.0.1:" + zkPort,
            "--store-option",
            "prefix=two-nodes"));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.redirectError(ProcessBuilder.Redirect.appendTo(stderr.toFile()));
    pb.environment().remove("NEARDUP_TOKEN");
    return pb.start();
  }

  /** Waits for the node's "listening" line and returns its address; keeps draining its output. */
  private static URI listening(Process p, Path stderr) throws Exception {
    BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    // HBase's client logs to standard output too: skip its lines.
    String found =
        CompletableFuture.supplyAsync(
                () -> {
                  try {
                    for (String line = out.readLine(); line != null; line = out.readLine()) {
                      if (LISTENING.matcher(line).find()) {
                        return line;
                      }
                    }
                    return null;
                  } catch (IOException e) {
                    return null;
                  }
                })
            .get(240, TimeUnit.SECONDS);
    assertThat(found).as("the listening line of a node; see %s", stderr).isNotNull();
    Matcher m = LISTENING.matcher(found);
    assertThat(m.find()).isTrue();
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
    return URI.create(m.group(1));
  }

  @Test
  void twoNodes_concurrentNearCopies_exactlyOneNewPerGroup() throws Exception {
    int groups = Integer.getInteger("neardup.groups", 250);
    int copies = 8;
    int threads = 64;
    long seed = Long.getLong("neardup.seed", 20261124L);
    SplittableRandom r = new SplittableRandom(seed);
    List<Doc> docs = new ArrayList<>(groups * copies);
    for (int g = 0; g < groups; g++) {
      // 80 words: an exact copy has Jaccard 1, two different one-word edits about 0.86 > 0.8.
      String base = Texts.text(r, 80);
      for (int i = 0; i < copies; i++) {
        docs.add(Doc.text(g + "/" + i, i % 2 == 0 ? base : Texts.edit(r, base)));
      }
    }
    Collections.shuffle(docs, new Random(seed));
    ConcurrentHashMap<String, Result> results = new ConcurrentHashMap<>();
    ConcurrentHashMap<String, Integer> answeredBy = new ConcurrentHashMap<>();
    Path err1 = dir.resolve("node1.err");
    Path err2 = dir.resolve("node2.err");
    TestingHBaseCluster cluster =
        TestingHBaseCluster.create(
            TestingHBaseClusterOption.builder()
                .numMasters(1)
                .numRegionServers(1)
                .numDataNodes(1)
                .build());
    cluster.start();
    try {
      int zkPort = cluster.getConf().getInt("hbase.zookeeper.property.clientPort", -1);
      // Both at once: either may create the tables and the default collection.
      Process p1 = node(zkPort, err1);
      Process p2 = node(zkPort, err2);
      try {
        URI u1 = listening(p1, err1);
        URI u2 = listening(p2, err2);
        NeardupClient[] nodes = {
          NeardupClient.builder(u1).build(), NeardupClient.builder(u2).build()
        };
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        AtomicInteger next = new AtomicInteger();
        List<Future<?>> fs = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int c = 0; c < threads; c++) {
          fs.add(
              pool.submit(
                  () -> {
                    start.await();
                    for (int i = next.getAndIncrement();
                        i < docs.size();
                        i = next.getAndIncrement()) {
                      Doc d = docs.get(i);
                      // Copies of a group are spread over both nodes.
                      int n = i % 2;
                      results.put(d.id(), nodes[n].insert("default", d));
                      answeredBy.put(d.id(), n);
                    }
                    return null;
                  }));
        }
        start.countDown();
        for (Future<?> f : fs) {
          f.get(20, TimeUnit.MINUTES);
        }
        pool.shutdown();
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.out.printf(
            java.util.Locale.ROOT,
            "two nodes on hbase: %d requests from %d threads in %.1f s (%.0f req/s), seed %d%n",
            docs.size(),
            threads,
            seconds,
            docs.size() / seconds,
            seed);
        for (NeardupClient node : nodes) {
          assertThat(node.collection("default").orElseThrow().documents())
              .isEqualTo((long) groups * copies);
        }
        int spread = 0;
        for (int g = 0; g < groups; g++) {
          String winner = null;
          boolean[] nodesSeen = new boolean[2];
          for (int i = 0; i < copies; i++) {
            Result res = results.get(g + "/" + i);
            nodesSeen[answeredBy.get(g + "/" + i)] = true;
            assertThat(res.stored()).isTrue();
            if (res.isNew()) {
              assertThat(winner).as("group %s has two new documents (seed %s)", g, seed).isNull();
              winner = res.id();
            }
          }
          assertThat(winner).as("group %s has no new document (seed %s)", g, seed).isNotNull();
          spread += nodesSeen[0] && nodesSeen[1] ? 1 : 0;
          for (int i = 0; i < copies; i++) {
            assertThat(results.get(g + "/" + i).cluster())
                .as("cluster of %s/%s", g, i)
                .isEqualTo(winner);
          }
        }
        // Nearly every group reached both nodes.
        assertThat(spread).isGreaterThan(groups * 9 / 10);
        for (NeardupClient node : nodes) {
          node.close();
        }
      } finally {
        p1.destroyForcibly().waitFor(60, TimeUnit.SECONDS);
        p2.destroyForcibly().waitFor(60, TimeUnit.SECONDS);
      }
    } finally {
      cluster.stop();
    }
  }
}
