// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import org.jspecify.annotations.Nullable;

/**
 * Writes zeros ahead of the log's end, on its own thread, and forces them, so that the log's
 * records land in blocks the file already has.
 *
 * <p>Why: an fdatasync after an append that grew the file must also commit the new size and block
 * allocation, an ext4 journal transaction; an fdatasync after a write into allocated blocks does
 * not. Measured on this project's 2-vCPU VM with the service under load: 60 µs of kernel CPU per
 * fsync instead of 166, and a median fsync of 176 µs instead of 313 (see docs/BENCHMARKS.md).
 * PostgreSQL zero-fills its WAL segments for the same reason.
 *
 * <p>Zeros are never written over a record: a fill claims a range at or beyond the log's end, and a
 * log write that would reach into a claimed range waits until the fill is done (in practice never:
 * fills run {@code lowWater} bytes ahead). A reader sees the zeros after the last record as the end
 * of the segment ({@link SegmentReader}), and {@link Log} cuts them off when it closes a segment.
 * Filling is an optimization: if it fails, it stops with a warning and the log appends as before.
 *
 * <p>Thread-safe; the monitor guards every field.
 */
final class Preallocator implements Runnable {
  private static final System.Logger LOG = System.getLogger(Preallocator.class.getName());

  private final long chunk;
  private final long lowWater;
  private final ByteBuffer zeros;

  private @Nullable FileChannel target;

  /** Zeros are in the file up to here (or the file ends here). */
  private long filled;

  /** The log has written up to here. */
  private long dataEnd;

  /** The start of the range being filled, while {@link #filling}. */
  private long claimStart;

  private boolean filling;
  private boolean stopped;
  private boolean failed;

  /**
   * @param chunk bytes to fill at a time
   * @param lowWater start a fill when fewer zero bytes than this are left ahead of the log
   */
  Preallocator(long chunk, long lowWater) {
    this.chunk = chunk;
    this.lowWater = lowWater;
    this.zeros = ByteBuffer.allocateDirect((int) Math.min(chunk, 1 << 20));
  }

  /** Starts filling {@code channel}, whose records end at {@code end} (and so does the file). */
  synchronized void attach(FileChannel channel, long end) {
    target = channel;
    filled = end;
    dataEnd = end;
    notifyAll();
  }

  /** Stops filling the current channel, after a fill in progress. */
  synchronized void detach() {
    awaitIdle();
    target = null;
  }

  /** The log is about to write up to {@code to}: waits if a fill claims part of that. */
  synchronized void beforeWrite(long to) {
    if (filling && to > claimStart) {
      awaitIdle();
    }
    dataEnd = to;
    if (!filling && target != null && filled - to < lowWater) {
      notifyAll();
    }
  }

  /** Stops the thread (after a fill in progress). */
  synchronized void stop() {
    stopped = true;
    notifyAll();
  }

  private void awaitIdle() {
    boolean interrupted = false;
    while (filling) {
      try {
        wait();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void run() {
    while (true) {
      FileChannel ch;
      long from;
      synchronized (this) {
        while (!stopped && (failed || target == null || filled - dataEnd >= lowWater)) {
          try {
            wait();
          } catch (InterruptedException e) {
            return;
          }
        }
        if (stopped) {
          return;
        }
        ch = target;
        from = Math.max(filled, dataEnd);
        claimStart = from;
        filling = true;
      }
      boolean ok = false;
      try {
        fill(ch, from);
        ok = true;
      } catch (IOException e) {
        LOG.log(
            Level.WARNING,
            "writing zeros ahead of the log failed; the log goes on appending without them",
            e);
      } finally {
        synchronized (this) {
          filling = false;
          if (!ok) {
            failed = true;
          } else if (target == ch) {
            filled = from + chunk;
          }
          notifyAll();
        }
      }
    }
  }

  /**
   * Writes the zeros a buffer (1 MiB) at a time and forces each, as a paced snapshot forces every
   * {@link SnapshotFormat#PACE_CHUNK}: the log's own fsyncs queue behind a force. For a snapshot
   * written beside the log, 8 MiB forces held fsyncs up to 155 ms and 1 MiB forces none over 6 ms;
   * for these zeros, at the log's own rate, the two sizes measured alike (docs/BENCHMARKS.md).
   */
  private void fill(FileChannel ch, long from) throws IOException {
    for (long at = from; at < from + chunk; ) {
      zeros.clear();
      zeros.limit((int) Math.min(zeros.capacity(), from + chunk - at));
      while (zeros.hasRemaining()) {
        at += ch.write(zeros, at);
      }
      ch.force(false);
    }
  }
}
