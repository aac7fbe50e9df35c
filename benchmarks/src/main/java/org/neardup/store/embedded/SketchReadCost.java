// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.neardup.verify.SketchStore;

/**
 * What reading one candidate's sketch from the store's sketch file costs, by positioned reads
 * against memory maps, in one JVM and one thread: the same random entries (MIN to MAX bytes of
 * sketch and 6 band keys each, about a short text's) appended to two {@code SketchFile}s, one with
 * positioned reads only (window bits 0: the path before the maps) and one with the default windows;
 * then passes of random reads of entries already written out (not the write buffer's), the two
 * files alternating pass by pass (positioned first in even passes, maps first in odd ones), timed
 * by the thread's CPU time. Prints each side's median CPU ns per read over the measured passes
 * (after two warm-up passes), their range and ratio, and whether both read the same bytes
 * (checksums).
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar org.neardup.store.embedded.SketchReadCost \
 *     DIR [ENTRIES (150000)] [READS (200000)] [PASSES (10)] [MIN (550)] [MAX (800)]
 * </pre>
 *
 * <p>DIR gets the two scratch files (each ENTRIES times ~(MIN + MAX) / 2 + 48 bytes), deleted at
 * the end.
 */
public final class SketchReadCost {
  private SketchReadCost() {}

  /**
   * Runs the comparison.
   *
   * @param args DIR, then optionally ENTRIES, READS, PASSES, MIN and MAX
   * @throws IOException when DIR cannot be made
   */
  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args[0]);
    int entries = args.length > 1 ? Integer.parseInt(args[1]) : 150_000;
    int reads = args.length > 2 ? Integer.parseInt(args[2]) : 200_000;
    int passes = args.length > 3 ? Integer.parseInt(args[3]) : 10;
    int min = args.length > 4 ? Integer.parseInt(args[4]) : 550;
    int max = args.length > 5 ? Integer.parseInt(args[5]) : 800;
    int bands = 6;
    Files.createDirectories(dir);
    Path p = dir.resolve("sketch-read-cost-positioned.tmp");
    Path m = dir.resolve("sketch-read-cost-mapped.tmp");
    Files.deleteIfExists(p);
    Files.deleteIfExists(m);
    try (SketchFile positioned = new SketchFile(p, bands, entries, List.of(), 0, 0);
        SketchFile mapped =
            new SketchFile(
                m, bands, entries, List.of(), SketchFile.SMALL_BITS, SketchFile.LARGE_BITS)) {
      SplittableRandom r = new SplittableRandom(20261126);
      long[] keys = new long[bands];
      byte[] sketch = new byte[max];
      for (int i = 0; i < entries; i++) {
        int len = min + r.nextInt(max - min + 1);
        r.nextBytes(sketch);
        for (int k = 0; k < bands; k++) {
          keys[k] = r.nextLong();
        }
        positioned.add(keys, bands, sketch, 0, len);
        mapped.add(keys, bands, sketch, 0, len);
      }
      // Entries still in the write buffer are viewed in place by both: left out.
      int readable = Math.max(1, entries - SketchFile.TAIL / (min + 8 * bands));
      ThreadMXBean mx = ManagementFactory.getThreadMXBean();
      SketchStore.Slice s = new SketchStore.Slice();
      long[] checksum = new long[2];
      double[][] ns = new double[2][passes];
      int[] order = new int[reads];
      for (int pass = 0; pass < passes + 2; pass++) {
        for (int i = 0; i < reads; i++) {
          order[i] = r.nextInt(readable);
        }
        for (int q = 0; q < 2; q++) {
          int side = (pass + q) % 2;
          SketchFile f = side == 0 ? positioned : mapped;
          long sum = 0;
          long t0 = mx.getCurrentThreadCpuTime();
          for (int i = 0; i < reads; i++) {
            f.sketch(order[i], s);
            sum += s.length + (s.length == 0 ? 0 : s.array[s.offset + (i % s.length)]);
          }
          long t = mx.getCurrentThreadCpuTime() - t0;
          checksum[side] += sum;
          if (pass >= 2) {
            ns[side][pass - 2] = (double) t / reads;
          }
        }
      }
      Arrays.sort(ns[0]);
      Arrays.sort(ns[1]);
      System.out.println(
          String.format(
              Locale.ROOT,
              "sketch reads: %d entries of %d-%d bytes, %d random reads per pass, %d passes:"
                  + " positioned reads %.0f ns of CPU per read (median; %.0f-%.0f), maps %.0f ns"
                  + " (%.0f-%.0f), maps / positioned %.3f; checksums %s",
              entries,
              min,
              max,
              reads,
              passes,
              ns[0][passes / 2],
              ns[0][0],
              ns[0][passes - 1],
              ns[1][passes / 2],
              ns[1][0],
              ns[1][passes - 1],
              ns[1][passes / 2] / ns[0][passes / 2],
              checksum[0] == checksum[1] ? "equal" : "DIFFER"));
    }
  }
}
