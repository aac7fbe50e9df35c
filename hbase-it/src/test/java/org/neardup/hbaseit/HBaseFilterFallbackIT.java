// SPDX-License-Identifier: Apache-2.0
package org.neardup.hbaseit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.Analysis;
import org.neardup.hbasedev.DevHBase;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.Document;
import org.neardup.store.FingerprintStore;
import org.neardup.store.Outcome;
import org.neardup.store.StoreConfig;
import org.neardup.store.hbase.HBaseStoreProvider;
import org.neardup.testkit.ReadyLine;

/**
 * The region servers' distance filter's fallback, end to end: a standalone HBase ({@code neardup
 * dev hbase}) in a process of its own whose class path holds HBase's jars and the dev launcher
 * only, not the store's jar, so its region server cannot load {@code BlockDistanceFilter}. A store
 * with {@code server-filter=auto} must still answer every check, exactly as a store with {@code
 * server-filter=off} on the same HBase does (the same documents in the same order, each in tables
 * of its own), and both as a brute-force scan does; and it must have turned the filter off, which
 * shows the region server did refuse it.
 */
class HBaseFilterFallbackIT {
  @TempDir Path dir;

  @Test
  void regionServerWithoutTheStoresJar_checksFallBackToTheUnfilteredScan() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    Process hbase = startDevHBase(port);
    try {
      for (String scheme : List.of("4:1", "5:2")) {
        String tag = scheme.replace(':', '-');
        try (FingerprintStore auto = open(port, "auto-" + tag, "auto", scheme);
            FingerprintStore off = open(port, "off-" + tag, "off", scheme)) {
          assertThat(auto.metrics().get("hbase_server_filter")).isEqualTo(1);
          sameVerdicts(scheme, auto, off);
          assertThat(auto.metrics().get("hbase_server_filter"))
              .as("%s: the store with server-filter=auto turned the filter off", scheme)
              .isEqualTo(0);
          assertThat(auto.metrics().get("hbase_block_rows_read"))
              .as("%s: block rows read, auto (fallen back) and off", scheme)
              .isEqualTo(off.metrics().get("hbase_block_rows_read"));
        }
      }
    } catch (Exception | AssertionError e) {
      String text = Files.readString(dir.resolve("dev-hbase.err"));
      e.addSuppressed(
          new AssertionError(
              "dev hbase's stderr, last 8000 characters:\n"
                  + text.substring(Math.max(0, text.length() - 8000))));
      throw e;
    } finally {
      stop(hbase);
    }
  }

  /**
   * Batches of 40 and then single calls of near-copies 0 to 5 bits from 60 bases (distances around
   * k = 3 on both sides) into a collection of {@code scheme} in each store.
   */
  private static void sameVerdicts(String scheme, FingerprintStore auto, FingerprintStore off)
      throws IOException {
    String name = "s";
    CollectionSettings settings =
        CollectionSettings.defaults()
            .withLexicon(CollectionSettings.NO_LEXICON)
            .withVerify(false)
            .withMaxDistance(3);
    Collection a = auto.create(name, settings);
    Collection o = off.create(name, settings);
    SplittableRandom r = new SplittableRandom(scheme.hashCode());
    long[] bases = new long[60];
    for (int i = 0; i < bases.length; i++) {
      bases[i] = r.nextLong();
    }
    List<Long> stored = new ArrayList<>();
    int n = 400;
    for (int from = 0; from < n; from += 40) {
      List<Document> batch = new ArrayList<>();
      for (int i = from; i < from + 40; i++) {
        batch.add(nearCopy(r, bases, i));
      }
      List<Outcome> got = a.checkAndInsertAll(batch);
      List<Outcome> want = o.checkAndInsertAll(batch);
      for (int j = 0; j < batch.size(); j++) {
        same(scheme, got.get(j), want.get(j), stored);
        stored.add(batch.get(j).analysis().fingerprint());
      }
    }
    for (int i = n; i < n + 40; i++) {
      Document d = nearCopy(r, bases, i);
      same(scheme, a.checkAndInsert(d), o.checkAndInsert(d), stored);
      stored.add(d.analysis().fingerprint());
    }
    assertThat(a.stats().documents()).isEqualTo(n + 40);
    assertThat(o.stats().documents()).isEqualTo(n + 40);
  }

  private static Document nearCopy(SplittableRandom r, long[] bases, int i) {
    long fp = bases[r.nextInt(bases.length)];
    for (int b = r.nextInt(6); b > 0; b--) {
      fp ^= 1L << r.nextInt(64);
    }
    return new Document("d" + i, Analysis.ofFingerprint(fp, 100));
  }

  /** The two stores' outcomes agree, and their matches are what a brute-force scan finds. */
  private static void same(String scheme, Outcome got, Outcome want, List<Long> stored) {
    assertThat(got.status()).as("%s %s", scheme, want.id()).isEqualTo(want.status());
    assertThat(got.isNew()).as("%s %s", scheme, want.id()).isEqualTo(want.isNew());
    assertThat(got.cluster()).as("%s %s", scheme, want.id()).isEqualTo(want.cluster());
    assertThat(new HashSet<>(got.matches()))
        .as("%s %s", scheme, want.id())
        .isEqualTo(new HashSet<>(want.matches()));
    Set<String> expected = new HashSet<>();
    for (int s = 0; s < stored.size(); s++) {
      if (Long.bitCount(stored.get(s) ^ got.fingerprint()) <= 3) {
        expected.add("d" + s);
      }
    }
    Set<String> ids = new HashSet<>();
    got.matches().forEach(m -> ids.add(m.id()));
    assertThat(ids).as("%s %s against brute force", scheme, want.id()).isEqualTo(expected);
  }

  private static FingerprintStore open(int port, String prefix, String filter, String scheme)
      throws IOException {
    Map<String, String> options = new HashMap<>();
    options.put("zookeeper", "127.0.0.1:" + port);
    options.put("prefix", prefix);
    options.put("server-filter", filter);
    options.put("scheme", scheme);
    return new HBaseStoreProvider().open(new StoreConfig(options, InstantSource.system()));
  }

  /**
   * {@code neardup dev hbase} as the launcher runs it without the store's jar: hbase-dev's jar (or
   * classes) and the HBase server's jars it lists in {@code
   * hbase-dev/target/hbase-dev-classpath.txt} (written by hbase-dev's build), nothing else of
   * neardup's and nothing of this test's class path.
   */
  private Process startDevHBase(int port) throws Exception {
    Path dev = Path.of(DevHBase.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Path target = dev.getParent(); // target/ for target/classes and for the jar in it
    Path listed = target.resolve("hbase-dev-classpath.txt");
    assertThat(listed).as("hbase-dev's class path file (built with hbase-dev)").isRegularFile();
    List<String> kept = new ArrayList<>();
    kept.add(dev.toString());
    for (String entry : Files.readString(listed).trim().split(File.pathSeparator)) {
      if (!entry.isEmpty()) {
        assertThat(holdsNeardupClasses(Path.of(entry)))
            .as("neardup classes in %s", entry)
            .isFalse();
        kept.add(entry);
      }
    }
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx1g"); // the launcher's heap for dev hbase
    for (String flag : System.getProperty("hbase.flags", "").trim().split("\\s+")) {
      if (!flag.isBlank()) {
        cmd.add(flag);
      }
    }
    cmd.add("-cp");
    cmd.add(String.join(File.pathSeparator, kept));
    cmd.add(DevHBase.class.getName());
    cmd.addAll(List.of("--port", Integer.toString(port), "--data", dir.resolve("data").toString()));
    Path err = dir.resolve("dev-hbase.err");
    Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
    boolean ok = ReadyLine.await(p, "ready", Duration.ofMinutes(5));
    if (!ok) {
      p.destroyForcibly();
      String text = Files.readString(err);
      throw new AssertionError(
          "dev hbase did not print ready; stderr:\n"
              + text.substring(Math.max(0, text.length() - 4000)));
    }
    return p;
  }

  /** Whether a class path entry (a directory or a jar) holds a class under org/neardup/. */
  private static boolean holdsNeardupClasses(Path entry) throws IOException {
    if (Files.isDirectory(entry)) {
      return Files.isDirectory(entry.resolve("org").resolve("neardup"));
    }
    if (!Files.isRegularFile(entry)) {
      return false;
    }
    try (JarFile jar = new JarFile(entry.toFile())) {
      return jar.stream().anyMatch(e -> e.getName().startsWith("org/neardup/"));
    }
  }

  private static void stop(Process p) throws InterruptedException {
    p.destroy(); // SIGTERM: the dev HBase stops cleanly and deletes nothing (--data is ours)
    if (!p.waitFor(90, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      p.waitFor(30, TimeUnit.SECONDS);
    }
  }
}
