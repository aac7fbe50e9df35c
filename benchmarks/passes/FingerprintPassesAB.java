// SPDX-License-Identifier: Apache-2.0

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * Two builds in one JVM, each in a class loader of its own, fingerprinting the same texts in
 * alternating passes (A, B, B, A, A, B, ...): the thread CPU time of every pass. On a shared
 * machine, runs of two builds in separate processes differ by the load of the moment more than by
 * the builds; passes that alternate every few hundred milliseconds in one process share it.
 * Compiled and run by benchmarks/fingerprint-passes-ab.sh; not part of the product.
 *
 * <p>Usage: {@code java FingerprintPassesAB TEXTS A.jar B.jar PASSES}, where TEXTS holds the
 * texts separated by U+0000 and PASSES is the passes per build. Prints each pass's milliseconds,
 * then the median of each build's passes after the first quarter (the warm-up) and B / A, and
 * each build's sum of all fingerprints (equal when the builds give the same fingerprints).
 */
public final class FingerprintPassesAB {
  public static void main(String[] args) throws Throwable {
    String[] texts = Files.readString(Path.of(args[0]), StandardCharsets.UTF_8).split("\0");
    ClassLoader[] loaders = {loader(Path.of(args[1])), loader(Path.of(args[2]))};
    MethodHandle[] fp = {fingerprinter(loaders[0]), fingerprinter(loaders[1])};
    int passes = Integer.parseInt(args[3]);
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    double[][] ms = new double[2][passes];
    long[] sums = new long[2];
    for (int p = 0; p < passes; p++) {
      for (int k = 0; k < 2; k++) {
        int b = (p % 2 == 0) == (k == 0) ? 0 : 1; // A B, then B A: neither always goes first
        // Lexicons are found by ServiceLoader through the context class loader.
        Thread.currentThread().setContextClassLoader(loaders[b]);
        long t0 = threads.getCurrentThreadCpuTime();
        long sum = 0;
        for (String t : texts) {
          sum += (long) fp[b].invokeExact((CharSequence) t);
        }
        ms[b][p] = (threads.getCurrentThreadCpuTime() - t0) / 1e6;
        sums[b] += sum;
      }
      System.out.printf(Locale.ROOT, "pass %d: A %.0f ms, B %.0f ms%n", p, ms[0][p], ms[1][p]);
    }
    int warm = passes / 4;
    double a = median(Arrays.copyOfRange(ms[0], warm, passes));
    double b = median(Arrays.copyOfRange(ms[1], warm, passes));
    System.out.printf(
        Locale.ROOT,
        "median of passes %d-%d: A %.1f ms, B %.1f ms, B/A %.3f; sums A %016x, B %016x%s%n",
        warm,
        passes - 1,
        a,
        b,
        b / a,
        sums[0],
        sums[1],
        sums[0] == sums[1] ? " (same)" : " (DIFFERENT)");
  }

  private static ClassLoader loader(Path jar) throws Exception {
    return new URLClassLoader(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
  }

  /** The default jieba fingerprinter's fingerprint(CharSequence) of the loader's build. */
  private static MethodHandle fingerprinter(ClassLoader loader) throws Throwable {
    Thread.currentThread().setContextClassLoader(loader);
    Class<?> lexicon = Class.forName("org.neardup.text.Lexicon", true, loader);
    Class<?> settings = Class.forName("org.neardup.fingerprint.FingerprintSettings", true, loader);
    Class<?> fingerprinter = Class.forName("org.neardup.fingerprint.Fingerprinter", true, loader);
    Object lex = lexicon.getMethod("load", String.class).invoke(null, "jieba");
    Object builder = settings.getMethod("builder", lexicon).invoke(null, lex);
    Object built = builder.getClass().getMethod("build").invoke(builder);
    Object fp = fingerprinter.getMethod("create", settings).invoke(null, built);
    return MethodHandles.publicLookup()
        .findVirtual(fingerprinter, "fingerprint", MethodType.methodType(long.class, CharSequence.class))
        .bindTo(fp)
        .asType(MethodType.methodType(long.class, CharSequence.class));
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    int n = s.length;
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }
}
