// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Whether the JVM's heap is backed by transparent huge pages, and if not, why and how to fix it.
 *
 * <p>An index search at 10M documents is a handful of random reads into gigabytes of arrays; with 4
 * KB pages most of them also miss the TLB. Huge pages (2 MB) took batches of check-and-insert from
 * 184-193k to 205-221k documents/s and their p99 from 12-13 ms to 6.3 ms on the same machine
 * (docs/BENCHMARKS.md). The launcher asks for them ({@code -XX:+UseTransparentHugePages}), but the
 * kernel decides: ZGC maps its heap as shared memory, which gets huge pages only when {@code
 * /sys/kernel/mm/transparent_hugepage/shmem_enabled} allows it (Debian's default is {@code never});
 * the other collectors use anonymous memory, governed by {@code .../enabled}.
 *
 * <p>Immutable.
 */
final class HugePages {
  static final Path SYSFS = Path.of("/sys/kernel/mm/transparent_hugepage");

  private static final Set<String> SHMEM_ON_REQUEST = Set.of("advise", "always", "within_size");
  private static final Set<String> SHMEM_ALWAYS = Set.of("always", "within_size", "force");
  private static final Set<String> ANON_ON_REQUEST = Set.of("madvise", "always");

  private final boolean on;
  private final String explanation;

  private HugePages(boolean on, String explanation) {
    this.on = on;
    this.explanation = explanation;
  }

  /**
   * This JVM's state, from its flags and the kernel's settings under {@link #SYSFS}; worked out
   * once (the startup warning and the metric both ask), since the heap's pages are chosen at start.
   */
  static HugePages ofThisJvm() {
    return ThisJvm.STATE;
  }

  private static final class ThisJvm {
    static final HugePages STATE = detect();
  }

  private static HugePages detect() {
    boolean zgc = false;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      zgc |= gc.getName().startsWith("ZGC");
    }
    List<String> args = ManagementFactory.getRuntimeMXBean().getInputArguments();
    String file = zgc ? "shmem_enabled" : "enabled";
    String setting;
    try {
      setting = Files.readString(SYSFS.resolve(file), StandardCharsets.US_ASCII);
    } catch (IOException | SecurityException e) {
      setting = null; // not Linux, or a kernel without THP
    }
    return decide(
        zgc,
        flag(args, "UseTransparentHugePages"),
        flag(args, "UseLargePages"),
        SYSFS.resolve(file).toString(),
        setting);
  }

  /** A boolean -XX flag as the JVM's command line sets it (the last one wins; off if absent). */
  static boolean flag(List<String> args, String name) {
    boolean on = false;
    for (String a : args) {
      if (a.equals("-XX:+" + name)) {
        on = true;
      } else if (a.equals("-XX:-" + name)) {
        on = false;
      }
    }
    return on;
  }

  /**
   * The decision, from the JVM's flags and the kernel's setting file (its text, in which the
   * selected value is in brackets, e.g. {@code "always within_size [advise] never deny force"};
   * null when there is no such file).
   */
  static HugePages decide(
      boolean zgc,
      boolean transparentFlag,
      boolean largePagesFlag,
      String settingPath,
      @Nullable String settingText) {
    if (largePagesFlag && !transparentFlag) {
      return new HugePages(true, "explicit large pages (-XX:+UseLargePages)");
    }
    if (settingText == null) {
      return new HugePages(false, "this system has no " + settingPath);
    }
    String selected = selected(settingText);
    boolean always = zgc ? SHMEM_ALWAYS.contains(selected) : "always".equals(selected);
    boolean onRequest = (zgc ? SHMEM_ON_REQUEST : ANON_ON_REQUEST).contains(selected);
    if (always || (transparentFlag && onRequest)) {
      return new HugePages(true, "transparent huge pages (" + settingPath + ": " + selected + ")");
    }
    if (!onRequest) {
      return new HugePages(
          false,
          String.format(
              Locale.ROOT,
              "%s is '%s'; to turn them on: echo %s | sudo tee %s",
              settingPath,
              selected,
              zgc ? "advise" : "madvise",
              settingPath));
    }
    return new HugePages(
        false, "the JVM was started without -XX:+UseTransparentHugePages (the launcher adds it)");
  }

  /** The bracketed word of a sysfs choice list, or the whole trimmed text if none is bracketed. */
  static String selected(String settingText) {
    int open = settingText.indexOf('[');
    int close = settingText.indexOf(']', open + 1);
    return open >= 0 && close > open ? settingText.substring(open + 1, close) : settingText.trim();
  }

  boolean on() {
    return on;
  }

  /** What backs the heap when {@link #on()}, otherwise why not and the fix. */
  String explanation() {
    return explanation;
  }
}
