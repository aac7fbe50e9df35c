// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.apache.hadoop.hbase.testing.TestingHBaseCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.neardup.Analysis;
import org.neardup.index.BlockScheme;
import org.neardup.store.Collection;
import org.neardup.store.CollectionDump;
import org.neardup.store.CollectionSettings;
import org.neardup.store.Outcome;
import org.neardup.store.StoreConfig;
import org.neardup.store.StoredRecord;

/**
 * Import of precomputed fingerprints into HBase from a dump file, as {@code neardup store import}
 * runs it: {@code import=hfiles} for N records, and {@code import=puts} for P records, side by side
 * in one run on one mini-cluster in this JVM. Runs only when asked, through {@code
 * benchmarks/hbase-bulk-load.sh} or {@code mvn -B -ntp -pl store-hbase -am verify
 * -Dsurefire.failIfNoSpecifiedTests=false -Dtest=HBaseBulkLoadBench -Dneardup.hbase.bulk=N
 * [-Dneardup.hbase.puts=P] [-Dneardup.hbase.scheme=4:1,5:2] [-Dneardup.hbase.compact=true]
 * [-Dneardup.hbase.fork=HEAP] [-Dneardup.hbase.rounds=R]}; writes
 * store-hbase/target/hbase-bulk-load.txt. With {@code compact}, each import's tables are then
 * flushed and major-compacted (the index encoded FAST_DIFF as its family says) and their bytes on
 * disk per fingerprint reported. With {@code fork}, each import runs in a JVM of its own with that
 * heap ({@link BulkImportProcess}), the mini-cluster alone in the test JVM.
 *
 * <p>Records: fingerprint-only collection (k = 3, 4:1 unless {@code neardup.hbase.scheme} says
 * otherwise, 2-day retention, so every cell has a TTL and every document an expiry row), random
 * 16-hex-digit ids, one in four within 3 bits of an earlier fingerprint and in its cluster. The
 * dump is written first (not timed); the time runs from opening the dump to {@code finish()}
 * returning, the collection registered. Afterwards 1,000 stored fingerprints, each flipped by 1
 * bit, must each find their document. The report is rewritten after each step, so that a run
 * stopped midway keeps what it measured.
 */
@EnabledIfSystemProperty(named = "neardup.hbase.bulk", matches = "[0-9]+")
class HBaseBulkLoadBench {
  private final List<String> report = new ArrayList<>();

  @Test
  void importFingerprints_hfilesVersusPuts() throws Exception {
    int n = Integer.parseInt(System.getProperty("neardup.hbase.bulk"));
    int p = Integer.parseInt(System.getProperty("neardup.hbase.puts", "0"));
    Files.deleteIfExists(Path.of("target", "hbase-bulk-load.txt"));
    TestingHBaseCluster cluster = MiniHBase.start();
    report.add(
        String.format(
            Locale.ROOT,
            "machine: %d cores, load %s",
            Runtime.getRuntime().availableProcessors(),
            Files.readString(Path.of("/proc/loadavg")).trim()));
    Path dump = Path.of("target", "bulk-bench.ndump");
    try {
      CollectionSettings base =
          CollectionSettings.defaults()
              .withLexicon(CollectionSettings.NO_LEXICON)
              .withVerify(false)
              .withRetention(Duration.ofDays(2));
      List<CollectionSettings> schemes = new ArrayList<>();
      for (String scheme : System.getProperty("neardup.hbase.scheme", "4:1").split(",")) {
        schemes.add(base.withAnalysis(base.analysis().withScheme(BlockScheme.parse(scheme))));
      }
      CollectionSettings settings = schemes.get(0);
      report.add("schemes: " + System.getProperty("neardup.hbase.scheme", "4:1"));
      long t0 = System.nanoTime();
      long[] sample = write(dump, settings, Math.max(n, p));
      report.add(
          String.format(
              Locale.ROOT,
              "dump of %,d records: %,d bytes, written in %.1f s",
              Math.max(n, p),
              Files.size(dump),
              (System.nanoTime() - t0) / 1e9));
      save();
      // The dump's header names the first scheme; an import takes the scheme it is given.
      for (CollectionSettings s : schemes) {
        if (p > 0) {
          run(cluster, dump, s, "puts", p, sample, "", forkFlags(1));
        }
        int rounds = Integer.parseInt(System.getProperty("neardup.hbase.rounds", "1"));
        for (int i = 1; i <= rounds && n > 0; i++) {
          run(cluster, dump, s, "hfiles", n, sample, rounds > 1 ? "r" + i : "", forkFlags(i));
        }
      }
    } finally {
      Files.deleteIfExists(dump);
      cluster.stop();
      save();
      report.forEach(System.err::println);
    }
  }

  /**
   * The extra flags of round {@code round}'s importer JVM: {@code neardup.hbase.fork.flags} holds
   * flag sets separated by '|', taken in turn by the rounds (flags within a set separated by
   * blanks), so that one run compares them on one mini-cluster.
   */
  private static List<String> forkFlags(int round) {
    String all = System.getProperty("neardup.hbase.fork.flags", "").trim();
    if (all.isEmpty()) {
      return List.of();
    }
    String[] sets = all.split("\\|", -1);
    String set = sets[(round - 1) % sets.length].trim();
    return set.isEmpty() ? List.of() : List.of(set.split("\\s+"));
  }

  private void save() throws IOException {
    Files.write(Path.of("target", "hbase-bulk-load.txt"), report, StandardCharsets.UTF_8);
  }

  /** Writes the records; returns the first fingerprints (up to 1,000) to query afterwards. */
  private static long[] write(Path file, CollectionSettings settings, int count)
      throws IOException {
    SplittableRandom r = new SplittableRandom(2026);
    long now = System.currentTimeMillis();
    long exp = now + Duration.ofDays(2).toMillis();
    long[] fps = new long[count];
    long[] roots = new long[count];
    try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
        CollectionDump.Writer w =
            new CollectionDump.Writer(
                out,
                new CollectionDump.Header(
                    "hbase",
                    "fp",
                    settings.toText(),
                    settings.deduplicator().analyzer().id(),
                    now,
                    count),
                false)) {
      for (int i = 0; i < count; i++) {
        long fp = r.nextLong();
        long root = i;
        if (i % 4 == 3) {
          int j = r.nextInt(i);
          fp = fps[j];
          for (int b = 1 + r.nextInt(3); b > 0; b--) {
            fp ^= 1L << r.nextInt(64);
          }
          root = roots[j];
        }
        fps[i] = fp;
        roots[i] = root;
        String id = String.format(Locale.ROOT, "%016x", r.nextLong());
        w.write(
            new StoredRecord(
                i, id, fp, now, exp, root, root == i ? id : "?", new long[0], new byte[0]));
      }
      w.finish();
    }
    return java.util.Arrays.copyOf(fps, Math.min(count, 200));
  }

  private void run(
      TestingHBaseCluster cluster,
      Path dump,
      CollectionSettings settings,
      String mode,
      int count,
      long[] sample,
      String suffix,
      List<String> flags)
      throws Exception {
    BlockScheme scheme = settings.analysis().scheme();
    String prefix = "bulk_" + mode + scheme.blocks() + scheme.required() + suffix;
    String forkHeap = System.getProperty("neardup.hbase.fork", "");
    BulkImportProcess.Result r = null;
    if (!forkHeap.isEmpty()) {
      // The importer in a JVM of its own: its heap and threads are not the mini-cluster's.
      r =
          BulkImportProcess.fork(
              cluster.getConf(),
              prefix,
              mode,
              dump,
              settings,
              count,
              forkHeap,
              flags,
              Path.of("target", "bulk-import-" + prefix + ".log").toAbsolutePath());
    }
    try (HBaseStore store =
        (HBaseStore)
            HBaseStoreProvider.open(
                cluster.getConf(),
                new StoreConfig(BulkImportProcess.options(prefix, mode), InstantSource.system()),
                "mini-cluster")) {
      if (r == null) {
        r = BulkImportProcess.run(store, dump, settings, count);
      }
      String phases =
          mode.equals("hfiles")
              ? String.format(
                  Locale.ROOT,
                  " (reading the dump and writing document rows %.1f s, sorting and writing the"
                      + " other rows %.1f s, bulk load %.1f s)",
                  r.add(),
                  r.sortWrite(),
                  r.load())
              : "";
      long loaded = r.loaded();
      double s = r.seconds();
      report.add(
          String.format(
              Locale.ROOT,
              "import=%s: %,d fingerprints in %.1f s = %,.0f fingerprints/s%s%s",
              mode,
              loaded,
              s,
              loaded / s,
              phases,
              forkHeap.isEmpty()
                  ? ""
                  : String.format(
                      Locale.ROOT,
                      ", importer in a JVM of its own (-Xmx%s%s): its CPU %.1f s = %.2f µs per"
                          + " fingerprint",
                      forkHeap,
                      flags.isEmpty() ? "" : " " + String.join(" ", flags),
                      r.cpu(),
                      r.cpu() * 1e6 / loaded)));
      save();
      Collection c = store.collection("fp");
      assertThat(c.stats().documents()).isEqualTo(count);
      int found = 0;
      int queried = Math.min(sample.length, count);
      for (int i = 0; i < queried; i++) {
        Outcome o = c.check(Analysis.ofFingerprint(sample[i] ^ (1L << (i & 63)), 100));
        if (!o.isNew()) {
          found++;
        }
      }
      report.add(
          String.format(
              Locale.ROOT,
              "import=%s: %d of %d stored fingerprints flipped by 1 bit found a match",
              mode,
              found,
              queried));
      assertThat(found).isEqualTo(queried);
      if (Boolean.getBoolean("neardup.hbase.compact")) {
        long t1 = System.nanoTime();
        long index = MiniHBase.onDisk(cluster, store.index);
        long docs = MiniHBase.onDisk(cluster, store.docs);
        report.add(
            String.format(
                Locale.ROOT,
                "import=%s, %s, after flush + major compaction (%.1f s): index %,d bytes = %.1f"
                    + " bytes per fingerprint, documents %,d bytes = %.1f per fingerprint",
                mode,
                settings.analysis().scheme(),
                (System.nanoTime() - t1) / 1e9,
                index,
                index / (double) count,
                docs,
                docs / (double) count));
        save();
      }
    }
  }
}
