// SPDX-License-Identifier: Apache-2.0
package org.neardup.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The rate at which {@code neardup dedup} reads and analyses a file once its JIT has settled:
 * {@code neardup dedup FILE} run PASSES times in one JVM (the given neardup jar's own {@code
 * Main.run}, in a class loader of its own), each pass's {@code read_and_analyse} phase taken from
 * its summary.json, wall seconds and the process's CPU seconds. Prints each pass, then the medians
 * of the second half of the passes: the steady rate in documents per second and the steady CPU per
 * document.
 *
 * <pre>
 * java $(neardup_java_defaults dedup) -Xmx2g -cp benchmarks.jar org.neardup.benchmarks.DedupSteadyRate NEARDUP_JAR PASSES FILE [DEDUP_OPTIONS...]
 * </pre>
 *
 * Why: a running service is past its JIT's warm-up, and its ingest rate is compared with dedup's
 * analysis of the same texts on the same cores; a dedup run that starts cold gives its rate with
 * its compilations in it. Taking the steady rate as the difference of two cold runs (a long one
 * less a short one) made it the difference of two noisy times: 36,697/s and 363,636/s for the same
 * 20,000 short texts in two sessions (docs/BENCHMARKS.md, the seventeenth session). Here every pass
 * after the first few runs the same compiled code over the same texts, so the passes agree with one
 * another and their spread says how far to trust the median.
 */
public final class DedupSteadyRate {
  private static final ObjectMapper JSON = new ObjectMapper();

  private DedupSteadyRate() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 3) {
      System.err.println(
          "usage: DedupSteadyRate NEARDUP_JAR PASSES FILE [DEDUP_OPTIONS...] (PASSES >= 2)");
      System.exit(2);
    }
    Path jar = Path.of(args[0]);
    int passes = Integer.parseInt(args[1]);
    if (passes < 2) {
      System.err.println("PASSES must be at least 2, got " + passes);
      System.exit(2);
    }
    Path out = Files.createTempDirectory("dedup-steady");
    List<String> command = new ArrayList<>(List.of("dedup", args[2], "--out", ""));
    command.addAll(Arrays.asList(args).subList(3, args.length));
    command.add("--quiet");
    double[] rates = new double[passes];
    double[] cpuPerDoc = new double[passes];
    try (URLClassLoader loader =
        new URLClassLoader(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
      Method run = loader.loadClass("org.neardup.cli.Main").getMethod("run", String[].class);
      // The jar's ServiceLoader lookups (its lexicon, its stores) go through this thread's loader.
      Thread.currentThread().setContextClassLoader(loader);
      for (int pass = 0; pass < passes; pass++) {
        Path dir = out.resolve("pass-" + pass);
        command.set(3, dir.toString());
        Object code = run.invoke(null, (Object) command.toArray(new String[0]));
        if (!Integer.valueOf(0).equals(code)) {
          throw new IllegalStateException("dedup exited with " + code + " in pass " + pass);
        }
        JsonNode summary = JSON.readTree(dir.resolve("summary.json").toFile());
        long docs = summary.path("documents").asLong() - summary.path("errors").asLong();
        double seconds = summary.path("phase_seconds").path("read_and_analyse").asDouble();
        double cpu = summary.path("phase_cpu_seconds").path("read_and_analyse").asDouble(-1);
        rates[pass] = docs / seconds;
        cpuPerDoc[pass] = cpu < 0 ? Double.NaN : cpu * 1e6 / docs;
        System.out.printf(
            Locale.ROOT,
            "pass %d: %d documents, read and analyse %.3f s (%.0f documents/s), %.1f us of CPU per"
                + " document%n",
            pass + 1,
            docs,
            seconds,
            rates[pass],
            cpuPerDoc[pass]);
        delete(dir);
      }
    } finally {
      delete(out);
    }
    int from = passes / 2;
    System.out.printf(
        Locale.ROOT,
        "steady (median of passes %d-%d): %.0f documents/s, %.1f us of CPU per document%n",
        from + 1,
        passes,
        median(Arrays.copyOfRange(rates, from, passes)),
        median(Arrays.copyOfRange(cpuPerDoc, from, passes)));
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    int n = s.length;
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }

  private static void delete(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
