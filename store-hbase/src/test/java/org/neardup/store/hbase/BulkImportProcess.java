// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.neardup.store.CollectionDump;
import org.neardup.store.CollectionSettings;
import org.neardup.store.CollectionTransfer;
import org.neardup.store.StoreConfig;
import org.neardup.store.StoredRecord;

/**
 * An import of a dump into the HBase store, timed: in the calling JVM ({@link #run}) or in a JVM of
 * its own ({@link #fork}, this class's {@link #main}), so that the importer's heap and threads are
 * not the mini-cluster's. For {@link HBaseBulkLoadBench}.
 */
final class BulkImportProcess {
  /**
   * What an import took: records loaded, seconds, the hfiles import's phases in seconds, and the
   * CPU seconds of the whole JVM meanwhile (every thread: in a JVM of its own, the importer's CPU).
   */
  record Result(
      long loaded, double seconds, double add, double sortWrite, double load, double cpu) {
    String line() {
      return String.format(
          Locale.ROOT,
          "RESULT %d %.6f %.6f %.6f %.6f %.6f",
          loaded,
          seconds,
          add,
          sortWrite,
          load,
          cpu);
    }

    static Result parse(String line) {
      String[] f = line.split(" ");
      return new Result(
          Long.parseLong(f[1]),
          Double.parseDouble(f[2]),
          Double.parseDouble(f[3]),
          Double.parseDouble(f[4]),
          Double.parseDouble(f[5]),
          Double.parseDouble(f[6]));
    }
  }

  /** Whether this JVM is an import's own ({@link #main}). */
  private static boolean forked;

  private BulkImportProcess() {}

  /** The store's options for an import in {@code mode} ("hfiles" or "puts") under prefix. */
  static Map<String, String> options(String prefix, String mode) {
    Map<String, String> options = new HashMap<>();
    options.put("table-prefix", prefix);
    options.put("import", mode);
    return options;
  }

  /** Imports the first {@code count} records of the dump as collection "fp", timed. */
  static Result run(HBaseStore store, Path dump, CollectionSettings settings, int count)
      throws IOException {
    long cpu0 = processCpuNanos();
    long t0 = System.nanoTime();
    // In a JVM of its own, the importer's threads second by second go to its log.
    Timeline timeline = forked ? Timeline.start() : null;
    long loaded;
    double add = 0;
    double sortWrite = 0;
    double load = 0;
    try (InputStream in = new BufferedInputStream(Files.newInputStream(dump), 1 << 16);
        CollectionDump.Reader reader = new CollectionDump.Reader(in, dump.toString());
        CollectionTransfer.Importer importer =
            CollectionTransfer.of(store).importer("fp", settings, reader.header().analyzerId())) {
      if (timeline != null) {
        System.out.printf(
            Locale.ROOT, "TIMELINE the importer open at %.1f s%n", (System.nanoTime() - t0) / 1e9);
      }
      int added = 0;
      for (StoredRecord rec = reader.next(); rec != null && added < count; rec = reader.next()) {
        importer.add(rec);
        added++;
      }
      if (timeline != null) {
        System.out.printf(
            Locale.ROOT, "TIMELINE the dump read at %.1f s%n", (System.nanoTime() - t0) / 1e9);
      }
      loaded = importer.finish();
      if (importer instanceof HFileImporter h) {
        add = h.addNanos / 1e9;
        sortWrite = h.sortWriteNanos / 1e9;
        load = h.loadNanos / 1e9;
      }
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    if (timeline != null) {
      timeline.stop();
    }
    return new Result(loaded, seconds, add, sortWrite, load, (processCpuNanos() - cpu0) / 1e9);
  }

  /**
   * CPU nanoseconds of this process so far, all threads (user + system time from /proc/self/stat,
   * in ticks of 10 ms), or -1 where that file is missing.
   */
  static long processCpuNanos() {
    try {
      String stat = Files.readString(Path.of("/proc/self/stat"), StandardCharsets.US_ASCII);
      // After "pid (command) ": state is field 3; utime and stime are fields 14 and 15.
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
      return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000_000L;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /**
   * Runs the import in a new JVM with {@code heap} (this JVM's flags, then {@code extraFlags},
   * class path and a recording of its own when this one records), connected to the cluster by
   * {@code conf} (written to a file for it); its output goes to {@code log}.
   */
  static Result fork(
      Configuration conf,
      String prefix,
      String mode,
      Path dump,
      CollectionSettings settings,
      int count,
      String heap,
      List<String> extraFlags,
      Path log)
      throws IOException, InterruptedException {
    Path confFile = log.resolveSibling(log.getFileName() + ".conf.xml");
    try (OutputStream out = Files.newOutputStream(confFile)) {
      conf.writeXml(out);
    }
    Path settingsFile = log.resolveSibling(log.getFileName() + ".settings");
    Files.writeString(settingsFile, settings.toText(), StandardCharsets.UTF_8);
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (a.startsWith("-Xmx")) {
        continue;
      }
      if (a.startsWith("-XX:StartFlightRecording=")) {
        a = a.replaceFirst("\\.jfr", "-importer.jfr");
      }
      cmd.add(a);
    }
    cmd.add("-Xmx" + heap);
    // After the inherited flags: java keeps the last of each.
    cmd.addAll(extraFlags);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(BulkImportProcess.class.getName());
    cmd.add(confFile.toString());
    cmd.add(prefix);
    cmd.add(mode);
    cmd.add(dump.toString());
    cmd.add(settingsFile.toString());
    cmd.add(Integer.toString(count));
    Process p =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      if (!p.waitFor(90, TimeUnit.MINUTES)) {
        throw new IOException("the import process did not end within 90 minutes; log " + log);
      }
    } finally {
      p.destroyForcibly();
    }
    String result = null;
    for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
      if (line.startsWith("RESULT ")) {
        result = line;
      }
    }
    if (p.exitValue() != 0 || result == null) {
      throw new IOException("the import process failed (exit " + p.exitValue() + "); log " + log);
    }
    return Result.parse(result);
  }

  /** Arguments: configuration file, table prefix, mode, dump, settings file, count. */
  public static void main(String[] args) throws Exception {
    forked = true;
    Configuration conf = new Configuration(false);
    conf.addResource(new org.apache.hadoop.fs.Path(args[0]));
    CollectionSettings settings =
        CollectionSettings.parse(Files.readString(Path.of(args[4]), StandardCharsets.UTF_8));
    Result r;
    try (HBaseStore store =
        (HBaseStore)
            HBaseStoreProvider.open(
                conf,
                new StoreConfig(options(args[1], args[2]), InstantSource.system()),
                "mini-cluster")) {
      r = run(store, Path.of(args[3]), settings, Integer.parseInt(args[5]));
    }
    System.out.println(r.line());
    System.out.flush();
    // HBase's client threads may outlive the store's close: the import is done.
    System.exit(0);
  }
}
