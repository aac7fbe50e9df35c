// SPDX-License-Identifier: Apache-2.0
package org.neardup.spark;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.TaskContext;
import org.apache.spark.util.TaskCompletionListener;
import org.neardup.text.LineReader;

/**
 * The lines of one split of a file, read by core's {@link LineReader} as {@code neardup dedup}
 * reads lines.
 *
 * <p>A split {@code [start, end)} owns the lines that start inside it: unless it starts the file,
 * it first skips through the first '\n' at or after {@code start - 1}, and it reads on past {@code
 * end} to finish its last line. Every line of a file thus belongs to exactly one split. A gzipped
 * file is one split. Not thread-safe.
 */
final class SplitLines implements Closeable {
  private final InputStream in;
  private final LineReader lines;
  private final long end;
  private final long first; // the file offset the reader starts at

  SplitLines(Configuration conf, String path, long start, long end, boolean gzip, int maxBytes)
      throws IOException {
    Path p = new Path(path);
    FileSystem fs = p.getFileSystem(conf);
    FSDataInputStream raw = fs.open(p);
    if (gzip) {
      this.in = new GZIPInputStream(raw, 1 << 16);
      this.end = Long.MAX_VALUE;
      this.first = 0;
      this.lines = new LineReader(in, maxBytes);
      return;
    }
    this.in = raw;
    this.end = end;
    this.first = Math.max(0, start - 1);
    raw.seek(first);
    this.lines = new LineReader(in, maxBytes);
    if (start > 0) {
      // The rest of the line that started in the previous split (or just its '\n').
      lines.next();
    }
  }

  /**
   * Opens a split's lines for the running Spark task, closed when the task completes, even a task
   * stopped early (outside a task, the caller closes them).
   */
  static SplitLines forTask(
      Configuration conf, String path, long start, long end, boolean gzip, int maxBytes)
      throws IOException {
    SplitLines lines = new SplitLines(conf, path, start, end, gzip, maxBytes);
    TaskContext task = TaskContext.get();
    if (task != null) {
      task.addTaskCompletionListener(
          (TaskCompletionListener)
              t -> {
                try {
                  lines.close();
                } catch (IOException e) {
                  // the task is over; nothing is read from it again
                }
              });
    }
    return lines;
  }

  /** Advances to the next line of this split; false when there is none. */
  boolean next() throws IOException {
    return first + lines.position() < end && lines.next();
  }

  boolean tooLong() {
    return lines.tooLong();
  }

  long byteLength() {
    return lines.byteLength();
  }

  /** Whether the line holds only spaces, tabs and '\r' (never when too long). */
  boolean blank() {
    return lines.blank();
  }

  byte[] copy() {
    return lines.copy();
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
