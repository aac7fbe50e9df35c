// SPDX-License-Identifier: Apache-2.0
package org.neardup.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Locale;

/**
 * How long a log's fsyncs take while another file is written beside it on the same disk, as a
 * compaction writes its snapshot beside the service's log: a "log" thread appends 9 KB (a batch of
 * 100 fingerprints) and forces it, once a millisecond; a "writer" thread writes RATE MiB/s and
 * forces every CHUNK MiB. Prints the log's fsync latency distribution. Not JMH: what matters is the
 * disk's queue, not a method's speed.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar org.neardup.benchmarks.FsyncProbe DIR SECONDS CHUNK_MIB RATE_MIBPS
 * </pre>
 *
 * The writer writes a MiB at a time, so CHUNK is in whole MiB. RATE 0 measures the log alone. DIR
 * should be on the disk the service's data is on; the probe writes two files there and deletes
 * them.
 */
public final class FsyncProbe {
  private static final int RECORD = 9000;

  private FsyncProbe() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    if (args.length != 4) {
      System.err.println("usage: FsyncProbe DIR SECONDS CHUNK_MIB RATE_MIBPS");
      System.exit(2);
    }
    long seconds = (long) number(args[1], "SECONDS");
    long chunk = (long) (number(args[2], "CHUNK_MIB") * (1 << 20));
    long rate = (long) (number(args[3], "RATE_MIBPS") * (1 << 20));
    if (seconds < 1) {
      System.err.println("SECONDS must be at least 1, got " + args[1]);
      System.exit(2);
    }
    Path dir = Files.createDirectories(Path.of(args[0]));
    Path big = dir.resolve("fsync-probe-writer");
    Path log = dir.resolve("fsync-probe-log");
    Thread writer = new Thread(() -> write(big, chunk, rate), "fsync-probe-writer");
    writer.setDaemon(true);
    if (rate > 0) {
      writer.start();
    }
    long[] nanos = new long[(int) Math.min(Integer.MAX_VALUE - 8, seconds * 2000)];
    int n = 0;
    try (FileChannel ch =
        FileChannel.open(
            log,
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
      ByteBuffer record = ByteBuffer.allocateDirect(RECORD);
      long end = System.nanoTime() + seconds * 1_000_000_000L;
      while (System.nanoTime() < end && n < nanos.length) {
        record.clear();
        while (record.hasRemaining()) {
          ch.write(record);
        }
        long t = System.nanoTime();
        ch.force(false);
        nanos[n++] = System.nanoTime() - t;
        Thread.sleep(1);
      }
    } finally {
      writer.interrupt();
      writer.join();
      Files.deleteIfExists(log);
      Files.deleteIfExists(big);
    }
    long[] l = Arrays.copyOf(nanos, n);
    Arrays.sort(l);
    System.out.printf(
        Locale.ROOT,
        "%s: %d log fsyncs, p50 %.2f ms, p99 %.2f ms, p99.9 %.2f ms, max %.2f ms; over 5 ms: %d,"
            + " over 10 ms: %d%n",
        rate == 0
            ? "no writer"
            : String.format(
                Locale.ROOT,
                "writer forcing every %.2f MiB at %.0f MiB/s",
                Math.max(1, chunk / 1048576.0),
                rate / 1048576.0),
        n,
        l[n / 2] / 1e6,
        l[(int) (n * 0.99)] / 1e6,
        l[(int) (n * 0.999)] / 1e6,
        l[n - 1] / 1e6,
        Arrays.stream(l).filter(x -> x > 5_000_000).count(),
        Arrays.stream(l).filter(x -> x > 10_000_000).count());
  }

  /** A number >= 0 from the command line, or exit 2 naming the argument. */
  private static double number(String text, String name) {
    try {
      double v = Double.parseDouble(text);
      if (v >= 0 && Double.isFinite(v)) {
        return v;
      }
    } catch (NumberFormatException e) {
      // said below
    }
    System.err.println(name + " must be a number >= 0, got '" + text + "'");
    System.exit(2);
    throw new AssertionError("unreachable");
  }

  /** Writes at {@code rate} bytes/s, forcing every {@code chunk} bytes, until interrupted. */
  private static void write(Path file, long chunk, long rate) {
    try (FileChannel ch =
        FileChannel.open(
            file,
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
      ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
      long written = 0;
      long sinceForce = 0;
      long t0 = System.nanoTime();
      while (!Thread.currentThread().isInterrupted()) {
        buffer.clear();
        while (buffer.hasRemaining()) {
          ch.write(buffer);
        }
        written += buffer.capacity();
        sinceForce += buffer.capacity();
        if (sinceForce >= chunk) {
          ch.force(false);
          sinceForce = 0;
          long wait = t0 + written * 1_000_000_000L / rate - System.nanoTime();
          if (wait > 0) {
            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
          }
        }
      }
    } catch (InterruptedException | ClosedByInterruptException e) {
      // the probe is over
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
